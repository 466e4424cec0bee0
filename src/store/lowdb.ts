/**
 * The lowdb implementation of the persistence port (see ./port.ts).
 *
 * Layout of a data directory:
 *   svc.json   the data: {"format":"svc-store","version":1,"collections":{"<name>":{"<id>":{...doc}}}}
 *   svc.lock   the pid of the process that has the directory open
 *
 * Everything lives in memory; reads never touch the disk. Transactions run one
 * at a time, in arrival order (a FIFO, so they are serializable trivially):
 * their reads answer from memory with resolved promises, their writes collect
 * in an overlay that is applied to memory all at once when the callback has
 * resolved. Then the whole file is rewritten durably (temp file,
 * fsync, rename, fsync of the directory). Writes are group-committed: at most
 * one file write runs at a time, and every mutation that arrives meanwhile rides
 * along in the next one. A mutation's promise resolves once a write that started
 * after it was applied has completed.
 *
 * The file itself is written by a worker thread (writer-worker.mjs) that keeps
 * the serialized form of every record: the main thread sends it only the records
 * that changed since the last write, and the whole-file work (joining the
 * records, the system calls, waiting on fsync) never runs on the thread that
 * serves requests.
 */
import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, open, readdir, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
// Imported from the module rather than taken from globalThis so that fake timers
// installed by a test cannot stall the write pipeline.
import { setImmediate as defer, setTimeout as delay } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { Low, type Adapter } from 'lowdb';
import { StoreCorruptError, StoreLockedError } from './port.js';
import type { Doc, IndexValue, Store, StoreOptions, TransactOptions, Tx } from './port.js';

const DATA_FILE = 'svc.json';
const LOCK_FILE = 'svc.lock';
const TMP_PREFIX = `${DATA_FILE}.tmp-`;
/** The data directory and the files in it are the owner's alone: they hold key hashes and webhook secrets. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const STALE_LOCK_PREFIX = `${LOCK_FILE}.stale-`;
const FORMAT = 'svc-store';
const VERSION = 1;
const WRITER_URL = new URL('./writer-worker.mjs', import.meta.url);

/** One stored record: its private copy and its insertion rank. */
interface Entry {
  readonly doc: Doc;
  /**
   * The record's JSON text from put until the change is handed to the writer
   * thread (which keeps the serialized records); then dropped, so the text is
   * held once, not twice.
   */
  json: string | undefined;
  /** Insertion rank: Map order within a collection always equals ascending seq. */
  readonly seq: number;
}

/** What lowdb holds in `Low#data`: the in-memory model, not the raw JSON. */
interface SvcData {
  collections: Map<string, Map<string, Entry>>;
  /** Next insertion rank (in memory only, not persisted). */
  nextSeq: number;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** Directories opened by a store in this process (realpath), see acquireLock. */
const openDirs = new Set<string>();

// ---------------------------------------------------------------------------
// Adapter
// ---------------------------------------------------------------------------

/**
 * lowdb adapter for svc.json, hand-written on purpose: lowdb's stock TextFile /
 * JSONFile adapters write through steno, which writes a temp file and renames it
 * without fsyncing either the file or the directory, so an acknowledged write
 * can vanish (or leave an empty file) after a power loss or kernel crash. This
 * one fsyncs the temp file before the rename and the directory after it (in
 * the writer thread, see FileWriter).
 *
 * It converts between the file and the in-memory model (Maps that keep id
 * insertion order).
 */
class DurableJsonAdapter implements Adapter<SvcData> {
  readonly file: string;
  readonly writer: FileWriter;

  constructor(dir: string) {
    this.file = path.join(dir, DATA_FILE);
    this.writer = new FileWriter(dir, this.file);
  }

  async read(): Promise<SvcData | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return null;
      throw corrupt(this.file, `it cannot be read (${errMessage(err)})`);
    }
    return decode(this.file, text);
  }

  write(data: SvcData): Promise<void> {
    // Called synchronously by the store's startWrite: the changes handed over
    // are exactly those applied before the write started (group commit).
    return this.writer.write(data);
  }
}

/**
 * The main-thread side of the writer thread. The thread starts at the first
 * write with the whole image as it is in memory then; after that, it gets only
 * the changes recorded since the previous write. If it dies (it should not),
 * the write in flight is rejected and the next write starts a new thread with
 * the whole image again, so nothing in memory is lost.
 */
class FileWriter {
  private worker: Worker | undefined;
  /**
   * Changes since the last write, in order, as three parallel lists: the
   * collection, the id, and the record's JSON text (null: deleted). Plain lists
   * of the strings the store already has cross to the thread faster than
   * anything built from them.
   */
  private cols: string[] = [];
  private ids: string[] = [];
  private jsons: Array<string | null> = [];
  /**
   * collection -> id -> where in the lists the record's last change is, while
   * it is a set: a later set of the same record replaces the text there (same
   * position in the file, only the newer text crosses). A deletion ends this:
   * a set after it must append.
   */
  private lastSet = new Map<string, Map<string, number>>();
  private pending: Waiter | undefined;

  constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  record(collection: string, id: string, json: string | null): void {
    if (!this.worker) return; // the next write sends everything anyway
    let sets = this.lastSet.get(collection);
    if (json === null) {
      sets?.delete(id);
    } else {
      const at = sets?.get(id);
      if (at !== undefined) {
        this.jsons[at] = json;
        return;
      }
      if (!sets) this.lastSet.set(collection, (sets = new Map()));
      sets.set(id, this.ids.length);
    }
    this.cols.push(collection);
    this.ids.push(id);
    this.jsons.push(json);
  }

  write(data: SvcData): Promise<void> {
    let worker = this.worker;
    if (!worker) worker = this.start(data);
    const message = { type: 'write', cols: this.cols, ids: this.ids, jsons: this.jsons };
    this.clearOps();
    return new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.ref(); // keeps the process alive until the write is durable
      worker.postMessage(message);
    });
  }

  /** Stops the thread (no write may be in flight). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private clearOps(): void {
    this.cols = [];
    this.ids = [];
    this.jsons = [];
    this.lastSet.clear();
  }

  private start(data: SvcData): Worker {
    const worker = new Worker(WRITER_URL, {
      workerData: { dir: this.dir, file: this.file, tmp: path.join(this.dir, `${TMP_PREFIX}${process.pid}`), format: FORMAT, version: VERSION },
    });
    worker.unref();
    worker.on('message', (answer: { ok: boolean; error?: { message: string; code?: string } }) => {
      worker.unref();
      const pending = this.pending;
      this.pending = undefined;
      if (answer.ok) pending?.resolve();
      else pending?.reject(Object.assign(new Error(answer.error?.message ?? 'write failed'), { code: answer.error?.code }));
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`the store writer thread exited (code ${code})`)));
    worker.postMessage({ type: 'load', ...snapshot(data) });
    this.worker = worker;
    this.clearOps(); // the image just sent already holds them
    return worker;
  }

  private lost(worker: Worker, err: unknown): void {
    if (this.worker !== worker) return; // stopped, or already replaced
    this.worker = undefined;
    this.clearOps();
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(new Error(`the store writer thread failed (${errMessage(err)}); the change is kept in memory and written by the next write`));
  }
}

/** Every collection in file order (empty ones too) and every record as a change, for a new writer thread. */
function snapshot(data: SvcData): { names: string[]; cols: string[]; ids: string[]; jsons: string[] } {
  const names: string[] = [];
  const cols: string[] = [];
  const ids: string[] = [];
  const jsons: string[] = [];
  for (const [name, entries] of data.collections) {
    names.push(name);
    for (const [id, entry] of entries) {
      cols.push(name);
      ids.push(id);
      // The copy is the JSON round trip of what was put, so this is the same text
      // (committed entries no longer hold theirs: see takeJson).
      jsons.push(JSON.stringify(entry.doc));
    }
  }
  return { names, cols, ids, jsons };
}

function decode(file: string, text: string): SvcData {
  if (text.length === 0) throw corrupt(file, 'the file is empty');
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw corrupt(file, `it is not valid JSON (${errMessage(err)})`);
  }
  if (!isPlainObject(root) || root.format !== FORMAT) {
    throw corrupt(file, `it is not an svc data file (expected "format": "${FORMAT}")`);
  }
  if (root.version !== VERSION) {
    throw corrupt(file, `it has unsupported version ${JSON.stringify(root.version)} (expected ${VERSION})`);
  }
  const collections = root.collections;
  if (!isPlainObject(collections)) throw corrupt(file, '"collections" is not an object');

  // JSON.parse puts integer-like keys ("7", "42") first in numeric order. Only
  // when such ids exist, recover the order they have in the file.
  let fileOrder: Map<string, string[]> | undefined;
  const data: SvcData = { collections: new Map(), nextSeq: 0 };
  for (const name of Object.keys(collections)) {
    const docs = collections[name];
    if (!isPlainObject(docs)) throw corrupt(file, `collection ${JSON.stringify(name)} is not an object`);
    let ids = Object.keys(docs);
    if (ids.some(isArrayIndex)) {
      fileOrder ??= scanIdOrder(text);
      const ordered = fileOrder.get(name);
      if (ordered && ordered.length === ids.length) ids = ordered;
    }
    const entries = new Map<string, Entry>();
    for (const id of ids) {
      const doc = docs[id];
      if (!isPlainObject(doc) || doc.id !== id) {
        throw corrupt(file, `record ${JSON.stringify(id)} of collection ${JSON.stringify(name)} is not an object with a matching "id"`);
      }
      entries.set(id, { doc: doc as Doc, json: undefined, seq: data.nextSeq++ });
    }
    data.collections.set(name, entries);
  }
  return data;
}

/**
 * Lists the ids of every collection in the order they appear in the text, which
 * must be valid JSON of the svc-store shape (decode has checked that already).
 */
function scanIdOrder(text: string): Map<string, string[]> {
  let i = 0;
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const skipString = (): void => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2; // backslash escape
      else {
        i++;
        if (c === 0x22) return;
      }
    }
  };
  const readString = (): string => {
    const start = i;
    skipString();
    return JSON.parse(text.slice(start, i)) as string;
  };
  const skipValue = (): void => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === '{' || c === '[') {
      let depth = 0;
      while (i < text.length) {
        const ch = text[i];
        if (ch === '"') {
          skipString();
          continue;
        }
        i++;
        if (ch === '{' || ch === '[') depth++;
        else if ((ch === '}' || ch === ']') && --depth === 0) return;
      }
      return;
    }
    while (i < text.length && !',}] \t\n\r'.includes(text[i] as string)) i++;
  };
  /** At an object: calls onValue(key) with i at the start of each value; onValue must consume it. */
  const eachMember = (onValue: (key: string) => void): void => {
    ws();
    i++; // {
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      const key = readString();
      ws();
      i++; // :
      ws();
      onValue(key);
      ws();
      if (text[i++] !== ',') return; // '}'
    }
  };

  const order = new Map<string, string[]>();
  eachMember((key) => {
    if (key !== 'collections') return skipValue();
    eachMember((name) => {
      const seen = new Set<string>();
      eachMember((id) => {
        seen.add(id); // a duplicate keeps its first position, as in JSON.parse
        skipValue();
      });
      order.set(name, [...seen]);
    });
  });
  return order;
}

// ---------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------

/**
 * A view of the store plus an overlay of uncommitted writes. The store's own
 * reads use a Tx with an empty overlay.
 */
class TxImpl implements Tx {
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
    private readonly store: LowdbStore,
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
    found.sort(bySeq);
    return found.map((e) => cloneJson(e.doc) as T);
  }

  async idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
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
    if (this.readOnly) throw new Error('transact(fn, { readOnly: true }): a read-only transaction cannot write; nothing was written');
  }
}

function checkCollectionName(collection: string): void {
  if (typeof collection !== 'string' || collection.length === 0) {
    throw new TypeError('collection name must be a non-empty string');
  }
}

/**
 * Deep copy of a stored doc. Stored docs are plain JSON (copyDoc guarantees it),
 * so a recursive copy is exact — and several times cheaper than structuredClone,
 * which matters on the read path of every authenticated request.
 */
function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    // An own "__proto__" field (JSON.parse makes those) must stay a field, not become the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

/** An entry's JSON text, handed to the writer thread and no longer held here. */
function takeJson(entry: Entry): string {
  const json = entry.json ?? JSON.stringify(entry.doc);
  entry.json = undefined;
  return json;
}

function bySeq(a: Entry, b: Entry): number {
  return a.seq - b.seq;
}

/**
 * Validates a doc and makes the store's private copy. The copy is what the JSON
 * round trip of the doc would give (a deep copy, and exactly what a reopen will
 * load: Dates become strings, undefined fields disappear).
 */
function copyDoc(collection: string, doc: unknown): { id: string; doc: Doc; json: string } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new TypeError(`put(${JSON.stringify(collection)}): the record must be an object`);
  }
  const id = (doc as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0) {
    throw new TypeError(`put(${JSON.stringify(collection)}): record.id must be a non-empty string`);
  }
  const json = JSON.stringify(doc);
  let copy = plainCopy(doc);
  if (copy === NOT_PLAIN) copy = JSON.parse(json) as unknown;
  if (!isPlainObject(copy) || copy.id !== id) {
    throw new TypeError(`put(${JSON.stringify(collection)}, ${JSON.stringify(id)}): the record does not serialize to a JSON object with the same id`);
  }
  return { id, doc: copy as Doc, json };
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');

/**
 * `JSON.parse(JSON.stringify(value))` for plain data, four times faster: plain
 * objects and arrays of strings, booleans, null and numbers, with undefined
 * fields dropped, undefined array items and non-finite numbers as null, and -0
 * as 0, as JSON does. Anything else (a Date, a class instance, a toJSON method,
 * a function, a symbol, a boxed primitive) gives NOT_PLAIN, and the caller uses
 * the real round trip, so the copy is always exactly what a reopen loads.
 * Only called after JSON.stringify succeeded, so there are no cycles or BigInts.
 */
function plainCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null; // -0 + 0 is 0
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        // An Array subclass or an own toJSON could serialize differently.
        if (Object.getPrototypeOf(value) !== Array.prototype || Object.hasOwn(value, 'toJSON')) return NOT_PLAIN;
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = value[i] as unknown;
          const copy = item === undefined ? null : plainCopy(item);
          if (copy === NOT_PLAIN) return NOT_PLAIN;
          out[i] = copy;
        }
        return out;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      const source = value as Record<string, unknown>;
      if (Object.hasOwn(source, 'toJSON') || Object.hasOwn(source, '__proto__')) return NOT_PLAIN;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(source)) {
        const field = source[key];
        if (field === undefined) continue;
        const copy = plainCopy(field);
        if (copy === NOT_PLAIN) return NOT_PLAIN;
        out[key] = copy;
      }
      return out;
    }
    default:
      return NOT_PLAIN; // undefined at the top, functions, symbols, bigints
  }
}

/** The value under which a doc is indexed for a field, or undefined when it isn't indexable. */
function indexKey(doc: Doc, field: string): IndexValue | undefined {
  if (!Object.hasOwn(doc, field)) return undefined;
  const v = doc[field];
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined;
}

function addToIndex(byValue: Map<IndexValue, Set<string>>, key: IndexValue | undefined, id: string): void {
  if (key === undefined) return;
  let ids = byValue.get(key);
  if (!ids) byValue.set(key, (ids = new Set()));
  ids.add(id);
}

function removeFromIndex(byValue: Map<IndexValue, Set<string>>, key: IndexValue | undefined, id: string): void {
  if (key === undefined) return;
  const ids = byValue.get(key);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) byValue.delete(key);
}

// ---------------------------------------------------------------------------
// Store
// ---------------------------------------------------------------------------

class LowdbStore implements Store {
  /** Write counters, for tests and diagnostics (not part of the port). */
  readonly stats = { writes: 0, failedWrites: 0 };

  /** collection -> indexed field -> value -> ids. */
  private readonly indexes = new Map<string, Map<string, Map<IndexValue, Set<string>>>>();

  // Group commit state.
  /** Waiters of mutations applied to memory but not yet part of a started write. */
  private queued: Waiter[] = [];
  /** Waiters of the write in progress (null when no write runs). */
  private inflight: Waiter[] | null = null;
  /** Memory holds changes that no started write covers (or the last write failed). */
  private dirty = false;
  private scheduled = false;

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
    for (const [collection, fields] of Object.entries(indexSpec)) {
      const byField = new Map<string, Map<IndexValue, Set<string>>>();
      for (const field of fields) byField.set(field, new Map());
      this.indexes.set(collection, byField);
    }
    for (const [collection, entries] of this.data.collections) {
      for (const entry of entries.values()) this.index(collection, entry);
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
    if (found.length > 1) found.sort(bySeq);
    return found.map((e) => cloneJson(e.doc) as T);
  }

  /** Committed entries with `field === value` (unsorted), leaving out ids in `skip` (a transaction's overlay). */
  committedBy(collection: string, field: string, value: IndexValue, skip?: Map<string, unknown>): Entry[] {
    const ids = this.indexLookup(collection, field, value);
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

  async all<T extends Doc>(collection: string): Promise<T[]> {
    this.assertOpen();
    return new TxImpl(this).allNow<T>(collection);
  }

  async count(collection: string): Promise<number> {
    this.assertOpen();
    return new TxImpl(this).count(collection);
  }

  /** Ids with `field === value` in the committed state; throws when the field isn't indexed. */
  indexLookup(collection: string, field: string, value: IndexValue): Set<string> | undefined {
    const byValue = this.indexes.get(collection)?.get(field);
    if (!byValue) {
      throw new Error(
        `findBy: field ${JSON.stringify(field)} of collection ${JSON.stringify(collection)} is not indexed ` +
          `(declare it in StoreOptions.indexes)`,
      );
    }
    return byValue.get(value);
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
      const appended: Entry[] = [];
      for (const [id, entry] of overlay) {
        const current = entries?.get(id);
        if (current && entries) {
          if (entry && entry.seq === current.seq) {
            entries.set(id, entry); // an update keeps its position
            this.reindex(collection, current, entry);
            this.writer.record(collection, id, takeJson(entry));
            continue;
          }
          this.unindex(collection, current);
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
        this.index(collection, entry);
        this.writer.record(collection, entry.doc.id, takeJson(entry));
      }
    }
    this.data.nextSeq = Math.max(this.data.nextSeq, tx.nextSeq);
    this.dirty = true;
  }

  private index(collection: string, entry: Entry): void {
    const byField = this.indexes.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) addToIndex(byValue, indexKey(entry.doc, field), entry.doc.id);
  }

  /** Moves an updated record between index sets, only for the fields whose value changed. */
  private reindex(collection: string, before: Entry, after: Entry): void {
    const byField = this.indexes.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) {
      const old = indexKey(before.doc, field);
      const now = indexKey(after.doc, field);
      if (old === now) continue;
      removeFromIndex(byValue, old, before.doc.id);
      addToIndex(byValue, now, after.doc.id);
    }
  }

  private unindex(collection: string, entry: Entry): void {
    const byField = this.indexes.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) removeFromIndex(byValue, indexKey(entry.doc, field), entry.doc.id);
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
    this.db.write().then(
      () => this.settle(batch, true, undefined),
      (err: unknown) => {
        this.stats.failedWrites++;
        this.dirty = true; // memory still holds the data; the next write retries it
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

// ---------------------------------------------------------------------------
// Opening, locking
// ---------------------------------------------------------------------------

export async function openLowdbStore(opts: StoreOptions): Promise<Store> {
  if (typeof opts?.dataDir !== 'string' || opts.dataDir.length === 0) {
    throw new TypeError('openLowdbStore: dataDir must be a non-empty string');
  }
  const indexSpec = normalizeIndexes(opts.indexes);
  const dir = path.resolve(opts.dataDir);
  await ensureDir(dir);
  const releaseLock = await acquireLock(dir);
  try {
    await removeLeftovers(dir);
    await restrict(path.join(dir, DATA_FILE), FILE_MODE);
    const adapter = new DurableJsonAdapter(dir);
    const db = new Low<SvcData>(adapter, { collections: new Map(), nextSeq: 0 });
    await db.read();
    return new LowdbStore(dir, db, adapter.writer, indexSpec, releaseLock);
  } catch (err) {
    await releaseLock().catch(() => undefined);
    throw err;
  }
}

function normalizeIndexes(indexes: StoreOptions['indexes']): Record<string, string[]> {
  if (indexes === undefined) return {};
  if (!isPlainObject(indexes)) throw new TypeError('openLowdbStore: indexes must be an object of field lists');
  const out: Record<string, string[]> = {};
  for (const [collection, fields] of Object.entries(indexes)) {
    if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string' && f.length > 0)) {
      throw new TypeError(`openLowdbStore: indexes.${collection} must be a list of field names`);
    }
    out[collection] = [...fields];
  }
  return out;
}

/** Takes group and other permissions off an existing file or directory (a no-op when it has none or is missing). */
async function restrict(p: string, mode: number): Promise<void> {
  try {
    if (((await stat(p)).mode & 0o077) !== 0) await chmod(p, mode);
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * mkdir -p (directories created 0700), then fsyncs the parents of the
 * directories it created so they survive a crash. An existing data directory
 * open to group or others is narrowed to 0700.
 */
async function ensureDir(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (firstCreated === undefined) {
    await restrict(dir, DIR_MODE);
    return;
  }
  const parents: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    parents.push(path.dirname(d));
    if (d === firstCreated || path.dirname(d) === d) break;
  }
  for (const parent of parents) await syncDir(parent);
}

/**
 * Takes <dir>/svc.lock, returns its release function. A lock whose pid is dead
 * (left by a crash or SIGKILL) is taken over. Our own pid counts as a live holder
 * only while another store of this process has the directory open; otherwise it
 * is a leftover of an earlier process that had the same pid (common in containers).
 */
async function acquireLock(dir: string): Promise<() => Promise<void>> {
  const key = await realpath(dir);
  if (openDirs.has(key)) {
    throw new StoreLockedError(
      `data directory ${dir} is already open by another store in this process (pid ${process.pid}); close it first`,
    );
  }
  openDirs.add(key);
  const lockPath = path.join(dir, LOCK_FILE);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (await createLockFile(lockPath)) {
        let released = false;
        return async () => {
          if (released) return;
          released = true;
          openDirs.delete(key);
          await unlink(lockPath).catch((err: unknown) => {
            if (errCode(err) !== 'ENOENT') throw err;
          });
        };
      }
      const content = await readLock(lockPath);
      if (content === undefined) continue; // vanished meanwhile: try again
      const pid = parsePid(content);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) {
        throw new StoreLockedError(
          `data directory ${dir} is in use by another svc process (pid ${pid}); stop it or choose another --data-dir`,
        );
      }
      await takeOverStaleLock(lockPath, content);
    }
    throw new StoreLockedError(`data directory ${dir}: could not take the lock ${lockPath} (it keeps changing)`);
  } catch (err) {
    openDirs.delete(key);
    throw err;
  }
}

/** Creates the lock file exclusively; false when it already exists. */
async function createLockFile(lockPath: string): Promise<boolean> {
  let fh: FileHandle;
  try {
    fh = await open(lockPath, 'wx', FILE_MODE);
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    await fh.writeFile(`${process.pid}\n`, 'utf8');
    await fh.sync();
    await fh.close();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(lockPath).catch(() => undefined);
    throw err;
  }
  return true;
}

/**
 * Reads the lock file; undefined when it doesn't exist. Content without a pid may
 * belong to a process that has created the file but not written it yet, so it is
 * re-read for a moment before being treated as garbage.
 */
async function readLock(lockPath: string): Promise<string | undefined> {
  for (let tries = 0; ; tries++) {
    let content: string;
    try {
      content = await readFile(lockPath, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    if (parsePid(content) !== undefined || tries >= 5) return content;
    await new Promise((resolve) => delay(resolve, 40));
  }
}

/**
 * Removes a stale lock without racing another process doing the same: the lock
 * is renamed aside (atomic, only one process wins) and checked to still be the
 * stale one; if a fresh lock was moved by mistake it is linked back in place.
 */
async function takeOverStaleLock(lockPath: string, staleContent: string): Promise<void> {
  const aside = `${path.join(path.dirname(lockPath), STALE_LOCK_PREFIX)}${process.pid}-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== staleContent) {
    await link(aside, lockPath).catch(() => undefined); // fails if yet another lock exists: fine
  }
  await unlink(aside).catch(() => undefined);
}

function parsePid(content: string): number | undefined {
  const text = content.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const pid = Number(text);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errCode(err) !== 'ESRCH'; // EPERM: exists, owned by someone else
  }
}

/** Deletes temp files of interrupted writes and lock take-overs (we hold the lock). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith(TMP_PREFIX) || name.startsWith(STALE_LOCK_PREFIX)) {
      await unlink(path.join(dir, name)).catch(() => undefined);
    }
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

function corrupt(file: string, reason: string): StoreCorruptError {
  return new StoreCorruptError(
    `data file ${file} is unreadable: ${reason}. The file was left untouched. ` +
      `Restore it from a backup, or move it away to start with an empty store.`,
  );
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? ((err as { code?: unknown }).code as string | undefined) : undefined;
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
