/**
 * The dispatcher's host lookups take the one lookup place in turns by account (src/webhooks/resolver.ts): an account
 * whose receivers sit behind slow name servers delays another account's delivery by one lookup, not by all of its
 * own. They once all ran as the system's, in one lane: every other account's lookup waited behind the whole backlog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FairSlots } from '../../src/core/fair-slots.js';
import { recordEvent } from '../../src/events/events.js';
import { cachedResolver } from '../../src/webhooks/resolver.js';
import { Dispatcher, createWebhook } from '../../src/webhooks/index.js';
import { until } from '../support/loop.js';
import { FakeTime, deps as makeDeps, hasOpenssl, makeCert, startReceiver, tempStore, testKeyring } from './helpers.js';

const SLOW = 'own_slow_dns';
const VICTIM = 'own_victim';
const SLOW_HOSTS = ['a1', 'a2', 'a3', 'a4', 'a5'].map((h) => `${h}.slow.test`);
const VICTIM_HOST = 'receiver.test'; // in the test certificate

/** A resolver answering each host only once `release(host)` is called, recording the order of its lookups. */
function gatedResolver() {
  const calls: string[] = [];
  const gates = new Map<string, () => void>();
  let open = false;
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host);
    if (!open) await new Promise<void>((r) => gates.set(host, r));
    // The slow hosts answer a documentation address: refused by the guard, so nothing leaves the machine.
    return host === VICTIM_HOST ? ['127.0.0.1'] : ['203.0.113.9'];
  };
  return {
    resolve,
    calls,
    release: (host: string) => gates.get(host)?.(),
    /** Answers every lookup waiting, and every later one at once. */
    openAll() {
      open = true;
      for (const release of gates.values()) release();
    },
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe.skipIf(!hasOpenssl())('webhook host lookups in the dispatcher', () => {
  let tls: ReturnType<typeof makeCert>;
  beforeAll(() => {
    tls = makeCert();
  });

  it("wait their turn by account: one account's slow lookups hold another's back by one at most", async () => {
    const { store, cleanup } = await tempStore();
    const receiver = await startReceiver(tls, () => 200);
    const time = new FakeTime();
    const inner = gatedResolver();
    const slots = new FairSlots({ name: 'The test lookups', size: 1, maxWaitMs: Infinity });
    const dispatcher = new Dispatcher({
      store,
      clock: time.clock,
      keyring: testKeyring,
      scheduler: time,
      ca: tls.cert,
      allow: '127.0.0.1',
      resolve: cachedResolver(inner.resolve, { slots }),
      jitterMs: 0,
      timeoutMs: 5_000,
    });
    cleanups.push(async () => {
      inner.openAll();
      await dispatcher.stop();
      await receiver.close();
      await cleanup();
    });
    // Subscriptions are checked at creation with an answer at once.
    const d = makeDeps(store, time.clock, { resolve: async () => ['127.0.0.1'] });
    for (const host of SLOW_HOSTS) await createWebhook(d, SLOW, { url: `https://${host}/x`, events: ['*'] });
    await createWebhook(d, VICTIM, { url: `https://${VICTIM_HOST}:${receiver.port}/hook`, events: ['*'] });
    dispatcher.start();
    const emit = (ownerId: string) =>
      store.transact((tx) => recordEvent(tx, { type: 'contract.generated', ownerId, data: {} }, time.clock));

    // Five lookups of the slow account: one holds the place, four wait.
    await emit(SLOW);
    await until(() => inner.calls.length === 1 && slots.queued === SLOW_HOSTS.length - 1);
    // Then the victim's delivery: its lookup waits too.
    await emit(VICTIM);
    await until(() => slots.queued === SLOW_HOSTS.length);
    // Answer the lookups one by one, in the order they are made, until the victim's is made.
    while (!inner.calls.includes(VICTIM_HOST)) {
      const seen = inner.calls.length;
      inner.release(inner.calls[seen - 1]!);
      await until(() => inner.calls.length > seen);
    }
    const before = inner.calls.indexOf(VICTIM_HOST);
    expect(before, inner.calls.join(', ')).toBeLessThanOrEqual(2);
    inner.release(VICTIM_HOST);
    await until(() => receiver.received.length === 1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ accountId: VICTIM });
  });
});
