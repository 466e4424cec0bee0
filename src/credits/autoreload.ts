/**
 * Automatic reloads: when a debit leaves the balance below the account's
 * highest threshold, one pack is charged to the card saved at the first
 * checkout (an off-session PaymentIntent).
 *
 * The decision is made in the debit's own transaction: at most one reload in
 * flight per account, a cooldown between attempts, and the monthly cap checked
 * and the reservation written (the reload record and the month's spend) in
 * that same transaction, so concurrent debits can never start two. The Stripe
 * call happens afterwards, outside any transaction (reserve, charge, record),
 * with the reload id as idempotency key: a reload left in flight by a stopped
 * process is resumed with the same key and cannot charge twice. After
 * `maxConsecutiveFailures` failed reloads in a row auto-reload turns itself off
 * and a payment.failed event says why.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import type { Logger } from '../core/log.js';
import type { Store, Tx } from '../store/port.js';
import { catalogueOf, findPack, type Catalogue, unknownPack } from './catalogue.js';
import { inAccount, loadWalletInTx, saveWalletInTx } from './ledger.js';
import { completePaymentInTx, emitInTx } from './payments.js';
import { CREDIT_RELOADS, monthOf, type ReloadRecord, type WalletRecord } from './records.js';
import { paymentsGateway, type ChargeOutcome } from './stripe.js';

export interface CreditDeps {
  store: Store;
  clock: Clock;
  config: Config;
  log: Logger;
}

/** Why a debit did or did not start a reload (shown in the low-balance event). */
export type ReloadDecision =
  | 'off'
  | 'above_threshold'
  | 'in_flight'
  | 'resumed'
  | 'no_payment_method'
  | 'cooldown'
  | 'pack_unavailable'
  | 'monthly_cap_reached'
  | 'started';

export interface ReloadTicket {
  reloadId: string;
}

function reserveInTx(
  wallet: WalletRecord,
  catalogue: Catalogue,
  now: Date,
): { decision: ReloadDecision; reload?: ReloadRecord; ticket?: ReloadTicket } {
  const ar = wallet.autoReload;
  if (!ar.enabled || ar.thresholds.length === 0) return { decision: 'off' };
  if (wallet.balance >= Math.max(...ar.thresholds)) return { decision: 'above_threshold' };
  const policy = catalogue.autoReload;
  if (ar.inFlight) {
    if (now.getTime() - Date.parse(ar.inFlight.since) < policy.staleAfterSeconds * 1000)
      return { decision: 'in_flight' };
    // The process that started it stopped before recording the outcome: charge again with the same idempotency key.
    ar.inFlight = { reloadId: ar.inFlight.reloadId, since: now.toISOString() };
    return { decision: 'resumed', ticket: { reloadId: ar.inFlight.reloadId } };
  }
  if (!wallet.stripeCustomerId || !wallet.paymentMethodId) return { decision: 'no_payment_method' };
  if (ar.lastAttemptAt && now.getTime() - Date.parse(ar.lastAttemptAt) < policy.cooldownSeconds * 1000)
    return { decision: 'cooldown' };
  const pack = ar.packType ? findPack(catalogue, ar.packType) : undefined;
  if (!pack) {
    ar.enabled = false;
    ar.disabledReason = `the pack "${ar.packType}" is no longer offered; choose another one`;
    return { decision: 'pack_unavailable' };
  }
  const month = monthOf(now);
  if (ar.month !== month) {
    ar.month = month;
    ar.monthSpend = 0;
  }
  if (ar.monthSpend + pack.price > ar.maxMonthlySpend) return { decision: 'monthly_cap_reached' };
  const reload: ReloadRecord = {
    id: `rld_${ulid(now.getTime())}`,
    ownerId: wallet.ownerId,
    status: 'pending',
    packType: pack.type,
    credits: pack.credits,
    amount: pack.price,
    currency: pack.currency,
    customerId: wallet.stripeCustomerId,
    paymentMethodId: wallet.paymentMethodId,
    paymentIntentId: null,
    reason: null,
    createdAt: now.toISOString(),
    finishedAt: null,
  };
  ar.monthSpend += pack.price;
  ar.inFlight = { reloadId: reload.id, since: now.toISOString() };
  ar.lastAttemptAt = now.toISOString();
  return { decision: 'started', reload, ticket: { reloadId: reload.id } };
}

/**
 * Runs in a debit's transaction once the entry is appended (`before` is the
 * balance before it): sends credits.low_balance when a threshold is crossed and
 * reserves a reload when one is due. The caller saves the wallet and, after
 * the commit, starts the returned reload with `startReload`.
 */
export async function afterDebitInTx(
  tx: Tx,
  wallet: WalletRecord,
  before: number,
  catalogue: Catalogue,
  now: Date,
): Promise<ReloadTicket | undefined> {
  const { decision, reload, ticket } = reserveInTx(wallet, catalogue, now);
  if (reload) {
    await tx.put(CREDIT_RELOADS, reload);
    await emitInTx(
      tx,
      wallet.ownerId,
      'payment.initiated',
      {
        kind: 'auto_reload',
        reloadId: reload.id,
        packType: reload.packType,
        credits: reload.credits,
        amount: reload.amount,
        currency: reload.currency,
      },
      now,
    );
  }
  const ar = wallet.autoReload;
  const notices = ar.thresholds.length ? ar.thresholds : [catalogue.lowBalanceThreshold];
  const crossed = notices.filter((t) => before >= t && wallet.balance < t);
  if (crossed.length) {
    await emitInTx(
      tx,
      wallet.ownerId,
      'credits.low_balance',
      { balance: wallet.balance, threshold: Math.max(...crossed), autoReload: decision },
      now,
    );
  }
  return ticket;
}

// ---- Running reloads (outside transactions) ----

const running = new Set<Promise<void>>();

/** Charges a reserved reload in the background; `settleReloads` waits for every one started. */
export function startReload(deps: CreditDeps, accountId: string, ticket: ReloadTicket): void {
  const run = runReload(deps, accountId, ticket.reloadId).catch((err: unknown) =>
    deps.log.error(
      { err, accountId, reloadId: ticket.reloadId },
      'automatic reload failed unexpectedly; it resumes after the stale timeout',
    ),
  );
  running.add(run);
  void run.finally(() => running.delete(run));
}

/** Waits until every reload started so far has recorded its outcome (tests, shutdown). */
export async function settleReloads(): Promise<void> {
  while (running.size) await Promise.allSettled([...running]);
}

async function runReload(deps: CreditDeps, accountId: string, reloadId: string): Promise<void> {
  const reload = await inAccount(deps.store, accountId, async (tx) => tx.get<ReloadRecord>(CREDIT_RELOADS, reloadId), {
    readOnly: true,
  });
  if (reload?.status !== 'pending') return;
  const gateway = paymentsGateway(deps.config.payments);
  const pack = {
    type: reload.packType,
    name: reload.packType,
    credits: reload.credits,
    price: reload.amount,
    currency: reload.currency,
  };
  const outcome: ChargeOutcome = gateway
    ? await gateway.chargeOffSession({
        accountId,
        reloadId,
        pack,
        customerId: reload.customerId,
        paymentMethodId: reload.paymentMethodId,
      })
    : {
        status: 'failed',
        paymentIntentId: undefined,
        code: 'payments_not_configured',
        reason: 'payments are not configured on this server',
      };
  if (outcome.status === 'unknown') {
    deps.log.warn(
      { accountId, reloadId, reason: outcome.reason },
      'automatic reload outcome unknown; it resumes after the stale timeout or settles by webhook',
    );
  }
  await recordReloadOutcome(deps, accountId, reloadId, outcome);
}

/**
 * Records how a reload ended (from the charge, or from a Stripe webhook that
 * got there first): credits it once, or counts the failure and turns
 * auto-reload off after too many in a row. A reload already settled is left
 * alone; an unknown outcome leaves it in flight.
 */
export async function recordReloadOutcome(
  deps: Omit<CreditDeps, 'log'>,
  accountId: string,
  reloadId: string,
  outcome: ChargeOutcome,
): Promise<void> {
  if (outcome.status === 'unknown') return;
  await inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const reload = await tx.get<ReloadRecord>(CREDIT_RELOADS, reloadId);
    if (reload?.status !== 'pending') return;
    const wallet = await loadWalletInTx(tx, accountId, now);
    const ar = wallet.autoReload;
    if (ar.inFlight?.reloadId === reloadId) ar.inFlight = null;
    reload.finishedAt = now.toISOString();
    if (outcome.status === 'succeeded') {
      reload.status = 'succeeded';
      reload.paymentIntentId = outcome.paymentIntentId;
      await completePaymentInTx(
        tx,
        wallet,
        {
          id: outcome.paymentIntentId,
          ownerId: accountId,
          source: 'auto_reload',
          purchaseId: reloadId,
          checkoutSessionId: null,
          credits: reload.credits,
          amount: reload.amount,
          currency: reload.currency,
        },
        `reload:${reloadId}`,
        { type: 'auto_reload', id: reloadId },
        now,
      );
      ar.consecutiveFailures = 0;
      await emitInTx(
        tx,
        accountId,
        'payment.completed',
        {
          kind: 'auto_reload',
          reloadId,
          paymentIntentId: outcome.paymentIntentId,
          packType: reload.packType,
          credits: reload.credits,
          amount: reload.amount,
          currency: reload.currency,
          balance: wallet.balance,
        },
        now,
      );
    } else {
      reload.status = 'failed';
      reload.paymentIntentId = outcome.paymentIntentId ?? null;
      reload.reason = outcome.reason.slice(0, 300);
      // Nothing was charged: the month's reservation is released.
      if (ar.month === monthOf(new Date(reload.createdAt))) ar.monthSpend = Math.max(0, ar.monthSpend - reload.amount);
      ar.consecutiveFailures += 1;
      const max = catalogueOf(deps.config).autoReload.maxConsecutiveFailures;
      const disabled = ar.enabled && ar.consecutiveFailures >= max;
      if (disabled) {
        ar.enabled = false;
        ar.disabledReason = `turned off after ${ar.consecutiveFailures} failed reloads in a row (last: ${outcome.code}: ${reload.reason})`;
      }
      await emitInTx(
        tx,
        accountId,
        'payment.failed',
        {
          kind: 'auto_reload',
          reloadId,
          paymentIntentId: reload.paymentIntentId,
          code: outcome.code,
          reason: reload.reason,
          consecutiveFailures: ar.consecutiveFailures,
          autoReloadDisabled: disabled,
          ...(disabled ? { disabledReason: ar.disabledReason } : {}),
        },
        now,
      );
    }
    await tx.put(CREDIT_RELOADS, reload);
    await saveWalletInTx(tx, wallet, now);
  });
}

// ---- Settings ----

export const AutoReloadInput = z
  .object({
    enabled: z
      .boolean()
      .describe(
        'Turn automatic reloads on or off. Turning it on again also clears a failure count that turned it off.',
      ),
    packType: z.string().min(1).max(40).describe('The pack charged on each reload (see GET /packs).'),
    thresholds: z
      .array(z.number().int().min(0).max(100_000_000).describe('A balance, in credits.'))
      .max(10)
      .describe(
        'Balances in credits. A debit that crosses one sends a credits.low_balance event; a balance below the highest one starts a reload.',
      ),
    maxMonthlySpend: z
      .number()
      .int()
      .min(0)
      .max(100_000_000)
      .describe(
        "Most that automatic reloads may charge per calendar month (UTC), in the pack currency's minor units (cents).",
      ),
  })
  .strict()
  .describe('Automatic reload settings.');

export async function setAutoReload(
  deps: Omit<CreditDeps, 'log'>,
  accountId: string,
  input: z.output<typeof AutoReloadInput>,
): Promise<WalletRecord> {
  const pack = findPack(catalogueOf(deps.config), input.packType);
  if (!pack) {
    throw ApiError.validation('Unknown pack.', [unknownPack(catalogueOf(deps.config), input.packType)]);
  }
  if (input.enabled && input.thresholds.length === 0) {
    throw ApiError.validation('Automatic reloads need at least one threshold.', [
      { field: 'thresholds', reason: 'give at least one balance below which to reload' },
    ]);
  }
  if (input.enabled && input.maxMonthlySpend < pack.price) {
    throw ApiError.validation('The monthly cap is below the price of one pack: no reload could ever run.', [
      {
        field: 'maxMonthlySpend',
        reason: `must be at least ${pack.price} (${pack.currency}, minor units) for the "${pack.type}" pack`,
      },
    ]);
  }
  return inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const wallet = await loadWalletInTx(tx, accountId, now);
    const ar = wallet.autoReload;
    if (input.enabled && !ar.enabled) {
      ar.consecutiveFailures = 0;
      ar.disabledReason = null;
    }
    ar.enabled = input.enabled;
    ar.packType = pack.type;
    ar.thresholds = [...new Set(input.thresholds)].sort((a, b) => a - b);
    ar.maxMonthlySpend = input.maxMonthlySpend;
    await saveWalletInTx(tx, wallet, now);
    return wallet;
  });
}
