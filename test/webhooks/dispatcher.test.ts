import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERIES, recordEvent, type DeliveryRecord } from '../../src/events/events.js';
import type { Store } from '../../src/store/index.js';
import {
  Dispatcher,
  createWebhook,
  getWebhook,
  listWebhookEvents,
  updateWebhook,
  verifyWebhookSignature,
  type DispatcherOptions,
  type WebhookDeps,
} from '../../src/webhooks/index.js';
import {
  FakeTime,
  deps as makeDeps,
  hasOpenssl,
  makeCert,
  startReceiver,
  tempStore,
  testKeyring,
  type Handler,
  type Tls,
} from './helpers.js';

const OWNER = 'own_disp';

interface Rig {
  store: Store;
  time: FakeTime;
  d: WebhookDeps;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  dispatcher: Dispatcher;
  emit(type?: string, data?: Record<string, unknown>): Promise<string>;
  /** Runs the dispatcher, moving the fake clock from timer to timer until nothing is left. */
  settle(): Promise<void>;
  deliveries(): Promise<DeliveryRecord[]>;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

let tls: Tls;
beforeAll(() => {
  if (hasOpenssl()) tls = makeCert();
});

async function rig(handler: Handler, opts: Partial<DispatcherOptions> = {}): Promise<Rig> {
  const { store, cleanup } = await tempStore();
  const time = new FakeTime();
  const receiver = await startReceiver(tls, handler);
  const d = makeDeps(store, time.clock, { ca: tls.cert });
  const dispatcher = new Dispatcher({
    store,
    clock: time.clock,
    keyring: testKeyring,
    scheduler: time,
    ca: tls.cert,
    allow: '127.0.0.1',
    jitterMs: 0,
    timeoutMs: 2000,
    ...opts,
  });
  open.push(async () => {
    await dispatcher.stop();
    await receiver.close();
    await cleanup();
  });
  return {
    store,
    time,
    d,
    receiver,
    dispatcher,
    emit: async (type = 'contract.generated', data = {}) =>
      (await store.transact(async (tx) => recordEvent(tx, { type, ownerId: OWNER, data }, time.clock))).id,
    async settle() {
      for (;;) {
        await dispatcher.idle();
        if (!time.advanceToNext()) break;
      }
      await dispatcher.idle();
    },
    deliveries: () => store.all<DeliveryRecord>(DELIVERIES),
  };
}

describe.skipIf(!hasOpenssl())('webhook dispatcher (fake clock)', () => {
  it('takes announced deliveries without a store scan, and skips one whose transaction failed', async () => {
    const r = await rig(() => 200);
    await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    r.dispatcher.start();
    await r.settle();
    // recordEvent announces the delivery, then the transaction throws: nothing was stored.
    await expect(
      r.store.transact(async (tx) => {
        await recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: { n: 0 } }, r.time.clock);
        throw new Error('the operation failed after recording its event');
      }),
    ).rejects.toThrow(/operation failed/);
    const kept = await r.emit('contract.generated', { n: 1 });
    await r.settle();
    expect(r.receiver.received.map((x) => JSON.parse(x.body).id)).toEqual([kept]);
    expect((await r.deliveries()).map((x) => x.state)).toEqual(['succeeded']);
    expect(r.dispatcher.stats()).toMatchObject({ attempts: 1, succeeded: 1, failed: 0, inflight: 0, queued: 0 });
  });

  it('retries a 500 four times and succeeds on the fifth attempt, at 0, 1, 2, 4, 8 s', async () => {
    const r = await rig((_req, n) => (n <= 4 ? 500 : 200));
    const { webhook, secret } = await createWebhook(r.d, OWNER, {
      url: r.receiver.url(),
      events: ['contract.generated'],
    });
    r.dispatcher.start();
    const eventId = await r.emit('contract.generated', { contract: 'ctr_1' });
    await r.settle();
    expect(r.receiver.received).toHaveLength(5);
    const [delivery] = await r.deliveries();
    expect(delivery).toMatchObject({ state: 'succeeded', eventId, webhookId: webhook.id });
    const starts = delivery!.attempts.map((a) => Date.parse(a.at));
    expect(starts.slice(1).map((t, i) => t - starts[i]!)).toEqual([1000, 2000, 4000, 8000]);
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 200]);
    expect(delivery!.attempts.map((a) => a.error)).toEqual(['HTTP 500', 'HTTP 500', 'HTTP 500', 'HTTP 500', null]);
    for (const a of delivery!.attempts) expect(a.latencyMs).toBeGreaterThanOrEqual(0);
    // Headers and signatures of every attempt
    r.receiver.received.forEach((req, i) => {
      expect(req.headers['x-webhook-attempt']).toBe(String(i + 1));
      expect(req.headers['x-webhook-delivery']).toBe(eventId);
      expect(req.headers['x-webhook-event']).toBe('contract.generated');
      const t = Number(req.headers['x-webhook-timestamp']);
      expect(t).toBe(Math.floor(starts[i]! / 1000));
      expect(verifyWebhookSignature(req.body, String(req.headers['x-webhook-signature']), secret!, { now: t })).toBe(
        true,
      );
      expect(JSON.parse(req.body)).toEqual({
        id: eventId,
        type: 'contract.generated',
        created: expect.any(Number),
        apiVersion: 'v1',
        accountId: OWNER,
        data: { contract: 'ctr_1' },
        event: 'contract.generated',
        timestamp: expect.any(String),
        webhookId: webhook.id,
      });
    });
    const w = await getWebhook(r.d, OWNER, webhook.id);
    expect(w).toMatchObject({
      status: 'active',
      failures: 0,
      consecutiveFailures: 0,
      lastDeliveryStatus: 200,
      lastDeliveryAttempt: delivery!.attempts[4]!.at,
    });
    // The event log shows the attempts
    const log = await listWebhookEvents(r.d, OWNER, { limit: 10 });
    expect(log.items[0]!.deliveries[0]!.attempts).toHaveLength(5);
    expect(log.items[0]!.deliveries[0]!.status).toBe('succeeded');
  });

  it('marks a delivery failed after five failed attempts; redirects and timeouts are failures', async () => {
    const r = await rig(
      (req) =>
        req.path === '/redirect'
          ? { status: 302, headers: { location: '/elsewhere' } }
          : req.path === '/slow'
            ? 'hang'
            : 500,
      { timeoutMs: 300 },
    );
    const a = await createWebhook(r.d, OWNER, { url: r.receiver.url('/redirect'), events: ['contract.generated'] });
    const b = await createWebhook(r.d, OWNER, { url: r.receiver.url('/slow'), events: ['contract.compiled'] });
    const c = await createWebhook(r.d, OWNER, { url: r.receiver.url('/err'), events: ['contract.error'] });
    r.dispatcher.start();
    await r.emit('contract.generated');
    await r.emit('contract.compiled');
    await r.emit('contract.error');
    await r.settle();
    const ds = await r.deliveries();
    const of = (id: string) => ds.find((x) => x.webhookId === id)!;
    for (const id of [a.webhook.id, b.webhook.id, c.webhook.id]) {
      expect(of(id).state).toBe('failed');
      expect(of(id).attempts).toHaveLength(5);
    }
    expect(
      of(a.webhook.id).attempts.every((x) => x.statusCode === 302 && /redirect.*not followed/.test(x.error!)),
    ).toBe(true);
    expect(of(b.webhook.id).attempts.every((x) => x.statusCode === null && /timeout/.test(x.error!))).toBe(true);
    expect(r.receiver.received.filter((x) => x.path === '/elsewhere')).toHaveLength(0);
    expect(r.receiver.received.filter((x) => x.path === '/redirect')).toHaveLength(5);
    expect(await getWebhook(r.d, OWNER, a.webhook.id)).toMatchObject({
      status: 'active',
      failures: 1,
      consecutiveFailures: 1,
      lastDeliveryStatus: 302,
    });
    expect(await getWebhook(r.d, OWNER, b.webhook.id)).toMatchObject({ failures: 1, lastDeliveryStatus: null });
  });

  it('disables a subscription at the 50th consecutive failed delivery, not the 49th; a success resets the count', async () => {
    const r = await rig((req) => (JSON.parse(req.body).data.ok ? 200 : 500), {
      maxConcurrent: 32,
      perSubscription: 32,
    });
    const { webhook } = await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    r.dispatcher.start();
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++) await r.emit('vault.updated', { ok: false });
      await r.settle();
    };
    await fail(30);
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({
      status: 'active',
      consecutiveFailures: 30,
      failures: 30,
    });
    await r.emit('vault.updated', { ok: true });
    await r.settle();
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      failures: 30,
    });
    await fail(49);
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({
      status: 'active',
      consecutiveFailures: 49,
      failures: 79,
    });
    await fail(1);
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({
      status: 'disabled',
      consecutiveFailures: 50,
      failures: 80,
    });
    // Disabled: nothing more is queued or sent
    const before = r.receiver.received.length;
    await r.emit('vault.updated', { ok: true });
    await r.settle();
    expect(r.receiver.received.length).toBe(before);
    expect((await r.deliveries()).filter((x) => x.state === 'pending' || x.state === 'delivering')).toHaveLength(0);
    // Re-enabled by PATCH status active
    await updateWebhook(r.d, OWNER, webhook.id, { status: 'active' });
    await r.emit('vault.updated', { ok: true });
    await r.settle();
    expect(r.receiver.received.length).toBe(before + 1);
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });

  it('sends nothing to a paused subscription, including deliveries queued before the pause', async () => {
    const r = await rig(() => 500);
    const { webhook } = await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    await r.emit(); // queued while active, dispatcher not started yet
    await updateWebhook(r.d, OWNER, webhook.id, { status: 'paused' });
    await r.emit(); // not queued at all
    r.dispatcher.start();
    await r.settle();
    expect(r.receiver.received).toHaveLength(0);
    const ds = await r.deliveries();
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ state: 'cancelled', reason: 'subscription paused' });
  });

  it('pauses mid-retry: the remaining attempts are not sent', async () => {
    const r = await rig(() => 500);
    const { webhook } = await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    r.dispatcher.start();
    await r.emit();
    await r.dispatcher.idle();
    expect(r.receiver.received).toHaveLength(1);
    await updateWebhook(r.d, OWNER, webhook.id, { status: 'paused' });
    await r.settle();
    expect(r.receiver.received).toHaveLength(1);
    expect((await r.deliveries())[0]).toMatchObject({ state: 'cancelled', reason: 'subscription paused' });
  });

  it('checks the address again at connect time, through the injected resolver', async () => {
    let answer = ['127.0.0.1'];
    const resolve = async () => answer;
    const r = await rig(() => 200, { resolve });
    // Registered while the name resolved to a public address
    const { webhook, secret } = await createWebhook({ ...r.d, resolve: async () => ['93.184.216.34'] }, OWNER, {
      url: `https://receiver.test:${r.receiver.port}/named`,
      events: ['*'],
    });
    r.dispatcher.start();
    await r.emit();
    await r.settle();
    // Delivered over TLS to the name (SNI receiver.test), connected to the checked loopback address (allowed)
    expect(r.receiver.received).toHaveLength(1);
    expect(
      verifyWebhookSignature(
        r.receiver.received[0]!.body,
        String(r.receiver.received[0]!.headers['x-webhook-signature']),
        secret!,
        { now: Math.floor(r.time.now / 1000) },
      ),
    ).toBe(true);
    // Now the name also resolves to a private address: refused before connecting, recorded as failures
    answer = ['127.0.0.1', '10.0.0.7'];
    await r.emit();
    await r.settle();
    expect(r.receiver.received).toHaveLength(1);
    const failed = (await r.deliveries()).find((x) => x.state === 'failed')!;
    expect(failed.attempts).toHaveLength(5);
    expect(failed.attempts[0]!.error).toMatch(/address refused.*private/);
    expect(await getWebhook(r.d, OWNER, webhook.id)).toMatchObject({ failures: 1 });
  });

  it('one slow receiver cannot starve the others (bounded per subscription and overall)', async () => {
    const slowSeen: number[] = [];
    const r = await rig(
      (req) => {
        if (req.path === '/slow') {
          slowSeen.push(1);
          return { status: 200, delayMs: 60_000 };
        }
        return 200;
      },
      { maxConcurrent: 4, perSubscription: 2, timeoutMs: 60_000 },
    );
    await createWebhook(r.d, OWNER, { url: r.receiver.url('/slow'), events: ['vault.created'] });
    await createWebhook(r.d, OWNER, { url: r.receiver.url('/fast'), events: ['vault.updated'] });
    for (let i = 0; i < 10; i++) await r.emit('vault.created');
    for (let i = 0; i < 10; i++) await r.emit('vault.updated');
    r.dispatcher.start();
    try {
      // Wait until the fast subscription has everything (the receiver has seen the
      // tenth request and the dispatcher its response) while the slow one holds its two slots.
      const fast = () => r.receiver.received.filter((x) => x.path === '/fast').length;
      for (let i = 0; i < 200 && (fast() < 10 || r.dispatcher.stats().sending > 2); i++)
        await new Promise((res) => setTimeout(res, 20));
      expect(fast()).toBe(10);
      expect(slowSeen.length).toBe(2);
      expect(r.dispatcher.stats().sending).toBe(2);
    } finally {
      // Close the receiver's sockets so the slow attempts end (as failures) and stop() can finish
      await r.receiver.close();
    }
  });

  it('serves accounts in turn: one with several slow subscriptions leaves a slot to another account', async () => {
    const r = await rig((req) => (req.path === '/slow' ? { status: 200, delayMs: 60_000 } : 200), {
      maxConcurrent: 4,
      perSubscription: 2,
      timeoutMs: 60_000,
    });
    for (let i = 0; i < 4; i++)
      await createWebhook(r.d, OWNER, { url: r.receiver.url('/slow'), events: ['vault.created'] });
    await createWebhook(r.d, 'own_other', { url: r.receiver.url('/fast'), events: ['vault.created'] });
    for (let i = 0; i < 3; i++) await r.emit('vault.created');
    await r.store.transact((tx) =>
      recordEvent(tx, { type: 'vault.created', ownerId: 'own_other', data: {} }, r.time.clock),
    );
    r.dispatcher.start();
    try {
      // By subscription, the four slots went to the first account's four subscriptions, and the other account's
      // delivery waited for their minute-long requests; by account, it gets the second slot.
      const fast = () => r.receiver.received.filter((x) => x.path === '/fast').length;
      for (let i = 0; i < 200 && fast() < 1; i++) await new Promise((res) => setTimeout(res, 20));
      expect(fast()).toBe(1);
      // Meanwhile none of the first account's requests has ended: its slow receiver answers after a minute.
      expect(r.receiver.received.filter((x) => x.path === '/slow').length).toBeLessThanOrEqual(4);
    } finally {
      await r.receiver.close();
    }
  });

  it('re-sends deliveries whose lease was left by a dead process, without counting the interrupted attempt', async () => {
    const r = await rig(() => 200);
    const { webhook } = await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    const eventId = await r.emit();
    // Simulate a crash after the claim: delivering, leased by another dispatcher, attempt 1 open
    await r.store.transact(async (tx) => {
      const [dl] = await tx.findBy<DeliveryRecord>(DELIVERIES, 'eventId', eventId);
      await tx.put(DELIVERIES, {
        ...dl!,
        state: 'delivering',
        leaseOwner: 'dsp_dead',
        leaseUntil: r.time.now + 3_600_000,
        attempts: [
          {
            attempt: 1,
            at: new Date(r.time.now).toISOString(),
            finishedAt: null,
            statusCode: null,
            latencyMs: null,
            error: null,
          },
        ],
      });
    });
    r.dispatcher.start();
    await r.settle();
    expect(r.receiver.received).toHaveLength(1);
    expect(r.receiver.received[0]!.headers['x-webhook-attempt']).toBe('1');
    const [dl] = await r.deliveries();
    expect(dl).toMatchObject({ state: 'succeeded', webhookId: webhook.id, leaseOwner: null });
    expect(dl!.attempts).toMatchObject([
      { attempt: 1, interrupted: true, error: expect.stringMatching(/interrupted/) },
      { attempt: 1, statusCode: 200, error: null },
    ]);
    expect(r.dispatcher.stats().recovered).toBe(1);
  });

  it('stop() lets requests on the wire finish and returns claimed, unsent deliveries to pending', async () => {
    const r = await rig(() => ({ status: 200, delayMs: 1000 }), {
      maxConcurrent: 1,
      perSubscription: 1,
      claimAhead: 4,
    });
    await createWebhook(r.d, OWNER, { url: r.receiver.url(), events: ['*'] });
    for (let i = 0; i < 4; i++) await r.emit();
    r.dispatcher.start();
    for (let i = 0; i < 200 && r.receiver.received.length === 0; i++) await new Promise((res) => setTimeout(res, 10));
    expect(r.dispatcher.stats().sending).toBe(1);
    expect(r.dispatcher.stats().inflight).toBe(4); // one on the wire, three claimed ahead
    await r.dispatcher.stop();
    const ds = await r.deliveries();
    expect(ds.filter((x) => x.state === 'succeeded')).toHaveLength(1);
    const rest = ds.filter((x) => x.state !== 'succeeded');
    expect(rest).toHaveLength(3);
    for (const x of rest) expect(x).toMatchObject({ state: 'pending', attempts: [], leaseOwner: null });
    expect(r.receiver.received).toHaveLength(1);
  });

  it('prunes finished events past the retention period, keeping unfinished ones', async () => {
    const r = await rig((req) => (req.path === '/ok' ? 200 : 500), { retentionMs: 24 * 3600_000, pruneEveryMs: 0 });
    await createWebhook(r.d, OWNER, { url: r.receiver.url('/ok'), events: ['vault.created'] });
    r.dispatcher.start();
    const old = await r.emit('vault.created');
    await r.settle();
    r.time.advance(2 * 24 * 3600_000);
    const recent = await r.emit('vault.created');
    const orphan = await r.emit('vault.deleted'); // no subscription: no deliveries, still inside retention
    await r.settle();
    // Pruned automatically after the next outcome was recorded; nothing is left to prune
    expect(r.dispatcher.stats().pruned).toBe(1);
    expect(await r.dispatcher.prune()).toBe(0);
    expect(await r.store.get('events', old)).toBeUndefined();
    expect(await r.store.get('events', recent)).toBeDefined();
    expect(await r.store.get('events', orphan)).toBeDefined();
    expect((await r.deliveries()).map((x) => x.eventId)).toEqual([recent]);
  });

  it('never prunes an old event while one of its deliveries is pending or delivering', async () => {
    const r = await rig(() => 200, { retentionMs: 3600_000, pruneEveryMs: 0 });
    await createWebhook(r.d, OWNER, { url: r.receiver.url('/a'), events: ['vault.created'] });
    await createWebhook(r.d, OWNER, { url: r.receiver.url('/b'), events: ['vault.created'] });
    // Not started: the deliveries stay as recordEvent left them.
    const event = await r.emit('vault.created');
    r.time.advance(2 * 3600_000);
    const [a, b] = await r.deliveries();
    expect(await r.dispatcher.prune()).toBe(0); // both pending
    await r.store.put(DELIVERIES, { ...a!, state: 'succeeded' });
    await r.store.put(DELIVERIES, { ...b!, state: 'delivering' });
    expect(await r.dispatcher.prune()).toBe(0); // one still delivering
    expect(await r.store.get('events', event)).toBeDefined();
    await r.store.put(DELIVERIES, { ...b!, state: 'failed' });
    expect(await r.dispatcher.prune()).toBe(1);
    expect(await r.store.get('events', event)).toBeUndefined();
    expect(await r.deliveries()).toEqual([]);
  });
});
