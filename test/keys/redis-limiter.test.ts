import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { LimiterUnavailableError, type RateState } from '../../src/core/limiter-port.js';
import { RedisRateLimiter } from '../../src/keys/redis-limiter.js';
import { freePort, startOwnRedis, testRedisUrl, type OwnEngine } from '../support/engines.js';

const WINDOW = 60_000;
/** A window-aligned instant, well away from the real clock (the limiter works on the time it is given). */
const T0 = 1_000 * WINDOW;

let url: string;
const limiters: RedisRateLimiter[] = [];
const engines: OwnEngine[] = [];

function limiter(
  opts: Partial<ConstructorParameters<typeof RedisRateLimiter>[0]> = {},
  prefix = `svc-test:${randomBytes(6).toString('hex')}:`,
): RedisRateLimiter {
  const l = new RedisRateLimiter({ url, prefix, windowMs: WINDOW, ...opts });
  limiters.push(l);
  return l;
}

const at = (ms: number) => new Date(T0 + ms);

beforeAll(async () => {
  url = await testRedisUrl();
});

afterAll(async () => {
  for (const l of limiters) await l.close();
  for (const e of engines) await e.stop();
});

describe('RedisRateLimiter: window semantics', () => {
  it('counts hits in a fixed window, refuses past the limit without counting, and resets with the next window', async () => {
    const l = limiter();
    await l.ready();
    const states: RateState[] = [];
    for (let i = 0; i < 4; i++) states.push(await l.hit('k', 3, at(1000 + i)));
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    for (const s of states) {
      expect(s.limit).toBe(3);
      expect(s.resetAt.getTime()).toBe(T0 + WINDOW);
    }
    // peek does not count
    expect(await l.peek('k', 3, at(2000))).toEqual({
      limit: 3,
      remaining: 0,
      resetAt: new Date(T0 + WINDOW),
      allowed: false,
    });
    expect(await l.peek('other', 3, at(2000))).toEqual({
      limit: 3,
      remaining: 3,
      resetAt: new Date(T0 + WINDOW),
      allowed: true,
    });
    // the last millisecond of the window still belongs to it; the next one starts afresh
    expect((await l.hit('k', 3, at(WINDOW - 1))).allowed).toBe(false);
    const next = await l.hit('k', 3, at(WINDOW));
    expect(next).toEqual({ limit: 3, remaining: 2, resetAt: new Date(T0 + 2 * WINDOW), allowed: true });
    // a higher limit on the same counter lets more through (the count is what is stored)
    expect((await l.hit('k', 10, at(WINDOW + 5))).remaining).toBe(8);
  });

  it('gives the counters an expiry of about the rest of the window, and keys that include the window start', async () => {
    const prefix = `svc-test:${randomBytes(6).toString('hex')}:`;
    const l = limiter({}, prefix);
    await l.ready();
    await l.hit('ttl', 5, at(WINDOW / 2));
    const raw = createClient({ url });
    raw.on('error', () => undefined);
    await raw.connect();
    try {
      const keys = await raw.keys(`${prefix}*`);
      expect(keys).toEqual([`${prefix}${T0}:ttl`]);
      const ttl = await raw.pTTL(keys[0]!);
      expect(ttl).toBeGreaterThan(WINDOW / 2);
      expect(ttl).toBeLessThanOrEqual(WINDOW / 2 + 60_000);
    } finally {
      await raw.close();
    }
  });

  it('hitAll is all or nothing: one exhausted counter means none is counted', async () => {
    const l = limiter();
    await l.ready();
    expect((await l.hit('key', 1, at(0))).allowed).toBe(true);
    const refused = await l.hitAll(
      [
        { key: 'bucket', limit: 5 },
        { key: 'key', limit: 1 },
      ],
      at(10),
    );
    expect(refused.map((s) => s.allowed)).toEqual([false, false]);
    expect(refused.map((s) => s.remaining)).toEqual([5, 0]);
    expect((await l.peek('bucket', 5, at(20))).remaining).toBe(5);
    const counted = await l.hitAll(
      [
        { key: 'bucket', limit: 5 },
        { key: 'other', limit: 2 },
      ],
      at(30),
    );
    expect(counted.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 4],
      [true, 1],
    ]);
    expect(await l.hitAll([], at(40))).toEqual([]);
  });

  it('answers exactly as the in-process limiter for the same random sequence', async () => {
    const l = limiter();
    await l.ready();
    const mem = new MemoryRateLimiter(WINDOW);
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let t = 0;
    for (let i = 0; i < 300; i++) {
      t += rand(WINDOW / 10);
      const now = at(t);
      const op = rand(4);
      const entries = Array.from({ length: 1 + rand(3) }, () => ({ key: `k${rand(4)}`, limit: 1 + rand(6) }));
      if (op === 3) {
        // A refund dated now or up to a window back (then it may name an ended window).
        const when = at(Math.max(0, t - rand(WINDOW)));
        await Promise.all([l.refund(entries, when), mem.refund(entries, when)]);
      } else if (op === 0)
        expect(await l.hit(entries[0]!.key, entries[0]!.limit, now)).toEqual(
          await mem.hit(entries[0]!.key, entries[0]!.limit, now),
        );
      else if (op === 1)
        expect(await l.peek(entries[0]!.key, entries[0]!.limit, now)).toEqual(
          await mem.peek(entries[0]!.key, entries[0]!.limit, now),
        );
      else expect(await l.hitAll(entries, now)).toEqual(await mem.hitAll(entries, now));
    }
  });

  it('refund: takes one hit back, creates no key for a counter that does not exist, and reloads its script after SCRIPT FLUSH', async () => {
    const prefix = `svc-test:${randomBytes(6).toString('hex')}:`;
    const l = limiter({}, prefix);
    await l.ready();
    await l.hitAll(
      [
        { key: 'a', limit: 3 },
        { key: 'b', limit: 3 },
      ],
      at(0),
    );
    await l.refund([{ key: 'a' }], at(1));
    const raw = createClient({ url });
    raw.on('error', () => undefined);
    await raw.connect();
    try {
      await raw.sendCommand(['SCRIPT', 'FLUSH']);
      await l.refund([{ key: 'b' }, { key: 'missing' }], at(2));
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}${T0}:a`, `${prefix}${T0}:b`]);
      expect(await raw.mGet([`${prefix}${T0}:a`, `${prefix}${T0}:b`])).toEqual(['0', '0']);
      // A refund dated in the next window leaves this window's counters alone and makes none there.
      await l.hit('a', 3, at(3));
      await l.refund([{ key: 'a' }], at(WINDOW));
      expect(await raw.get(`${prefix}${T0}:a`)).toBe('1');
      expect(await raw.keys(`${prefix}${T0 + WINDOW}:*`)).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  it('200 concurrent hits against limit 100 from two clients: exactly 100 allowed', async () => {
    const prefix = `svc-test:${randomBytes(6).toString('hex')}:`;
    const a = limiter({}, prefix);
    const b = limiter({}, prefix);
    await Promise.all([a.ready(), b.ready()]);
    const states = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).hitAll(
          [
            { key: 'shared', limit: 100 },
            { key: `bucket`, limit: 1000 },
          ],
          at(i),
        ),
      ),
    );
    expect(states.filter((s) => s[0]!.allowed)).toHaveLength(100);
    expect((await a.peek('shared', 100, at(500))).remaining).toBe(0);
    expect((await b.peek('bucket', 1000, at(500))).remaining).toBe(900); // refused hits counted nothing
  });
});

describe('RedisRateLimiter: Redis unavailable', () => {
  it('nothing listening: hits fail fast with LimiterUnavailableError, ready() gives up, nothing crashes', async () => {
    const port = await freePort();
    const errors: Error[] = [];
    const l = limiter({ url: `redis://127.0.0.1:${port}`, onError: (e) => errors.push(e) });
    const started = Date.now();
    await expect(l.hit('k', 10, at(0))).rejects.toThrow(LimiterUnavailableError);
    await expect(l.peek('k', 10, at(0))).rejects.toThrow(LimiterUnavailableError);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(l.ready(300)).rejects.toThrow(LimiterUnavailableError);
    expect(l.available).toBe(false);
    expect(errors.length).toBeGreaterThan(0);
    await l.close();
    await expect(l.hit('k', 10, at(0))).rejects.toThrow(/closed/);
  });

  it('Redis killed: LimiterUnavailableError; restarted: the same limiter works again (script reloaded)', async () => {
    const first = await startOwnRedis();
    engines.push(first);
    const l = limiter({ url: first.url, commandTimeoutMs: 500, maxReconnectDelayMs: 200 });
    await l.ready();
    expect((await l.hit('k', 2, at(0))).remaining).toBe(1);
    await first.stop();
    let failure: unknown;
    const started = Date.now();
    try {
      await l.hit('k', 2, at(1));
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(LimiterUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(l.available).toBe(false);

    const second = await startOwnRedis({ port: first.port });
    engines.push(second);
    await l.ready(10_000);
    // A new server: empty counters and no script cache (NOSCRIPT, loaded again).
    expect(await l.hit('k', 2, at(2))).toEqual({
      limit: 2,
      remaining: 1,
      resetAt: new Date(T0 + WINDOW),
      allowed: true,
    });
    expect((await l.hit('k', 2, at(3))).allowed).toBe(true);
    expect((await l.hit('k', 2, at(4))).allowed).toBe(false);
  }, 30_000);

  it('Redis not answering (paused): the hit times out with LimiterUnavailableError', async () => {
    const own = await startOwnRedis();
    engines.push(own);
    const l = limiter({ url: own.url, commandTimeoutMs: 300 });
    await l.ready();
    await l.hit('k', 5, at(0));
    process.kill(own.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      await expect(l.hit('k', 5, at(1))).rejects.toThrow(LimiterUnavailableError);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      process.kill(own.pid, 'SIGCONT');
    }
    await l.ready(5000);
    // The timed-out hit may have been counted once Redis woke up; never more than once.
    const state = await l.hit('k', 5, at(2));
    expect(state.allowed).toBe(true);
    expect([2, 3]).toContain(state.remaining);
  }, 30_000);

  it('a script cache flushed under it (SCRIPT FLUSH) is reloaded transparently', async () => {
    const l = limiter();
    await l.ready();
    await l.hit('f', 5, at(0));
    const own = await startOwnRedis();
    engines.push(own);
    const m = limiter({ url: own.url });
    await m.ready();
    await m.hit('f', 5, at(0));
    const raw = createClient({ url: own.url });
    raw.on('error', () => undefined);
    await raw.connect();
    await raw.scriptFlush();
    await raw.close();
    expect((await m.hit('f', 5, at(1))).remaining).toBe(3);
  });
});
