/**
 * Applying what Stripe reports to the webhook: checkout sessions, their
 * PaymentIntents, refunds, and the PaymentIntents of automatic reloads.
 *
 * A valid signature proves an event comes from the Stripe account, not that it
 * concerns something this service sold: anything else on that account (another
 * integration, a payment link, a session someone created with the account's
 * key) produces signed events too, with whatever metadata its creator chose.
 * So an event is acted on only when it matches a purchase record this service
 * wrote when it sold the pack:
 *   - a checkout session is looked up by its id in the checkout records; a
 *     PaymentIntent by its id in the payment records, else by the purchase id
 *     in its metadata (`svcPurchaseId`: only a pointer), which must name a
 *     checkout or reload record;
 *   - that record alone decides the account and the credits; the object's
 *     metadata, where present, must agree with it (a session whose metadata
 *     names another account is ignored);
 *   - the amount and currency must equal the record's, and an event that
 *     credits must say `paid` (session) or `succeeded` (PaymentIntent).
 * Anything else is ignored: the route answers 200 with `ignored` and logs the
 * reason (Stripe retries a non-2xx for days, and no retry makes such an event
 * valid). A failure to apply a valid event (the store down, Stripe unreachable
 * while a PaymentIntent is looked up) throws instead: the route answers 5xx
 * and Stripe delivers the event again, which is safe because applying is
 * idempotent.
 *
 * Each event is applied in one transaction, together with the id of the Stripe
 * event (deliveries repeat) and keyed on the session or PaymentIntent it
 * concerns (the same session can arrive in several events, in any order): a
 * completed session is credited exactly once, a refund reversed at most once
 * per refunded amount.
 */
import type Stripe from 'stripe';
import type { z } from 'zod';
import type { Tx } from '../store/port.js';
import { recordReloadOutcome, type CreditDeps } from './autoreload.js';
import { appendInTx, inAccount, loadWalletInTx, saveWalletInTx } from './ledger.js';
import { applyRefundInTx, completePaymentInTx, emitInTx } from './payments.js';
import {
  CREDIT_CHECKOUTS,
  CREDIT_PAYMENTS,
  CREDIT_RELOADS,
  CREDIT_STRIPE_EVENTS,
  type CheckoutRecord,
  type PaymentRecord,
  type ReloadRecord,
  type StripeEventRecord,
} from './records.js';
import { ChargeObject, EventEnvelope, PaymentIntentObject, SessionObject, parse, refId } from './stripe-objects.js';
import { findPurchase, fromCheckout, type Purchase } from './stripe-purchases.js';
import { paymentsGateway } from './stripe.js';

export interface HandledEvent {
  /** True when the event changed something (credited, reversed, recorded a failure). */
  handled: boolean;
  /** What was done, or why the event was ignored (logged; never personal data). */
  note: string;
  /** An ignored event that claims to be this service's but does not match its records: logged as a warning. */
  suspicious: boolean;
}

const applied = (note: string): HandledEvent => ({ handled: true, note, suspicious: false });
const ignored = (note: string): HandledEvent => ({ handled: false, note, suspicious: false });
const refused = (note: string): HandledEvent => ({ handled: false, note, suspicious: true });

// ---- Checks against the records ----

/** Whether an object we do not know claims to be ours (carries this service's metadata): worth a warning. */
function notOurs(what: string, metadata: Record<string, string> | null | undefined): HandledEvent {
  const note = `${what} was not created by this service`;
  return metadata && ('svcAccountId' in metadata || 'svcPurchaseId' in metadata) ? refused(note) : ignored(note);
}

/** The metadata, where present, must say what the record says. */
function metadataConflict(
  metadata: Record<string, string> | null | undefined,
  p: Pick<Purchase, 'ownerId' | 'purchaseId' | 'credits'>,
): string | undefined {
  const m = metadata ?? {};
  if (m.svcAccountId !== undefined && m.svcAccountId !== p.ownerId)
    return 'its metadata names another account than the purchase record';
  if (m.svcPurchaseId !== undefined && m.svcPurchaseId !== p.purchaseId)
    return 'its metadata names another purchase than the record';
  if (m.svcCredits !== undefined && m.svcCredits !== String(p.credits))
    return 'its metadata names other credits than the purchase record';
  return undefined;
}

/** The amount and currency must be the record's (the record's amount is a pack price: always positive). */
function moneyConflict(
  what: string,
  amount: number | null | undefined,
  currency: string | null | undefined,
  p: Pick<Purchase, 'amount' | 'currency'>,
): string | undefined {
  if (amount === null || amount === undefined || !Number.isSafeInteger(amount) || amount <= 0)
    return `${what} amount ${amount ?? 'missing'} is not a positive whole amount`;
  if (amount !== p.amount) return `${what} amount ${amount} differs from the recorded ${p.amount}`;
  if (!currency || currency.toLowerCase() !== p.currency.toLowerCase())
    return `${what} currency ${currency ?? 'missing'} differs from the recorded ${p.currency}`;
  return undefined;
}

function sessionConflict(session: SessionObject, record: CheckoutRecord): string | undefined {
  if (session.mode !== 'payment') return `mode ${session.mode ?? 'missing'} is not a one-time payment`;
  return (
    metadataConflict(session.metadata, fromCheckout(record)) ??
    moneyConflict('the session', session.amount_total, session.currency, record)
  );
}

/** A payment record under this PaymentIntent id that is not this purchase's: the event names someone else's payment. */
function paymentClash(payment: PaymentRecord | undefined, p: Purchase): boolean {
  if (!payment) return false;
  if (payment.ownerId !== p.ownerId || payment.purchaseId !== p.purchaseId) return true;
  return (
    p.checkoutSessionId !== null &&
    payment.checkoutSessionId !== null &&
    payment.checkoutSessionId !== p.checkoutSessionId
  );
}

/** Whether the Stripe event was applied already; otherwise marks it (in the same transaction as its effects). */
async function firstDelivery(
  tx: Tx,
  accountId: string,
  event: { id: string; type: string },
  now: Date,
): Promise<boolean> {
  if (await tx.get(CREDIT_STRIPE_EVENTS, event.id)) return false;
  const record: StripeEventRecord = {
    id: event.id,
    ownerId: accountId,
    type: event.type,
    processedAt: now.toISOString(),
  };
  await tx.put(CREDIT_STRIPE_EVENTS, record);
  return true;
}

type Event = z.infer<typeof EventEnvelope>;

// ---- Events ----

/** Applies one verified Stripe event. `deps.store` is the raw store: which account an event concerns is found here. */
export async function handleStripeEvent(deps: CreditDeps, verified: Stripe.Event): Promise<HandledEvent> {
  const event = parse(EventEnvelope, verified);
  if (!event) return refused('malformed event');
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(deps, event, object);
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return sessionFailed(deps, event, object);
    case 'charge.refunded':
      return chargeRefunded(deps, event, object);
    case 'payment_intent.payment_failed':
    case 'payment_intent.succeeded':
      return paymentIntentUpdate(deps, event, object);
    default:
      return ignored(`event type ${event.type} is not used`);
  }
}

/**
 * The checkout session of a signed event and the purchase record this service wrote for it, or the answer to give
 * when there is none (malformed, not ours, or disagreeing with the record).
 */
async function ourSession(
  deps: CreditDeps,
  object: unknown,
): Promise<{ session: SessionObject; record: CheckoutRecord } | HandledEvent> {
  const session = parse(SessionObject, object);
  if (!session) return refused('malformed checkout session');
  const record = await deps.store.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
  if (!record) return notOurs(`checkout session ${session.id}`, session.metadata);
  const conflict = sessionConflict(session, record);
  if (conflict) return refused(`checkout session ${session.id}: ${conflict}`);
  return { session, record };
}

async function sessionPaid(deps: CreditDeps, event: Event, object: unknown): Promise<HandledEvent> {
  const found = await ourSession(deps, object);
  if ('handled' in found) return found;
  const { session, record } = found;
  if (session.payment_status !== 'paid') {
    const note = `checkout session ${session.id} is not paid (payment_status ${session.payment_status ?? 'missing'})`;
    // `unpaid` is an asynchronous payment still on its way (async_payment_succeeded follows); anything else is odd.
    return session.payment_status === 'unpaid' ? ignored(note) : refused(note);
  }
  if (record.status === 'completed') return ignored(`checkout session ${session.id} already credited`);
  const accountId = record.ownerId;
  const purchase = fromCheckout(record);
  const paymentIntentId = refId(session.payment_intent);
  if (
    paymentIntentId &&
    paymentClash(await deps.store.get<PaymentRecord>(CREDIT_PAYMENTS, paymentIntentId), purchase)
  ) {
    return refused(`checkout session ${session.id}: its PaymentIntent ${paymentIntentId} belongs to another purchase`);
  }
  // The saved card, for automatic reloads (best effort: crediting does not wait on it).
  let paymentMethodId: string | undefined;
  const gateway = paymentsGateway(deps.config.payments);
  if (paymentIntentId && gateway) {
    try {
      paymentMethodId = (await gateway.retrievePaymentIntent(paymentIntentId))?.paymentMethodId;
    } catch (err) {
      deps.log.warn({ err, accountId, paymentIntentId }, 'could not read the payment method of a completed checkout');
    }
  }
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const checkout = await tx.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
    if (!checkout) return refused(`checkout session ${session.id} was not created by this service`);
    if (checkout.status === 'completed') return ignored(`checkout session ${session.id} already credited`);
    if (!(await firstDelivery(tx, accountId, event, now))) return ignored('event already applied');
    const wallet = await loadWalletInTx(tx, accountId, now);
    const customer = refId(session.customer);
    if (customer) wallet.stripeCustomerId = customer;
    if (paymentMethodId) wallet.paymentMethodId = paymentMethodId;
    checkout.status = 'completed';
    checkout.completedAt = now.toISOString();
    checkout.paymentIntentId = paymentIntentId ?? null;
    const ledgerKey = `checkout:${session.id}`;
    const reference = { type: 'checkout_session', id: session.id };
    if (paymentIntentId) {
      await completePaymentInTx(
        tx,
        wallet,
        {
          id: paymentIntentId,
          ownerId: accountId,
          source: 'checkout',
          purchaseId: checkout.purchaseId,
          checkoutSessionId: session.id,
          credits: checkout.credits,
          amount: checkout.amount,
          currency: checkout.currency,
        },
        ledgerKey,
        reference,
        now,
      );
    } else {
      await appendInTx(
        tx,
        wallet,
        { kind: 'purchase', amount: checkout.credits, idempotencyKey: ledgerKey, reference },
        now,
      );
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
        packType: checkout.packType,
        credits: checkout.credits,
        amount: checkout.amount,
        currency: checkout.currency,
        balance: wallet.balance,
      },
      now,
    );
    await tx.put(CREDIT_CHECKOUTS, checkout);
    await saveWalletInTx(tx, wallet, now);
    return applied(`credited ${checkout.credits}`);
  });
}

async function sessionFailed(deps: CreditDeps, event: Event, object: unknown): Promise<HandledEvent> {
  const found = await ourSession(deps, object);
  if ('handled' in found) return found;
  const { session, record } = found;
  if (session.payment_status === 'paid')
    return refused(`checkout session ${session.id} is reported failed or expired but paid`);
  const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
  const accountId = record.ownerId;
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const checkout = await tx.get<CheckoutRecord>(CREDIT_CHECKOUTS, session.id);
    if (!checkout) return refused(`checkout session ${session.id} was not created by this service`);
    // Completion is final: a late expiry or failure notice changes nothing.
    if (checkout.status === 'completed') return ignored(`checkout session ${session.id} already completed`);
    if (checkout.status === status) return ignored(`checkout session ${session.id} already ${status}`);
    if (!(await firstDelivery(tx, accountId, event, now))) return ignored('event already applied');
    checkout.status = status;
    checkout.url = null;
    await tx.put(CREDIT_CHECKOUTS, checkout);
    await emitInTx(
      tx,
      accountId,
      'payment.failed',
      {
        kind: 'checkout',
        checkoutSessionId: session.id,
        purchaseId: checkout.purchaseId,
        reason: status === 'expired' ? 'checkout_expired' : 'payment_failed',
      },
      now,
    );
    return applied(`checkout session ${status}`);
  });
}

async function chargeRefunded(deps: CreditDeps, event: Event, object: unknown): Promise<HandledEvent> {
  const charge = parse(ChargeObject, object);
  if (!charge) return refused('malformed charge');
  const paymentIntentId = refId(charge.payment_intent);
  if (!paymentIntentId) return ignored(`charge ${charge.id} has no PaymentIntent: not a payment of this service`);
  if (
    !Number.isSafeInteger(charge.amount_refunded) ||
    charge.amount_refunded < 0 ||
    charge.amount_refunded > charge.amount
  ) {
    return refused(
      `charge ${charge.id}: refunded amount ${charge.amount_refunded} is not between 0 and ${charge.amount}`,
    );
  }
  const known = await deps.store.get<PaymentRecord>(CREDIT_PAYMENTS, paymentIntentId);
  let purchase: Purchase;
  if (known) {
    purchase = {
      kind: known.source === 'auto_reload' ? 'reload' : 'checkout',
      ownerId: known.ownerId,
      purchaseId: known.purchaseId ?? '',
      credits: known.credits,
      amount: known.amount,
      currency: known.currency,
      paymentIntentId: known.id,
      checkoutSessionId: known.checkoutSessionId,
      customerId: null,
    };
    const conflict =
      metadataConflict(charge.metadata, purchase) ??
      moneyConflict('the charge', charge.amount, charge.currency, purchase);
    if (conflict) return refused(`refund of PaymentIntent ${paymentIntentId}: ${conflict}`);
  } else {
    // A refund delivered before the payment's completion: Stripe's own copy of the PaymentIntent says which purchase it
    // pays (the event's charge carries no metadata of ours), and that purchase's record must agree with all of it.
    const gateway = paymentsGateway(deps.config.payments);
    if (!gateway) return ignored(`PaymentIntent ${paymentIntentId} is unknown here and payments are not configured`);
    const pi = await gateway.retrievePaymentIntent(paymentIntentId);
    if (!pi) return refused(`refund of PaymentIntent ${paymentIntentId}, which Stripe does not have`);
    const found = await findPurchase(deps.store, pi.metadata.svcPurchaseId);
    if (!found) return notOurs(`PaymentIntent ${paymentIntentId}`, pi.metadata);
    purchase = found;
    const conflict =
      metadataConflict(pi.metadata, purchase) ??
      metadataConflict(charge.metadata, purchase) ??
      moneyConflict('the PaymentIntent', pi.amount, pi.currency, purchase) ??
      moneyConflict('the charge', charge.amount, charge.currency, purchase) ??
      (purchase.paymentIntentId !== null && purchase.paymentIntentId !== paymentIntentId
        ? 'the purchase was paid by another PaymentIntent'
        : undefined) ??
      (purchase.customerId !== null && pi.customerId !== purchase.customerId
        ? 'the PaymentIntent charged another customer'
        : undefined);
    if (conflict) return refused(`refund of PaymentIntent ${paymentIntentId}: ${conflict}`);
  }
  const owner = purchase.ownerId;
  return inAccount(deps.store, owner, async (tx) => {
    const now = deps.clock.now();
    const payment = await tx.get<PaymentRecord>(CREDIT_PAYMENTS, paymentIntentId);
    if (known && !payment)
      return refused(`refund of PaymentIntent ${paymentIntentId}: its payment record changed account`);
    if (!(await firstDelivery(tx, owner, event, now))) return ignored('event already applied');
    if (!payment) {
      // Kept until the completion arrives (completePaymentInTx applies it then).
      const pending: PaymentRecord = {
        id: paymentIntentId,
        ownerId: owner,
        source: purchase.kind === 'reload' ? 'auto_reload' : 'checkout',
        purchaseId: purchase.purchaseId,
        checkoutSessionId: purchase.checkoutSessionId,
        status: 'pending',
        credits: purchase.credits,
        amount: purchase.amount,
        currency: purchase.currency,
        refundedAmount: charge.amount_refunded,
        reversedCredits: 0,
        shortfall: 0,
        createdAt: now.toISOString(),
      };
      await tx.put(CREDIT_PAYMENTS, pending);
      return applied('refund kept until the payment completes');
    }
    const wallet = await loadWalletInTx(tx, owner, now);
    const before = payment.reversedCredits;
    await applyRefundInTx(tx, wallet, payment, charge.amount_refunded, now);
    await tx.put(CREDIT_PAYMENTS, payment);
    await saveWalletInTx(tx, wallet, now);
    return applied(`reversed ${payment.reversedCredits - before}`);
  });
}

async function paymentIntentUpdate(deps: CreditDeps, event: Event, object: unknown): Promise<HandledEvent> {
  const pi = parse(PaymentIntentObject, object);
  if (!pi) return refused('malformed PaymentIntent');
  const purchase = await findPurchase(deps.store, pi.metadata?.svcPurchaseId);
  if (!purchase) return notOurs(`PaymentIntent ${pi.id}`, pi.metadata);
  const customer = refId(pi.customer);
  const conflict =
    metadataConflict(pi.metadata, purchase) ??
    moneyConflict('the PaymentIntent', pi.amount, pi.currency, purchase) ??
    (purchase.paymentIntentId !== null && purchase.paymentIntentId !== pi.id
      ? 'the purchase was settled by another PaymentIntent'
      : undefined) ??
    (purchase.customerId !== null && customer !== purchase.customerId
      ? 'it charged another customer than the reload record'
      : undefined);
  if (conflict) return refused(`PaymentIntent ${pi.id}: ${conflict}`);
  const succeeded = event.type === 'payment_intent.succeeded';
  if (succeeded && pi.status !== 'succeeded')
    return refused(`PaymentIntent ${pi.id} is reported succeeded with status ${pi.status ?? 'missing'}`);
  const accountId = purchase.ownerId;
  if (purchase.kind === 'reload') {
    // An automatic reload: settles it if the charge call did not (its outcome was unknown).
    if (paymentClash(await deps.store.get<PaymentRecord>(CREDIT_PAYMENTS, pi.id), purchase)) {
      return refused(`PaymentIntent ${pi.id} belongs to another purchase`);
    }
    const reload = await deps.store.get<ReloadRecord>(CREDIT_RELOADS, purchase.purchaseId);
    if (reload?.status !== 'pending') return ignored(`reload ${purchase.purchaseId} already settled`);
    const error = pi.last_payment_error;
    await recordReloadOutcome(
      deps,
      accountId,
      purchase.purchaseId,
      succeeded
        ? { status: 'succeeded', paymentIntentId: pi.id }
        : {
            status: 'failed',
            paymentIntentId: pi.id,
            code: error?.code ?? 'payment_failed',
            reason: error?.message ?? 'the payment failed',
          },
    );
    return applied(`reload ${purchase.purchaseId} settled`);
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
        purchaseId: purchase.purchaseId,
        checkoutSessionId: purchase.checkoutSessionId,
        paymentIntentId: pi.id,
        code: pi.last_payment_error?.code ?? 'payment_failed',
        reason: (pi.last_payment_error?.message ?? 'the payment failed').slice(0, 300),
      },
      now,
    );
    return applied('payment failure recorded');
  });
}
