/**
 * What the credits domain stores. Every collection is account data, declared
 * with the tenancy module so handlers only ever see their own account's.
 *
 * - entries: the append-only ledger. Never edited or deleted: a failed paid
 *   action is refunded by a new entry, a refunded payment reversed by one.
 *   An entry's id is derived from (account, idempotency key), so a repeated
 *   key finds the first entry and can never write a second one.
 * - wallets: one per account, the balance (always the sum of the entries,
 *   updated in the same transaction), totals, the saved payment method and the
 *   auto-reload settings and state.
 * - checkouts, payments, reloads: Stripe checkout sessions (the purchase
 *   records: account, pack, credits, amount and currency as sold), completed
 *   payments (by PaymentIntent id, for refunds) and automatic reload attempts.
 *   Stripe's events are checked against these and credit only what they say.
 * - stripeEvents: ids of Stripe events already applied (deliveries repeat).
 */
import { createHash } from 'node:crypto';
import { declareTenantCollection } from '../accounts/tenancy.js';

export const CREDIT_ENTRIES = 'credit_entries';
export const CREDIT_WALLETS = 'credit_wallets';
export const CREDIT_CHECKOUTS = 'credit_checkouts';
export const CREDIT_PAYMENTS = 'credit_payments';
export const CREDIT_RELOADS = 'credit_reloads';
export const CREDIT_STRIPE_EVENTS = 'credit_stripe_events';

for (const c of [
  CREDIT_ENTRIES,
  CREDIT_WALLETS,
  CREDIT_CHECKOUTS,
  CREDIT_PAYMENTS,
  CREDIT_RELOADS,
  CREDIT_STRIPE_EVENTS,
])
  declareTenantCollection(c);

/**
 * Indexed fields: each account's ledger is read by owner, and a page of its history by `place` (one entry per
 * value); a PaymentIntent finds its checkout by purchase id.
 */
export const CREDIT_INDEXES: Record<string, string[]> = {
  [CREDIT_ENTRIES]: ['ownerId', 'place'],
  [CREDIT_WALLETS]: ['ownerId'],
  [CREDIT_CHECKOUTS]: ['ownerId', 'purchaseId'],
  [CREDIT_PAYMENTS]: ['ownerId'],
  [CREDIT_RELOADS]: ['ownerId'],
  [CREDIT_STRIPE_EVENTS]: ['ownerId'],
};

export const ENTRY_KINDS = ['purchase', 'grant', 'debit', 'refund', 'reversal'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface EntryReference {
  [field: string]: unknown;
  /** What the entry is about: checkout_session, auto_reload, payment, chat_message, media_item, operator, ... */
  type: string;
  id: string;
}

export interface LedgerEntry {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  /** 1, 2, 3 ... per account: the ledger's order. */
  seq: number;
  /**
   * `<account id>:<seq>`, indexed: a page of the history finds its entries by seq without reading the others.
   * Absent from entries written before it existed (the history then reads the account's whole ledger).
   */
  place?: string;
  kind: EntryKind;
  /** Signed credits: positive adds, negative takes away. */
  amount: number;
  balanceAfter: number;
  idempotencyKey: string;
  reference: EntryReference;
  /** Paid action of a debit or refund (chat_message, voice, ...). */
  action: string | null;
  /** Why (grants: the operator's reason). */
  reason: string | null;
  /** Reversals: credits that could not be taken back because they were already spent. */
  shortfall: number;
  createdAt: string;
}

export interface AutoReloadState {
  [field: string]: unknown;
  enabled: boolean;
  packType: string | null;
  thresholds: number[];
  /** Cap on automatic reload charges per calendar month (UTC), in the pack currency's minor units. */
  maxMonthlySpend: number;
  /** `YYYY-MM` (UTC) that monthSpend counts. */
  month: string;
  /** Reserved or charged this month, minor units. */
  monthSpend: number;
  /** The reload being charged, if any: at most one per account. */
  inFlight: { reloadId: string; since: string } | null;
  lastAttemptAt: string | null;
  consecutiveFailures: number;
  /** Set when auto-reload turned itself off (failures); cleared when the user enables it again. */
  disabledReason: string | null;
}

export interface WalletRecord {
  [field: string]: unknown;
  /** The account id. */
  id: string;
  ownerId: string;
  balance: number;
  /** Entries written so far (the last entry's seq). */
  seq: number;
  totals: { purchased: number; granted: number; spent: number; refunded: number; reversed: number };
  /** Credits refunded payments should have taken back but could not (already spent). */
  shortfall: number;
  stripeCustomerId: string | null;
  paymentMethodId: string | null;
  autoReload: AutoReloadState;
  createdAt: string;
  updatedAt: string;
}

export type CheckoutStatus = 'open' | 'awaiting_payment' | 'completed' | 'expired' | 'failed';

export interface CheckoutRecord {
  [field: string]: unknown;
  /** Stripe checkout session id (`cs_...`). */
  id: string;
  ownerId: string;
  purchaseId: string;
  packType: string;
  credits: number;
  amount: number;
  currency: string;
  status: CheckoutStatus;
  url: string | null;
  expiresAt: string | null;
  paymentIntentId: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface PaymentRecord {
  [field: string]: unknown;
  /** Stripe PaymentIntent id (`pi_...`). */
  id: string;
  ownerId: string;
  source: 'checkout' | 'auto_reload';
  /** `pur_...` or `rld_...`. */
  purchaseId: string | null;
  checkoutSessionId: string | null;
  /** `pending`: a refund arrived before the payment's completion (deliveries come in any order). */
  status: 'pending' | 'completed';
  credits: number;
  amount: number;
  currency: string;
  /** Cumulative amount refunded, minor units (charge.amount_refunded). */
  refundedAmount: number;
  /** Credits already taken back or recorded as shortfall for the refunds. */
  reversedCredits: number;
  shortfall: number;
  createdAt: string;
}

export interface ReloadRecord {
  [field: string]: unknown;
  /** `rld_...`, also the Stripe idempotency key of its PaymentIntent. */
  id: string;
  ownerId: string;
  status: 'pending' | 'succeeded' | 'failed';
  packType: string;
  credits: number;
  amount: number;
  currency: string;
  customerId: string;
  paymentMethodId: string;
  paymentIntentId: string | null;
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface StripeEventRecord {
  [field: string]: unknown;
  /** Stripe event id (`evt_...`). */
  id: string;
  ownerId: string;
  type: string;
  processedAt: string;
}

/** The id of the entry written for `key` in an account: the same key always maps to the same id. */
export function entryId(accountId: string, key: string): string {
  return 'cre_' + createHash('sha256').update(accountId).update('\0').update(key).digest('base64url').slice(0, 32);
}

/** The `place` of an account's entry number `seq`. */
export const entryPlace = (accountId: string, seq: number): string => `${accountId}:${seq}`;

/** `YYYY-MM` in UTC. */
export function monthOf(d: Date): string {
  return d.toISOString().slice(0, 7);
}

export function emptyWallet(accountId: string, now: Date): WalletRecord {
  const at = now.toISOString();
  return {
    id: accountId,
    ownerId: accountId,
    balance: 0,
    seq: 0,
    totals: { purchased: 0, granted: 0, spent: 0, refunded: 0, reversed: 0 },
    shortfall: 0,
    stripeCustomerId: null,
    paymentMethodId: null,
    autoReload: {
      enabled: false,
      packType: null,
      thresholds: [],
      maxMonthlySpend: 0,
      month: monthOf(now),
      monthSpend: 0,
      inFlight: null,
      lastAttemptAt: null,
      consecutiveFailures: 0,
      disabledReason: null,
    },
    createdAt: at,
    updatedAt: at,
  };
}
