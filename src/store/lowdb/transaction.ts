/**
 * A lowdb transaction: a view of the committed records plus an overlay of this transaction's writes, applied to
 * memory all at once by the store when the callback has resolved (see ./store.ts).
 */
import type { Doc, IndexValue, Tx } from '../port.js';
import { indexKey } from './indexes.js';
import { bySeq, checkCollectionName, cloneJson, copyDoc, type Entry, inSeqOrder, type SvcData } from './records.js';

/** What a transaction reads from the store it runs on: the committed records and their indexes. */
export interface CommittedView {
  readonly data: SvcData;
  /** Committed entries with `field === value` (unsorted), leaving out ids in `skip` (a transaction's overlay). */
  committedBy(collection: string, field: string, value: IndexValue, skip?: Map<string, unknown>): Entry[];
  /** Ids of the committed records with `field === value`, in committedBy's order. */
  committedIdsBy(collection: string, field: string, value: IndexValue): string[];
}

/**
 * A view of the store plus an overlay of uncommitted writes. The store's own
 * reads use a Tx with an empty overlay.
 */
export class TxImpl implements Tx {
  /** collection -> id -> new entry, or null when deleted in this transaction. */
  readonly changes = new Map<string, Map<string, Entry | null>>();
  /**
   * collection -> id -> entry: the records this transaction put and still holds
   * (the non-null part of `changes`). Index reads look only here, so a
   * transaction deleting thousands of records doesn't make each lookup scan them.
   */
  private readonly written = new Map<string, Map<string, Entry>>();
  nextSeq: number;
  finished = false;
  /** Set when fn broke the rules (e.g. awaited something other than the Tx); fails the transaction. */
  failure: { error: unknown } | undefined;

  constructor(
    private readonly store: CommittedView,
    private readonly readOnly = false,
  ) {
    this.nextSeq = store.data.nextSeq;
  }

  // The port's methods answer with promises; each is the synchronous method
  // below, run now (async: a throw becomes a rejection).

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    return this.getNow<T>(collection, id);
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const found = this.matching(collection, field, value);
    if (!inSeqOrder(found)) found.sort(bySeq);
    return found.map((e) => cloneJson(e.doc) as T);
  }

  async idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
    // Nothing of the collection changed in this transaction: the committed index is the answer, in its order, without
    // looking each record up (tens of thousands for an account's event log).
    if (!this.changes.get(collection)?.size) {
      this.check(collection);
      return this.store.committedIdsBy(collection, field, value);
    }
    return this.matching(collection, field, value).map((e) => e.doc.id);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    return this.allNow<T>(collection);
  }

  scan<T extends Doc>(collection: string): AsyncIterable<T> {
    const records = this.scanNow<T>(collection);
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => records.next(),
        return: async () => records.return(undefined),
      }),
    };
  }

  async put<T extends Doc>(collection: string, doc: T): Promise<void> {
    this.putNow(collection, doc);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    return this.deleteNow(collection, id);
  }

  getNow<T extends Doc>(collection: string, id: string): T | undefined {
    this.check(collection);
    const entry = this.lookup(collection, id);
    return entry ? (cloneJson(entry.doc) as T) : undefined;
  }

  /** Entries with `field === value` as this transaction sees them (unsorted, not copied). */
  private matching(collection: string, field: string, value: IndexValue): Entry[] {
    this.check(collection);
    const found = this.store.committedBy(collection, field, value, this.changes.get(collection));
    const added = this.written.get(collection);
    if (added) for (const entry of added.values()) if (indexKey(entry.doc, field) === value) found.push(entry);
    return found;
  }

  allNow<T extends Doc>(collection: string): T[] {
    this.check(collection);
    const base = this.store.data.collections.get(collection);
    const overlay = this.changes.get(collection);
    let entries: Entry[] = base ? [...base.values()] : [];
    if (overlay) {
      entries = entries.filter((e) => !overlay.has(e.doc.id));
      for (const entry of overlay.values()) if (entry) entries.push(entry);
      entries.sort(bySeq);
    }
    return entries.map((e) => cloneJson(e.doc) as T);
  }

  /**
   * The records in insertion order, each copied when the iteration reaches it.
   * Nothing else commits while the transaction runs (the FIFO), so the
   * committed map cannot change under the iteration; `check` stops it once the
   * transaction is over.
   */
  private *scanNow<T extends Doc>(collection: string): Generator<T, undefined> {
    this.check(collection);
    const base = this.store.data.collections.get(collection);
    const overlay = this.changes.get(collection);
    if (overlay && [...overlay.keys()].some((id) => !base?.has(id))) {
      // Records added by this transaction: merge by insertion rank, as all() does.
      yield* this.allNow<T>(collection);
      return undefined;
    }
    if (!base) return undefined;
    for (const [id, entry] of base) {
      this.check(collection);
      const changed = this.changes.get(collection);
      if (changed?.has(id)) {
        const now = changed.get(id);
        if (now) yield cloneJson(now.doc) as T;
        continue;
      }
      yield cloneJson(entry.doc) as T;
    }
    return undefined;
  }

  count(collection: string): number {
    this.check(collection);
    const overlay = this.changes.get(collection);
    if (!overlay) return this.store.data.collections.get(collection)?.size ?? 0;
    return this.allNow(collection).length;
  }

  putNow<T extends Doc>(collection: string, doc: T): void {
    this.checkWrite(collection);
    const { id, doc: copy, json } = copyDoc(collection, doc);
    const existing = this.lookup(collection, id);
    const seq = existing ? existing.seq : this.nextSeq++;
    const entry: Entry = { doc: copy, json, seq };
    this.overlay(collection).set(id, entry);
    let added = this.written.get(collection);
    if (!added) this.written.set(collection, (added = new Map()));
    added.set(id, entry);
  }

  deleteNow(collection: string, id: string): boolean {
    this.checkWrite(collection);
    if (!this.lookup(collection, id)) return false;
    this.overlay(collection).set(id, null);
    this.written.get(collection)?.delete(id);
    return true;
  }

  get hasChanges(): boolean {
    return this.changes.size > 0;
  }

  private lookup(collection: string, id: string): Entry | undefined {
    const overlay = this.changes.get(collection);
    if (overlay?.has(id)) return overlay.get(id) ?? undefined;
    return this.store.data.collections.get(collection)?.get(id);
  }

  private overlay(collection: string): Map<string, Entry | null> {
    let overlay = this.changes.get(collection);
    if (!overlay) this.changes.set(collection, (overlay = new Map()));
    return overlay;
  }

  private check(collection: string): void {
    if (this.finished) throw new Error('transaction already finished: use the Tx only inside the transact callback');
    checkCollectionName(collection);
  }

  private checkWrite(collection: string): void {
    this.check(collection);
    if (this.readOnly)
      throw new Error('transact(fn, { readOnly: true }): a read-only transaction cannot write; nothing was written');
  }
}
