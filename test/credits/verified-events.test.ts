import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { settleReloads } from '../../src/credits/autoreload.js';
import {
  CREDIT_CHECKOUTS,
  CREDIT_PAYMENTS,
  CREDIT_RELOADS,
  CREDIT_STRIPE_EVENTS,
  type CheckoutRecord,
  type ReloadRecord,
} from '../../src/credits/records.js';
import { debitCredits } from '../../src/credits/spend.js';
import { PaymentProviderError, paymentsGateway } from '../../src/credits/stripe.js';
import { StoreUnavailableError } from '../../src/store/port.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { sessionHeaders } from '../support/session.js';
import { STANDIN_SECRET_KEY } from '../support/stripe-standin.js';
import { catalogueOf } from '../../src/credits/catalogue.js';
import { startCreditsHarness, type CreditsHarness } from './harness.js';

// A signed Stripe event is acted on only for a checkout session or PaymentIntent this service created: its purchase
// record decides the account and the credits, and the event must say paid, with the record's amount and currency.
// Everything else answers 200 with `ignored` and credits nothing. Over real HTTP, events signed with the SDK's helper,
// on lowdb and on PostgreSQL.

const STARTER = 100;

describe.each(['lowdb', 'postgres'] as const)('Stripe events checked against the purchase records (%s)', (engine) => {
  let h: CreditsHarness;
  let schema: string | undefined;
  const logs: string[] = [];

  beforeAll(async () => {
    schema = engine === 'postgres' ? randomSchema('svc_pay') : undefined;
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema } : {};
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        logs.push(String(chunk));
        cb();
      },
    });
    h = await startCreditsHarness({ config, log: createLogger('info', sink) });
  });
  afterEach(async () => {
    await settleReloads();
    h.standin.chargeOutcome = 'succeed';
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await h?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  const store = () => h.server.services.store;
  const price = () => catalogueOf(h.server.services.config).packs.find((p) => p.type === 'starter')!.price;

  /** Delivers an event and expects 200 with `ignored`; returns the note. */
  async function expectIgnored(event: Stripe.Event): Promise<string> {
    const res = await h.deliver(event);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      data: { received: true, eventId: event.id, handled: false, ignored: true, note: expect.any(String) },
    });
    return res.json.data!.note!;
  }

  async function expectApplied(event: Stripe.Event): Promise<void> {
    const res = await h.deliver(event);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: { handled: true, ignored: false } });
  }

  /** Nothing of the account's money moved: no ledger entry, no payment.completed, no payment or Stripe event record. */
  async function expectUntouched(accountId: string): Promise<void> {
    expect(await h.entries(accountId)).toEqual([]);
    expect(await h.events(accountId, 'payment.completed')).toEqual([]);
    expect(await store().findBy(CREDIT_PAYMENTS, 'ownerId', accountId)).toEqual([]);
    expect(await store().findBy(CREDIT_STRIPE_EVENTS, 'ownerId', accountId)).toEqual([]);
    expect(await h.checkBalance(accountId)).toBe(0);
  }

  /** A checkout session created at Stripe (the stand-in) by someone else than this service, with this service's metadata. */
  async function foreignSession(metadata: Record<string, string>, amount = 50): Promise<string> {
    const base = new URL(h.standin.url);
    const stripe = new Stripe(STANDIN_SECRET_KEY, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'not sold by svc' } },
        },
      ],
      success_url: 'https://elsewhere.example/ok',
      cancel_url: 'https://elsewhere.example/no',
      metadata,
      payment_intent_data: { metadata },
    });
    return session.id;
  }

  it('a forged session (never created anywhere) naming an account and a million credits credits nothing', async () => {
    const user = await h.user();
    const forged = {
      id: `cs_test_forged_${randomBytes(8).toString('hex')}`,
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      amount_total: 50,
      currency: 'usd',
      payment_intent: null,
      metadata: {
        svcAccountId: user.accountId,
        svcPurchaseId: 'pur_forged',
        svcPackType: 'starter',
        svcCredits: '1000000',
      },
    };
    expect(await expectIgnored(h.standin.event('checkout.session.completed', forged))).toMatch(
      /not created by this service/,
    );
    // The free variant: no payment required, amount 0.
    await expectIgnored(
      h.standin.event('checkout.session.completed', {
        ...forged,
        payment_status: 'no_payment_required',
        amount_total: 0,
      }),
    );
    await expectIgnored(h.standin.event('checkout.session.async_payment_succeeded', forged));
    await expectIgnored(
      h.standin.event('checkout.session.async_payment_failed', { ...forged, payment_status: 'unpaid' }),
    );
    await expectIgnored(
      h.standin.event('checkout.session.expired', { ...forged, status: 'expired', payment_status: 'unpaid' }),
    );
    expect(await store().get(CREDIT_CHECKOUTS, forged.id)).toBeUndefined();
    await expectUntouched(user.accountId);
    expect(await h.events(user.accountId, 'payment.failed')).toEqual([]);
    // The reason is in the log, at warning level.
    expect(
      logs.some((l) => l.includes('"level":40') && l.includes(forged.id) && l.includes('not created by this service')),
    ).toBe(true);
  });

  it('a session paid at Stripe but not created by this service (its own metadata) credits nothing, nor does its refund', async () => {
    const user = await h.user();
    const metadata = {
      svcAccountId: user.accountId,
      svcPurchaseId: 'pur_not_ours',
      svcPackType: 'starter',
      svcCredits: '1000000',
    };
    const sessionId = await foreignSession(metadata);
    const completed = h.standin.completeCheckout(sessionId);
    await expectIgnored(completed);
    const pi = h.standin.sessions.get(sessionId)!.payment_intent as string;
    // Its refund: the PaymentIntent is unknown here, and the purchase its Stripe metadata names does not exist.
    await expectIgnored(h.standin.refund(pi));
    // A PaymentIntent Stripe never heard of.
    const refund = h.standin.refund(pi);
    await expectIgnored(
      h.standin.event('charge.refunded', {
        ...(refund.data.object as Stripe.Charge),
        payment_intent: 'pi_never_existed',
      }),
    );
    await expectUntouched(user.accountId);
  });

  it('unpaid, free, zero, wrong amount, wrong currency, other-account and other-credits versions of a real session: ignored; the real one credits once', async () => {
    const a = await h.user();
    const b = await h.user();
    const bought = await h.buy(a);
    const completed = h.standin.completeCheckout(bought.checkoutSessionId);
    const real = completed.data.object as Stripe.Checkout.Session;
    expect(real.metadata!.svcAccountId).toBe(a.accountId);
    const variants: Array<Record<string, unknown>> = [
      { ...real, payment_status: 'unpaid' },
      { ...real, payment_status: 'no_payment_required', amount_total: 0 },
      { ...real, payment_status: 'no_payment_required' },
      { ...real, amount_total: 0 },
      { ...real, amount_total: 1 },
      { ...real, amount_total: real.amount_total! * 100 },
      { ...real, amount_total: null },
      { ...real, currency: 'eur' },
      { ...real, currency: null },
      { ...real, mode: 'subscription' },
      { ...real, metadata: { ...real.metadata, svcAccountId: b.accountId } },
      { ...real, metadata: { ...real.metadata, svcAccountId: 'acct_nobody' } },
      { ...real, metadata: { ...real.metadata, svcCredits: '1000000' } },
      { ...real, metadata: { ...real.metadata, svcPurchaseId: 'pur_other' } },
    ];
    const notes: string[] = [];
    for (const object of variants) {
      notes.push(await expectIgnored(h.standin.event('checkout.session.completed', object)));
      notes.push(await expectIgnored(h.standin.event('checkout.session.async_payment_succeeded', object)));
    }
    expect(notes.filter((n) => /another account/.test(n))).toHaveLength(4);
    expect(notes.filter((n) => /amount|currency/.test(n)).length).toBeGreaterThanOrEqual(12);
    await expectUntouched(a.accountId);
    await expectUntouched(b.accountId);
    expect(await store().get<CheckoutRecord>(CREDIT_CHECKOUTS, bought.checkoutSessionId)).toMatchObject({
      ownerId: a.accountId,
      status: 'open',
    });

    // The genuine event, delivered twice at once, again later, and re-sent under a new event id: credited once.
    await Promise.all([h.deliver(completed), h.deliver(completed)]);
    await h.deliver(completed);
    await expectIgnored(h.standin.event('checkout.session.completed', real));
    expect((await h.entries(a.accountId)).map((e) => [e.kind, e.amount])).toEqual([['purchase', STARTER]]);
    expect(await h.events(a.accountId, 'payment.completed')).toHaveLength(1);
    expect(await h.checkBalance(a.accountId)).toBe(STARTER);
    await expectUntouched(b.accountId);
    // A late variant naming the other account, once the session is credited: still ignored, not a 500.
    await expectIgnored(
      h.standin.event('checkout.session.completed', {
        ...real,
        metadata: { ...real.metadata, svcAccountId: b.accountId },
      }),
    );
    await expectUntouched(b.accountId);
  });

  it('asynchronous payments: only a paid async_payment_succeeded matching the record credits, once; failures are checked too', async () => {
    const a = await h.user();
    const b = await h.user();
    const bought = await h.buy(a);
    const paid = h.standin.completeCheckout(bought.checkoutSessionId).data.object as Stripe.Checkout.Session;
    // The session completes before the bank transfer clears: nothing to credit yet.
    await expectIgnored(h.standin.event('checkout.session.completed', { ...paid, payment_status: 'unpaid' }));
    await expectIgnored(
      h.standin.event('checkout.session.async_payment_succeeded', { ...paid, payment_status: 'unpaid' }),
    );
    await expectIgnored(
      h.standin.event('checkout.session.async_payment_succeeded', { ...paid, amount_total: paid.amount_total! - 1 }),
    );
    await expectIgnored(
      h.standin.event('checkout.session.async_payment_failed', {
        ...paid,
        payment_status: 'unpaid',
        metadata: { ...paid.metadata, svcAccountId: b.accountId },
      }),
    );
    await expectIgnored(
      h.standin.event('checkout.session.async_payment_failed', { ...paid, payment_status: 'unpaid', currency: 'jpy' }),
    );
    expect(await h.events(a.accountId, 'payment.failed')).toEqual([]);
    expect(await h.events(b.accountId, 'payment.failed')).toEqual([]);
    expect(await store().get<CheckoutRecord>(CREDIT_CHECKOUTS, bought.checkoutSessionId)).toMatchObject({
      status: 'open',
    });
    await expectUntouched(a.accountId);

    const succeeded = h.standin.event('checkout.session.async_payment_succeeded', paid);
    await expectApplied(succeeded);
    await expectIgnored(succeeded);
    await expectIgnored(h.standin.event('checkout.session.completed', paid));
    expect(await h.checkBalance(a.accountId)).toBe(STARTER);
    expect((await h.entries(a.accountId)).filter((e) => e.kind === 'purchase')).toHaveLength(1);

    // A genuine failure of another purchase is recorded, once.
    const second = await h.buy(a);
    const session = { ...h.standin.sessions.get(second.checkoutSessionId) };
    delete session._payment_intent_data;
    const failed = h.standin.event('checkout.session.async_payment_failed', { ...session, payment_status: 'unpaid' });
    await expectApplied(failed);
    await expectIgnored(failed);
    expect(await store().get<CheckoutRecord>(CREDIT_CHECKOUTS, second.checkoutSessionId)).toMatchObject({
      status: 'failed',
    });
    expect(await h.events(a.accountId, 'payment.failed')).toHaveLength(1);
    expect(await h.checkBalance(a.accountId)).toBe(STARTER);
  });

  it('refunds are checked against the payment record: wrong currency, amount, account or PaymentIntent reverse nothing', async () => {
    const a = await h.user();
    const b = await h.user();
    const { paymentIntentId } = await h.buyAndPay(a);
    const refund = h.standin.refund(paymentIntentId);
    const charge = refund.data.object as Stripe.Charge;
    for (const object of [
      { ...charge, currency: 'eur' },
      { ...charge, amount: charge.amount * 10, amount_refunded: charge.amount * 10 },
      { ...charge, metadata: { svcAccountId: b.accountId } },
      { ...charge, payment_intent: null },
      { ...charge, amount_refunded: -5 },
    ]) {
      await expectIgnored(h.standin.event('charge.refunded', object));
    }
    expect(await h.checkBalance(a.accountId)).toBe(STARTER);
    expect(await h.events(a.accountId, 'payment.refunded')).toEqual([]);
    await expectApplied(refund);
    await expectIgnored(refund);
    expect((await h.entries(a.accountId)).map((e) => [e.kind, e.amount])).toEqual([
      ['purchase', STARTER],
      ['reversal', -STARTER],
    ]);
    await expectUntouched(b.accountId);
  });

  it('a refund before its completion is kept only for a purchase of the account its Stripe PaymentIntent names', async () => {
    const a = await h.user();
    const b = await h.user();
    // b's genuine, still open purchase; someone pays a session of their own at Stripe whose metadata points at it for a.
    const bBought = await h.buy(b);
    const cross = await foreignSession(
      {
        svcAccountId: a.accountId,
        svcPurchaseId: bBought.purchaseId,
        svcPackType: 'starter',
        svcCredits: String(STARTER),
      },
      price(),
    );
    h.standin.completeCheckout(cross);
    expect(await expectIgnored(h.standin.refund(h.standin.sessions.get(cross)!.payment_intent))).toMatch(
      /another account/,
    );
    // ...or at a purchase of a different price.
    const cheap = await foreignSession(
      {
        svcAccountId: b.accountId,
        svcPurchaseId: bBought.purchaseId,
        svcPackType: 'starter',
        svcCredits: String(STARTER),
      },
      1,
    );
    h.standin.completeCheckout(cheap);
    expect(await expectIgnored(h.standin.refund(h.standin.sessions.get(cheap)!.payment_intent))).toMatch(/amount/);
    await expectUntouched(a.accountId);
    await expectUntouched(b.accountId);

    // The genuine early refund is kept and applied when the completion arrives.
    const completed = h.standin.completeCheckout(bBought.checkoutSessionId);
    await expectApplied(h.standin.refund(h.standin.sessions.get(bBought.checkoutSessionId)!.payment_intent));
    await expectApplied(completed);
    expect((await h.entries(b.accountId)).map((e) => e.amount)).toEqual([STARTER, -STARTER]);
    expect(await h.checkBalance(b.accountId)).toBe(0);
  });

  it('an early refund while Stripe cannot be reached to look its PaymentIntent up answers 503; the retry is applied', async () => {
    const user = await h.user();
    const bought = await h.buy(user);
    const completed = h.standin.completeCheckout(bought.checkoutSessionId);
    const refund = h.standin.refund(h.standin.sessions.get(bought.checkoutSessionId)!.payment_intent);
    const gateway = paymentsGateway(h.server.services.config.payments)!;
    vi.spyOn(gateway, 'retrievePaymentIntent').mockRejectedValue(new PaymentProviderError('connection refused'));
    const down = await h.deliver(refund);
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(
      await store().get(CREDIT_PAYMENTS, h.standin.sessions.get(bought.checkoutSessionId)!.payment_intent),
    ).toBeUndefined();
    vi.restoreAllMocks();
    await expectApplied(refund);
    await expectApplied(completed);
    expect((await h.entries(user.accountId)).map((e) => e.amount)).toEqual([STARTER, -STARTER]);
  });

  it('automatic reload PaymentIntents: settled only by events matching the reload record', async () => {
    const a = await h.user();
    const b = await h.user();
    await h.buyAndPay(a);
    const res = await h.server.app.inject({
      method: 'PUT',
      url: '/api/v1/svcloom/credits/auto-reload',
      headers: sessionHeaders(a),
      payload: { enabled: true, packType: 'starter', thresholds: [20], maxMonthlySpend: 5000 },
    });
    expect(res.statusCode).toBe(200);
    h.standin.chargeOutcome = 'server_error';
    const deps = { store: store(), clock: h.clock, config: h.server.services.config, log: h.server.services.log };
    await debitCredits(deps, a.accountId, {
      credits: 90,
      idempotencyKey: 'spend-90',
      reference: { type: 'chat_message', id: 'm90' },
      action: 'chat_message',
    });
    await settleReloads();
    const [reload] = await store().findBy<ReloadRecord>(CREDIT_RELOADS, 'ownerId', a.accountId);
    expect(reload).toMatchObject({ status: 'pending' });
    const pi = [...h.standin.paymentIntents.values()].find((p) => p.metadata?.svcPurchaseId === reload!.id)!;
    const good = { ...(pi as Stripe.PaymentIntent), status: 'succeeded' };
    for (const object of [
      { ...good, amount: good.amount * 10 },
      { ...good, currency: 'eur' },
      { ...good, status: 'processing' },
      { ...good, customer: 'cus_someone_else' },
      { ...good, metadata: { ...good.metadata, svcAccountId: b.accountId } },
      { ...good, metadata: { ...good.metadata, svcPurchaseId: 'rld_never_reserved' } },
      { ...good, metadata: {} },
    ]) {
      await expectIgnored(h.standin.event('payment_intent.succeeded', object));
    }
    await expectIgnored(
      h.standin.event('payment_intent.payment_failed', {
        ...pi,
        metadata: { ...pi.metadata, svcAccountId: b.accountId },
      }),
    );
    await expectIgnored(h.standin.event('payment_intent.payment_failed', { ...pi, amount: 1 }));
    expect(await store().get<ReloadRecord>(CREDIT_RELOADS, reload!.id)).toMatchObject({ status: 'pending' });
    expect(await h.checkBalance(a.accountId)).toBe(10);
    await expectUntouched(b.accountId);

    const event = h.standin.event('payment_intent.succeeded', good);
    await expectApplied(event);
    await expectIgnored(event);
    expect(await store().get<ReloadRecord>(CREDIT_RELOADS, reload!.id)).toMatchObject({
      status: 'succeeded',
      paymentIntentId: pi.id,
    });
    expect(await h.checkBalance(a.accountId)).toBe(10 + STARTER);
  });

  it('a valid event the store cannot apply answers 5xx (Stripe retries it) and credits once when delivered again', async () => {
    const user = await h.user();
    const { checkoutSessionId } = await h.buy(user);
    const completed = h.standin.completeCheckout(checkoutSessionId);
    vi.spyOn(store(), 'transact').mockRejectedValue(new StoreUnavailableError('the database went away'));
    const down = await h.deliver(completed);
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    await expectUntouched(user.accountId);
    vi.restoreAllMocks();
    await expectApplied(completed);
    await expectIgnored(completed);
    expect(await h.checkBalance(user.accountId)).toBe(STARTER);
  });

  it('a signed event whose object is malformed answers 200 ignored, never 5xx', async () => {
    for (const [type, object] of [
      ['checkout.session.completed', null],
      ['checkout.session.completed', { id: 42 }],
      ['checkout.session.completed', { id: 'cs_x', metadata: 'svcAccountId' }],
      ['charge.refunded', { id: 'ch_x', amount: 'lots' }],
      ['payment_intent.succeeded', []],
    ] as const) {
      await expectIgnored(h.standin.event(type, object as unknown as Record<string, unknown>));
    }
    const noData = h.standin.event('checkout.session.completed', {});
    delete (noData as { data?: unknown }).data;
    await expectIgnored(noData);
  });
});
