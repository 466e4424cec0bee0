/**
 * The lowdb store: everything lives in memory; reads never touch the disk. Transactions run one
 * at a time, in arrival order (a FIFO, so they are serializable trivially):
 * their reads answer from memory with resolved promises, their writes collect
 * in an overlay that is applied to memory all at once when the callback has
 * resolved. Then the changes are made durable by the writer thread (./file.ts): appended to the journal,
 * compacted into the snapshot from time to time. Writes are group-committed: at most
 * one file write runs at a time, and every mutation that arrives meanwhile rides
 * along in the next one. A mutation's promise resolves once a write that started
 * after it was applied has completed.
 *
 * Scrubbing: a change that removes or replaces the value of a sealed field (a signing secret, a wrapped key; see
 * declareSealedFields in src/core/keyring.ts) is written by a compaction, so when it is acknowledged the old value
 * is in no file any more (not in the journal, nor in an older snapshot). compactNow() does the same on request.
 */
// Imported from the module rather than taken from globalThis so that fake timers
// installed by a test cannot stall the write pipeline.
import { setImmediate as defer } from 'node:timers';
import type { Low } from 'lowdb';
import { sealedCollections } from '../../core/keyring.js';
import type { Doc, IndexValue, RevisionedStore, Store, TransactOptions, Tx } from '../port.js';
import type { FileWriter, Waiter } from './file.js';
import { Indexes } from './indexes.js';
import { bySeq, checkCollectionName, cloneJson, inSeqOrder, takeJson, type Entry, type SvcData } from './records.js';
import { TxImpl, type CommittedView } from './transaction.js';
import { movesRevision } from '../revisions.js';

/** Records `all` and `findBy` copy between two turns of the event loop, outside a transaction (a few milliseconds' work). */
export const COPY_SLICE = 2_000;

export class LowdbStore implements Store, RevisionedStore, CommittedView {
  /** Write counters, for tests and diagnostics (not part of the port). */
  readonly stats = { writes: 0, failedWrites: 0 };

  private readonly indexes: Indexes;
  /** The access revision (src/store/revisions.ts), moved in apply() after the records. */
  private revision = 0;

  // Group commit state.
  /** Waiters of mutations applied to memory but not yet part of a started write. */
  private queued: Waiter[] = [];
  /** Waiters of the write in progress (null when no write runs). */
  private inflight: Waiter[] | null = null;
  /** Memory holds changes that no started write covers (or the last write failed). */
  private dirty = false;
  private scheduled = false;
  /** The next write must be a compaction (a scrub): see the header and FileWriter.scrubNext. */
  private scrubPending = false;

  /** The transaction holding the FIFO, from the start of its fn until its writes are applied to memory. */
  private running: TxImpl | undefined;
  /** Transactions waiting for the FIFO, in arrival order. */
  private waiting: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private watchdogArmed = false;
  private closing = false;
  private closed = false;
  private closePromise: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly db: Low<SvcData>,
    private readonly writer: FileWriter,
    indexSpec: Record<string, string[]>,
    private readonly releaseLock: () => Promise<void>,
  ) {
    this.indexes = new Indexes(indexSpec);
    for (const [collection, entries] of this.data.collections) {
      for (const entry of entries.values()) this.indexes.add(collection, entry);
    }
  }

  get data(): SvcData {
    return this.db.data;
  }

  // --- reads ---------------------------------------------------------------

  // get and findBy read the committed state directly (no Tx and overlay): they are
  // on the path of every authenticated request. A transaction's writes are applied
  // to memory all at once, so no read can observe one half-done.

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    this.assertOpen();
    checkCollectionName(collection);
    const entry = this.data.collections.get(collection)?.get(id);
    return entry ? (cloneJson(entry.doc) as T) : undefined;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    this.assertOpen();
    checkCollectionName(collection);
    const found = this.committedBy(collection, field, value);
    // An index hands its ids out in the order they were added, mostly the records' order: sorted only when not.
    if (!inSeqOrder(found)) found.sort(bySeq);
    return this.copies<T>(found);
  }

  /**
   * Copies of `entries`, taken from the committed state at once: records are replaced, never changed in place, so the
   * list is that state whatever is written while it is copied. Past COPY_SLICE records they are copied COPY_SLICE at a
   * time with a turn of the event loop between (a background sweep reading 100,000 records: some 20 ms of copies).
   */
  private async copies<T extends Doc>(entries: readonly Entry[]): Promise<T[]> {
    if (entries.length <= COPY_SLICE) return entries.map((e) => cloneJson(e.doc) as T);
    const out: T[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      if (i > 0 && i % COPY_SLICE === 0) await new Promise<void>((resolve) => defer(resolve));
      out[i] = cloneJson(entries[i]!.doc) as T;
    }
    return out;
  }

  /** Ids of the committed records with `field === value`, in the index's order (committedBy's). */
  committedIdsBy(collection: string, field: string, value: IndexValue): string[] {
    const ids = this.indexes.lookup(collection, field, value);
    return ids && this.data.collections.has(collection) ? Array.from(ids) : [];
  }

  /** Committed entries with `field === value` (unsorted), leaving out ids in `skip` (a transaction's overlay). */
  committedBy(collection: string, field: string, value: IndexValue, skip?: Map<string, unknown>): Entry[] {
    const ids = this.indexes.lookup(collection, field, value);
    const base = this.data.collections.get(collection);
    const found: Entry[] = [];
    if (!ids || !base) return found;
    for (const id of ids) {
      if (skip?.has(id)) continue;
      const entry = base.get(id);
      if (entry) found.push(entry);
    }
    return found;
  }

  /**
   * The collection as it is at the call, copied as `copies` does (100,000 accounts, which the memoir catch-up reads
   * every quarter of an hour with their marks, are some 20 ms of copies).
   */
  async all<T extends Doc>(collection: string): Promise<T[]> {
    this.assertOpen();
    checkCollectionName(collection);
    const entries = this.data.collections.get(collection);
    return this.copies<T>(entries ? [...entries.values()] : []);
  }

  async count(collection: string): Promise<number> {
    this.assertOpen();
    return new TxImpl(this).count(collection);
  }

  accessRevision(): number {
    return this.revision;
  }

  // --- writes --------------------------------------------------------------

  put<T extends Doc>(collection: string, doc: T): Promise<void> {
    return this.mutate((tx) => tx.putNow(collection, doc));
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.mutate((tx) => tx.deleteNow(collection, id));
  }

  /**
   * One synchronous change as a transaction of its own. When no transaction
   * holds the FIFO it is applied right away, without the callback machinery:
   * plain puts are on hot paths (e.g. lastUsedAt of keys).
   */
  private mutate<R>(op: (tx: TxImpl) => R): Promise<R> {
    try {
      this.assertOpen();
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.running) return this.transact(async (tx) => op(tx as TxImpl));
    const tx = new TxImpl(this);
    let result: R;
    try {
      result = op(tx);
    } catch (err) {
      return Promise.reject(err);
    } finally {
      tx.finished = true;
    }
    if (!tx.hasChanges) return this.waitDurable().then(() => result);
    this.apply(tx);
    return this.enqueue().then(() => result);
  }

  transact<R>(fn: (tx: Tx) => Promise<R>, opts?: TransactOptions): Promise<R> {
    try {
      this.assertOpen();
    } catch (err) {
      return Promise.reject(err);
    }
    const readOnly = opts?.readOnly === true;
    if (!this.running) return this.runTransact(fn, readOnly);
    // Another transaction holds the FIFO: wait for our turn. A transaction
    // holds it only from the start of fn until its writes are applied to
    // memory (microtasks only, see the watchdog), not while the file is written,
    // so the transactions queued here still share one group-committed write.
    return new Promise<R>((resolve, reject) => {
      this.waiting.push(() => {
        this.runTransact(fn, readOnly).then(resolve, reject);
      });
    });
  }

  private async runTransact<R>(fn: (tx: Tx) => Promise<R>, readOnly: boolean): Promise<R> {
    const tx = new TxImpl(this, readOnly);
    this.running = tx;
    this.armWatchdog();
    let result: R;
    try {
      try {
        result = await fn(tx);
      } catch (err) {
        throw tx.failure ? tx.failure.error : err; // a failed transaction's later Tx calls throw "finished"
      }
      if (tx.failure) throw tx.failure.error;
      if (tx.hasChanges) this.apply(tx);
    } finally {
      tx.finished = true;
      this.release(tx);
    }
    if (!tx.hasChanges) {
      // Nothing to write, but don't hand out results based on data that isn't durable yet.
      await this.waitDurable();
      return result;
    }
    await this.enqueue();
    return result;
  }

  /** Hands the FIFO to the next waiting transaction (started now, so nothing can slip in between). */
  private release(tx: TxImpl): void {
    if (this.running !== tx) return; // already released by the watchdog
    this.running = undefined;
    const next = this.waiting.shift();
    if (next) {
      next();
      return;
    }
    const idle = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of idle) resolve();
  }

  /** Resolves once no transaction runs or waits. */
  private idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Every read and write of a Tx answers with an already resolved promise, so
   * a transaction that keeps to the rules (fn awaits only its Tx) is over
   * before the event loop turns. One that is still running when it does has
   * awaited something else: I/O, a timer, or a nested store call, which waits
   * behind it in the FIFO and would deadlock. It would stall every other
   * transaction, so it is failed (nothing it wrote is applied) and the FIFO
   * moves on. One check per event-loop turn, shared by every transaction.
   */
  private armWatchdog(): void {
    if (this.watchdogArmed) return;
    this.watchdogArmed = true;
    defer(this.watchdog);
  }

  private readonly watchdog = (): void => {
    this.watchdogArmed = false;
    const tx = this.running;
    if (!tx) return;
    tx.failure ??= {
      error: new Error(
        'transact(fn): fn awaited something other than its Tx (I/O, a timer, or another store call such as a nested ' +
          'transact or store.put); nothing was written. Do such work before or after the transaction.',
      ),
    };
    tx.finished = true;
    this.release(tx);
  };

  async flush(): Promise<void> {
    this.assertOpen();
    await this.idle(); // transactions waiting in the FIFO are pending writes too
    await this.waitDurable();
  }

  /**
   * Compacts now: resolves once every write so far is durable in svc.json alone, the journal removed, so that no
   * file holds bytes an earlier write removed or replaced. A no-op when the journal is empty.
   */
  async compactNow(): Promise<void> {
    this.assertOpen();
    await this.idle();
    await this.waitDurable();
    // No journal: the last write was a compaction, and svc.json is all there is.
    if (!this.writer.hasJournal && !this.scrubPending) return;
    await this.scrub();
  }

  private scrub(): Promise<void> {
    this.scrubPending = true;
    this.dirty = true;
    return this.enqueue();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.closePromise) {
      this.closing = true;
      this.closePromise = (async () => {
        try {
          await this.idle(); // transactions accepted before close still run
          await this.waitDurable();
        } catch (err) {
          // Stay open so the caller can retry close() once the disk problem is fixed.
          this.closing = false;
          this.closePromise = undefined;
          throw err;
        }
        // A closed store is svc.json alone (for backups, and for an earlier version that knows no journal). Every
        // write is already durable in the journal, so a compaction that fails here loses nothing.
        if (this.writer.hasJournal) await this.scrub().catch(() => undefined);
        await this.writer.stop();
        await this.releaseLock();
        this.closed = true;
      })();
    }
    return this.closePromise;
  }

  // --- internals -----------------------------------------------------------

  private assertOpen(): void {
    if (this.closing || this.closed) {
      throw new Error(`store is closed (data directory ${this.dir})`);
    }
  }

  /** Applies a transaction's overlay to memory, all at once. */
  private apply(tx: TxImpl): void {
    for (const [collection, overlay] of tx.changes) {
      let entries = this.data.collections.get(collection);
      const sealed = sealedCollections().get(collection);
      const appended: Entry[] = [];
      for (const [id, entry] of overlay) {
        const current = entries?.get(id);
        if (current && entries) {
          if (sealed && !this.scrubPending && dropsSealedValue(sealed, current.doc, entry?.doc)) {
            this.scrubPending = true;
          }
          if (entry && entry.seq === current.seq) {
            entries.set(id, entry); // an update keeps its position
            this.indexes.update(collection, current, entry);
            this.writer.record(collection, id, takeJson(entry));
            continue;
          }
          this.indexes.remove(collection, current);
          entries.delete(id); // deleted, or deleted and put again (moves to the end)
          this.writer.record(collection, id, null);
        }
        if (entry) appended.push(entry);
      }
      if (appended.length === 0) continue;
      if (!entries) this.data.collections.set(collection, (entries = new Map()));
      appended.sort(bySeq);
      for (const entry of appended) {
        entries.set(entry.doc.id, entry);
        this.indexes.add(collection, entry);
        this.writer.record(collection, entry.doc.id, takeJson(entry));
      }
    }
    this.data.nextSeq = Math.max(this.data.nextSeq, tx.nextSeq);
    this.dirty = true;
    if (movesRevision(tx.changes.keys())) this.revision++;
  }

  /** Resolves once a write that starts after now has completed. */
  private enqueue(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything applied to memory so far is durable. */
  private waitDurable(): Promise<void> {
    if (this.dirty) return this.enqueue();
    const inflight = this.inflight;
    if (inflight) return new Promise<void>((resolve, reject) => inflight.push({ resolve, reject }));
    return Promise.resolve();
  }

  private schedule(): void {
    if (this.scheduled || this.inflight) return;
    this.scheduled = true;
    // Deferred by one event-loop turn so that mutations made in the same burst
    // (e.g. Promise.all of many puts) share one write.
    defer(() => this.startWrite());
  }

  private startWrite(): void {
    this.scheduled = false;
    if (this.inflight || !this.dirty) return;
    const batch = this.queued;
    this.queued = [];
    this.dirty = false;
    this.inflight = batch;
    this.stats.writes++;
    const scrub = this.scrubPending;
    this.scrubPending = false;
    if (scrub) this.writer.scrubNext();
    this.db.write().then(
      () => this.settle(batch, true, undefined),
      (err: unknown) => {
        this.stats.failedWrites++;
        this.dirty = true; // memory still holds the data; the next write retries it
        if (scrub) this.scrubPending = true; // and still owes the scrub
        this.settle(batch, false, err);
      },
    );
  }

  private settle(batch: Waiter[], ok: boolean, err: unknown): void {
    this.inflight = null;
    for (const waiter of batch) {
      if (ok) waiter.resolve();
      else waiter.reject(err);
    }
    if (this.queued.length > 0) this.schedule();
  }
}

/**
 * Whether a change from `before` to `after` (undefined: deleted) drops a sealed field's value: a value of `before`
 * that no sealed field of `after` holds (one moving from `secret` to `previousSecret` at a rotation stays).
 */
function dropsSealedValue(
  sealed: { fields: string[]; wrapped: string[] },
  before: Doc,
  after: Doc | undefined,
): boolean {
  const kept = new Set<unknown>();
  if (after) for (const field of [...sealed.fields, ...sealed.wrapped]) kept.add(after[field]);
  for (const field of [...sealed.fields, ...sealed.wrapped]) {
    const old = before[field];
    if (old !== undefined && old !== null && !kept.has(old)) return true;
  }
  return false;
}
