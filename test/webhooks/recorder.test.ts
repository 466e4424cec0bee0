import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERIES, WEBHOOKS, recordEvent, type DeliveryRecord } from '../../src/events/events.js';
import type { Store, Tx } from '../../src/store/index.js';
import { claimByIds } from '../../src/webhooks/claim.js';
import { createWebhook, getWebhook } from '../../src/webhooks/index.js';
import { LAST_DELIVERY_REFRESH_MS, pruneEvents, recordOutcomes } from '../../src/webhooks/recorder.js';
import type { AttemptResult } from '../../src/webhooks/send.js';
import { FakeTime, deps, tempStore, testKeyring } from './helpers.js';

const OWNER = 'own_rec';
const OWNER_ID = 'dsp_recorder_test';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

const ok: AttemptResult = { ok: true, statusCode: 200, latencyMs: 3, error: null };
const refused: AttemptResult = { ok: false, statusCode: 500, latencyMs: 3, error: null };

/** A transaction that counts the writes to subscription records. */
function counting(tx: Tx, writes: { webhooks: number }): Tx {
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop === 'put') {
        return (collection: string, doc: { id: string }) => {
          if (collection === WEBHOOKS) writes.webhooks++;
          return target.put(collection, doc);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

async function setup(): Promise<{ store: Store; time: FakeTime; webhookId: string }> {
  const { store, cleanup } = await tempStore();
  open.push(cleanup);
  const time = new FakeTime();
  const d = deps(store, time.clock, { allow: '127.0.0.1' });
  const { webhook } = await createWebhook(d, OWNER, { url: 'https://127.0.0.1:9/hook', events: ['*'] });
  return { store, time, webhookId: webhook.id };
}

/** Records one event, claims its delivery and writes `result` as its outcome; answers the subscription writes. */
async function deliverOne(store: Store, time: FakeTime, result: AttemptResult): Promise<number> {
  await store.transact(async (tx) =>
    recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: {} }, time.clock),
  );
  const pending = await store.findBy<DeliveryRecord>(DELIVERIES, 'state', 'pending');
  const writes = { webhooks: 0 };
  await store.transact(async (tx) => {
    const now = time.clock.now();
    const jobs = await claimByIds(
      tx,
      pending.map((p) => p.id),
      { owner: OWNER_ID, now, leaseMs: 60_000, keyring: testKeyring, persistSecrets: false, held: () => 0 },
    );
    expect(jobs).toHaveLength(pending.length);
    await recordOutcomes(
      counting(tx, writes),
      jobs.map((job) => ({ job, result })),
      OWNER_ID,
      now,
      0,
    );
  });
  return writes.webhooks;
}

describe('recordOutcomes: the subscription row', () => {
  it('is not written for every success, only when its last delivery is stale or its status changes', async () => {
    const { store, time, webhookId } = await setup();
    expect(await deliverOne(store, time, ok)).toBe(1); // first delivery: null -> 200
    time.now += 10;
    expect(await deliverOne(store, time, ok)).toBe(0);
    time.now += 10;
    expect(await deliverOne(store, time, ok)).toBe(0);
    const firstAt = new Date(time.now - 20).toISOString();
    expect(await getWebhook(deps(store, time.clock), OWNER, webhookId)).toMatchObject({
      lastDeliveryAttempt: firstAt,
      lastDeliveryStatus: 200,
    });
    time.now += LAST_DELIVERY_REFRESH_MS;
    expect(await deliverOne(store, time, ok)).toBe(1);
    expect(await getWebhook(deps(store, time.clock), OWNER, webhookId)).toMatchObject({
      lastDeliveryAttempt: time.clock.now().toISOString(),
      lastDeliveryStatus: 200,
    });
  });

  it('is written whenever the status code or the failure counters change', async () => {
    const { store, time, webhookId } = await setup();
    expect(await deliverOne(store, time, ok)).toBe(1);
    time.now += 10;
    // A retried failure changes the last status code.
    expect(await deliverOne(store, time, refused)).toBe(1);
    let w = await getWebhook(deps(store, time.clock), OWNER, webhookId);
    expect(w).toMatchObject({ lastDeliveryStatus: 500, failures: 0 });
    // Exhaust the attempts of that delivery: its final failure is counted on the row.
    for (let i = 0; i < 4; i++) {
      time.now += 10_000;
      const due = await store.findBy<DeliveryRecord>(DELIVERIES, 'state', 'pending');
      const writes = { webhooks: 0 };
      await store.transact(async (tx) => {
        const now = time.clock.now();
        const jobs = await claimByIds(
          tx,
          due.map((p) => p.id),
          { owner: OWNER_ID, now, leaseMs: 60_000, keyring: testKeyring, persistSecrets: false, held: () => 0 },
        );
        await recordOutcomes(
          counting(tx, writes),
          jobs.map((job) => ({ job, result: refused })),
          OWNER_ID,
          now,
          0,
        );
      });
      // Same status, but each retry is over a second after the last: written; the last one fails for good.
      expect(writes.webhooks).toBe(1);
    }
    w = await getWebhook(deps(store, time.clock), OWNER, webhookId);
    expect(w).toMatchObject({ failures: 1, lastDeliveryStatus: 500 });
    // A success right after resets the consecutive failures: written although the status alone would not force it.
    time.now += 10;
    expect(await deliverOne(store, time, ok)).toBe(1);
    time.now += 10;
    expect(await deliverOne(store, time, ok)).toBe(0);
  });
});

describe('pruneEvents', () => {
  it('stops after maxWaiting old events still waiting, and prunes the finished ones behind them later', async () => {
    const { store, time } = await setup();
    // Three old events still pending, then two whose deliveries are final.
    const record = () =>
      store.transact(async (tx) =>
        recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: {} }, time.clock),
      );
    for (let i = 0; i < 3; i++) await record();
    const waitingIds = (await store.findBy<DeliveryRecord>(DELIVERIES, 'state', 'pending')).map((d) => d.id);
    await record();
    await record();
    for (const d of await store.findBy<DeliveryRecord>(DELIVERIES, 'state', 'pending')) {
      if (!waitingIds.includes(d.id)) await store.put(DELIVERIES, { ...d, state: 'succeeded', nextAttemptAt: null });
    }
    time.now += 10_000;
    const cutoff = time.now - 1000;
    // Three waiting events ahead, a limit of three: stops before reaching the finished ones.
    expect(await store.transact((tx) => pruneEvents(tx, cutoff, 3))).toBe(0);
    // A higher limit passes over the waiting ones (kept) and prunes the two finished events and their deliveries.
    expect(await store.transact((tx) => pruneEvents(tx, cutoff, 4))).toBe(2);
    expect((await store.all<DeliveryRecord>(DELIVERIES)).map((d) => d.id).sort()).toEqual([...waitingIds].sort());
    expect(await store.count('events')).toBe(3);
  });
});
