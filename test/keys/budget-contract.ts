/**
 * One rate-limit budget per account, through the whole service (REST and MCP over HTTP), for every limiter engine:
 *
 *   describeAccountBudget('in process', async () => ({}));
 *   describeAccountBudget('Redis', async () => ({ redisUrl, redisPrefix: `svc-budget:${random}:` }));
 *
 * `config` gives the server's configuration: the limiter it selects (with a key prefix of its own for a shared
 * engine). Every test makes accounts of its own, so tests never share a counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config.js';
import { RATE_LIMITS, RATE_WINDOW_MS } from '../../src/keys/limits.js';
import { TEST_TOOLS } from '../fixtures/tools.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { mcpHttpCall } from '../mcp-clients.js';
import { registerUser, sessionHeaders } from '../support/session.js';

export function describeAccountBudget(name: string, config: () => Promise<Partial<Config>>): void {
  describe(`one rate-limit budget per account: ${name}`, () => {
    // Half a minute into a window, so no test crosses into the next one.
    const clock = new FakeClock(Date.UTC(2026, 10, 21, 12, 0, 30));
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ tools: TEST_TOOLS, clock, config: await config() });
      expect(server.services.limiter.constructor.name).toBe(
        name.includes('Redis') ? 'RedisRateLimiter' : 'MemoryRateLimiter',
      );
    });
    afterAll(async () => {
      await server?.close();
    });

    const windowEnd = () => new Date(clock.ms - (clock.ms % RATE_WINDOW_MS) + RATE_WINDOW_MS).toISOString();
    const get = (url: string, key: string) => server.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    const templates = (key: string) => get('/api/v1/contracts/templates', key);
    const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-remaining']);
    const mcp = (key: string) => mcpHttpCall(server.url, key, 'list_templates', {});

    it('two keys of one account share one budget, REST and MCP alike; another account is not affected', async () => {
      const owner = await server.account({ tier: 'public' });
      const [a, b] = [
        await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner }),
        await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner }),
      ];
      const limit = RATE_LIMITS.public.all;

      for (let i = 0; i < 3; i++) {
        const res = await templates(a);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
        expect(remaining(res)).toBe(limit - 1 - i);
      }
      // The second key's first request continues from the first key's count.
      const first = await templates(b);
      expect(remaining(first)).toBe(limit - 4);
      expect(first.headers['x-ratelimit-reset']).toBe(windowEnd());
      // MCP counts in the same budget, whichever key calls.
      const viaMcp = await mcp(b);
      expect(viaMcp.ok).toBe(true);
      expect(Number(viaMcp.headers.get('x-ratelimit-remaining'))).toBe(limit - 5);
      expect(remaining(await templates(a))).toBe(limit - 6);

      // Spend the rest, alternating keys: the account is limited after `limit` requests in total.
      for (let used = 6; used < limit; used++) expect((await templates(used % 2 ? a : b)).statusCode).toBe(200);
      for (const key of [a, b]) {
        const refused = await templates(key);
        expect(refused.statusCode).toBe(429);
        expect(remaining(refused)).toBe(0);
        expect(refused.json().error.message).toMatch(
          /public tier limit for all requests is 100 requests per 15 minutes, shared by all the keys and sessions of the account/,
        );
        expect(await mcp(key)).toMatchObject({
          ok: false,
          status: 429,
          body: { error: { code: 'RATE_LIMIT_EXCEEDED' } },
        });
      }
      // A new key of the same account adds no budget.
      const c = await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner });
      expect((await templates(c)).statusCode).toBe(429);

      // Another account of the same tier still has its whole budget.
      const other = await server.key({ tier: 'public', scopes: ['contracts'] });
      const fresh = await templates(other);
      expect(fresh.statusCode).toBe(200);
      expect(remaining(fresh)).toBe(limit - 1);
      expect((await mcp(other)).ok).toBe(true);

      // The next window starts afresh for the whole account.
      clock.advance(RATE_WINDOW_MS);
      expect(remaining(await templates(b))).toBe(limit - 1);
    });

    it("the generation bucket is the account's too", async () => {
      const owner = await server.account({ tier: 'public' });
      const keys = [
        await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner }),
        await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner }),
      ];
      const generate = (key: string) =>
        server.app.inject({
          method: 'POST',
          url: '/api/v1/test/generate',
          headers: { authorization: `Bearer ${key}` },
        });
      for (let i = 0; i < RATE_LIMITS.public.generation; i++)
        expect((await generate(keys[i % 2]!)).statusCode).toBe(200);
      for (const key of keys) {
        const refused = await generate(key);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.message).toMatch(/public tier limit for contract generation is 10 requests/);
      }
      // Refused calls counted nothing: 10 generations in the all-requests budget, plus this request.
      expect(remaining(await templates(keys[0]!))).toBe(RATE_LIMITS.public.all - 10 - 1);
    });

    it('a key with its own lower limit is refused at it while its requests still count in the account budget', async () => {
      const owner = await server.account({ tier: 'partner' });
      const main = await server.key({ tier: 'partner', scopes: ['contracts'], ownerId: owner });
      const accountLimit = RATE_LIMITS.partner.all;
      const made = await server.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: { authorization: `Bearer ${main}` },
        payload: { name: 'limited', scopes: ['contracts'], rateLimit: { all: 3 } },
      });
      expect(made.statusCode).toBe(201);
      expect(made.json().data.rateLimit).toEqual({ all: 3 });
      const low = made.json().data.key as string;

      // The headers show the counter that applies: the key's own, closer to its limit than the account's.
      for (let i = 0; i < 2; i++) {
        const res = await templates(low);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(remaining(res)).toBe(2 - i);
      }
      const viaMcp = await mcp(low);
      expect(viaMcp.ok).toBe(true);
      expect(viaMcp.headers.get('x-ratelimit-remaining')).toBe('0');
      const refused = await templates(low);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.json().error.message).toMatch(/API key's own limit for all requests is 3 requests per 15 minutes/);
      expect(await mcp(low)).toMatchObject({
        ok: false,
        status: 429,
        body: { error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/API key's own limit/) } },
      });

      // The account counted the creation and the limited key's three requests, not its refused ones.
      const mainRes = await templates(main);
      expect(mainRes.statusCode).toBe(200);
      expect(mainRes.headers['x-ratelimit-limit']).toBe(String(accountLimit));
      expect(remaining(mainRes)).toBe(accountLimit - 1 - 3 - 1);

      // Raising it (PATCH) gives the key two more; null removes it and the account budget is the key's limit again.
      const patch = (body: Record<string, unknown>, key = main) =>
        server.app.inject({
          method: 'PATCH',
          url: `/api/v1/api-keys/${made.json().data.id}`,
          headers: { authorization: `Bearer ${key}` },
          payload: body,
        });
      expect((await patch({ rateLimit: { all: 5 } })).json().data.rateLimit).toEqual({ all: 5 });
      expect(remaining(await templates(low))).toBe(1);
      expect(remaining(await templates(low))).toBe(0);
      expect((await templates(low)).statusCode).toBe(429);
      expect((await patch({ rateLimit: null })).json().data.rateLimit).toBeNull();
      const free = await templates(low);
      expect(free.statusCode).toBe(200);
      expect(free.headers['x-ratelimit-limit']).toBe(String(accountLimit));
      expect(remaining(free)).toBe(accountLimit - 1 - 3 - 1 - 1 - 2 - 1 - 1);
    });

    it('a limited key cannot make or free a key with a larger share; limits above the tier are refused', async () => {
      const owner = await server.account({ tier: 'partner' });
      const main = await server.key({ tier: 'partner', scopes: ['contracts'], ownerId: owner });
      const post = (key: string, body: Record<string, unknown>) =>
        server.app.inject({
          method: 'POST',
          url: '/api/v1/api-keys',
          headers: { authorization: `Bearer ${key}` },
          payload: { name: 'k', scopes: ['contracts'], ...body },
        });
      const tooHigh = await post(main, { rateLimit: { all: RATE_LIMITS.partner.all + 1 } });
      expect(tooHigh.statusCode).toBe(400);
      expect(tooHigh.json().error.details).toEqual([
        { field: 'rateLimit.all', reason: expect.stringMatching(/at most 1000/) },
      ]);
      expect((await post(main, { rateLimit: { all: 0 } })).statusCode).toBe(400);
      expect((await post(main, { rateLimit: { all: 1.5 } })).statusCode).toBe(400);
      expect((await post(main, { rateLimit: { minute: 5 } })).statusCode).toBe(400);

      const lowMade = (await post(main, { rateLimit: { all: 50, chat: 2 } })).json().data as {
        key: string;
        id: string;
      };
      const low = lowMade.key;
      // Omitted: inherited from the limited caller; higher: refused; the caller's buckets cannot be left out.
      const child = await post(low, { tier: 'public' });
      expect(child.statusCode).toBe(201);
      expect(child.json().data.rateLimit).toEqual({ all: 50, chat: 2 });
      expect((await post(low, { rateLimit: { all: 10 } })).json().data.rateLimit).toEqual({ all: 10, chat: 2 });
      const wider = await post(low, { rateLimit: { all: 60 } });
      expect(wider.statusCode).toBe(400);
      expect(wider.json().error.details).toEqual([
        { field: 'rateLimit.all', reason: "must be at most 50, the calling key's own limit" },
      ]);
      // Nor can it lift its own limits.
      const lift = await server.app.inject({
        method: 'PATCH',
        url: `/api/v1/api-keys/${lowMade.id}`,
        headers: { authorization: `Bearer ${low}` },
        payload: { rateLimit: null },
      });
      expect(lift.statusCode).toBe(400);
      expect(lift.json().error.details.map((d: { field: string }) => d.field)).toEqual([
        'rateLimit.all',
        'rateLimit.chat',
      ]);
    });

    it('a public key of a partner account is held to the public figures within the account budget', async () => {
      const owner = await server.account({ tier: 'partner' });
      const pub = await server.key({ tier: 'public', scopes: ['contracts'], ownerId: owner });
      const partner = await server.key({ tier: 'partner', scopes: ['contracts'], ownerId: owner });
      for (let i = 0; i < RATE_LIMITS.public.all; i++) expect((await templates(pub)).statusCode).toBe(200);
      expect((await templates(pub)).statusCode).toBe(429);
      const res = await templates(partner);
      expect(res.statusCode).toBe(200);
      expect(remaining(res)).toBe(RATE_LIMITS.partner.all - RATE_LIMITS.public.all - 1);
    });

    it("a user's sessions count in their account's budget, with the account's keys", async () => {
      const user = await registerUser(server.app);
      const limit = RATE_LIMITS.public.all;
      const viaSession = () => server.app.inject({ url: '/api/v1/api-keys', headers: sessionHeaders(user) });
      const listed = await viaSession();
      expect(listed.statusCode).toBe(200);
      expect(remaining(listed)).toBe(limit - 1);
      const made = await server.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: sessionHeaders(user),
        payload: { name: 'mine', scopes: ['contracts'] },
      });
      expect(made.statusCode).toBe(201);
      expect(remaining(made)).toBe(limit - 2);
      const key = made.json().data.key as string;
      expect(remaining(await templates(key))).toBe(limit - 3);
      const viaMcp = await mcp(key);
      expect(Number(viaMcp.headers.get('x-ratelimit-remaining'))).toBe(limit - 4);
      expect(remaining(await viaSession())).toBe(limit - 5);
      // Spent by the key: the session is refused too.
      for (let used = 5; used < limit; used++) expect((await templates(key)).statusCode).toBe(200);
      const refused = await viaSession();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toMatch(
        /public tier limit for all requests is 100 requests per 15 minutes, shared by all the keys and sessions/,
      );
      // A second sign-in of the same user shares it as well.
      const again = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(again.statusCode).toBe(200);
      const cookie = String(
        ([] as string[]).concat(again.headers['set-cookie'] ?? []).find((c) => c.startsWith('svc_session=')),
      ).split(';')[0]!;
      expect((await server.app.inject({ url: '/api/v1/api-keys', headers: { cookie } })).statusCode).toBe(429);
    });
  });
}
