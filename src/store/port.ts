/**
 * The persistence port. Domain modules talk to this interface only; adapters
 * (lowdb today, something shared later) implement it.
 *
 * Records are plain JSON objects with a string `id`, grouped in named
 * collections. Every write is acknowledged only once it is durable.
 */
export type Doc = { id: string } & Record<string, unknown>;

/** Read and write access inside one atomic transaction. */
export interface Tx {
  get<T extends Doc>(collection: string, id: string): T | undefined;
  /** Records whose indexed `field` equals `value` (exact match). */
  findBy<T extends Doc>(collection: string, field: string, value: string | number | boolean | null): T[];
  /**
   * The ids of the records whose indexed `field` equals `value`, in no
   * particular order, without reading or copying the records themselves.
   */
  idsBy(collection: string, field: string, value: string | number | boolean | null): string[];
  /** Every record of a collection, in insertion order. */
  all<T extends Doc>(collection: string): T[];
  /**
   * The records of a collection in insertion order, each copied only when the
   * iteration reaches it, so stopping early costs only what was read. Records
   * this transaction changes or deletes while scanning are seen as changed.
   */
  scan<T extends Doc>(collection: string): Iterable<T>;
  put<T extends Doc>(collection: string, doc: T): void;
  /** Returns true when a record was removed. */
  delete(collection: string, id: string): boolean;
}

export interface Store {
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  findBy<T extends Doc>(collection: string, field: string, value: string | number | boolean | null): Promise<T[]>;
  all<T extends Doc>(collection: string): Promise<T[]>;
  count(collection: string): Promise<number>;
  put<T extends Doc>(collection: string, doc: T): Promise<void>;
  delete(collection: string, id: string): Promise<boolean>;
  /**
   * Runs `fn` synchronously against a consistent view and applies all of its
   * writes atomically: either every put/delete lands or none does (a throw
   * discards them and rejects with the thrown error). Resolves with fn's
   * result once the writes are durable.
   */
  transact<R>(fn: (tx: Tx) => R): Promise<R>;
  /** Waits for every pending write to be durable. */
  flush(): Promise<void>;
  /** Flushes, then releases the data directory. Idempotent. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Directory holding the data file and the lock file. Created when missing. */
  dataDir: string;
  /** Indexed fields per collection, used by findBy. Unindexed fields are an error. */
  indexes?: Record<string, string[]>;
}

/** The data directory is locked by another live process. */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

/** The data file exists but cannot be read or parsed; it is left untouched. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
}
