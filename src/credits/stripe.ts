/**
 * The payments gateway: the one place that talks to Stripe, through the
 * official SDK only. Configured by STRIPE_SECRET_KEY,
 * STRIPE_WEBHOOK_SECRET and SVC_STRIPE_API_BASE (a local stand-in in tests).
 * Every call that creates something carries an idempotency key, so a retry
 * (by the SDK, or by us after a crash) never creates a second payment.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { ApiError } from '../core/errors.js';
import type { PaymentsConfig } from '../core/config.js';
import type { Pack } from './catalogue.js';

let sdk: typeof Stripe | undefined;

/**
 * The Stripe SDK, loaded on first use: a server without payments never loads it. Loaded with `require` because
 * verifying a webhook signature is synchronous.
 */
function stripeSdk(): typeof Stripe {
  sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return sdk;
}

/**
 * Metadata this service puts on checkout sessions and PaymentIntents. Only a
 * pointer: `svcPurchaseId` finds the purchase record of a PaymentIntent, and
 * the record (never the metadata) decides the account and the credits; any of
 * these fields that disagrees with the record makes the event ignored.
 */
export interface SvcMetadata {
  svcAccountId: string;
  /** `pur_<id>` for a checkout purchase, `rld_<id>` for an automatic reload. */
  svcPurchaseId: string;
  svcPackType: string;
  svcCredits: string;
}

export interface CheckoutRequest {
  accountId: string;
  purchaseId: string;
  pack: Pack;
  successUrl: string;
  cancelUrl: string;
  /** The account's Stripe customer from an earlier checkout, so its saved cards stay together. */
  customerId: string | undefined;
}

export interface CheckoutCreated {
  id: string;
  url: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface OffSessionCharge {
  accountId: string;
  reloadId: string;
  pack: Pack;
  customerId: string;
  paymentMethodId: string;
}

export type ChargeOutcome =
  | { status: 'succeeded'; paymentIntentId: string }
  /** Refused (declined, needs the customer): nothing was charged. */
  | { status: 'failed'; paymentIntentId: string | undefined; reason: string; code: string }
  /** Stripe could not be reached or erred: the outcome is unknown; a retry with the same idempotency key settles it. */
  | { status: 'unknown'; reason: string };

export interface PaymentIntentInfo {
  id: string;
  status: string;
  amount: number;
  currency: string;
  customerId: string | undefined;
  paymentMethodId: string | undefined;
  metadata: Record<string, string>;
}

export interface PaymentsGateway {
  createCheckout(req: CheckoutRequest): Promise<CheckoutCreated>;
  chargeOffSession(req: OffSessionCharge): Promise<ChargeOutcome>;
  /** The PaymentIntent as Stripe has it, or undefined when Stripe has none by that id; throws PaymentProviderError otherwise. */
  retrievePaymentIntent(id: string): Promise<PaymentIntentInfo | undefined>;
}

/** Verifies a webhook delivery (exact bytes and header) and returns the event; throws on a bad or stale signature. */
/** `nowMs`: the service clock (Unix ms), against which the signature's age is checked (default tolerance: 5 minutes). */
export function verifyStripeEvent(
  config: PaymentsConfig,
  rawBody: Buffer,
  signature: string | undefined,
  nowMs: number,
): Stripe.Event {
  const secret = config.stripeWebhookSecret;
  if (!secret)
    throw new ApiError(
      'PAYMENTS_NOT_CONFIGURED',
      'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET).',
    );
  if (!signature)
    throw ApiError.validation('Missing Stripe-Signature header.', [{ field: 'Stripe-Signature', reason: 'required' }]);
  try {
    return stripeSdk().webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      stripeSdk().webhooks.DEFAULT_TOLERANCE,
      undefined,
      nowMs,
    );
  } catch (err) {
    // The SDK says whether the signature did not match or the timestamp is outside the tolerance.
    const reason =
      err instanceof stripeSdk().errors.StripeSignatureVerificationError ? err.message : 'unreadable payload';
    throw ApiError.validation('The Stripe-Signature header does not verify this body.', [
      { field: 'Stripe-Signature', reason: reason.slice(0, 200) },
    ]);
  }
}

/** Stripe could not be reached or refused a call: the caller logs `message` (never a key) and answers 503. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

function providerError(err: unknown): PaymentProviderError {
  if (err instanceof stripeSdk().errors.StripeError)
    return new PaymentProviderError(
      `${err.rawType ?? err.type}${err.code ? `/${err.code}` : ''} (${err.statusCode ?? 'no status'}): ${err.message.slice(0, 200)}`,
    );
  return new PaymentProviderError(err instanceof Error ? err.message.slice(0, 200) : 'unknown error');
}

class StripeGateway implements PaymentsGateway {
  readonly #stripe: Stripe;

  constructor(secretKey: string, apiBase: string | undefined) {
    const base = apiBase ? new URL(apiBase) : undefined;
    this.#stripe = new (stripeSdk())(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutCreated> {
    const metadata = svcMetadata(req.accountId, req.purchaseId, req.pack);
    let session: Stripe.Checkout.Session;
    try {
      session = await this.#stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: req.pack.currency,
                unit_amount: req.pack.price,
                product_data: { name: `${req.pack.name} credit pack (${req.pack.credits} credits)` },
              },
            },
          ],
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          client_reference_id: req.accountId,
          metadata: { ...metadata },
          // The card is saved for automatic reloads, charged later off session.
          payment_intent_data: { setup_future_usage: 'off_session', metadata: { ...metadata } },
          ...(req.customerId ? { customer: req.customerId } : { customer_creation: 'always' as const }),
        },
        { idempotencyKey: req.purchaseId },
      );
    } catch (err) {
      throw providerError(err);
    }
    if (!session.url) throw new PaymentProviderError(`checkout session ${session.id} has no URL`);
    return { id: session.id, url: session.url, expiresAt: session.expires_at };
  }

  async chargeOffSession(req: OffSessionCharge): Promise<ChargeOutcome> {
    try {
      const pi = await this.#stripe.paymentIntents.create(
        {
          amount: req.pack.price,
          currency: req.pack.currency,
          customer: req.customerId,
          payment_method: req.paymentMethodId,
          off_session: true,
          confirm: true,
          description: `Automatic reload: ${req.pack.name} credit pack (${req.pack.credits} credits)`,
          metadata: { ...svcMetadata(req.accountId, req.reloadId, req.pack) },
        },
        { idempotencyKey: req.reloadId },
      );
      if (pi.status === 'succeeded') return { status: 'succeeded', paymentIntentId: pi.id };
      if (pi.status === 'processing') return { status: 'unknown', reason: 'the payment is still processing' };
      return {
        status: 'failed',
        paymentIntentId: pi.id,
        code: pi.status,
        reason: `the payment needs attention (${pi.status})`,
      };
    } catch (err) {
      if (err instanceof stripeSdk().errors.StripeCardError) {
        const raw = err.raw as { payment_intent?: { id?: string } } | undefined;
        return {
          status: 'failed',
          paymentIntentId: raw?.payment_intent?.id,
          code: err.code ?? 'card_error',
          reason: err.message,
        };
      }
      if (err instanceof stripeSdk().errors.StripeInvalidRequestError) {
        return {
          status: 'failed',
          paymentIntentId: undefined,
          code: err.code ?? 'invalid_request',
          reason: err.message,
        };
      }
      return { status: 'unknown', reason: err instanceof Error ? err.message.slice(0, 200) : 'unknown error' };
    }
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntentInfo | undefined> {
    let pi: Stripe.PaymentIntent;
    try {
      pi = await this.#stripe.paymentIntents.retrieve(id);
    } catch (err) {
      if (err instanceof stripeSdk().errors.StripeInvalidRequestError && err.code === 'resource_missing')
        return undefined;
      throw providerError(err);
    }
    const ref = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? undefined));
    return {
      id: pi.id,
      status: pi.status,
      amount: pi.amount,
      currency: pi.currency,
      customerId: ref(pi.customer as string | { id: string } | null),
      paymentMethodId: ref(pi.payment_method as string | { id: string } | null),
      metadata: pi.metadata ?? {},
    };
  }
}

export function svcMetadata(accountId: string, purchaseId: string, pack: Pack): SvcMetadata {
  return {
    svcAccountId: accountId,
    svcPurchaseId: purchaseId,
    svcPackType: pack.type,
    svcCredits: String(pack.credits),
  };
}

const gateways = new WeakMap<PaymentsConfig, PaymentsGateway | null>();

/** The gateway for a configuration, or undefined when Stripe is not configured (one SDK client per configuration). */
export function paymentsGateway(config: PaymentsConfig): PaymentsGateway | undefined {
  let gateway = gateways.get(config);
  if (gateway === undefined) {
    gateway = config.stripeSecretKey ? new StripeGateway(config.stripeSecretKey, config.stripeApiBase) : null;
    gateways.set(config, gateway);
  }
  return gateway ?? undefined;
}

/** The gateway, or 503 PAYMENTS_NOT_CONFIGURED. */
export function requireGateway(config: PaymentsConfig): PaymentsGateway {
  const gateway = paymentsGateway(config);
  if (!gateway) {
    throw new ApiError(
      'PAYMENTS_NOT_CONFIGURED',
      'Payments are not configured on this server (STRIPE_SECRET_KEY); credits can still be granted by an operator.',
    );
  }
  return gateway;
}
