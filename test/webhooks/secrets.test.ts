import { afterEach, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/events.js';
import type { Store } from '../../src/store/index.js';
import {
  Dispatcher,
  createWebhook,
  regenerateSecret,
  updateWebhook,
  verifyWebhookSignature,
  type WebhookRecord,
} from '../../src/webhooks/index.js';
import {
  dropExpiredSecret,
  eraseExpiredSecrets,
  OpenedSecrets,
  openSecrets,
  sweepSecretsTx,
} from '../../src/webhooks/secrets.js';
import { Keyring } from '../../src/core/keyring.js';
import {
  FakeTime,
  deps as makeDeps,
  hasOpenssl,
  makeCert,
  openedSecrets,
  startReceiver,
  tempStore,
  testKeyring,
} from './helpers.js';
import { storeFiles } from '../support/store-files.js';
import { countReads } from '../support/store-wrap.js';

const OWNER = 'own_rotate';
const publicResolver = async () => ['93.184.216.34'];

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

async function setup(): Promise<{ store: Store; time: FakeTime; dir: string }> {
  const { store, dir, cleanup } = await tempStore();
  open.push(cleanup);
  return { store, time: new FakeTime(), dir };
}

/** A subscription rotated with a one-hour grace: returns its id, the old and the new secret. */
async function rotated(store: Store, time: FakeTime, url = 'https://hooks.example.com/rot', resolve = publicResolver) {
  const d = makeDeps(store, time.clock, { resolve });
  const created = await createWebhook(d, OWNER, { url, events: ['*'] });
  const g = await regenerateSecret(d, OWNER, created.webhook.id, { graceSeconds: 3600 });
  expect(await openedSecrets(store, created.webhook.id)).toMatchObject({
    secret: g.secret,
    previousSecret: created.secret,
  });
  return { d, id: created.webhook.id, old: created.secret!, fresh: g.secret };
}

describe('secrets opened for signing are kept for the next claim', () => {
  it('opens a sealed value once, and a new value (rotated or re-sealed) afresh', () => {
    let opens = 0;
    const keyring = new Keyring(Buffer.alloc(32, 0x11));
    const original = keyring.reveal.bind(keyring);
    keyring.reveal = (stored: string, aad: string) => {
      opens++;
      return original(stored, aad);
    };
    const record = {
      id: 'wh_1',
      secret: keyring.seal('whsec_one', 'webhooks/wh_1'),
      previousSecret: null,
      previousSecretExpiresAt: null,
    };
    const opened = new OpenedSecrets();
    expect(openSecrets(keyring, 'webhooks', record, opened).secret).toBe('whsec_one');
    expect(openSecrets(keyring, 'webhooks', record, opened).secret).toBe('whsec_one');
    expect(opens).toBe(1);
    // A rotation: the old value moves to previousSecret (opened already), the new one is opened.
    const rotated = {
      ...record,
      secret: keyring.seal('whsec_two', 'webhooks/wh_1'),
      previousSecret: record.secret,
      previousSecretExpiresAt: 1,
    };
    const both = openSecrets(keyring, 'webhooks', rotated, opened);
    expect([both.secret, both.previousSecret]).toEqual(['whsec_two', 'whsec_one']);
    expect(opens).toBe(2);
    // The same sealed value on another record is not this record's: opened under that record's AAD, which fails.
    expect(() => openSecrets(keyring, 'webhooks', { ...record, id: 'wh_2' }, opened)).toThrow();
  });
});

describe('an expired predecessor secret is erased from the stored record', () => {
  it('dropExpiredSecret erases only once the grace has ended', () => {
    const r = { previousSecret: 'whsec_old', previousSecretExpiresAt: 1_000 } as WebhookRecord;
    expect(dropExpiredSecret(r, 999)).toBe(false);
    expect(r.previousSecret).toBe('whsec_old');
    expect(dropExpiredSecret(r, 1_000)).toBe(true);
    expect(r).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    expect(dropExpiredSecret(r, 2_000)).toBe(false);
  });

  it('on the next write of the subscription (an update after the grace)', async () => {
    const { store, time } = await setup();
    const { d, id, old } = await rotated(store, time);
    time.advance(3_599_000);
    await updateWebhook(d, OWNER, id, { name: 'during the grace' });
    expect((await openedSecrets(store, id)).previousSecret).toBe(old);
    time.advance(1_000);
    await updateWebhook(d, OWNER, id, { name: 'after the grace' });
    const stored = (await store.get<WebhookRecord>('webhooks', id))!;
    expect(stored).toMatchObject({ name: 'after the grace', previousSecret: null, previousSecretExpiresAt: null });
    expect(JSON.stringify(stored)).not.toContain(old);
  });

  it('by the sweep, which leaves secrets still in their grace alone', async () => {
    const { store, time, dir } = await setup();
    const { id, old, fresh } = await rotated(store, time);
    const sealedOld = (await store.get<WebhookRecord>('webhooks', id))!.previousSecret!;
    await store.put('filler', { id: 'f1' }); // the store has written more since: the rotation is not its last write
    expect(await storeFiles(dir)).toContain(sealedOld);
    expect(await eraseExpiredSecrets(store, time.now + 3_599_000)).toBe(0);
    expect((await openedSecrets(store, id)).previousSecret).toBe(old);
    expect(await eraseExpiredSecrets(store, time.now + 3_600_000)).toBe(1);
    expect(await openedSecrets(store, id)).toMatchObject({ secret: fresh, previousSecret: null });
    // Gone from the data files too (the snapshot and the journal), not only from memory, once the sweep returns.
    const files = await storeFiles(dir);
    expect(files).not.toContain(sealedOld);
    expect(files).not.toContain(old);
  });

  it('reads only the records in their grace, after the first sweep marked those rotated before the mark', async () => {
    const { store, time } = await setup();
    const d = makeDeps(store, time.clock, { resolve: publicResolver });
    for (let i = 0; i < 30; i++)
      await createWebhook(d, OWNER, { url: `https://hooks.example.com/q${i}`, events: ['*'] });
    const a = await rotated(store, time, 'https://hooks.example.com/a');
    const b = await rotated(store, time, 'https://hooks.example.com/b');
    // As a rotation of an earlier version left it: a predecessor in its grace, no mark.
    const c = await rotated(store, time, 'https://hooks.example.com/c');
    const { inGrace: _mark, ...unmarked } = (await store.get<WebhookRecord>('webhooks', c.id))!;
    await store.put('webhooks', unmarked);
    const sweep = async (at: number, every = false) => {
      const reads = countReads(store, 'webhooks');
      try {
        const erased = await store.transact(async (tx) => (await sweepSecretsTx(tx, at, { every })).erased);
        return { erased, reads: reads.count() };
      } finally {
        reads.restore();
      }
    };
    // The marked two, not the 33 subscriptions.
    expect(await sweep(time.now + 1000)).toEqual({ erased: 0, reads: 2 });
    // The first sweep of a process reads them all, and marks the third.
    expect(await sweep(time.now + 1000, true)).toEqual({ erased: 0, reads: 33 });
    expect(await sweep(time.now + 3_600_000)).toEqual({ erased: 3, reads: 3 });
    for (const { id, fresh } of [a, b, c])
      expect(await openedSecrets(store, id)).toMatchObject({ secret: fresh, previousSecret: null });
    expect(await store.transact((tx) => tx.idsBy('webhooks', 'inGrace', true))).toEqual([]);
    expect(await sweep(time.now + 3_600_000)).toEqual({ erased: 0, reads: 0 });
  });

  it('at once, from the data files too, by a rotation without grace', async () => {
    const { store, time, dir } = await setup();
    const d = makeDeps(store, time.clock, { resolve: publicResolver });
    const created = await createWebhook(d, OWNER, { url: 'https://hooks.example.com/nograce', events: ['*'] });
    const sealedOld = (await store.get<WebhookRecord>('webhooks', created.webhook.id))!.secret;
    await store.put('filler', { id: 'f1' });
    expect(await storeFiles(dir)).toContain(sealedOld);
    const g = await regenerateSecret(d, OWNER, created.webhook.id);
    const files = await storeFiles(dir);
    expect(files).not.toContain(sealedOld);
    expect(files).toContain((await store.get<WebhookRecord>('webhooks', created.webhook.id))!.secret);
    expect((await openedSecrets(store, created.webhook.id)).secret).toBe(g.secret);
  });

  it('by the dispatcher when it starts', async () => {
    const { store, time } = await setup();
    const { id } = await rotated(store, time);
    time.advance(3_600_000);
    const dispatcher = new Dispatcher({
      store,
      clock: time.clock,
      keyring: testKeyring,
      scheduler: time,
      allow: '127.0.0.1',
      jitterMs: 0,
    });
    open.push(() => dispatcher.stop());
    dispatcher.start();
    await dispatcher.idle();
    expect((await store.get<WebhookRecord>('webhooks', id))!.previousSecret).toBeNull();
  });

  it.skipIf(!hasOpenssl())(
    'when a delivery reads the record for signing: signed with the new secret only',
    async () => {
      const { store, time } = await setup();
      const tls = makeCert();
      const receiver = await startReceiver(tls, () => 200, { record: true });
      open.push(() => receiver.close());
      const { d, id, old, fresh } = await rotated(store, time, receiver.url(), async () => ['127.0.0.1']);
      const dispatcher = new Dispatcher({
        store,
        clock: time.clock,
        keyring: testKeyring,
        scheduler: time,
        ca: tls.cert,
        allow: '127.0.0.1',
        jitterMs: 0,
        timeoutMs: 2000,
      });
      open.push(() => dispatcher.stop());
      dispatcher.start();
      await dispatcher.idle();
      time.advance(3_600_000);
      // The start-up sweep ran before the grace ended; this delivery's claim is the first to see it over.
      expect((await openedSecrets(store, id)).previousSecret).toBe(old);
      await store.transact(async (tx) =>
        recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: {} }, d.clock),
      );
      for (let i = 0; i < 50 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await dispatcher.idle();
      expect((await store.get<WebhookRecord>('webhooks', id))!.previousSecret).toBeNull();
      const got = receiver.received[0]!;
      const header = got.headers['x-webhook-signature'] as string;
      expect(verifyWebhookSignature(got.body, header, fresh, { now: Math.floor(time.now / 1000) })).toBe(true);
      expect(verifyWebhookSignature(got.body, header, old, { now: Math.floor(time.now / 1000) })).toBe(false);
    },
  );
});
