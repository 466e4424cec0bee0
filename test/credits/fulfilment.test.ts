import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debitCredits } from '../../src/credits/spend.js';
import { CREDIT_CHECKOUTS, type CheckoutRecord } from '../../src/credits/records.js';
import { DELIVERIES, type DeliveryRecord } from '../../src/events/events.js';
import { createWebhook } from '../../src/webhooks/index.js';
import { STANDIN_SECRET_KEY } from '../support/stripe-standin.js';
import { sessionHeaders } from '../support/session.js';
import { catalogueOf } from '../../src/credits/catalogue.js';
import { startCreditsHarness, type CreditsHarness } from './harness.js';

// Checkout fulfilment through POST /api/v1/payments/stripe/webhook, over real HTTP, with events signed by the SDK's helper.

let h: CreditsHarness;
const STARTER = 100;

beforeAll(async () => {
  h = await startCreditsHarness();
  expect(catalogueOf(h.server.services.config).packs.find((p) => p.type === 'starter')!.credits).toBe(STARTER);
});
afterAll(async () => {
  await h?.close();
});

const spend = (accountId: string, credits: number, key: string) =>
  debitCredits(
    { store: h.server.services.store, clock: h.clock, config: h.server.services.config, log: h.server.services.log },
    accountId,
    { credits, idempotencyKey: key, reference: { type: 'chat_message', id: key }, action: 'chat_message' },
  );

describe('checkout fulfilment', () => {
  it('a purchase records the session and payment.initiated; completion credits it and saves the card', async () => {
    const user = await h.user();
    // The account's webhook subscribers get the payment events through the outbox.
    const { webhook } = await createWebhook(
      {
        store: h.server.services.store,
        clock: h.clock,
        keyring: h.server.services.keyring,
        cursors: h.server.services.cursors,
        allow: '127.0.0.1',
      },
      user.accountId,
      { url: 'https://127.0.0.1:9/payments', name: 'payments', events: ['payment.initiated', 'payment.completed'] },
    );
    const bought = await h.buy(user);
    expect(bought.url).toContain(bought.checkoutSessionId);
    const record = await h.server.services.store.get<CheckoutRecord>(CREDIT_CHECKOUTS, bought.checkoutSessionId);
    expect(record).toMatchObject({
      ownerId: user.accountId,
      status: 'open',
      packType: 'starter',
      credits: STARTER,
      purchaseId: bought.purchaseId,
    });
    expect(await h.events(user.accountId, 'payment.initiated')).toHaveLength(1);
    const completed = h.standin.completeCheckout(bought.checkoutSessionId);
    const res = await h.deliver(completed);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: { received: true, handled: true, eventId: completed.id } });
    const wallet = await h.wallet(user.accountId);
    expect(wallet).toMatchObject({
      balance: STARTER,
      stripeCustomerId: h.standin.sessions.get(bought.checkoutSessionId)!.customer,
    });
    expect(wallet!.paymentMethodId).toMatch(/^pm_/);
    const [event] = await h.events(user.accountId, 'payment.completed');
    expect(event!.data).toMatchObject({
      checkoutSessionId: bought.checkoutSessionId,
      credits: STARTER,
      balance: STARTER,
    });
    const queued = await h.server.services.store.findBy<DeliveryRecord>(DELIVERIES, 'webhookId', webhook.id);
    expect(queued.map((d) => d.type).sort()).toEqual(['payment.completed', 'payment.initiated']);
    // A second purchase reuses the Stripe customer, so saved cards stay together.
    await h.buy(user);
    const second = h.standin.calls('POST /v1/checkout/sessions').at(-1)!;
    expect(second.body.customer).toBe(wallet!.stripeCustomerId);
    expect(second.body.customer_creation).toBeUndefined();
  });

  it('the same checkout.session.completed delivered 5 times (some at once) is credited once', async () => {
    const user = await h.user();
    const { checkoutSessionId } = await h.buy(user);
    const completed = h.standin.completeCheckout(checkoutSessionId);
    const answers = await Promise.all([h.deliver(completed), h.deliver(completed), h.deliver(completed)]);
    answers.push(await h.deliver(completed), await h.deliver(completed));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json.data!.handled)).toHaveLength(1);
    // The same session in a new event (Stripe re-sending under another id) is not credited again either.
    const resent = h.standin.event('checkout.session.completed', completed.data.object);
    expect((await h.deliver(resent)).json.data!.handled).toBe(false);
    expect((await h.entries(user.accountId)).filter((e) => e.kind === 'purchase')).toHaveLength(1);
    expect(await h.checkBalance(user.accountId)).toBe(STARTER);
    expect(await h.events(user.accountId, 'payment.completed')).toHaveLength(1);
  });

  it('a refund delivered before its completion, and both repeated: credited once, reversed once', async () => {
    const user = await h.user();
    const { checkoutSessionId } = await h.buy(user);
    const completed = h.standin.completeCheckout(checkoutSessionId);
    const refunded = h.standin.refund(h.standin.sessions.get(checkoutSessionId)!.payment_intent);
    expect((await h.deliver(refunded)).status).toBe(200);
    expect(await h.checkBalance(user.accountId)).toBe(0);
    for (const e of [completed, refunded, completed, refunded, completed])
      expect((await h.deliver(e)).status).toBe(200);
    const entries = await h.entries(user.accountId);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['purchase', STARTER],
      ['reversal', -STARTER],
    ]);
    expect(await h.checkBalance(user.accountId)).toBe(0);
    expect(await h.events(user.accountId, 'payment.refunded')).toHaveLength(1);
  });

  it('in order too: completion, then the refund 3 times: reversed once', async () => {
    const user = await h.user();
    const { paymentIntentId, completed } = await h.buyAndPay(user);
    const refunded = h.standin.refund(paymentIntentId);
    await Promise.all([h.deliver(refunded), h.deliver(refunded), h.deliver(completed), h.deliver(refunded)]);
    expect((await h.entries(user.accountId)).map((e) => e.kind)).toEqual(['purchase', 'reversal']);
    expect(await h.checkBalance(user.accountId)).toBe(0);
  });

  it('a refund of credits already spent takes the balance to zero, records the shortfall, never goes negative', async () => {
    const user = await h.user();
    const { paymentIntentId } = await h.buyAndPay(user);
    await spend(user.accountId, 70, 'spent-70');
    await h.deliver(h.standin.refund(paymentIntentId));
    const entries = await h.entries(user.accountId);
    expect(entries.at(-1)).toMatchObject({ kind: 'reversal', amount: -30, shortfall: 70, balanceAfter: 0 });
    expect(await h.wallet(user.accountId)).toMatchObject({ balance: 0, shortfall: 70 });
    const [event] = await h.events(user.accountId, 'payment.refunded');
    expect(event!.data).toMatchObject({ creditsReversed: 30, shortfall: 70, balance: 0 });
    expect(await h.checkBalance(user.accountId)).toBe(0);
  });

  it('partial refunds reverse in proportion, each refunded amount once', async () => {
    const user = await h.user();
    const { paymentIntentId } = await h.buyAndPay(user);
    const price = catalogueOf(h.server.services.config).packs[0]!.price;
    const half = h.standin.refund(paymentIntentId, price / 2);
    const rest = h.standin.refund(paymentIntentId);
    // The later (cumulative) refund first, then the earlier one: nothing is reversed twice.
    await h.deliver(rest);
    await h.deliver(half);
    await h.deliver(rest);
    expect((await h.entries(user.accountId)).map((e) => e.amount)).toEqual([STARTER, -STARTER]);
    const user2 = await h.user();
    const second = await h.buyAndPay(user2);
    await h.deliver(h.standin.refund(second.paymentIntentId, price / 2));
    expect(await h.checkBalance(user2.accountId)).toBe(STARTER / 2);
  });

  it('an expired checkout sends payment.failed once and credits nothing; a late expiry never undoes a completion', async () => {
    const user = await h.user();
    const { checkoutSessionId } = await h.buy(user);
    const expired = h.standin.expireCheckout(checkoutSessionId);
    await h.deliver(expired);
    await h.deliver(expired);
    expect(await h.server.services.store.get<CheckoutRecord>(CREDIT_CHECKOUTS, checkoutSessionId)).toMatchObject({
      status: 'expired',
    });
    const failed = await h.events(user.accountId, 'payment.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ checkoutSessionId, reason: 'checkout_expired' });
    expect(await h.checkBalance(user.accountId)).toBe(0);

    const other = await h.buyAndPay(user);
    const late = h.standin.event('checkout.session.expired', {
      ...other.completed.data.object,
      status: 'expired',
    });
    expect((await h.deliver(late)).json.data!.handled).toBe(false);
    expect(await h.server.services.store.get<CheckoutRecord>(CREDIT_CHECKOUTS, other.checkoutSessionId)).toMatchObject({
      status: 'completed',
    });
    expect(await h.checkBalance(user.accountId)).toBe(STARTER);
  });

  it('a failed checkout payment sends payment.failed once per Stripe event', async () => {
    const user = await h.user();
    const { paymentIntentId } = await h.buyAndPay(user);
    const failed = h.standin.paymentFailed(paymentIntentId);
    await h.deliver(failed);
    await h.deliver(failed);
    expect(await h.events(user.accountId, 'payment.failed')).toHaveLength(1);
    expect(await h.checkBalance(user.accountId)).toBe(STARTER);
  });

  it('a forged, stale, unsigned or altered delivery: 400 in the envelope, ledger unchanged', async () => {
    const user = await h.user();
    const { checkoutSessionId } = await h.buy(user);
    const completed = h.standin.completeCheckout(checkoutSessionId);
    const body = JSON.stringify(completed);
    const cases = [
      await h.deliver(completed, { secret: 'whsec_forged_by_someone' }),
      await h.deliver(completed, { timestamp: Math.floor(h.clock.ms / 1000) - 3600 }),
      await h.deliver(completed, { signature: null }),
      await h.deliver(completed, { signature: 'v1=deadbeef' }),
      await h.deliver(completed, {
        body: body.replace(
          `"amount_total":${completed.data.object && (completed.data.object as Stripe.Checkout.Session).amount_total}`,
          '"amount_total":1',
        ),
        signature: h.standin.sign(body, { timestamp: Math.floor(h.clock.ms / 1000) }),
      }),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR' },
        meta: { requestId: expect.any(String) },
      });
    }
    expect(await h.entries(user.accountId)).toEqual([]);
    expect(await h.events(user.accountId, 'payment.completed')).toEqual([]);
    // The genuine delivery still works afterwards.
    expect((await h.deliver(completed)).status).toBe(200);
    expect(await h.checkBalance(user.accountId)).toBe(STARTER);
  });

  it('ignores events it does not use and sessions of no account here, with a 200', async () => {
    const other = h.standin.event('customer.created', { id: 'cus_x', object: 'customer' });
    expect((await h.deliver(other)).json).toMatchObject({ success: true, data: { handled: false } });
    const foreign = h.standin.event('checkout.session.completed', {
      id: 'cs_test_foreign',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      metadata: {},
    });
    expect((await h.deliver(foreign)).json).toMatchObject({ success: true, data: { handled: false } });
  });
});

describe('without Stripe configured', () => {
  let bare: CreditsHarness;
  beforeAll(async () => {
    bare = await startCreditsHarness({ payments: false });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('purchase answers 503 PAYMENTS_NOT_CONFIGURED, the webhook too, and grants still work', async () => {
    const user = await bare.user();
    const res = await bare.server.app.inject({
      method: 'POST',
      url: '/api/svcloom/credits/purchase',
      headers: sessionHeaders(user),
      payload: { packType: 'starter', successUrl: 'https://a.example/ok', cancelUrl: 'https://a.example/no' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'PAYMENTS_NOT_CONFIGURED' } });
    const hook = await bare.deliver(bare.standin.event('checkout.session.completed', {}));
    expect(hook.status).toBe(503);
    expect(hook.json.error!.code).toBe('PAYMENTS_NOT_CONFIGURED');
    const packs = await bare.server.app.inject({
      method: 'GET',
      url: '/api/svcloom/credits/packs',
      headers: sessionHeaders(user),
    });
    expect(packs.json().data.paymentsEnabled).toBe(false);
    const grant = await bare.server.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${user.accountId}/credits`,
      headers: { authorization: `Bearer ${bare.server.adminKey}` },
      payload: { amount: 25, reason: 'beta tester' },
    });
    expect(grant.statusCode).toBe(201);
    expect(await bare.checkBalance(user.accountId)).toBe(25);
  });
});

describe('Stripe refusing the call', () => {
  let refusing: CreditsHarness;
  const logs: string[] = [];
  beforeAll(async () => {
    const { Writable } = await import('node:stream');
    const { createLogger } = await import('../../src/core/log.js');
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        logs.push(String(chunk));
        cb();
      },
    });
    refusing = await startCreditsHarness({ log: createLogger('warn', sink), secretKey: 'sk_test_wrong_key_123456' });
  });
  afterAll(async () => {
    await refusing?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE, records nothing, and logs why without the key', async () => {
    const user = await refusing.user();
    const res = await refusing.server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/credits/purchase',
      headers: sessionHeaders(user),
      payload: { packType: 'starter', successUrl: 'https://a.example/ok', cancelUrl: 'https://a.example/no' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(await refusing.events(user.accountId, 'payment.initiated')).toEqual([]);
    const line = logs.find((l) => l.includes('checkout session could not be created'));
    expect(line).toMatch(/invalid_request_error/);
    expect(logs.join('')).not.toContain('sk_test_wrong_key_123456');
    expect(logs.join('')).not.toContain(STANDIN_SECRET_KEY);
  });
});
