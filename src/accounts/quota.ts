/**
 * Storage quota per account: how many bytes an account keeps on the server
 * (memoir media today; any other collection that declares its bytes here, such
 * as vault files, counts the same way), and the check that keeps it under its
 * limit.
 *
 * What counts is computed from the records themselves (the sum of their sizes)
 * plus the reservations of uploads in progress, so deleting a record frees its
 * room at once and nothing can drift. An upload first reserves the bytes it may
 * need, in one transaction that reads the account's usage and refuses past the
 * limit (413 QUOTA_EXCEEDED with `used`, `limit`, `needed`): concurrent uploads
 * of one account cannot jointly pass the limit, on any engine, because every
 * reservation writes the account's one usage record (transactions are
 * serializable). The reservation becomes the stored record in the same
 * transaction that writes the record (`settleReservation`), or is released when
 * the upload fails. A reservation left behind by a process that died is ignored
 * after RESERVATION_TTL_MS.
 *
 * The limit is the account's `storageQuotaBytes` (set by the operator) or the
 * server's default (SVC_STORAGE_QUOTA_BYTES, 1 GiB).
 */
import { z } from 'zod';
import { ApiError } from '../core/errors.js';
import type { Store, Tx } from '../store/port.js';
import { ACCOUNTS, type AccountRecord } from './records.js';
import { declareTenantCollection } from './tenancy.js';

/** One record per account (id = the account id): the reservations of its uploads in progress. */
export const STORAGE_USAGE = 'storage_usage';
declareTenantCollection(STORAGE_USAGE);

export const DEFAULT_STORAGE_QUOTA_BYTES = 1024 ** 3;
/** A reservation older than this is taken for one whose upload died with its process, and no longer counts. */
export const RESERVATION_TTL_MS = 2 * 60 * 60 * 1000;

interface Reservation {
  bytes: number;
  /** ISO 8601. */
  at: string;
}

interface UsageRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  reservations: Record<string, Reservation>;
  updatedAt: string;
}

/** Collection → the field holding each record's size in bytes. */
const STORED_BYTES = new Map<string, string>();

/** Declares that every record of `collection` (an account collection) keeps `record[sizeField]` bytes on the server. */
export function declareStoredBytes(collection: string, sizeField = 'size'): void {
  STORED_BYTES.set(collection, sizeField);
}

export const StorageUsageSchema = z
  .object({
    used: z.number().int().describe('Bytes the account stores, uploads in progress included.'),
    reserved: z.number().int().describe('The part of `used` held by uploads in progress (usually 0).'),
    limit: z
      .number()
      .int()
      .describe("Bytes the account may store: its own quota set by the operator, else the server's default."),
    available: z.number().int().describe('Bytes left: limit - used, never below 0.'),
  })
  .describe("The account's storage: media files now, vault files later. Deleting an item frees its bytes at once.");

export type StorageUsage = z.infer<typeof StorageUsageSchema>;

export interface QuotaOptions {
  /** The server's default limit (config.storageQuotaBytes). */
  defaultLimit?: number | undefined;
  now: Date;
}

/** The limit of one account: its own figure, if the operator set one, else the server's default. */
export function accountLimit(account: AccountRecord | undefined, defaultLimit: number | undefined): number {
  const own = account?.storageQuotaBytes;
  return typeof own === 'number' && Number.isSafeInteger(own) && own >= 0
    ? own
    : (defaultLimit ?? DEFAULT_STORAGE_QUOTA_BYTES);
}

function live(record: UsageRecord | undefined, now: Date): Record<string, Reservation> {
  const out: Record<string, Reservation> = {};
  for (const [id, r] of Object.entries(record?.reservations ?? {})) {
    if (now.getTime() - Date.parse(r.at) < RESERVATION_TTL_MS) out[id] = r;
  }
  return out;
}

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};

/** Bytes kept in the declared collections. */
async function storedBytes(tx: Tx, accountId: string): Promise<number> {
  let total = 0;
  for (const [collection, field] of STORED_BYTES) {
    for (const doc of await tx.findBy<Record<string, unknown> & { id: string }>(collection, 'ownerId', accountId)) {
      const size = doc[field];
      if (typeof size === 'number' && Number.isFinite(size) && size > 0) total += size;
    }
  }
  return total;
}

async function read(tx: Tx, accountId: string, opts: QuotaOptions) {
  const account = await tx.get<AccountRecord>(ACCOUNTS, accountId);
  const record = await tx.get<UsageRecord>(STORAGE_USAGE, accountId);
  const reservations = live(record, opts.now);
  const reserved = sum(Object.values(reservations).map((r) => r.bytes));
  const used = (await storedBytes(tx, accountId)) + reserved;
  const limit = accountLimit(account, opts.defaultLimit);
  return {
    record,
    reservations,
    usage: { used, reserved, limit, available: Math.max(0, limit - used) } satisfies StorageUsage,
  };
}

/** The account's usage now. `store` is the account's view (or the raw store). */
export async function storageUsage(store: Store, accountId: string, opts: QuotaOptions): Promise<StorageUsage> {
  return store.transact(async (tx) => (await read(tx, accountId, opts)).usage, { readOnly: true });
}

/** 413 QUOTA_EXCEEDED, with what is used, the limit and what was asked for. */
export function quotaExceeded(usage: Pick<StorageUsage, 'used' | 'limit'>, needed: number): ApiError {
  return new ApiError(
    'QUOTA_EXCEEDED',
    `This account may store ${usage.limit} bytes and uses ${usage.used}; ${needed} more do not fit. Delete something to free room, or ask the operator for a larger quota.`,
    [{ field: 'file', reason: "over the account's storage quota", used: usage.used, limit: usage.limit, needed }],
  );
}

function write(tx: Tx, accountId: string, reservations: Record<string, Reservation>, now: Date): Promise<void> {
  return tx.put<UsageRecord>(STORAGE_USAGE, {
    id: accountId,
    ownerId: accountId,
    reservations,
    updatedAt: now.toISOString(),
  });
}

/**
 * Reserves room for an upload before any of it is stored: `bytes`, or when the
 * size is not known yet (`atLeast` given), as much of `bytes` as is left, if
 * that is at least `atLeast`. Resolves the bytes reserved (and the usage before); refuses with
 * QUOTA_EXCEEDED (nothing reserved) when they do not fit. `id` names the
 * reservation (the upload's staging id).
 */
export async function reserveStorage(
  store: Store,
  accountId: string,
  id: string,
  want: { bytes: number; atLeast?: number },
  opts: QuotaOptions,
): Promise<{ bytes: number; before: StorageUsage }> {
  return store.transact(async (tx) => {
    const { reservations, usage } = await read(tx, accountId, opts);
    const atLeast = want.atLeast ?? want.bytes;
    if (usage.available < atLeast) throw quotaExceeded(usage, atLeast);
    const bytes = Math.min(want.bytes, usage.available);
    await write(tx, accountId, { ...reservations, [id]: { bytes, at: opts.now.toISOString() } }, opts.now);
    return { bytes, before: usage };
  });
}

/** Lowers a reservation to what the upload turned out to need (frees the rest for other uploads at once). */
export async function shrinkReservation(
  store: Store,
  accountId: string,
  id: string,
  bytes: number,
  opts: QuotaOptions,
): Promise<void> {
  await store.transact(async (tx) => {
    const { reservations } = await read(tx, accountId, opts);
    const current = reservations[id];
    if (!current || current.bytes <= bytes) return;
    await write(tx, accountId, { ...reservations, [id]: { ...current, bytes } }, opts.now);
  });
}

/** Drops a reservation (the upload failed or was refused). Nothing happens for an unknown one. */
export async function releaseStorage(store: Store, accountId: string, id: string, opts: QuotaOptions): Promise<void> {
  await store.transact(async (tx) => {
    const record = await tx.get<UsageRecord>(STORAGE_USAGE, accountId);
    if (!record || !(id in (record.reservations ?? {}))) return;
    const { [id]: _gone, ...rest } = live(record, opts.now);
    await write(tx, accountId, rest, opts.now);
  });
}

/**
 * Inside the transaction that stores a record of `bytes` bytes: turns its
 * reservation into the stored record (the record's own size counts from now
 * on). Without a live reservation (none was made, or it expired), checks
 * there is room for `bytes` instead, and refuses with QUOTA_EXCEEDED if not.
 * Call it before putting the record.
 */
export async function settleReservation(
  tx: Tx,
  accountId: string,
  id: string,
  bytes: number,
  opts: QuotaOptions,
): Promise<void> {
  const { record, reservations, usage } = await read(tx, accountId, opts);
  const held = reservations[id];
  if (held) {
    // Usage after the settlement: the reservation gives way to the record; a record larger than it was reserved for
    // is checked for the difference.
    if (bytes > held.bytes && usage.used - held.bytes + bytes > usage.limit)
      throw quotaExceeded({ used: usage.used - held.bytes, limit: usage.limit }, bytes);
    const { [id]: _settled, ...rest } = reservations;
    await write(tx, accountId, rest, opts.now);
    return;
  }
  if (usage.used + bytes > usage.limit) throw quotaExceeded(usage, bytes);
  // Touch the usage record all the same, so this write conflicts with concurrent reservations of the account.
  if (record) await write(tx, accountId, reservations, opts.now);
  else await write(tx, accountId, {}, opts.now);
}
