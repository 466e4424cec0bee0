import { describe, expect, it } from 'vitest';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import { FairSlots } from '../../src/core/fair-slots.js';
import { cachedResolver, hostLookups } from '../../src/webhooks/resolver.js';
import { until } from '../support/loop.js';

// Webhook host lookups run on libuv's thread pool (getaddrinfo): one at a time, fair by account, answers kept.

/** A resolver answering each host after `release()` is called for it, counting its calls. */
function gatedResolver() {
  const calls: string[] = [];
  const gates = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host);
    running++;
    most = Math.max(most, running);
    await new Promise<void>((r) => gates.set(host, r));
    running--;
    if (host.startsWith('bad.')) throw new Error('no such host');
    return ['203.0.113.9'];
  };
  return { resolve, calls, release: (host: string) => gates.get(host)?.(), most: () => most };
}

const as = <T>(account: string, fn: () => Promise<T>): Promise<T> => runAsQueueCaller({ account, weight: 1 }, fn);

describe('webhook host lookups', () => {
  it('share the one place of the service and keep answers for a while, failures not', async () => {
    expect(hostLookups.size).toBe(1);
    let t = 0;
    const inner = gatedResolver();
    const slots = new FairSlots({ name: 'The test lookups', size: 1, maxWaitMs: Infinity });
    const resolve = cachedResolver(inner.resolve, { ttlMs: 30_000, now: () => t, slots });
    // Two callers for one host: one lookup.
    const a = resolve('hooks.example');
    const b = resolve('hooks.example');
    await until(() => inner.calls.length === 1);
    inner.release('hooks.example');
    expect(await a).toEqual(['203.0.113.9']);
    expect(await b).toEqual(['203.0.113.9']);
    // Kept: no lookup within the time to live, a new one after it.
    t = 29_999;
    expect(await resolve('hooks.example')).toEqual(['203.0.113.9']);
    expect(inner.calls).toHaveLength(1);
    t = 30_000;
    const again = resolve('hooks.example');
    await until(() => inner.calls.length === 2);
    inner.release('hooks.example');
    await again;
    // A failure is not kept.
    const bad = resolve('bad.example');
    await until(() => inner.calls.length === 3);
    inner.release('bad.example');
    await expect(bad).rejects.toThrow(/no such host/);
    const badAgain = resolve('bad.example');
    await until(() => inner.calls.length === 4);
    inner.release('bad.example');
    await expect(badAgain).rejects.toThrow(/no such host/);
  });

  it("run one at a time, another account's before the rest of a first one's", async () => {
    const inner = gatedResolver();
    const slots = new FairSlots({ name: 'The test lookups', size: 1, maxWaitMs: Infinity });
    const resolve = cachedResolver(inner.resolve, { slots });
    const fromA = ['a1', 'a2', 'a3'].map((h) => as('acct_A', () => resolve(`${h}.example`)));
    await until(() => inner.calls.length === 1 && slots.queued === 2);
    const fromB = as('acct_B', () => resolve('b.example'));
    await until(() => slots.queued === 3);
    for (let i = 0; i < 4; i++) {
      await until(() => inner.calls.length === i + 1);
      inner.release(inner.calls[i]!);
    }
    await Promise.all([...fromA, fromB]);
    expect(inner.most()).toBe(1);
    // The slow first lookup of A's, then B's, then the rest of A's.
    expect(inner.calls).toEqual(['a1.example', 'b.example', 'a2.example', 'a3.example']);
  });
});
