/**
 * An engine that cannot be reached (the rate limiter's, the store's): the
 * request is answered 503 SERVICE_UNAVAILABLE in the envelope with Retry-After,
 * nothing crashes, service resumes by itself; SVC_RATE_LIMIT_FAIL_OPEN lets
 * requests through uncounted instead, with one warning per outage.
 */
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { LimiterUnavailableError, MemoryRateLimiter, type RateState } from '../../src/keys/limiter.js';
import { StoreUnavailableError, type Store } from '../../src/store/port.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { mcpHttpCall } from '../mcp-clients.js';

/** What an engine's error may carry and the logs must not. */
const SECRET = 'redis://svc:hunter2@10.0.0.9:6379';

/** The in-process limiter, with a switch that makes it fail like an unreachable server. */
class SwitchableLimiter extends MemoryRateLimiter {
  down = false;
  // hitAll answers through hitAllNow, and admission calls hitAllNow itself: the switch is here, thrown as it fails.
  override hitAllNow(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): RateState[] {
    if (this.down) throw new LimiterUnavailableError(`connection to ${SECRET} refused`);
    return super.hitAllNow(entries, now);
  }
  override hit(key: string, limit: number, now: Date): Promise<RateState> {
    if (this.down) return Promise.reject(new LimiterUnavailableError(`connection to ${SECRET} refused`));
    return super.hit(key, limit, now);
  }
}

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});

async function serverWith(failOpen: boolean): Promise<{ server: TestServer; limiter: SwitchableLimiter }> {
  const server = await startTestServer({ log: createLogger('warn', sink), config: { rateLimitFailOpen: failOpen } });
  const limiter = new SwitchableLimiter();
  server.services.limiter = limiter;
  return { server, limiter };
}

const listKeys = (server: TestServer) =>
  server.app.inject({ url: '/api/v1/api-keys', headers: { authorization: `Bearer ${server.adminKey}` } });

describe('the rate limiter cannot be reached (fail closed, the default)', () => {
  let server: TestServer;
  let limiter: SwitchableLimiter;
  beforeAll(async () => {
    ({ server, limiter } = await serverWith(false));
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    limiter.down = false;
  });

  it('answers 503 SERVICE_UNAVAILABLE in the envelope with Retry-After, over REST and MCP, and recovers by itself', async () => {
    expect(loadConfig({}, {}).rateLimitFailOpen).toBe(false);
    limiter.down = true;
    const res = await listKeys(server);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/rate limiter cannot be reached/) },
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain('hunter2');

    // A request without a key is counted against its address: refused the same way.
    const anonymous = await server.app.inject({ url: '/api/v1/api-keys' });
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json().error.code).toBe('SERVICE_UNAVAILABLE');

    const mcp = await mcpHttpCall(server.url, server.adminKey, 'list_api_keys', {});
    expect(mcp.status).toBe(503);
    expect(mcp.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });

    limiter.down = false;
    const back = await listKeys(server);
    expect(back.statusCode).toBe(200);
    expect(back.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('the rate limiter cannot be reached, SVC_RATE_LIMIT_FAIL_OPEN=1', () => {
  let server: TestServer;
  let limiter: SwitchableLimiter;
  beforeAll(async () => {
    ({ server, limiter } = await serverWith(true));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets requests through uncounted, warns once per outage without the engine message, and counts again afterwards', async () => {
    expect(loadConfig({}, { SVC_RATE_LIMIT_FAIL_OPEN: '1' }).rateLimitFailOpen).toBe(true);
    expect(() => loadConfig({}, { SVC_RATE_LIMIT_FAIL_OPEN: 'yes please' })).toThrow(
      /SVC_RATE_LIMIT_FAIL_OPEN must be 1 or 0/,
    );
    lines.length = 0;
    const outageWarnings = () => lines.filter((l) => l.includes('letting requests through uncounted')).length;

    const counted = Number((await listKeys(server)).headers['x-ratelimit-remaining']);
    limiter.down = true;
    for (let i = 0; i < 3; i++) expect((await listKeys(server)).statusCode).toBe(200);
    expect(outageWarnings()).toBe(1);
    limiter.down = false;
    const after = await listKeys(server);
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(counted - 1); // the three were not counted
    expect(lines.some((l) => l.includes('answers again'))).toBe(true);
    limiter.down = true;
    expect((await listKeys(server)).statusCode).toBe(200);
    expect(outageWarnings()).toBe(2); // a new outage, a new warning
    limiter.down = false;
    expect(lines.join('')).not.toContain('hunter2');
  });
});

describe('the store cannot be reached', () => {
  let server: TestServer;
  beforeAll(async () => {
    ({ server } = await serverWith(false));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE, whether the key check or the tool meets it, and writes nothing', async () => {
    const store = server.services.store as Store & Record<string, unknown>;
    const unreachable = () =>
      Promise.reject(new StoreUnavailableError(`connection to postgres://svc:${SECRET}@db terminated`));
    const keysBefore = (await listKeys(server)).json().data.length;

    // The tool's transaction fails (admission, which only reads, works).
    const transact = store.transact;
    store.transact = unreachable;
    lines.length = 0;
    try {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
        payload: { name: 'during the outage', tier: 'public', scopes: ['contracts:read'] },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.json().error.message).toMatch(/database cannot be reached/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      store.transact = transact;
    }
    expect(lines.join('')).not.toContain('hunter2');

    // The key check fails.
    const findBy = store.findBy;
    store.findBy = unreachable;
    try {
      const res = await listKeys(server);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      store.findBy = findBy;
    }

    const back = await listKeys(server);
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toHaveLength(keysBefore);
  });
});
