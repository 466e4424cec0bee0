/**
 * The dispatcher on a store shared by several instances (PostgreSQL, the claim loop of src/webhooks/claim-loop.ts)
 * serves accounts in turn: one account's backlog, written first, does not hold back another account's delivery, an
 * account's subscriptions take turns, and a subscription at its cap does not hold back the account's other one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERIES,
  EVENTS,
  EVENT_INDEXES,
  newDelivery,
  recordEvent,
  type EventRecord,
} from '../../src/events/events.js';
import { openPostgresStore, type ClaimableStore } from '../../src/store/postgres/index.js';
import { Dispatcher, WEBHOOK_INDEXES, createWebhook, type DispatcherOptions } from '../../src/webhooks/index.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { deps, hasOpenssl, makeCert, startReceiver, testKeyring, type Tls } from './helpers.js';

const clock = { now: () => new Date() };
let url: string;
let tls: Tls;
const schemas: string[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  url = await testDatabaseUrl();
  if (hasOpenssl()) tls = makeCert();
});

afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
  await dropSchemas(url, ...schemas);
});

async function sharedStore(): Promise<ClaimableStore> {
  const schema = randomSchema('svc_wh_turns');
  schemas.push(schema);
  const store = await openPostgresStore({
    url,
    schema,
    indexes: { ...WEBHOOK_INDEXES, [EVENTS]: EVENT_INDEXES },
    poolSize: 4,
  });
  cleanups.push(() => store.close());
  return store;
}

/** Records `n` events of an account (each a delivery to its subscriptions) in one transaction. */
async function events(store: ClaimableStore, ownerId: string, n: number, tag: string): Promise<void> {
  await store.transact(async (tx) => {
    for (let i = 0; i < n; i++)
      await recordEvent(tx, { type: 'contract.generated', ownerId, data: { tag: `${tag}-${i}` } }, clock);
  });
}

/** A dispatcher on `store` sending to the local receiver (polling every 50 ms), stopped after the file. */
function startDispatcher(store: ClaimableStore, opts: Partial<DispatcherOptions>): void {
  const dispatcher = new Dispatcher({
    store,
    clock,
    keyring: testKeyring,
    ca: tls.cert,
    allow: '127.0.0.1',
    jitterMs: 0,
    timeoutMs: 5000,
    pollMs: 50,
    ...opts,
  });
  cleanups.push(() => dispatcher.stop());
  dispatcher.start();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!hasOpenssl())('webhook dispatcher on a shared store: turns', () => {
  it("delivers another account's event next, not after the backlog written before it", async () => {
    const store = await sharedStore();
    const receiver = await startReceiver(tls, () => ({ status: 200, delayMs: 5 }));
    cleanups.push(() => receiver.close());
    const d = deps(store, clock, { ca: tls.cert });
    await createWebhook(d, 'own_busy', { url: receiver.url('/busy'), events: ['*'] });
    await createWebhook(d, 'own_quiet', { url: receiver.url('/quiet'), events: ['*'] });
    await events(store, 'own_busy', 40, 'busy');
    await events(store, 'own_quiet', 1, 'quiet');
    startDispatcher(store, { maxConcurrent: 1 });
    await until(() => receiver.received.length >= 41, 'every delivery');
    const paths = receiver.received.map((r) => r.path);
    // One at a time, accounts in turn: the quiet account's only delivery is the first or the second sent (it was
    // the 41st written; oldest first sent it last).
    expect(paths.indexOf('/quiet')).toBeLessThanOrEqual(1);
    expect(paths.filter((p) => p === '/busy')).toHaveLength(40);
  });

  it('delivers an event behind a thousand accounts whose deliveries all wait for a retry', async () => {
    const store = await sharedStore();
    const receiver = await startReceiver(tls, () => ({ status: 200 }));
    cleanups.push(() => receiver.close());
    // Deliveries of a thousand accounts whose endpoints were down, in back-off for an hour, listed before own_zz:
    // more than one claim of one delivery looks at. Each claim used to start after the account served last, which
    // stayed where it was while nothing was served, so every claim looked at the same ones.
    const later = Date.now() + 3_600_000;
    await store.transact(async (tx) => {
      for (let i = 0; i < 1000; i++) {
        const ownerId = `own_a${String(i).padStart(4, '0')}`;
        const event = { id: `evt_${i}`, ownerId, type: 'contract.generated' } as EventRecord;
        await tx.put(DELIVERIES, { ...newDelivery(event, `wh_${i}`, later, new Date().toISOString()) });
      }
    });
    const d = deps(store, clock, { ca: tls.cert });
    await createWebhook(d, 'own_zz', { url: receiver.url('/zz'), events: ['*'] });
    await events(store, 'own_zz', 1, 'zz');
    startDispatcher(store, { maxConcurrent: 1 });
    await until(() => receiver.received.length >= 1, 'the due delivery');
    expect(receiver.received.map((r) => r.path)).toEqual(['/zz']);
  });

  it("sends an account's subscriptions in turn, one delivery at a time", async () => {
    const store = await sharedStore();
    const receiver = await startReceiver(tls, () => ({ status: 200 }));
    cleanups.push(() => receiver.close());
    const d = deps(store, clock, { ca: tls.cert });
    await createWebhook(d, 'own_pair', { url: receiver.url('/one'), events: ['*'] });
    await createWebhook(d, 'own_pair', { url: receiver.url('/two'), events: ['*'] });
    await events(store, 'own_pair', 10, 'pair');
    startDispatcher(store, { maxConcurrent: 1 });
    await until(() => receiver.received.length >= 20, 'every delivery');
    const paths = receiver.received.map((r) => r.path);
    // Each claim takes one delivery; always starting with the account's first subscription would send all ten of
    // /one before any of /two.
    expect(paths.slice(0, 10).filter((p) => p === '/two').length).toBeGreaterThanOrEqual(4);
  });

  it("sends an account's second subscription while its first is at its cap", async () => {
    const store = await sharedStore();
    // The first subscription's receiver answers slowly: its cap of 2 stays taken while the rest is sent.
    const receiver = await startReceiver(tls, (r) => ({ status: 200, delayMs: r.path === '/slow' ? 300 : 0 }));
    cleanups.push(() => receiver.close());
    const d = deps(store, clock, { ca: tls.cert });
    await createWebhook(d, 'own_two', { url: receiver.url('/slow'), events: ['*'] });
    await events(store, 'own_two', 150, 'first');
    // A second subscription made later: only the events after it go to both.
    await createWebhook(d, 'own_two', { url: receiver.url('/fast'), events: ['*'] });
    await events(store, 'own_two', 3, 'later');
    startDispatcher(store, { maxConcurrent: 8, perSubscription: 2 });
    await until(() => receiver.received.filter((r) => r.path === '/fast').length === 3, 'the second subscription');
    // Oldest first, the claim of the first subscription's backlog (its cap reached) took nothing else: the second
    // subscription waited for most of the 150 slow deliveries. In turns, it is sent at once.
    expect(receiver.received.filter((r) => r.path === '/slow').length).toBeLessThan(20);
  });
});
