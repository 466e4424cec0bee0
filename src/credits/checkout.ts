/**
 * Buying packs through Stripe Checkout, and applying what Stripe reports back.
 *
 * purchase: validates, creates the checkout session (outside any transaction,
 * idempotency key = our purchase id), then records it with a payment.initiated
 * event. If that record were lost, fulfilment still works from the session's
 * metadata, so money taken is never credits lost.
 *
 * Webhook events are applied in one transaction each, together with the id of
 * the Stripe event (deliveries repeat) and keyed on the session or
 * PaymentIntent they concern (the same session can arrive in several events,
 * in any order): a completed session is credited exactly once, a refund
 * reversed at most once per refunded amount.
 */
import type Stripe from 'stripe';
import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import { ACCOUNTS } from '../accounts/records.js';
import type { Tx } from '../store/port.js';
import { findPack, type Pack } from './catalogue.js';
import { recordReloadOutcome, type CreditDeps } from './autoreload.js';
import { appendInTx, inAccount, loadWalletInTx, saveWalletInTx } from './ledger.js';
import { applyRefundInTx, completePaymentInTx, emitInTx } from './payments.js';
import {
  CREDIT_CHECKOUTS,
  CREDIT_PAYMENTS,
  CREDIT_STRIPE_EVENTS,
  CREDIT_WALLETS,
  type CheckoutRecord,
  type PaymentRecord,
  type StripeEventRecord,
  type WalletRecord,
} from './records.js';
import { PaymentProviderError, paymentsGateway, requireGateway, type CheckoutCreated, type SvcMetadata } from './stripe.js';

export const PurchaseInput = z
  .object({
    packType: z.string().min(1).max(40).describe('The pack to buy (see GET /packs), e.g. starter.'),
    successUrl: z.string().min(1).max(2048).describe('Where checkout sends the buyer after paying; HTTPS (or a host the operator allows). May contain {CHECKOUT_SESSION_ID}.'),
    cancelUrl: z.string().min(1).max(2048).describe('Where checkout sends the buyer who cancels; HTTPS (or a host the operator allows).'),
  })
  .strict()
  .describe('A pack to buy and where to return.');

export const PurchaseOutput = z
  .object({
    checkoutSessionId: z.string().describe('The Stripe checkout session id (cs_...).'),
    url: z.string().describe('Send the buyer here to pay.'),
    expiresAt: z.string().describe('When the checkout session expires unpaid, ISO 8601.'),
    purchaseId: z.string().describe('This service\'s id of the purchase (pur_...).'),
    packType: z.string().describe('The pack bought.'),
    credits: z.number().int().describe('Credits added once the payment completes.'),
    amount: z.number().int().describe('Price in minor units.'),
    currency: z.string().describe('ISO 4217 currency, lowercase.'),
  })
  .describe('A checkout session to pay for a pack.');

/** A return URL must be HTTPS, or on a host the operator allows (SVC_PAYMENT_RETURN_HOSTS). */
function returnUrlProblem(field: string, raw: string, allowedHosts: readonly string[]): ErrorDetail | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { field, reason: 'not an absolute URL' };
  }
  if (url.username || url.password) return { field, reason: 'must not contain credentials' };
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowedHosts.includes(url.hostname.toLowerCase().replace(/^\[|\]$/g, ''))) return undefined;
  return { field, reason: 'must be an https:// URL' };
}

export async function purchase(deps: CreditDeps, accountId: string, input: z.output<typeof PurchaseInput>): Promise<z.infer<typeof PurchaseOutput>> {
  const details: ErrorDetail[] = [];
  const pack = findPack(deps.config.credits, input.packType);
  if (!pack) details.push({ field: 'packType', reason: `no pack "${input.packType}"; choose one of ${deps.config.credits.packs.map((p) => p.type).join(', ')}` });
  for (const [field, raw] of [['successUrl', input.successUrl], ['cancelUrl', input.cancelUrl]] as const) {
    const problem = returnUrlProblem(field, raw, deps.config.payments.returnHosts);
    if (problem) details.push(problem);
  }
  if (details.length || !pack) throw ApiError.validation('Invalid purchase.', details);
  const gateway = requireGateway(deps.config.payments);
  const wallet = await deps.store.get<WalletRecord>(CREDIT_WALLETS, accountId);
  const purchaseId = `pur_${ulid()}`;
  let session: CheckoutCreated;
  try {
    session = await gateway.createCheckout({
      accountId,
      purchaseId,
      pack,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      customerId: wallet?.stripeCustomerId ?? undefined,
    });
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.warn({ accountId, purchaseId, reason: err.message }, 'checkout session could not be created');
    throw new ApiError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached or refused the request; try again shortly.');
  }
  const expiresAt = new Date(session.expiresAt * 1000).toISOString();
  await inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const record: CheckoutRecord = {
      id: session.id,
      ownerId: accountId,
      purchaseId,
      packType: pack.type,
      credits: pack.credits,
      amount: pack.price,
      currency: pack.currency,
      status: 'open',
      url: session.url,
      expiresAt,
      paymentIntentId: null,
      createdAt: now.toISOString(),
      completedAt: null,
    };
    // A completion delivered before this commit already wrote the record: it wins.
    if (await tx.get(CREDIT_CHECKOUTS, session.id)) return;
    await tx.put(CREDIT_CHECKOUTS, record);
    await emitInTx(
      tx,
      accountId,
      'payment.initiated',
      { kind: 'checkout', checkoutSessionId: session.id, purchaseId, packType: pack.type, credits: pack.credits, amount: pack.price, currency: pack.currency },
      now,
    );
  });
  return { checkoutSessionId: session.id, url: session.url, expiresAt, purchaseId, packType: pack.type, credits: pack.credits, amount: pack.price, currency: pack.currency };
}

// ---- Webhook events ----

export interface HandledEvent {
  /** False when the event is not one this service acts on, or names nothing of ours. */
  handled: boolean;
  note: string;
}

const ignored = (note: string): HandledEvent => ({ handled: false, note });
const idOf = (v: string | { id: string } | null | undefined): string | undefined => (typeof v === 'string' ? v : (v?.id ?? undefined));

function metadataOf(obj: { metadata?: Stripe.Metadata | null }): Partial<SvcMetadata> {
  return (obj.metadata ?? {}) as Partial<SvcMetadata>;
}

/** Whether the Stripe event was applied already; otherwise marks it (in the same transaction as its effects). */
async function firstDelivery(tx: Tx, accountId: string, event: Stripe.Event, now: Date): Promise<boolean> {
  if (await tx.get(CREDIT_STRIPE_EVENTS, event.id)) return false;
  const record: StripeEventRecord = { id: event.id, ownerId: accountId, type: event.type, processedAt: now.toISOString() };
  await tx.put(CREDIT_STRIPE_EVENTS, record);
  return true;
}

/** The account a session or PaymentIntent belongs to, if it is ours and the account exists. */
async function ourAccount(deps: CreditDeps, metadata: Partial<SvcMetadata>): Promise<string | undefined> {
  const accountId = metadata.svcAccountId;
  if (!accountId) return undefined;
  return (await deps.store.get(ACCOUNTS, accountId)) ? accountId : undefined;
}

/** Applies one verified Stripe event. `deps.store` is the raw store (events concern any account). */
export async function handleStripeEvent(deps: CreditDeps, event: Stripe.Event): Promise<HandledEvent> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(deps, event, event.data.object);
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return sessionFailed(deps, event, event.data.object);
    case 'charge.refunded':
      return chargeRefunded(deps, event, event.data.object);
    case 'payment_intent.payment_failed':
    case 'payment_intent.succeeded':
      return paymentIntentUpdate(deps, event, event.data.object);
    default:
      return ignored(`event type ${event.type} is not used`);
  }
}

function sessionPack(deps: CreditDeps, session: Stripe.Checkout.Session, record: CheckoutRecord | undefined): Pick<Pack, 'type' | 'credits'> | undefined {
  if (record) return { type: record.packType, credits: record.credits };
  const meta = metadataOf(session);
  const credits = Number(meta.svcCredits);
  if (meta.svcPackType && Number.isSafeInteger(credits) && credits > 0) return { type: meta.svcPackType, credits };
  const pack = meta.svcPackType ? findPack(deps.config.credits, meta.svcPackType) : undefined;
  return pack ? { type: pack.type, credits: pack.credits } : undefined;
}

async function sessionPaid(deps: CreditDeps, event: Stripe.Event, session: Stripe.Checkout.Session): Promise<HandledEvent> {
  if (session.mode !== 'payment') return ignored('not a payment session');
  const accountId = await ourAccount(deps, metadataOf(session));
  if (!accountId) return ignored('session of no account here');
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  const paymentIntentId = idOf(session.payment_intent as string | { id: string } | null);
  // A repeated delivery of a session credited already needs no call to Stripe (the transaction below decides anyway).
  const known = await deps.store.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
  if (known?.status === 'completed') return ignored('session already credited');
  // The saved card, for automatic reloads (best effort: crediting does not wait on it).
  let paymentMethodId: string | undefined;
  const gateway = paymentsGateway(deps.config.payments);
  if (paid && paymentIntentId && gateway) {
    try {
      paymentMethodId = (await gateway.retrievePaymentIntent(paymentIntentId)).paymentMethodId;
    } catch (err) {
      deps.log.warn({ err, accountId, paymentIntentId }, 'could not read the payment method of a completed checkout');
    }
  }
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    if (!(await firstDelivery(tx, accountId, event, now))) return ignored('event already applied');
    const record = await tx.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
    if (record?.status === 'completed') return ignored('session already credited');
    const pack = sessionPack(deps, session, record);
    if (!pack) {
      deps.log.error({ accountId, checkoutSessionId: session.id }, 'a paid checkout session names no pack; not credited');
      return ignored('session names no pack');
    }
    const checkout: CheckoutRecord = record ?? {
      id: session.id,
      ownerId: accountId,
      purchaseId: metadataOf(session).svcPurchaseId ?? `pur_${session.id}`,
      packType: pack.type,
      credits: pack.credits,
      amount: session.amount_total ?? 0,
      currency: session.currency ?? 'usd',
      status: 'open',
      url: null,
      expiresAt: session.expires_at ? new Date(session.expires_at * 1000).toISOString() : null,
      paymentIntentId: null,
      createdAt: now.toISOString(),
      completedAt: null,
    };
    if (!paid) {
      checkout.status = 'awaiting_payment';
      await tx.put(CREDIT_CHECKOUTS, checkout);
      return { handled: true, note: 'awaiting an asynchronous payment' };
    }
    const wallet = await loadWalletInTx(tx, accountId, now);
    const customer = idOf(session.customer as string | { id: string } | null);
    if (customer) wallet.stripeCustomerId = customer;
    if (paymentMethodId) wallet.paymentMethodId = paymentMethodId;
    checkout.status = 'completed';
    checkout.completedAt = now.toISOString();
    checkout.paymentIntentId = paymentIntentId ?? null;
    const amount = session.amount_total ?? checkout.amount;
    const currency = session.currency ?? checkout.currency;
    const ledgerKey = `checkout:${session.id}`;
    const reference = { type: 'checkout_session', id: session.id };
    if (paymentIntentId) {
      await completePaymentInTx(
        tx,
        wallet,
        { id: paymentIntentId, ownerId: accountId, source: 'checkout', purchaseId: checkout.purchaseId, checkoutSessionId: session.id, credits: pack.credits, amount, currency },
        ledgerKey,
        reference,
        now,
      );
    } else {
      await appendInTx(tx, wallet, { kind: 'purchase', amount: pack.credits, idempotencyKey: ledgerKey, reference }, now);
    }
    await emitInTx(
      tx,
      accountId,
      'payment.completed',
      {
        kind: 'checkout',
        checkoutSessionId: session.id,
        purchaseId: checkout.purchaseId,
        paymentIntentId: paymentIntentId ?? null,
        packType: pack.type,
        credits: pack.credits,
        amount,
        currency,
        balance: wallet.balance,
      },
      now,
    );
    await tx.put(CREDIT_CHECKOUTS, checkout);
    await saveWalletInTx(tx, wallet, now);
    return { handled: true, note: `credited ${pack.credits}` };
  });
}

async function sessionFailed(deps: CreditDeps, event: Stripe.Event, session: Stripe.Checkout.Session): Promise<HandledEvent> {
  const accountId = await ourAccount(deps, metadataOf(session));
  if (!accountId) return ignored('session of no account here');
  const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    if (!(await firstDelivery(tx, accountId, event, now))) return ignored('event already applied');
    const record = await tx.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
    // Completion is final: a late expiry or failure notice changes nothing.
    if (record?.status === 'completed') return ignored('session already completed');
    if (record?.status === status) return ignored(`session already ${status}`);
    if (record) {
      record.status = status;
      record.url = null;
      await tx.put(CREDIT_CHECKOUTS, record);
    }
    await emitInTx(
      tx,
      accountId,
      'payment.failed',
      {
        kind: 'checkout',
        checkoutSessionId: session.id,
        purchaseId: record?.purchaseId ?? metadataOf(session).svcPurchaseId ?? null,
        reason: status === 'expired' ? 'checkout_expired' : 'payment_failed',
      },
      now,
    );
    return { handled: true, note: `session ${status}` };
  });
}

async function chargeRefunded(deps: CreditDeps, event: Stripe.Event, charge: Stripe.Charge): Promise<HandledEvent> {
  const paymentIntentId = idOf(charge.payment_intent as string | { id: string } | null);
  if (!paymentIntentId) return ignored('charge without a PaymentIntent');
  let accountId: string | undefined;
  let meta: Partial<SvcMetadata> = metadataOf(charge);
  const known = await deps.store.get<PaymentRecord>(CREDIT_PAYMENTS, paymentIntentId);
  if (known) accountId = known.ownerId;
  else {
    // The refund arrived before the payment's completion: the PaymentIntent's metadata says whose it is.
    if (!meta.svcAccountId) {
      const gateway = paymentsGateway(deps.config.payments);
      if (!gateway) return ignored('payment unknown and payments not configured');
      meta = (await gateway.retrievePaymentIntent(paymentIntentId)).metadata as Partial<SvcMetadata>;
    }
    accountId = await ourAccount(deps, meta);
  }
  if (!accountId) return ignored('payment of no account here');
  const owner = accountId;
  return inAccount(deps.store, owner, async (tx) => {
    const now = deps.clock.now();
    if (!(await firstDelivery(tx, owner, event, now))) return ignored('event already applied');
    const payment = await tx.get<PaymentRecord>(CREDIT_PAYMENTS, paymentIntentId);
    if (!payment) {
      const credits = Number(meta.svcCredits);
      const pending: PaymentRecord = {
        id: paymentIntentId,
        ownerId: owner,
        source: meta.svcPurchaseId?.startsWith('rld_') ? 'auto_reload' : 'checkout',
        purchaseId: meta.svcPurchaseId ?? null,
        checkoutSessionId: null,
        status: 'pending',
        credits: Number.isSafeInteger(credits) ? credits : 0,
        amount: charge.amount,
        currency: charge.currency,
        refundedAmount: charge.amount_refunded,
        reversedCredits: 0,
        shortfall: 0,
        createdAt: now.toISOString(),
      };
      await tx.put(CREDIT_PAYMENTS, pending);
      return { handled: true, note: 'refund kept until the payment completes' };
    }
    const wallet = await loadWalletInTx(tx, owner, now);
    const before = payment.reversedCredits;
    await applyRefundInTx(tx, wallet, payment, charge.amount_refunded, now);
    await tx.put(CREDIT_PAYMENTS, payment);
    await saveWalletInTx(tx, wallet, now);
    return { handled: true, note: `reversed ${payment.reversedCredits - before}` };
  });
}

async function paymentIntentUpdate(deps: CreditDeps, event: Stripe.Event, pi: Stripe.PaymentIntent): Promise<HandledEvent> {
  const meta = metadataOf(pi);
  const accountId = await ourAccount(deps, meta);
  if (!accountId || !meta.svcPurchaseId) return ignored('PaymentIntent of no account here');
  const succeeded = event.type === 'payment_intent.succeeded';
  if (meta.svcPurchaseId.startsWith('rld_')) {
    // An automatic reload: settles it if the charge call did not (its outcome was unknown).
    const error = pi.last_payment_error;
    await recordReloadOutcome(
      deps,
      accountId,
      meta.svcPurchaseId,
      succeeded
        ? { status: 'succeeded', paymentIntentId: pi.id }
        : { status: 'failed', paymentIntentId: pi.id, code: error?.code ?? 'payment_failed', reason: error?.message ?? 'the payment failed' },
    );
    return { handled: true, note: 'reload settled' };
  }
  if (succeeded) return ignored('checkout payments are credited on checkout.session.completed');
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    if (!(await firstDelivery(tx, accountId, event, now))) return ignored('event already applied');
    await emitInTx(
      tx,
      accountId,
      'payment.failed',
      {
        kind: 'checkout',
        purchaseId: meta.svcPurchaseId,
        paymentIntentId: pi.id,
        code: pi.last_payment_error?.code ?? 'payment_failed',
        reason: (pi.last_payment_error?.message ?? 'the payment failed').slice(0, 300),
      },
      now,
    );
    return { handled: true, note: 'payment failure recorded' };
  });
}
