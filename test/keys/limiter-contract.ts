/**
 * The limiter port's contract: one suite for every adapter (in process, Redis).
 *
 *   describeLimiterContract('memory', async ({ windowMs }) => ({ limiter: new MemoryRateLimiter(windowMs), cleanup: async () => {} }));
 *
 * `open` gives a limiter with fixed windows of `windowMs`, aligned on multiples
 * of it since the epoch. Every test uses keys of its own (a random prefix), and
 * times in windows that end in the future (a shared engine may expire a
 * window's counters when it ends), never the clock itself.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/core/limiter-port.js';

export type OpenLimiter = (opts: { windowMs: number }) => Promise<{ limiter: RateLimiter; cleanup(): Promise<void> }>;

/** One hour: long enough that a window chosen at the start of a test is still in the future at its end. */
const WINDOW_MS = 3_600_000;

export function describeLimiterContract(name: string, open: OpenLimiter): void {
  describe(`limiter contract: ${name}`, () => {
    let limiter: RateLimiter;
    let cleanup: () => Promise<void>;
    /** Start of a window that begins in the future, and the one after it. */
    let start: number;
    let key: (name: string) => string;
    const at = (ms: number) => new Date(start + ms);

    beforeEach(async () => {
      ({ limiter, cleanup } = await open({ windowMs: WINDOW_MS }));
      start = (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS;
      const prefix = `contract:${randomUUID()}:`;
      key = (n) => prefix + n;
    });

    afterEach(async () => {
      await cleanup();
    });

    it('counts a fixed window: allowed up to the limit, then refused, with remaining never below 0', async () => {
      const k = key('fixed');
      const states = [];
      for (let i = 0; i < 5; i++) states.push(await limiter.hit(k, 3, at(1000 + i)));
      expect(states.map((s) => [s.allowed, s.remaining, s.limit])).toEqual([
        [true, 2, 3],
        [true, 1, 3],
        [true, 0, 3],
        [false, 0, 3],
        [false, 0, 3],
      ]);
    });

    it('resets at the end of the window, and says so in resetAt', async () => {
      const k = key('reset');
      const end = new Date(start + WINDOW_MS);
      const first = await limiter.hit(k, 2, at(0));
      const last = await limiter.hit(k, 2, at(WINDOW_MS - 1));
      const refused = await limiter.hit(k, 2, at(WINDOW_MS - 1));
      expect([first.resetAt, last.resetAt, refused.resetAt]).toEqual([end, end, end]);
      expect(refused.allowed).toBe(false);
      const next = await limiter.hit(k, 2, at(WINDOW_MS));
      expect(next).toEqual({ limit: 2, remaining: 1, resetAt: new Date(start + 2 * WINDOW_MS), allowed: true });
    });

    it('keeps keys apart', async () => {
      await limiter.hit(key('a'), 1, at(5));
      expect((await limiter.hit(key('a'), 1, at(6))).allowed).toBe(false);
      expect((await limiter.hit(key('b'), 1, at(7))).allowed).toBe(true);
    });

    it('peek reports the state without counting', async () => {
      const k = key('peek');
      expect(await limiter.peek(k, 2, at(10))).toEqual({
        limit: 2,
        remaining: 2,
        resetAt: new Date(start + WINDOW_MS),
        allowed: true,
      });
      for (let i = 0; i < 5; i++) await limiter.peek(k, 2, at(10 + i));
      expect(await limiter.hit(k, 2, at(20))).toMatchObject({ allowed: true, remaining: 1 });
      expect(await limiter.peek(k, 2, at(21))).toMatchObject({ allowed: true, remaining: 1 });
      await limiter.hit(k, 2, at(22));
      expect(await limiter.peek(k, 2, at(23))).toMatchObject({ allowed: false, remaining: 0 });
      expect(await limiter.hit(k, 2, at(24))).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('hitAll counts every counter when all have room, and answers their states in order', async () => {
      const [a, b] = [key('a'), key('b')];
      const states = await limiter.hitAll(
        [
          { key: a, limit: 5 },
          { key: b, limit: 2 },
        ],
        at(30),
      );
      expect(states).toEqual([
        { limit: 5, remaining: 4, resetAt: new Date(start + WINDOW_MS), allowed: true },
        { limit: 2, remaining: 1, resetAt: new Date(start + WINDOW_MS), allowed: true },
      ]);
      expect((await limiter.peek(a, 5, at(31))).remaining).toBe(4);
      expect((await limiter.peek(b, 2, at(31))).remaining).toBe(1);
    });

    it('hitAll is all or nothing: when one counter is full, none is counted', async () => {
      const [a, b] = [key('a'), key('b')];
      await limiter.hit(b, 1, at(40));
      const states = await limiter.hitAll(
        [
          { key: a, limit: 5 },
          { key: b, limit: 1 },
        ],
        at(41),
      );
      expect(states.map((s) => s.allowed)).toEqual([false, false]);
      expect(states.map((s) => s.remaining)).toEqual([5, 0]);
      expect((await limiter.peek(a, 5, at(42))).remaining).toBe(5);
      expect((await limiter.hit(a, 5, at(43))).remaining).toBe(4);
    });

    it('never lets concurrent hits exceed the limit', async () => {
      const k = key('race');
      const states = await Promise.all(Array.from({ length: 200 }, (_, i) => limiter.hit(k, 50, at(100 + (i % 7)))));
      expect(states.filter((s) => s.allowed)).toHaveLength(50);
      expect(new Set(states.filter((s) => s.allowed).map((s) => s.remaining)).size).toBe(50); // 49..0, each once
      expect(states.every((s) => s.remaining >= 0 && s.limit === 50)).toBe(true);
      expect((await limiter.peek(k, 50, at(200))).remaining).toBe(0);
    });

    it('never lets concurrent all-or-nothing hits on shared counters exceed either limit', async () => {
      const [shared, x, y] = [key('shared'), key('x'), key('y')];
      const calls = Array.from({ length: 60 }, (_, i) =>
        limiter.hitAll(
          [
            { key: shared, limit: 30 },
            { key: i % 2 ? x : y, limit: 10 },
          ],
          at(300 + (i % 5)),
        ),
      );
      const states = await Promise.all(calls);
      const allowed = states.filter((s) => s[0]!.allowed);
      expect(allowed).toHaveLength(20); // x and y allow 10 each; the shared counter has room for 30
      expect(states.every((s) => s[0]!.allowed === s[1]!.allowed)).toBe(true);
      expect((await limiter.peek(shared, 30, at(400))).remaining).toBe(10);
      expect((await limiter.peek(x, 10, at(400))).remaining).toBe(0);
      expect((await limiter.peek(y, 10, at(400))).remaining).toBe(0);
    });

    it('refund takes one hit back from each counter, never below zero, and only in the window it names', async () => {
      const [a, b, never] = [key('refund-a'), key('refund-b'), key('refund-never')];
      await limiter.hitAll(
        [
          { key: a, limit: 3 },
          { key: b, limit: 3 },
        ],
        at(500),
      );
      await limiter.hit(a, 3, at(501));
      await limiter.refund([{ key: a }, { key: b }], at(502));
      expect((await limiter.peek(a, 3, at(503))).remaining).toBe(2);
      expect((await limiter.peek(b, 3, at(503))).remaining).toBe(3);
      // b is at zero: another refund leaves it there (no credit beyond the limit); an unknown counter stays empty.
      await limiter.refund([{ key: b }, { key: never }], at(504));
      expect((await limiter.peek(b, 3, at(505))).remaining).toBe(3);
      expect(
        (
          await limiter.hitAll(
            [
              { key: b, limit: 3 },
              { key: never, limit: 1 },
            ],
            at(506),
          )
        ).map((s) => s.remaining),
      ).toEqual([2, 0]);
      // A refund dated in the next window does not touch this window's counter, nor create one in the next.
      await limiter.refund([{ key: a }], at(WINDOW_MS + 1));
      expect((await limiter.peek(a, 3, at(507))).remaining).toBe(2);
      expect((await limiter.peek(a, 3, at(WINDOW_MS + 2))).remaining).toBe(3);
    });

    it('take then refund under concurrency: never more than the limit held at once, every refunded slot usable again', async () => {
      const k = key('take-refund');
      let held = 0;
      let most = 0;
      let taken = 0;
      // 100 attempts at once against a limit of 10; each one taken is held for a moment, then refunded.
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const [state] = await limiter.hitAll([{ key: k, limit: 10 }], at(600 + (i % 3)));
          if (!state!.allowed) return;
          taken++;
          held++;
          most = Math.max(most, held);
          await new Promise((r) => setImmediate(r));
          held--;
          await limiter.refund([{ key: k }], at(600));
        }),
      );
      expect(most).toBeLessThanOrEqual(10);
      expect(taken).toBeGreaterThanOrEqual(10);
      expect(await limiter.peek(k, 10, at(700))).toMatchObject({ remaining: 10, allowed: true });
    });
  });
}
