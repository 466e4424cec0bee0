/**
 * Completed payments and their refunds, shared by checkout fulfilment and
 * automatic reloads. Everything here runs inside the caller's transaction.
 *
 * A payment is credited once (its ledger key is derived from the checkout
 * session or reload id) and reversed at most by what was refunded (the payment
 * record remembers how many credits were already taken back). Stripe may
 * deliver a refund before the completion it refunds: the refund is then kept on
 * a pending payment record and applied the moment the completion is credited.
 */
import type { Clock } from '../core/clock.js';
import { recordEvent } from '../events/events.js';
import type { Tx } from '../store/port.js';
import { appendInTx } from './ledger.js';
import { CREDIT_PAYMENTS, type PaymentRecord, type WalletRecord } from './records.js';

export const fixedClock = (now: Date): Clock => ({ now: () => now });

/** Emits a payment.* or credits.* event in the transaction (the outbox: delivered to the account's webhooks). */
export async function emitInTx(
  tx: Tx,
  ownerId: string,
  type: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await recordEvent(tx, { type, ownerId, data }, fixedClock(now));
}

/**
 * Credits a completed payment (once: a repeated call changes nothing) and
 * applies any refund that arrived before it. Returns whether it credited now.
 */
export async function completePaymentInTx(
  tx: Tx,
  wallet: WalletRecord,
  payment: Pick<
    PaymentRecord,
    'id' | 'ownerId' | 'source' | 'purchaseId' | 'checkoutSessionId' | 'credits' | 'amount' | 'currency'
  >,
  ledgerKey: string,
  reference: { type: string; id: string },
  now: Date,
): Promise<{ credited: boolean }> {
  const { replayed } = await appendInTx(
    tx,
    wallet,
    { kind: 'purchase', amount: payment.credits, idempotencyKey: ledgerKey, reference },
    now,
  );
  const existing = await tx.get<PaymentRecord>(CREDIT_PAYMENTS, payment.id);
  if (existing?.status === 'completed') return { credited: !replayed };
  const record: PaymentRecord = {
    ...payment,
    status: 'completed',
    refundedAmount: existing?.refundedAmount ?? 0,
    reversedCredits: existing?.reversedCredits ?? 0,
    shortfall: existing?.shortfall ?? 0,
    createdAt: existing?.createdAt ?? now.toISOString(),
  };
  await applyRefundInTx(tx, wallet, record, record.refundedAmount, now);
  await tx.put(CREDIT_PAYMENTS, record);
  return { credited: !replayed };
}

/**
 * Takes back the credits of the refunded part of a completed payment:
 * `refundedAmount` is the cumulative amount refunded (charge.amount_refunded),
 * so repeated or reordered deliveries reverse each credit once. What was
 * already spent cannot be taken back: the balance goes to zero and the
 * difference is recorded as shortfall (on the entry, the payment and the
 * wallet), never a negative balance. The caller saves the payment record.
 */
export async function applyRefundInTx(
  tx: Tx,
  wallet: WalletRecord,
  payment: PaymentRecord,
  refundedAmount: number,
  now: Date,
): Promise<void> {
  payment.refundedAmount = Math.max(payment.refundedAmount, Math.min(refundedAmount, payment.amount));
  if (payment.status !== 'completed' || payment.refundedAmount === 0) return;
  const target =
    payment.refundedAmount >= payment.amount
      ? payment.credits
      : Math.floor((payment.credits * payment.refundedAmount) / payment.amount);
  const due = target - payment.reversedCredits;
  if (due <= 0) return;
  const taken = Math.min(due, wallet.balance);
  const shortfall = due - taken;
  await appendInTx(
    tx,
    wallet,
    {
      kind: 'reversal',
      amount: -taken,
      idempotencyKey: `reversal:${payment.id}:${target}`,
      reference: { type: 'payment', id: payment.id },
      reason: `payment refunded (${payment.refundedAmount} of ${payment.amount} ${payment.currency})`,
      shortfall,
    },
    now,
  );
  payment.reversedCredits = target;
  payment.shortfall += shortfall;
  wallet.shortfall += shortfall;
  await emitInTx(
    tx,
    wallet.ownerId,
    'payment.refunded',
    {
      paymentIntentId: payment.id,
      purchaseId: payment.purchaseId,
      checkoutSessionId: payment.checkoutSessionId,
      refundedAmount: payment.refundedAmount,
      amount: payment.amount,
      currency: payment.currency,
      creditsReversed: taken,
      shortfall,
      balance: wallet.balance,
    },
    now,
  );
}
