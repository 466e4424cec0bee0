import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { DELIVERIES, EVENTS, recordEvent, type DeliveryRecord, type EventRecord } from '../../src/events/events.js';
import type { Store } from '../../src/store/index.js';
import {
  CreateWebhookInput,
  EVENT_CATALOGUE,
  EventTypesOutput,
  ListWebhookEventsOutput,
  TestWebhookOutput,
  WebhookSchema,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listEventTypes,
  listWebhookEvents,
  listWebhooks,
  MAX_TESTS_PER_ACCOUNT,
  regenerateSecret,
  testWebhook,
  updateWebhook,
  verifyWebhookSignature,
  type WebhookDeps,
} from '../../src/webhooks/index.js';
import {
  deps as makeDeps,
  hasOpenssl,
  makeCert,
  openedSecrets,
  startReceiver,
  tempStore,
  type Tls,
} from './helpers.js';
import { z } from 'zod';

const OWNER = 'own_alice';
const OTHER = 'own_bob';
const CAROL = 'own_carol';
const publicResolver = async () => ['93.184.216.34'];

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).code;
  }
  return 'OK';
}

/** Every field of every zod object has a description. */
function undescribed(schema: z.ZodType, path = ''): string[] {
  const out: string[] = [];
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.properties && typeof n.properties === 'object') {
      for (const [k, v] of Object.entries(n.properties as Record<string, unknown>)) {
        const child = v as Record<string, unknown>;
        if (typeof child.description !== 'string' || child.description === '') out.push(`${at}.${k}`);
        walk(child, `${at}.${k}`);
      }
    }
    if (n.items) walk(n.items, `${at}[]`);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(n[key])) (n[key] as unknown[]).forEach((c) => walk(c, at));
  };
  walk(json, path);
  return out;
}

describe('webhook subscriptions', () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let d: WebhookDeps;
  let tls: Tls;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let answer = 200;

  beforeAll(async () => {
    ({ store, cleanup } = await tempStore());
    d = makeDeps(store, { now: () => new Date() }, { resolve: publicResolver });
    if (hasOpenssl()) {
      tls = makeCert();
      receiver = await startReceiver(tls, () => answer);
    }
  });
  afterAll(async () => {
    await receiver?.close();
    await cleanup();
  });

  it('every schema field is described', () => {
    const schemas = { CreateWebhookInput, WebhookSchema, TestWebhookOutput, ListWebhookEventsOutput, EventTypesOutput };
    for (const [name, s] of Object.entries(schemas)) expect(undescribed(s, name)).toEqual([]);
  });

  it('creates with shape A: generated secret returned once with a warning', async () => {
    const r = await createWebhook(d, OWNER, {
      url: 'https://hooks.example.com/a',
      name: 'A',
      events: ['contract.generated', 'contract.generated'],
    });
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.warning).toMatch(/once/);
    expect(r.webhook).toMatchObject({
      url: 'https://hooks.example.com/a',
      name: 'A',
      events: ['contract.generated'],
      status: 'active',
      failures: 0,
      consecutiveFailures: 0,
    });
    expect(r.webhook._id).toBe(r.webhook.id);
    expect(r.webhook.id).toMatch(/^wh_/);
    expect(WebhookSchema.parse(r.webhook)).toEqual(r.webhook);
    expect(JSON.stringify(await getWebhook(d, OWNER, r.webhook.id))).not.toContain(r.secret!);
    expect(JSON.stringify(await listWebhooks(d, OWNER))).not.toContain('whsec_');
  });

  it('creates with shape B: supplied secret, single event, paused', async () => {
    const r = await createWebhook(d, OWNER, {
      url: 'https://hooks.example.com/b',
      event: 'api_key.created',
      secret: 'my-own-secret-123456',
      status: 'paused',
    });
    expect(r.secret).toBeUndefined();
    expect(r.warning).toBeUndefined();
    expect(r.webhook).toMatchObject({ events: ['api_key.created'], status: 'paused', name: 'hooks.example.com' });
  });

  it('refuses bad input with VALIDATION_ERROR details', async () => {
    expect(await code(createWebhook(d, OWNER, { url: 'https://hooks.example.com/', events: ['nope.event'] }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      await code(
        createWebhook(d, OWNER, { url: 'https://hooks.example.com/', events: ['*'], event: 'contract.generated' }),
      ),
    ).toBe('VALIDATION_ERROR');
    expect(await code(createWebhook(d, OWNER, { url: 'https://hooks.example.com/' }))).toBe('VALIDATION_ERROR');
    expect(await code(createWebhook(d, OWNER, { url: 'http://hooks.example.com/', events: ['*'] }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(await code(createWebhook(d, OWNER, { url: 'https://10.0.0.1/', events: ['*'] }))).toBe('VALIDATION_ERROR');
    // A host name that resolves to a private address
    const priv = { ...d, resolve: async () => ['192.168.0.10'] };
    try {
      await createWebhook(priv, OWNER, { url: 'https://sneaky.example/', events: ['*'] });
      throw new Error('accepted');
    } catch (err) {
      expect((err as ApiError).details?.[0]).toMatchObject({
        field: 'url',
        reason: 'host "sneaky.example" resolves to a private address',
      });
    }
    try {
      await createWebhook(d, OWNER, { url: 'https://hooks.example.com/', events: ['contract.generated', 'bad.one'] });
    } catch (err) {
      expect((err as ApiError).details).toEqual([{ field: 'events[1]', reason: expect.stringContaining('bad.one') }]);
    }
  });

  it("keeps owners apart: another owner's id answers NOT_FOUND everywhere", async () => {
    const { webhook } = await createWebhook(d, OWNER, { url: 'https://hooks.example.com/own', events: ['*'] });
    expect((await listWebhooks(d, OTHER)).map((w) => w.id)).not.toContain(webhook.id);
    expect(await code(getWebhook(d, OTHER, webhook.id))).toBe('NOT_FOUND');
    expect(await code(updateWebhook(d, OTHER, webhook.id, { name: 'x' }))).toBe('NOT_FOUND');
    expect(await code(deleteWebhook(d, OTHER, webhook.id))).toBe('NOT_FOUND');
    expect(await code(regenerateSecret(d, OTHER, webhook.id))).toBe('NOT_FOUND');
    expect(await code(testWebhook(d, OTHER, webhook.id))).toBe('NOT_FOUND');
    expect(await code(getWebhook(d, OWNER, 'wh_01JD0000000000000000000000'))).toBe('NOT_FOUND');
    expect((await getWebhook(d, OWNER, webhook.id)).id).toBe(webhook.id);
  });

  it('updates events, url, name and status; re-enabling resets the failure count', async () => {
    const { webhook } = await createWebhook(d, OWNER, {
      url: 'https://hooks.example.com/u',
      events: ['contract.generated'],
    });
    const u1 = await updateWebhook(d, OWNER, webhook.id, {
      events: ['contract.compiled', '*'],
      name: 'renamed',
      url: 'https://hooks.example.com/u2',
    });
    expect(u1).toMatchObject({ events: ['*'], name: 'renamed', url: 'https://hooks.example.com/u2' });
    expect(await code(updateWebhook(d, OWNER, webhook.id, { url: 'https://127.0.0.2/' }))).toBe('VALIDATION_ERROR');
    // Simulate a disabled subscription with failures
    await store.transact(async (tx) => {
      const r = (await tx.get<Record<string, unknown> & { id: string }>('webhooks', webhook.id))!;
      await tx.put('webhooks', { ...r, status: 'disabled', consecutiveFailures: 50 });
    });
    expect((await updateWebhook(d, OWNER, webhook.id, { status: 'paused' })).status).toBe('paused');
    const back = await updateWebhook(d, OWNER, webhook.id, { status: 'active' });
    expect(back).toMatchObject({ status: 'active', consecutiveFailures: 0 });
    expect((await updateWebhook(d, OWNER, webhook.id, { event: 'api_key.revoked' })).events).toEqual([
      'api_key.revoked',
    ]);
  });

  it('fans out events to the owner’s active, matching subscriptions in the same write', async () => {
    const { store: s, cleanup: c } = await tempStore();
    try {
      const dd = makeDeps(s, { now: () => new Date() }, { resolve: publicResolver });
      const all = await createWebhook(dd, OWNER, { url: 'https://hooks.example.com/1', events: ['*'] });
      const one = await createWebhook(dd, OWNER, {
        url: 'https://hooks.example.com/2',
        events: ['contract.generated'],
      });
      const paused = await createWebhook(dd, OWNER, {
        url: 'https://hooks.example.com/3',
        events: ['*'],
        status: 'paused',
      });
      const other = await createWebhook(dd, OTHER, { url: 'https://hooks.example.com/4', events: ['*'] });
      const e1 = await s.transact(async (tx) =>
        recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: { n: 1 } }, dd.clock),
      );
      const e2 = await s.transact(async (tx) =>
        recordEvent(tx, { type: 'api_key.created', ownerId: OWNER, data: {} }, dd.clock),
      );
      const byEvent = async (id: string) =>
        (await s.findBy<DeliveryRecord>(DELIVERIES, 'eventId', id)).map((x) => x.webhookId).sort();
      expect(await byEvent(e1.id)).toEqual([all.webhook.id, one.webhook.id].sort());
      expect(await byEvent(e2.id)).toEqual([all.webhook.id]);
      const ds = await s.all<DeliveryRecord>(DELIVERIES);
      expect(ds.some((x) => x.webhookId === paused.webhook.id || x.webhookId === other.webhook.id)).toBe(false);
      expect(ds.every((x) => x.state === 'pending' && x.attempts.length === 0)).toBe(true);
      // A failing transaction leaves neither the event nor its deliveries
      await expect(
        s.transact(async (tx) => {
          await recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: {} }, dd.clock);
          throw new Error('effect failed');
        }),
      ).rejects.toThrow('effect failed');
      expect(await s.count(EVENTS)).toBe(2);
      expect(await s.count(DELIVERIES)).toBe(3);
    } finally {
      await c();
    }
  });

  it('rotates the secret, optionally keeping the old one signing for a grace period', async () => {
    const created = await createWebhook(d, OWNER, { url: 'https://hooks.example.com/r', events: ['*'] });
    const r = await regenerateSecret(d, OWNER, created.webhook.id);
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(created.secret);
    expect(r.warning).toMatch(/once/);
    const stored = await openedSecrets(store, created.webhook.id);
    expect(stored.secret).toBe(r.secret);
    expect(stored?.previousSecret).toBeNull();
    const g = await regenerateSecret(d, OWNER, created.webhook.id, { graceSeconds: 3600 });
    const stored2 = await openedSecrets(store, created.webhook.id);
    expect(stored2).toMatchObject({ secret: g.secret, previousSecret: r.secret });
  });

  it('deletes a subscription and cancels its pending deliveries', async () => {
    const { webhook } = await createWebhook(d, OWNER, {
      url: 'https://hooks.example.com/del',
      events: ['vault.created'],
    });
    const e = await store.transact(async (tx) =>
      recordEvent(tx, { type: 'vault.created', ownerId: OWNER, data: {} }, d.clock),
    );
    expect(await deleteWebhook(d, OWNER, webhook.id)).toEqual({ id: webhook.id, deleted: true });
    expect(await code(getWebhook(d, OWNER, webhook.id))).toBe('NOT_FOUND');
    const ds = (await store.findBy<DeliveryRecord>(DELIVERIES, 'eventId', e.id)).filter(
      (x) => x.webhookId === webhook.id,
    );
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ state: 'cancelled', reason: 'subscription deleted' });
  });

  it('serves the whole event catalogue, marking what is emitted', () => {
    const out = EventTypesOutput.parse(listEventTypes());
    const names = out.types.map((t) => t.type);
    for (const n of [
      'contract.generated',
      'contract.compiled',
      'contract.deployed',
      'contract.verified',
      'contract.error',
      'vault.created',
      'vault.updated',
      'vault.deleted',
      'vault.accessed',
      'verification.started',
      'verification.complete',
      'verification.failed',
      'verification.expired',
      'payment.initiated',
      'payment.completed',
      'payment.failed',
      'payment.refunded',
      'deadman.warning',
      'deadman.triggered',
      'deadman.reset',
      'deadman.cancelled',
      'deadman.claimed',
      'test.webhook',
      'user.created',
      'user.updated',
      'api_key.created',
      'api_key.revoked',
    ]) {
      expect(names).toContain(n);
    }
    expect(names).toHaveLength(new Set(names).size);
    const emitted = EVENT_CATALOGUE.filter((t) => t.emitted)
      .map((t) => t.type)
      .sort();
    expect(emitted).toEqual([
      'api_key.created',
      'api_key.revoked',
      'contract.compiled',
      'contract.deployed',
      'contract.error',
      'contract.generated',
      'contract.verified',
      'credits.low_balance',
      'deadman.cancelled',
      'deadman.claimed',
      'deadman.reset',
      'deadman.triggered',
      'deadman.warning',
      'payment.completed',
      'payment.failed',
      'payment.initiated',
      'payment.refunded',
      'test.webhook',
      'user.created',
      'user.updated',
      'verification.complete',
      'verification.failed',
      'verification.started',
    ]);
    expect(out.wildcard).toBe('*');
  });

  it.skipIf(!hasOpenssl())('test_webhook makes a real signed delivery and records it in the event log', async () => {
    const secretDeps = { ...d, ca: tls.cert, resolve: undefined };
    const { webhook, secret } = await createWebhook(secretDeps, OWNER, {
      url: receiver.url('/test-hook'),
      events: ['contract.generated'],
    });
    answer = 200;
    const before = receiver.received.length;
    const r = await testWebhook(secretDeps, OWNER, webhook.id);
    expect(TestWebhookOutput.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      delivered: true,
      statusCode: 200,
      payload: { type: 'test.webhook', event: 'test.webhook', apiVersion: 'v1', webhookId: webhook.id },
    });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    const got = receiver.received[before]!;
    expect(got.path).toBe('/test-hook');
    expect(JSON.parse(got.body)).toEqual(r.payload);
    expect(got.headers['x-webhook-event']).toBe('test.webhook');
    expect(got.headers['x-webhook-delivery']).toBe(r.payload.id);
    expect(got.headers['x-webhook-attempt']).toBe('1');
    expect(verifyWebhookSignature(got.body, String(got.headers['x-webhook-signature']), secret!)).toBe(true);
    answer = 503;
    const bad = await testWebhook(secretDeps, OWNER, webhook.id);
    expect(bad).toMatchObject({ delivered: false, statusCode: 503, error: 'HTTP 503' });
    const log = await listWebhookEvents(d, OWNER, { limit: 5 });
    const entry = log.items.find((e) => e.id === bad.payload.id);
    expect(entry?.deliveries[0]).toMatchObject({
      webhookId: webhook.id,
      status: 'failed',
      attempts: [{ attempt: 1, statusCode: 503 }],
    });
    // An address refused at connect time is a recorded failure, not an exception
    const refused = await testWebhook({ ...secretDeps, allow: '' }, OWNER, webhook.id);
    expect(refused).toMatchObject({
      delivered: false,
      statusCode: null,
      error: expect.stringMatching(/address refused.*loopback/),
    });
  });

  it.skipIf(!hasOpenssl())('test_webhook: an account has at most two test deliveries under way', async () => {
    // Tests are sent outside the dispatcher's bounds: many at once to a receiver that never answers held a
    // connection each for the whole timeout.
    const slow = await startReceiver(tls, (_r, n) => (n <= MAX_TESTS_PER_ACCOUNT ? 'hang' : 200));
    try {
      const slowDeps = { ...d, ca: tls.cert, resolve: undefined };
      const { webhook } = await createWebhook(slowDeps, CAROL, { url: slow.url(), events: ['*'] });
      const held = Array.from({ length: MAX_TESTS_PER_ACCOUNT }, () => testWebhook(slowDeps, CAROL, webhook.id));
      while (slow.received.length < MAX_TESTS_PER_ACCOUNT) await new Promise((r) => setTimeout(r, 10));
      const err = await testWebhook(slowDeps, CAROL, webhook.id).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('CONFLICT');
      expect(slow.received).toHaveLength(MAX_TESTS_PER_ACCOUNT);
      // Another account is not held up by this one.
      const other = await createWebhook(slowDeps, OWNER, { url: slow.url(), events: ['*'] });
      expect(await testWebhook(slowDeps, OWNER, other.webhook.id)).toMatchObject({ delivered: true });
      await slow.close(); // the held attempts fail, and their places are given back
      expect((await Promise.all(held)).map((r) => r.delivered)).toEqual([false, false]);
      expect(await testWebhook(slowDeps, CAROL, webhook.id)).toMatchObject({ delivered: false });
      await deleteWebhook(slowDeps, OWNER, other.webhook.id);
    } finally {
      await slow.close();
    }
  });

  it('pages the event log newest first, stable while new events arrive, scoped to the owner', async () => {
    const { store: s, cleanup: c } = await tempStore();
    try {
      const dd = makeDeps(s, { now: () => new Date() });
      const first: EventRecord[] = [];
      for (let i = 0; i < 25; i++)
        first.push(
          await s.transact(async (tx) =>
            recordEvent(tx, { type: 'contract.generated', ownerId: OWNER, data: { i } }, dd.clock),
          ),
        );
      await s.transact(async (tx) =>
        recordEvent(tx, { type: 'contract.generated', ownerId: OTHER, data: {} }, dd.clock),
      );
      const seen: string[] = [];
      let page = await listWebhookEvents(dd, OWNER, { limit: 10 });
      expect(ListWebhookEventsOutput.parse(page)).toEqual(page);
      expect(page.items.map((e) => e.data.i)).toEqual([24, 23, 22, 21, 20, 19, 18, 17, 16, 15]);
      seen.push(...page.items.map((e) => e.id));
      let added = 0;
      while (page.pagination.nextCursor) {
        // New events arrive between pages
        for (let k = 0; k < 3; k++, added++)
          await s.transact(async (tx) =>
            recordEvent(tx, { type: 'contract.compiled', ownerId: OWNER, data: { added } }, dd.clock),
          );
        const cursor = page.pagination.nextCursor;
        expect(await code(listWebhookEvents(dd, OTHER, { cursor, limit: 10 }))).toBe('VALIDATION_ERROR');
        page = await listWebhookEvents(dd, OWNER, { cursor, limit: 10 });
        expect(page.pagination.cursor).toBe(cursor);
        seen.push(...page.items.map((e) => e.id));
      }
      expect(page.pagination.hasMore).toBe(false);
      expect(seen).toEqual(first.map((e) => e.id).reverse());
      const fresh = await listWebhookEvents(dd, OWNER, { limit: 100 });
      expect(fresh.items).toHaveLength(25 + added);
      expect(fresh.items.every((e) => e.type !== undefined)).toBe(true);
    } finally {
      await c();
    }
  });
});
