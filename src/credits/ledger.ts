/**
 * The wallet ledger: append-only entries per account, the balance kept beside
 * them in the same transaction, never negative.
 *
 * Functions named `...InTx` run inside the caller's transaction (an account
 * view of it) and have no effect outside it, so a store that retries a
 * transaction may run them again safely.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { NAME_CHARS, NAME_CHARS_REASON } from '../core/names.js';
import {
  cursorPageInput,
  CursorPageMetaSchema,
  paginateCursor,
  type CursorCodec,
  type CursorPageMeta,
} from '../core/pagination.js';
import { accountTx } from '../accounts/tenancy.js';
import { ACCOUNTS } from '../accounts/records.js';
import type { Store, Tx } from '../store/port.js';
import {
  CREDIT_ENTRIES,
  CREDIT_WALLETS,
  emptyWallet,
  entryId,
  entryPlace,
  ENTRY_KINDS,
  type EntryKind,
  type EntryReference,
  type LedgerEntry,
  type WalletRecord,
} from './records.js';

/** The most credits one entry may move. */
export const MAX_ENTRY_CREDITS = 100_000_000;

export interface NewEntry {
  kind: EntryKind;
  /** Signed credits. */
  amount: number;
  idempotencyKey: string;
  reference: EntryReference;
  action?: string | null;
  reason?: string | null;
  shortfall?: number;
}

/** "1 credit", "5 credits": the refusal below and the `svc credits grant` line. */
export function creditsText(n: number): string {
  return n === 1 ? '1 credit' : `${n} credits`;
}

/**
 * 402 INSUFFICIENT_CREDITS with `required` and `available`. It points to the purchase route only when this server
 * can sell credits (`purchasable`: payments are configured); otherwise credits come only from an operator's grant,
 * and saying "buy a pack" would send the caller to a 503.
 */
export function insufficientCredits(required: number, available: number, purchasable = false): ApiError {
  const next = purchasable
    ? 'Buy a pack (POST /api/v1/svcloom/credits/purchase) and try again.'
    : 'Credits cannot be bought on this server; ask its operator to grant some (svc credits grant), then try again.';
  return new ApiError(
    'INSUFFICIENT_CREDITS',
    `This needs ${creditsText(required)} and the wallet holds ${available}. ${next}`,
    [{ field: 'credits', reason: `${required} required, ${available} available`, required, available }],
  );
}

/** The account's wallet as stored, or a new empty one (written by saveWalletInTx). */
export async function loadWalletInTx(tx: Tx, accountId: string, now: Date): Promise<WalletRecord> {
  return (await tx.get<WalletRecord>(CREDIT_WALLETS, accountId)) ?? emptyWallet(accountId, now);
}

export async function saveWalletInTx(tx: Tx, wallet: WalletRecord, now: Date): Promise<void> {
  wallet.updatedAt = now.toISOString();
  await tx.put(CREDIT_WALLETS, wallet);
}

/** The entry an idempotency key already wrote in this account, if any. */
export async function entryForKeyInTx(tx: Tx, accountId: string, key: string): Promise<LedgerEntry | undefined> {
  return tx.get<LedgerEntry>(CREDIT_ENTRIES, entryId(accountId, key));
}

/**
 * Appends one entry and moves the wallet's balance and totals (the caller
 * saves the wallet in the same transaction). A key already used returns its
 * first entry and changes nothing; a move below zero throws
 * INSUFFICIENT_CREDITS and changes nothing.
 */
export async function appendInTx(
  tx: Tx,
  wallet: WalletRecord,
  input: NewEntry,
  now: Date,
): Promise<{ entry: LedgerEntry; replayed: boolean }> {
  const existing = await entryForKeyInTx(tx, wallet.ownerId, input.idempotencyKey);
  if (existing) return { entry: existing, replayed: true };
  if (!Number.isSafeInteger(input.amount) || Math.abs(input.amount) > MAX_ENTRY_CREDITS)
    throw new Error(`entry amount must be a whole number of credits, got ${input.amount}`);
  if (wallet.balance + input.amount < 0) throw insufficientCredits(-input.amount, wallet.balance);
  wallet.seq += 1;
  wallet.balance += input.amount;
  const t = wallet.totals;
  switch (input.kind) {
    case 'purchase':
      t.purchased += input.amount;
      break;
    case 'grant':
      t.granted += input.amount;
      break;
    case 'debit':
      t.spent -= input.amount;
      break;
    case 'refund':
      t.refunded += input.amount;
      break;
    case 'reversal':
      t.reversed -= input.amount;
      break;
  }
  const entry: LedgerEntry = {
    id: entryId(wallet.ownerId, input.idempotencyKey),
    ownerId: wallet.ownerId,
    seq: wallet.seq,
    place: entryPlace(wallet.ownerId, wallet.seq),
    kind: input.kind,
    amount: input.amount,
    balanceAfter: wallet.balance,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    action: input.action ?? null,
    reason: input.reason ?? null,
    shortfall: input.shortfall ?? 0,
    createdAt: now.toISOString(),
  };
  await tx.put(CREDIT_ENTRIES, entry);
  return { entry, replayed: false };
}

/** Runs `fn` in one transaction of `store`, seen through `accountId` whatever store it is (raw or an account view). */
export function inAccount<R>(
  store: Store,
  accountId: string,
  fn: (tx: Tx) => Promise<R>,
  opts?: { readOnly?: boolean },
): Promise<R> {
  return store.transact((tx) => fn(accountTx(tx, accountId)), opts);
}

/** Adds credits (purchase, grant, refund) or, for a grant, takes them away (a negative operator adjustment). */
export async function addEntry(
  store: Store,
  clock: Clock,
  accountId: string,
  input: NewEntry,
): Promise<{ entry: LedgerEntry; replayed: boolean; balance: number }> {
  return inAccount(store, accountId, async (tx) => {
    const now = clock.now();
    const wallet = await loadWalletInTx(tx, accountId, now);
    const result = await appendInTx(tx, wallet, input, now);
    if (!result.replayed) await saveWalletInTx(tx, wallet, now);
    return { ...result, balance: wallet.balance };
  });
}

// ---- Operator grants ----

export const GrantCreditsInput = z
  .object({
    id: z.string().min(1).max(64).describe('Account id (acct_...).'),
    amount: z
      .number()
      .int()
      .min(-MAX_ENTRY_CREDITS)
      .max(MAX_ENTRY_CREDITS)
      .refine((n) => n !== 0, { message: 'must not be zero' })
      .describe('Credits to add (positive) or take away (negative adjustment; never below a zero balance).'),
    // The reason and the key are shown back on the ledger (history, statements, an operator's terminal): held to the
    // rule of names (src/core/names.ts), so no escape sequence, line break or bidi control can forge what they print.
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .regex(NAME_CHARS, { error: NAME_CHARS_REASON })
      .describe('Why, recorded on the ledger entry: one line, without control characters or bidirectional controls.'),
    idempotencyKey: z
      .string()
      .min(1)
      .max(200)
      .regex(NAME_CHARS, { error: NAME_CHARS_REASON })
      .optional()
      .describe(
        'Repeat-safe key: a second call with the same key returns the first entry and grants nothing more. Default: a new key per call. ' +
          'One line, without control characters or bidirectional controls.',
      ),
  })
  .strict()
  .describe("A grant or adjustment of an account's credits.");

export const LedgerEntrySchema = z
  .object({
    id: z.string().describe('Entry id (cre_...).'),
    seq: z.number().int().describe("Position in the account's ledger, from 1."),
    kind: z.enum(ENTRY_KINDS).describe('purchase, grant, debit, refund or reversal.'),
    amount: z.number().int().describe('Signed credits: positive adds, negative takes away.'),
    balanceAfter: z.number().int().describe('Balance right after this entry.'),
    idempotencyKey: z.string().describe('The key that makes this entry unique in the account.'),
    reference: z
      .object({
        type: z
          .string()
          .describe(
            "What the entry is about: checkout_session, auto_reload, payment, operator, or the paid action's record type.",
          ),
        id: z.string().describe('Id of that record.'),
      })
      .describe('What the entry refers to.'),
    action: z
      .string()
      .nullable()
      .describe('Paid action of a debit or refund (chat_message, media_inference, voice, avatar).'),
    reason: z.string().nullable().describe('Why (grants).'),
    shortfall: z
      .number()
      .int()
      .describe('Reversals: credits that could not be taken back because they were spent already.'),
    createdAt: z.string().describe('When, ISO 8601.'),
  })
  .describe('One ledger entry.');

export const GrantCreditsOutput = z
  .object({
    entry: LedgerEntrySchema,
    balance: z.number().int().describe("The account's balance after the grant."),
    replayed: z
      .boolean()
      .describe('True when the idempotency key had been used: the first entry is returned, nothing new was granted.'),
  })
  .describe("The grant's ledger entry and the new balance.");

export function entryView(e: LedgerEntry): z.infer<typeof LedgerEntrySchema> {
  return {
    id: e.id,
    seq: e.seq,
    kind: e.kind,
    amount: e.amount,
    balanceAfter: e.balanceAfter,
    idempotencyKey: e.idempotencyKey,
    reference: { type: e.reference.type, id: e.reference.id },
    action: e.action,
    reason: e.reason,
    shortfall: e.shortfall,
    createdAt: e.createdAt,
  };
}

/** An operator grants (or takes back) credits; every grant is a ledger entry with its reason. */
export async function grantCredits(
  system: Store,
  clock: Clock,
  input: z.output<typeof GrantCreditsInput>,
  grantedBy: string,
): Promise<z.infer<typeof GrantCreditsOutput>> {
  if (!(await system.get(ACCOUNTS, input.id))) throw ApiError.notFound(`Account ${input.id}`);
  const key = input.idempotencyKey ? `grant:${input.idempotencyKey}` : `grant:${randomUUID()}`;
  const { entry, replayed, balance } = await addEntry(system, clock, input.id, {
    kind: 'grant',
    amount: input.amount,
    idempotencyKey: key,
    reference: { type: 'operator', id: grantedBy },
    reason: input.reason,
  }).catch((err: unknown) => {
    // A negative adjustment past the balance: the operator is told what it would do (the 402 a paid action gets
    // sends the caller to buy a pack or to ask the operator for a grant).
    if (!(err instanceof ApiError) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
    const available = Number(err.details?.[0]?.available ?? 0);
    throw new ApiError(
      'INSUFFICIENT_CREDITS',
      `Taking back ${creditsText(-input.amount)} would leave the balance below zero: the wallet holds ${available}. Take back at most ${available}.`,
      err.details,
    );
  });
  // A retry is the same grant: a key used for another amount or reason is a mistake, which a silent answer with the
  // first entry would hide (the operator would believe the second grant made).
  if (replayed && (entry.amount !== input.amount || (entry.reason ?? null) !== (input.reason ?? null)))
    throw new ApiError(
      'CONFLICT',
      `This idempotencyKey was used for another grant (${entry.amount} credits); use a new key for a new grant.`,
      [{ field: 'idempotencyKey', reason: `used by ledger entry ${entry.id} with another amount or reason` }],
    );
  return { entry: entryView(entry), balance, replayed };
}

// ---- History ----

export const ListCreditHistoryInput = z
  .object({ ...cursorPageInput })
  .strict()
  .describe('Which page of the ledger.');

export const ListCreditHistoryOutput = z
  .object({
    items: z.array(LedgerEntrySchema).describe('Ledger entries, newest first.'),
    pagination: CursorPageMetaSchema,
  })
  .describe('One page of the ledger.');

const seqKey = (seq: number) => String(seq).padStart(12, '0');

/**
 * One page of the account's ledger, newest first. Seqs run from 1 to the wallet's `seq` with no gap (entries are never
 * deleted), so a page is a run of seqs below the cursor's, each found through the `place` index: a page reads its
 * own entries and not the rest of the ledger (an account's ledger grows with every paid action, and reading all of
 * it for every page made walking it cost the square of its length). A ledger with entries written before `place`
 * existed is read whole, as it was.
 */
export async function creditHistory(
  store: Store,
  cursors: CursorCodec,
  accountId: string,
  opts: { cursor?: string | undefined; limit: number },
): Promise<{ items: Array<z.infer<typeof LedgerEntrySchema>>; pagination: CursorPageMeta }> {
  const scope = `credit-history:${accountId}`;
  const page = await inAccount(
    store,
    accountId,
    async (tx) => {
      const top = (await tx.get<WalletRecord>(CREDIT_WALLETS, accountId))?.seq ?? 0;
      const below = opts.cursor ? Number(cursors.decode(scope, opts.cursor)) : top + 1;
      const items: LedgerEntry[] = [];
      for (let seq = Math.min(below - 1, top); seq >= 1 && items.length < opts.limit; seq--) {
        const [entry, ...more] = await tx.findBy<LedgerEntry>(CREDIT_ENTRIES, 'place', entryPlace(accountId, seq));
        if (entry?.seq !== seq || more.length > 0) return undefined;
        items.push(entry);
      }
      const last = items[items.length - 1];
      const hasMore = last !== undefined && last.seq > 1;
      return {
        items,
        pagination: {
          cursor: opts.cursor ?? null,
          nextCursor: hasMore ? cursors.encode(scope, seqKey(last.seq)) : null,
          hasMore,
        },
      };
    },
    { readOnly: true },
  );
  if (page) return { items: page.items.map(entryView), pagination: page.pagination };
  const entries = await store.findBy<LedgerEntry>(CREDIT_ENTRIES, 'ownerId', accountId);
  entries.sort((a, b) => b.seq - a.seq);
  const whole = paginateCursor(entries, {
    codec: cursors,
    scope,
    keyOf: (e) => seqKey(e.seq),
    order: 'desc',
    cursor: opts.cursor,
    limit: opts.limit,
  });
  return { items: whole.items.map(entryView), pagination: whole.pagination };
}

/** The sum of an account's entries (what the wallet's balance must equal). */
export async function ledgerSum(store: Store, accountId: string): Promise<number> {
  const entries = await store.findBy<LedgerEntry>(CREDIT_ENTRIES, 'ownerId', accountId);
  return entries.reduce((sum, e) => sum + e.amount, 0);
}
