import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type PaymentsConfig } from '../../src/core/config.js';
import { ApiError } from '../../src/core/errors.js';
import {
  actionCost,
  catalogueOf,
  DEFAULT_CATALOGUE,
  findPack,
  parseCatalogue,
  priceList,
} from '../../src/credits/catalogue.js';
import { paymentsGateway, requireGateway, verifyStripeEvent } from '../../src/credits/stripe.js';
import {
  STANDIN_SECRET_KEY,
  STANDIN_WEBHOOK_SECRET,
  startStripeStandin,
  type StripeStandin,
} from '../support/stripe-standin.js';

// The gateway through the official SDK against the local stand-in, and the catalogue from configuration.

let standin: StripeStandin;
let payments: PaymentsConfig;
const starter = findPack(DEFAULT_CATALOGUE, 'starter')!;

beforeAll(async () => {
  standin = await startStripeStandin();
  payments = {
    stripeSecretKey: STANDIN_SECRET_KEY,
    stripeWebhookSecret: STANDIN_WEBHOOK_SECRET,
    stripeApiBase: standin.url,
    returnHosts: [],
  };
});
afterAll(async () => {
  await standin?.stop();
});

describe('catalogue', () => {
  it('has defaults with a starter pack and a price for every paid action', () => {
    expect(starter).toMatchObject({ type: 'starter', currency: 'usd' });
    expect(priceList(DEFAULT_CATALOGUE).map((p) => p.action)).toEqual([
      'chat_message',
      'media_inference',
      'voice',
      'avatar',
    ]);
    expect(actionCost(DEFAULT_CATALOGUE, 'voice', 2.2)).toBe(Math.ceil(DEFAULT_CATALOGUE.prices.voice * 2.2));
    // A photo description is promised only where a vision model can give one; the portrait's mouth does not move.
    const inference = (describesPhotos: boolean) =>
      priceList(DEFAULT_CATALOGUE, { describesPhotos }).find((p) => p.action === 'media_inference')!.description;
    expect(inference(false)).not.toMatch(/descri/i);
    expect(inference(true)).toMatch(/description of what a photo shows/);
    const avatar = priceList(DEFAULT_CATALOGUE).find((p) => p.action === 'avatar')!.description;
    expect(avatar).toMatch(/^Animated portrait/);
    expect(avatar).not.toMatch(/talking|avatar/i);
  });

  it('is overridden by SVC_CREDITS_CATALOGUE, merged over the defaults and validated at start', () => {
    const config = loadConfig(
      {},
      {
        SVC_CREDITS_CATALOGUE: JSON.stringify({
          prices: { chat_message: 3 },
          packs: [{ type: 'mini', name: 'Mini', credits: 10, price: 99, currency: 'eur' }],
        }),
      },
    );
    expect(catalogueOf(config).packs.map((p) => p.type)).toEqual(['mini']);
    expect(catalogueOf(config).prices).toEqual({ ...DEFAULT_CATALOGUE.prices, chat_message: 3 });
    expect(catalogueOf(loadConfig({}, {}))).toBe(DEFAULT_CATALOGUE);
    expect(() => catalogueOf(loadConfig({}, { SVC_CREDITS_CATALOGUE: '{not json' }))).toThrow(ConfigError);
    expect(() =>
      catalogueOf(
        loadConfig(
          {},
          {
            SVC_CREDITS_CATALOGUE: JSON.stringify({
              packs: [{ type: 'x', name: 'X', credits: -1, price: 1, currency: 'usd' }],
            }),
          },
        ),
      ),
    ).toThrow(/packs\.0\.credits/);
    expect(() => parseCatalogue(JSON.stringify({ packs: [starter, starter] }))).toThrow(/unique/);
    expect(() => parseCatalogue(JSON.stringify({ prices: { teleport: 1 } }))).toThrow(/teleport/);
  });

  it('reads the Stripe settings and refuses a malformed API base', () => {
    const c = loadConfig(
      {},
      {
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_y',
        SVC_STRIPE_API_BASE: 'http://127.0.0.1:9',
        SVC_PAYMENT_RETURN_HOSTS: 'LocalHost, 127.0.0.1',
      },
    );
    expect(c.payments).toEqual({
      stripeSecretKey: 'sk_test_x',
      stripeWebhookSecret: 'whsec_y',
      stripeApiBase: 'http://127.0.0.1:9',
      returnHosts: ['localhost', '127.0.0.1'],
    });
    expect(() => loadConfig({}, { SVC_STRIPE_API_BASE: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { SVC_STRIPE_API_BASE: 'http://127.0.0.1:9/v1' })).toThrow(ConfigError);
  });
});

describe('payments gateway (stripe SDK → stand-in)', () => {
  it('is absent without a secret key: 503 PAYMENTS_NOT_CONFIGURED', () => {
    const none: PaymentsConfig = {
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      stripeApiBase: undefined,
      returnHosts: [],
    };
    expect(paymentsGateway(none)).toBeUndefined();
    try {
      requireGateway(none);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('PAYMENTS_NOT_CONFIGURED');
      expect((err as ApiError).status).toBe(503);
    }
  });

  it('creates a payment-mode checkout session that saves the card, with our metadata and an idempotency key', async () => {
    const gateway = requireGateway(payments);
    const created = await gateway.createCheckout({
      accountId: 'acct_1',
      purchaseId: 'pur_1',
      pack: starter,
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
      customerId: undefined,
    });
    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toContain(created.id);
    const [req] = standin.calls('POST /v1/checkout/sessions');
    expect(req!.idempotencyKey).toBe('pur_1');
    expect(req!.body).toMatchObject({
      mode: 'payment',
      customer_creation: 'always',
      success_url: 'https://a.example/ok',
      cancel_url: 'https://a.example/no',
      client_reference_id: 'acct_1',
      metadata: {
        svcAccountId: 'acct_1',
        svcPurchaseId: 'pur_1',
        svcPackType: 'starter',
        svcCredits: String(starter.credits),
      },
      payment_intent_data: {
        setup_future_usage: 'off_session',
        metadata: { svcAccountId: 'acct_1', svcPurchaseId: 'pur_1' },
      },
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: String(starter.price) } }],
    });
    // The same purchase id again is the same session (Stripe's idempotency replay).
    const again = await gateway.createCheckout({
      accountId: 'acct_1',
      purchaseId: 'pur_1',
      pack: starter,
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
      customerId: undefined,
    });
    expect(again.id).toBe(created.id);
    expect(standin.sessions.size).toBe(1);
  });

  it('charges a saved card off session: success, decline and an unknown outcome are told apart', async () => {
    const gateway = requireGateway(payments);
    const cs = await gateway.createCheckout({
      accountId: 'acct_2',
      purchaseId: 'pur_2',
      pack: starter,
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
      customerId: undefined,
    });
    standin.completeCheckout(cs.id);
    const session = standin.sessions.get(cs.id)!;
    const pi = (await gateway.retrievePaymentIntent(session.payment_intent))!;
    expect(pi).toMatchObject({
      status: 'succeeded',
      customerId: session.customer,
      metadata: { svcAccountId: 'acct_2' },
    });
    expect(pi.paymentMethodId).toMatch(/^pm_/);
    // A PaymentIntent Stripe does not have is undefined, not an error.
    expect(await gateway.retrievePaymentIntent('pi_never_created')).toBeUndefined();
    const charge = (reloadId: string) =>
      gateway.chargeOffSession({
        accountId: 'acct_2',
        reloadId,
        pack: starter,
        customerId: session.customer,
        paymentMethodId: pi.paymentMethodId!,
      });
    const ok = await charge('rld_ok');
    expect(ok.status).toBe('succeeded');
    const [req] = standin.calls('POST /v1/payment_intents');
    expect(req!.body).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      amount: String(starter.price),
      customer: session.customer,
      payment_method: pi.paymentMethodId,
    });
    expect(req!.idempotencyKey).toBe('rld_ok');
    standin.chargeOutcome = 'decline';
    const declined = await charge('rld_declined');
    expect(declined).toMatchObject({ status: 'failed', code: 'card_declined' });
    standin.chargeOutcome = 'server_error';
    expect((await charge('rld_unknown')).status).toBe('unknown');
    standin.chargeOutcome = 'succeed';
  });
});

describe('webhook signature (SDK constructEvent)', () => {
  const payload = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: {} },
  });
  const now = Math.floor(Date.now() / 1000);

  it('accepts the exact bytes signed with the webhook secret', () => {
    const event = verifyStripeEvent(
      payments,
      Buffer.from(payload),
      standin.sign(payload, { timestamp: now }),
      now * 1000,
    );
    expect(event.id).toBe('evt_1');
  });

  it.each([
    ['forged (another secret)', () => standin.sign(payload, { secret: 'whsec_someone_else', timestamp: now }), payload],
    ['stale (10 minutes old)', () => standin.sign(payload, { timestamp: now - 600 }), payload],
    ['body changed after signing', () => standin.sign(payload, { timestamp: now }), payload.replace('evt_1', 'evt_2')],
    ['garbage header', () => 'nonsense', payload],
    ['missing header', () => undefined, payload],
  ])('refuses a %s signature with a 400 VALIDATION_ERROR', (_name, header, body) => {
    try {
      verifyStripeEvent(payments, Buffer.from(body), header(), now * 1000);
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).code).toBe('VALIDATION_ERROR');
      expect((err as ApiError).status).toBe(400);
    }
  });
});
