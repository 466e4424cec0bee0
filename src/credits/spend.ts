/**
 * Spending credits: a paid action debits before it runs and, if it fails, is
 * refunded by a new ledger entry (the debit itself is never edited).
 */
import { ulid } from '../core/ids.js';
import { actionCost, catalogueOf, type PaidAction } from './catalogue.js';
import { afterDebitInTx, startReload, type CreditDeps, type ReloadTicket } from './autoreload.js';
import {
  appendInTx,
  entryForKeyInTx,
  inAccount,
  insufficientCredits,
  loadWalletInTx,
  MAX_ENTRY_CREDITS,
  type NewEntry,
  saveWalletInTx,
} from './ledger.js';
import type { EntryReference, LedgerEntry } from './records.js';
import type { Tx } from '../store/port.js';

/** What spending needs from a tool's context (a ToolContext has all of it). */
export interface CreditContext extends CreditDeps {
  principal: { ownerId: string };
}

export interface DebitRequest {
  credits: number;
  /** Unique per account: a repeated key returns the first debit and charges nothing more. */
  idempotencyKey: string;
  reference: EntryReference;
  action: string | null;
}

/**
 * Takes credits from an account, all or nothing: a debit that does not fit
 * throws 402 INSUFFICIENT_CREDITS (`required`, `available`) and writes
 * nothing. In the same transaction it sends low-balance notices and reserves
 * an automatic reload when one is due; the reload is charged afterwards.
 */
export async function debitCredits(
  deps: CreditDeps,
  accountId: string,
  req: DebitRequest,
): Promise<{ entry: LedgerEntry; replayed: boolean; balance: number }> {
  if (!Number.isSafeInteger(req.credits) || req.credits < 1 || req.credits > MAX_ENTRY_CREDITS)
    throw new Error(`a debit takes 1 to ${MAX_ENTRY_CREDITS} credits, got ${req.credits}`);
  let ticket: ReloadTicket | undefined;
  const result = await inAccount(deps.store, accountId, async (tx) => {
    ticket = undefined; // the store may run this function more than once
    const now = deps.clock.now();
    const existing = await entryForKeyInTx(tx, accountId, req.idempotencyKey);
    const wallet = await loadWalletInTx(tx, accountId, now);
    if (existing) return { entry: existing, replayed: true, balance: wallet.balance };
    if (wallet.balance < req.credits)
      throw insufficientCredits(req.credits, wallet.balance, !!deps.config.payments.stripeSecretKey);
    const before = wallet.balance;
    const { entry } = await appendInTx(
      tx,
      wallet,
      {
        kind: 'debit',
        amount: -req.credits,
        idempotencyKey: req.idempotencyKey,
        reference: req.reference,
        action: req.action,
      },
      now,
    );
    ticket = await afterDebitInTx(tx, wallet, before, catalogueOf(deps.config), now);
    await saveWalletInTx(tx, wallet, now);
    return { entry, replayed: false, balance: wallet.balance };
  });
  if (ticket) startReload(deps, accountId, ticket);
  return result;
}

/** Appends a refund entry in the caller's transaction (the account's view); a key already used changes nothing. */
async function refundInTx(tx: Tx, accountId: string, refund: Omit<NewEntry, 'kind'>, now: Date): Promise<LedgerEntry> {
  const wallet = await loadWalletInTx(tx, accountId, now);
  const { entry, replayed } = await appendInTx(
    tx,
    wallet,
    { ...refund, kind: 'refund', reason: refund.reason?.slice(0, 300) },
    now,
  );
  if (!replayed) await saveWalletInTx(tx, wallet, now);
  return entry;
}

/** Gives back the credits of a debit whose action failed (once per debit, whatever the number of calls). */
export async function refundDebit(deps: CreditDeps, debit: LedgerEntry, reason: string): Promise<LedgerEntry> {
  return inAccount(deps.store, debit.ownerId, (tx) =>
    refundInTx(
      tx,
      debit.ownerId,
      {
        amount: -debit.amount,
        idempotencyKey: `refund:${debit.id}`,
        reference: debit.reference,
        action: debit.action,
        reason,
      },
      deps.clock.now(),
    ),
  );
}

/**
 * Gives credits held aside for the account back to its wallet, in the caller's transaction (the account's view of the
 * store): a refund entry naming what held them, such as a withdrawn memoir share's unspent heirs' chat allowance.
 */
export function returnCreditsInTx(
  tx: Tx,
  accountId: string,
  credits: number,
  reference: EntryReference,
  reason: string,
  now: Date,
): Promise<LedgerEntry> {
  const idempotencyKey = `return:${reference.type}:${reference.id}:${ulid()}`;
  return refundInTx(tx, accountId, { amount: credits, idempotencyKey, reference, action: null, reason }, now);
}

/**
 * Refuses at once (402 INSUFFICIENT_CREDITS, as a debit would) when the account cannot pay for `units` of `action`:
 * for work whose price is known only once it has run (speech, by the length of the audio), checked before it runs
 * with a lower bound of its units, so that an empty wallet does not get the work done and refused afterwards.
 * Nothing is written; the debit after the work decides.
 */
export async function requireCredits(ctx: CreditContext, action: PaidAction, units: number): Promise<void> {
  const credits = actionCost(catalogueOf(ctx.config), action, units);
  if (credits === 0) return;
  const accountId = ctx.principal.ownerId;
  const balance = await inAccount(
    ctx.store,
    accountId,
    async (tx) => (await loadWalletInTx(tx, accountId, ctx.clock.now())).balance,
    { readOnly: true },
  );
  if (balance < credits) throw insufficientCredits(credits, balance, !!ctx.config.payments.stripeSecretKey);
}

/**
 * Runs a paid action: debits what `units` of `action` cost (price list),
 * runs `fn`, and refunds the debit with a new entry if `fn` throws (the error
 * is thrown on). `ref` names what is paid for (a chat message, a media item).
 */
export async function withCredits<T>(
  ctx: CreditContext,
  action: PaidAction,
  units: number,
  ref: EntryReference,
  fn: () => Promise<T>,
): Promise<T> {
  const credits = actionCost(catalogueOf(ctx.config), action, units);
  if (credits === 0) return fn();
  const { entry } = await debitCredits(ctx, ctx.principal.ownerId, {
    credits,
    idempotencyKey: `debit:${action}:${ref.type}:${ref.id}:${ulid()}`,
    reference: ref,
    action,
  });
  try {
    return await fn();
  } catch (err) {
    try {
      await refundDebit(ctx, entry, `${action} failed`);
    } catch (refundErr) {
      // The debit stays on the ledger; the operator can see it and grant it back.
      ctx.log.error(
        { err: refundErr, accountId: entry.ownerId, entryId: entry.id },
        'could not refund a failed paid action',
      );
    }
    throw err;
  }
}
