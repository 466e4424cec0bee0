/**
 * The persistence port (asynchronous). Domain modules talk to this interface only; adapters
 * (lowdb, the embedded default; PostgreSQL for several instances) implement it.
 *
 * Records are plain JSON objects with a string `id`, grouped in named collections. Every write is
 * acknowledged only once it is durable.
 */
export type Doc = { id: string } & Record<string, unknown>;
export type IndexValue = string | number | boolean | null;

/** Read and write access inside one atomic transaction. */
export interface Tx {
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  /** Records whose indexed `field` equals `value` (exact match), in insertion order. */
  findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]>;
  /** The ids of the records whose indexed `field` equals `value`, in no particular order. */
  idsBy(collection: string, field: string, value: IndexValue): Promise<string[]>;
  /** Every record of a collection, in insertion order. */
  all<T extends Doc>(collection: string): Promise<T[]>;
  /**
   * The records of a collection in insertion order, fetched lazily (in pages on a networked engine), so stopping
   * early costs only what was read. Records this transaction changed or deleted are seen as changed.
   */
  scan<T extends Doc>(collection: string): AsyncIterable<T>;
  put<T extends Doc>(collection: string, doc: T): Promise<void>;
  /** Resolves true when a record was removed. */
  delete(collection: string, id: string): Promise<boolean>;
}

export interface TransactOptions {
  /** The transaction only reads: adapters may skip locking and durability work. */
  readOnly?: boolean;
}

export interface Store {
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]>;
  all<T extends Doc>(collection: string): Promise<T[]>;
  count(collection: string): Promise<number>;
  put<T extends Doc>(collection: string, doc: T): Promise<void>;
  delete(collection: string, id: string): Promise<boolean>;
  /**
   * Runs `fn` against a consistent view and applies all of its writes atomically: either every put/delete lands or
   * none does (a throw discards them and rejects with the thrown error). Resolves with fn's result once the writes
   * are durable. Serializable: the outcome is as if transactions ran one after another. An adapter may run `fn`
   * more than once (retry on a serialization conflict), so `fn` must have no effect outside `tx` and must not await
   * anything but `tx` calls (no network, no timers).
   */
  transact<R>(fn: (tx: Tx) => Promise<R>, opts?: TransactOptions): Promise<R>;
  /** Waits for every pending write to be durable. */
  flush(): Promise<void>;
  /**
   * Waits for every pending write to be durable and for the bytes earlier writes removed or replaced to be gone
   * from the store's files: called after a secret is erased, rotated or re-sealed. lowdb rewrites its snapshot and
   * removes its journal; PostgreSQL has no copy of its own to rewrite and only flushes.
   */
  compactNow(): Promise<void>;
  /** Flushes, then releases the store (directory lock, connection pool). Idempotent. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Directory holding the data file and the lock file (lowdb). Created when missing. */
  dataDir: string;
  /** Indexed fields per collection, used by findBy/idsBy. Unindexed fields are an error. */
  indexes?: Record<string, string[]>;
}

// ---------------------------------------------------------------------------
// Claims: an outbox several instances work on
// ---------------------------------------------------------------------------

/** Selection of records to claim (see ClaimableStore). */
export interface ClaimQuery {
  /** An indexed field and the value it must equal, e.g. state = 'pending'. */
  field: string;
  value: IndexValue;
  /**
   * A numeric field (e.g. nextAttemptAt, leaseUntil) that must be <= dueBefore. A record whose dueField is null or
   * missing counts as due; one whose dueField is not a number does not.
   */
  dueField?: string;
  dueBefore?: number;
  /** At most this many records, the oldest (insertion order) first, unless `turns` says otherwise. */
  limit: number;
  /** Serve groups of records in turn instead of the oldest records first (see ClaimTurns). */
  turns?: ClaimTurns | undefined;
}

/**
 * Groups served in turn by a claim: the matching records are grouped by the value of `by[0]` (an account, say), and
 * within it by the value of `by[1]` (one of its subscriptions). One record is handed out per turn: the first-level
 * groups take turns, starting with the one after `after` in the store's order of values and wrapping around, and
 * within a first-level group its second-level groups take turns; each second-level group gives its oldest records
 * first, or with a `dueField` its earliest due ones (the oldest first among records due at the same time). So one
 * group's long backlog delays another group's records by at most one turn.
 *
 * A claim looks at a bounded number of groups (a few times `limit`, each first-level group contributing a handful of
 * second-level ones), so its cost does not grow with the backlog: groups it did not reach come first in a later
 * claim started after the last one served. The records are returned in the order they were handed out.
 */
export interface ClaimTurns {
  /** Two fields whose values (strings, numbers or booleans) group the records: first level, then second level. */
  by: readonly [string, string];
  /** The first-level value served last: this claim starts with the next one. */
  after?: IndexValue | undefined;
  /** At most this many records of one second-level group (default: the claim's limit). */
  most?: number | undefined;
  /**
   * How many more records a second-level group may get (its value as a string, e.g. a subscription's free places):
   * 0 leaves it out. Groups not listed are bounded by `most`.
   */
  room?: ReadonlyMap<string, number> | undefined;
  /**
   * Per first-level value (as a string, like `room`'s keys), the second-level value served last: that value's groups
   * take their turns starting with the one after it, so that from claim to claim each of its groups gets the first
   * turn in turn, not always the first one listed.
   */
  resume?: ReadonlyMap<string, IndexValue> | undefined;
}

/**
 * Claiming records of an outbox with row locks, for several instances working on one queue: each record is handed
 * to one claimer at a time, and a claimer skips records another one holds instead of waiting (on PostgreSQL,
 * `FOR UPDATE SKIP LOCKED`). Present on stores that can do it (the PostgreSQL adapter; the lowdb one serves a single
 * process and needs no claims); see isClaimable.
 *
 * On PostgreSQL, claim transactions run at READ COMMITTED, not SERIALIZABLE: the row locks give the exclusion, and
 * at SERIALIZABLE concurrent claimers, whose predicate reads overlap by design, would keep failing each other with
 * serialization conflicts. Their writes are to the claimed rows (locked) and whatever fn writes.
 */
export interface ClaimableStore extends Store {
  /**
   * Locks up to `limit` matching records nobody else holds, merges `set` into each (shallow) and commits; resolves
   * with the updated records, in insertion order.
   */
  claim<T extends Doc>(collection: string, query: ClaimQuery & { set: Partial<T> }): Promise<T[]>;
  /**
   * Locks up to `limit` matching records nobody else holds and runs `fn` with them and a Tx of the same transaction
   * (fn decides what to write, e.g. the dispatcher's per-delivery checks); commits when fn resolves. The records
   * stay locked until then. fn may run again on a deadlock (retried like transact), so it has the same rules.
   */
  claimWith<T extends Doc, R>(
    collection: string,
    query: ClaimQuery,
    fn: (tx: Tx, claimed: T[], reach: ClaimReach) => Promise<R>,
  ): Promise<R>;
}

/** Where a caller's next claim in turns starts. */
export interface ClaimReach {
  /**
   * The first-level value the next claim should start after (its `ClaimTurns.after`): the one of the last record
   * handed out or, when the claim came back short of its limit without looking at every group, the last value it
   * looked at. Every group up to that one had its turns; starting after the value served last instead, groups with
   * nothing due (retry back-off) in between would be listed again by every claim, and the groups past them never
   * reached. Undefined when the claim handed out nothing and went all the way round, or was not in turns.
   */
  after?: IndexValue | undefined;
}

/** Whether the store can claim (duck-typed, so a caller needs no adapter to ask). */
export function isClaimable(store: Store): store is ClaimableStore {
  const s = store as Partial<ClaimableStore>;
  return typeof s.claimWith === 'function' && typeof s.claim === 'function';
}

// ---------------------------------------------------------------------------
// The access revision: what admission's key cache is checked against
// ---------------------------------------------------------------------------

/**
 * A store keeping the access revision (./revisions.ts): a number that moves, atomically with them, whenever records
 * of the collections credentials are checked against (keys, accounts) are written, by this process or any other on
 * the same data. Both adapters keep it; see isRevisioned.
 */
export interface RevisionedStore extends Store {
  /** The current access revision (a number the caller compares, never interprets; synchronous where held in memory). */
  accessRevision(): number | Promise<number>;
}

/** Whether the store keeps the access revision (duck-typed, like isClaimable). */
export function isRevisioned(store: Store): store is RevisionedStore {
  return typeof (store as Partial<RevisionedStore>).accessRevision === 'function';
}

/** The store's engine cannot be reached (connection refused, dropped mid-transaction): callers answer 503. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * A transaction kept conflicting with concurrent transactions on the same records (serialization failures or
 * deadlocks) and gave up after its retries; nothing it wrote was kept. Transient, like StoreUnavailableError: callers
 * answer 503 SERVICE_UNAVAILABLE with Retry-After, never 500.
 */
export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}

/** The data directory is locked by another live process. */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

/** The data file exists but cannot be read or parsed; it is left untouched. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
}

/** A lookup by a field the collection has no index on (a programming error, or a store opened without its indexes). */
export class NotIndexedError extends Error {
  override name = 'NotIndexedError';
  constructor(collection: string, field: string) {
    super(
      `findBy: field ${JSON.stringify(field)} of collection ${JSON.stringify(collection)} is not indexed ` +
        '(declare it in StoreOptions.indexes)',
    );
  }
}
