import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERIES, EVENTS, type DeliveryRecord, type EventRecord } from '../../src/events/events.js';
import { checkCallback, WIZARD_COMPLETED } from '../../src/embed/callback.js';
import { Dispatcher, parseSignatureHeader, verifyWebhookSignature } from '../../src/webhooks/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { FakeTime, hasOpenssl, makeCert, startReceiver, type Handler, type Tls } from '../webhooks/helpers.js';
import { partnerKey } from './support.js';

// The wizard's callback: the generated contract is POSTed to the
// partner's HTTPS URL through the webhook outbox and dispatcher, signed with
// the key's embed secret, retried like a webhook, and refused when the address
// guard refuses the URL at connect time.

const PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

let tls: Tls;
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let answer: Handler = () => 200;
const time = new FakeTime();
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  tls = makeCert();
  receiver = await startReceiver(tls, (r, n) => answer(r, n));
  server = await startTestServer({ clock: time.clock, config: { webhookAllow: '127.0.0.1' } });
}, 30_000);
afterAll(async () => {
  for (const d of dispatchers) await d.stop();
  await server?.close();
  await receiver?.close();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

function dispatcher(allow: string): Dispatcher {
  const d = new Dispatcher({
    store: server.services.store,
    clock: time.clock,
    keyring: server.services.keyring,
    scheduler: time,
    ca: tls.cert,
    allow,
    jitterMs: 0,
    timeoutMs: 2000,
  });
  dispatchers.push(d);
  d.start();
  return d;
}

/** Runs the dispatcher, moving the fake clock from timer to timer, until nothing is left. */
async function settle(d: Dispatcher): Promise<void> {
  for (;;) {
    await d.idle();
    if (!time.advanceToNext()) break;
  }
  await d.idle();
}

async function setup(): Promise<{ key: string; id: string; origin: string }> {
  const origin = new URL(receiver.url()).origin;
  const { key, id } = await partnerKey(server, [origin]);
  return { key, id, origin };
}

async function rotate(key: string, graceSeconds = 0): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/embed/secret',
    headers: auth(key),
    payload: { graceSeconds },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().meta.secret;
}

async function session(key: string, origin: string, callback: string) {
  return server.app.inject({
    method: 'POST',
    url: '/api/v1/embed/sessions',
    headers: auth(key),
    payload: { origin, callback },
  });
}

async function generate(token: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/generate',
    headers: auth(token),
    payload: PLAN,
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.json();
}

const nowSeconds = () => Math.floor(time.now / 1000);
const mine = (path: string) => receiver.received.filter((r) => r.path === path);

describe.skipIf(!hasOpenssl())('the wizard callback', () => {
  it('needs the embed secret first, which is shown once', async () => {
    const { key, id, origin } = await setup();
    const refused = await session(key, origin, `${origin}/no-secret`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details[0]).toMatchObject({
      field: 'callback',
      reason: expect.stringContaining('/api/v1/embed/secret'),
    });
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/v1/embed/secret',
      headers: auth(key),
      payload: {},
    });
    expect(made.json().meta.secret).toMatch(/^whsec_/);
    expect(made.json().data).toMatchObject({ keyId: id, rotated: false, previousSecretExpiresAt: null });
    expect(made.json().data.secret).toBeUndefined();
    expect((await session(key, origin, `${origin}/no-secret`)).statusCode).toBe(201);
    // The secret is not readable afterwards.
    const got = await server.app.inject({ method: 'GET', url: `/api/v1/api-keys/${id}`, headers: auth(key) });
    expect(got.body).not.toContain(made.json().meta.secret);
  });

  it('POSTs the generated contract, signed with the embed secret, through the outbox', async () => {
    const { key, origin } = await setup();
    const secret = await rotate(key);
    const created = await session(key, origin, `${origin}/result`);
    expect(created.statusCode, created.body).toBe(201);
    const out = await generate(created.json().data.token);
    const d = dispatcher('127.0.0.1');
    await settle(d);
    const got = mine('/result');
    expect(got).toHaveLength(1);
    const r = got[0]!;
    expect(
      verifyWebhookSignature(r.body, String(r.headers['x-webhook-signature']), secret, { now: nowSeconds() }),
    ).toBe(true);
    expect(
      verifyWebhookSignature(r.body, String(r.headers['x-webhook-signature']), 'whsec_other', { now: nowSeconds() }),
    ).toBe(false);
    expect(r.headers['x-webhook-event']).toBe(WIZARD_COMPLETED);
    const payload = JSON.parse(r.body);
    expect(payload).toMatchObject({
      type: WIZARD_COMPLETED,
      apiVersion: 'v1',
      data: { origin, contractCode: out.contractCode, contractInfo: { blockchain: 'evm' } },
    });
    expect(payload.data.compiled.bytecode).toBe(out.compiled.bytecode);
    // A key's API call without a session, or a session without callback, queues nothing.
    await generate(key);
    const plain = await server.app.inject({
      method: 'POST',
      url: '/api/v1/embed/sessions',
      headers: auth(key),
      payload: { origin },
    });
    await generate(plain.json().data.token);
    await settle(d);
    expect(mine('/result')).toHaveLength(1);
    // The outbox holds one event and one succeeded delivery for it.
    const events = (await server.services.store.all<EventRecord>(EVENTS)).filter(
      (e) => e.type === WIZARD_COMPLETED && (e.data as { origin?: string }).origin === origin,
    );
    expect(events).toHaveLength(1);
    const delivery = (await server.services.store.all<DeliveryRecord>(DELIVERIES)).find(
      (x) => x.eventId === events[0]!.id,
    );
    expect(delivery).toMatchObject({ state: 'succeeded', webhookId: expect.stringMatching(/^emb_/) });
  }, 60_000);

  it('retries a failing receiver with the webhook schedule, and signs with both secrets during a rotation grace', async () => {
    const { key, origin } = await setup();
    const oldSecret = await rotate(key);
    const created = await session(key, origin, `${origin}/flaky`);
    let failures = 2;
    answer = (r) => (r.path === '/flaky' && failures-- > 0 ? 500 : 200);
    const newSecret = await rotate(key, 3600);
    await generate(created.json().data.token);
    const d = dispatcher('127.0.0.1');
    await settle(d);
    answer = () => 200;
    const got = mine('/flaky');
    expect(got).toHaveLength(3);
    expect(got.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    for (const r of got) {
      const header = String(r.headers['x-webhook-signature']);
      expect(parseSignatureHeader(header)!.v1).toHaveLength(2);
      expect(verifyWebhookSignature(r.body, header, oldSecret, { now: nowSeconds() })).toBe(true);
      expect(verifyWebhookSignature(r.body, header, newSecret, { now: nowSeconds() })).toBe(true);
    }
    const deliveries = (await server.services.store.all<DeliveryRecord>(DELIVERIES)).filter(
      (x) => (x.callback as { url?: string } | undefined)?.url === `${origin}/flaky`,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ state: 'succeeded' });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
  }, 60_000);

  it('refuses, at connect time, an address the guard no longer allows', async () => {
    const { key, origin } = await setup();
    await rotate(key);
    const created = await session(key, origin, `${origin}/refused`);
    expect(created.statusCode).toBe(201);
    // The earlier tests' dispatchers (which allow loopback) stop first: the callback is for the strict one alone.
    for (const d of dispatchers.splice(0)) await d.stop();
    await generate(created.json().data.token);
    // This dispatcher's guard has no allow-list: loopback is refused when it connects.
    const strict = dispatcher('');
    await settle(strict);
    expect(mine('/refused')).toHaveLength(0);
    const deliveries = (await server.services.store.all<DeliveryRecord>(DELIVERIES)).filter(
      (x) => (x.callback as { url?: string } | undefined)?.url === `${origin}/refused`,
    );
    expect(deliveries[0]).toMatchObject({ state: 'failed' });
    expect(deliveries[0]!.attempts).toHaveLength(5);
    for (const a of deliveries[0]!.attempts) expect(a.error).toMatch(/address refused/);
  }, 60_000);

  it("cancels a pending callback whose origin left the key's allowed origins, or whose key is revoked", async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    const { key, id, origin } = await setup();
    await rotate(key);
    const moved = await session(key, origin, `${origin}/moved`);
    await generate(moved.json().data.token);
    await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(key),
      payload: { allowedOrigins: ['https://other.example'] },
    });
    await settle(dispatcher('127.0.0.1'));
    expect(mine('/moved')).toHaveLength(0);
    const all = () => server.services.store.all<DeliveryRecord>(DELIVERIES);
    const of = async (p: string) =>
      (await all()).find((x) => (x.callback as { url?: string } | undefined)?.url === `${origin}${p}`)!;
    expect(await of('/moved')).toMatchObject({ state: 'cancelled', reason: expect.stringMatching(/origin left/) });

    await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(key),
      payload: { allowedOrigins: [origin] },
    });
    for (const d of dispatchers.splice(0)) await d.stop();
    // Made after the origin is back: the tokens made before its removal died with it, for good.
    const revoked = await session(key, origin, `${origin}/revoked`);
    await generate(revoked.json().data.token);
    await server.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: auth(key) });
    await settle(dispatcher('127.0.0.1'));
    expect(mine('/revoked')).toHaveLength(0);
    expect(await of('/revoked')).toMatchObject({ state: 'cancelled', reason: expect.stringMatching(/revoked/) });
  }, 60_000);

  it('checks the callback when the session is made: HTTPS, an allowed origin, the address guard', async () => {
    const { key, origin } = await setup();
    await rotate(key);
    const http = await session(key, origin, `${origin.replace('https:', 'http:')}/x`);
    expect(http.json().error.details[0]).toMatchObject({ field: 'callback', reason: expect.stringMatching(/https/) });
    const foreign = await session(key, origin, 'https://elsewhere.example/x');
    expect(foreign.json().error.details[0]).toMatchObject({
      field: 'callback',
      reason: expect.stringMatching(/allowed origins/),
    });
    await expect(checkCallback(`${origin}/x`, [origin], { allow: '' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(checkCallback(`${origin}/x`, [origin], { allow: '127.0.0.1' })).resolves.toBe(`${origin}/x`);
  });
});
