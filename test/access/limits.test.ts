import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { RATE_LIMITS, RATE_WINDOW_MS } from '../../src/keys/limits.js';
import { TEST_TOOLS } from '../fixtures/tools.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { mcpHttpCall } from '../mcp-clients.js';

const clock = new FakeClock(Date.UTC(2026, 10, 21, 12, 3, 0));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ tools: TEST_TOOLS, clock });
});
afterAll(async () => {
  await server?.close();
});

const windowEnd = () => new Date(clock.ms - (clock.ms % RATE_WINDOW_MS) + RATE_WINDOW_MS).toISOString();

async function get(url: string, key?: string, remoteAddress = '127.0.0.1') {
  return server.app.inject({ url, remoteAddress, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

describe('the in-process limiter', () => {
  it('counts fixed windows, all or nothing across buckets', async () => {
    const lim = new MemoryRateLimiter(1000);
    const t = new Date(5000);
    expect(await lim.hit('a', 2, t)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await lim.hit('a', 2, t)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await lim.hit('a', 2, t)).toMatchObject({ allowed: false, remaining: 0, resetAt: new Date(6000) });
    expect(await lim.hit('a', 2, new Date(6000))).toMatchObject({ allowed: true, remaining: 1 });
    // b is full, so neither a nor b is counted.
    await lim.hit('b', 1, new Date(6000));
    expect(
      (
        await lim.hitAll(
          [
            { key: 'a', limit: 2 },
            { key: 'b', limit: 1 },
          ],
          new Date(6000),
        )
      ).map((s) => s.allowed),
    ).toEqual([false, false]);
    expect((await lim.peek('a', 2, new Date(6000))).remaining).toBe(1);
  });
});

describe('rate limits per key', () => {
  it('a public key gets 100 requests per window, REST and MCP alike, then 429', async () => {
    const key = await server.key({ tier: 'public', scopes: ['contracts'] });
    // Raw JSON-RPC calls: an SDK client's initialize and notifications would count too.
    const mcp = () => mcpHttpCall(server.url, key, 'list_templates', {});
    for (let i = 0; i < 50; i++) {
      const res = await get('/api/v1/contracts/templates', key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(99 - 2 * i));
      expect(res.headers['x-ratelimit-reset']).toBe(windowEnd());
      expect((await mcp()).ok).toBe(true);
    }
    const res = await get('/api/v1/contracts/templates', key);
    expect(res.statusCode).toBe(429);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['retry-after'])).toBe(Math.ceil((Date.parse(windowEnd()) - clock.ms) / 1000));
    const err = res.json().error;
    expect(err).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter: windowEnd() });
    expect(err.message).toMatch(/public tier/);
    expect(err.message).toMatch(/all requests/);
    expect(err.message).toMatch(/100 requests per 15 minutes/);
    expect(await mcp()).toMatchObject({ ok: false, status: 429, body: { error: { code: 'RATE_LIMIT_EXCEEDED' } } });
    // The next window starts afresh.
    clock.advance(RATE_WINDOW_MS);
    expect((await get('/api/v1/contracts/templates', key)).statusCode).toBe(200);
  });

  it('contract generation has its own, smaller bucket with its own message', async () => {
    const key = await server.key({ tier: 'public', scopes: ['contracts'] });
    const post = () =>
      server.app.inject({ method: 'POST', url: '/api/v1/test/generate', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < RATE_LIMITS.public.generation; i++) {
      const ok = await post();
      expect(ok.statusCode).toBe(200);
      // The headers describe the bucket closest to refusing: generation (10), not all requests (100).
      expect(ok.headers['x-ratelimit-limit']).toBe(String(RATE_LIMITS.public.generation));
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.public.generation - 1 - i));
    }
    const res = await post();
    expect(res.statusCode).toBe(429);
    // The refusal carries the limit of the bucket that refused it.
    expect(res.headers['x-ratelimit-limit']).toBe(String(RATE_LIMITS.public.generation));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.json().error.message).toMatch(/public tier limit for contract generation is 10 requests/);
    // The refused call was not counted in the all-requests bucket either.
    const other = await get('/api/v1/contracts/templates', key);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(100 - 10 - 1));
  });

  it('carries the headers on errors and unknown routes too', async () => {
    const key = await server.key({ tier: 'partner', scopes: ['chat'] });
    for (const res of [await get('/api/v1/contracts/templates', key), await get('/api/v1/nowhere', key)]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
      expect(res.headers['x-ratelimit-reset']).toBe(windowEnd());
    }
  });

  it('exactly the limit succeeds when twice the limit arrives at once', async () => {
    const key = await server.key({ tier: 'public', scopes: ['contracts'] });
    const results = await Promise.all(Array.from({ length: 200 }, () => get('/api/v1/contracts/templates', key)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(100);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(100);
  });
});

describe('requests without a valid key are limited per address', () => {
  it('guesses from one address hit 429, other addresses and valid keys are unaffected', async () => {
    clock.advance(RATE_WINDOW_MS);
    const wrong = 'svc_pk_' + 'A'.repeat(43);
    for (let i = 0; i < 100; i++)
      expect((await get('/api/v1/contracts/templates', wrong, '203.0.113.9')).statusCode).toBe(401);
    const blocked = await get('/api/v1/contracts/templates', wrong, '203.0.113.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toMatch(/unauthenticated/);
    expect((await get('/api/v1/contracts/templates', undefined, '203.0.113.9')).statusCode).toBe(429);
    expect((await get('/api/v1/contracts/templates', wrong, '203.0.113.10')).statusCode).toBe(401);
    expect((await get('/api/v1/contracts/templates', server.adminKey, '203.0.113.9')).statusCode).toBe(200);
  });

  it('an IPv6 client counts by its /64 network: rotating addresses inside it adds no requests', async () => {
    clock.advance(RATE_WINDOW_MS);
    const wrong = 'svc_pk_' + 'B'.repeat(43);
    // One host is usually given a whole /64: every request from a new address inside it.
    const inside = (i: number) => `2001:db8:77:1:${(i + 1).toString(16)}::${(i + 7).toString(16)}`;
    for (let i = 0; i < 100; i++)
      expect((await get('/api/v1/contracts/templates', wrong, inside(i))).statusCode).toBe(401);
    const blocked = await get('/api/v1/contracts/templates', wrong, inside(100));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toMatch(/unauthenticated/);
    // Another /64 is another client.
    expect((await get('/api/v1/contracts/templates', wrong, '2001:db8:77:2::1')).statusCode).toBe(401);
  });
});
