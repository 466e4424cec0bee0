/**
 * The in-memory model of the lowdb store and the copying of records into and out of it. Stored records are plain
 * JSON: what goes in is the JSON round trip of what was put, and every read hands out a deep copy.
 */
import type { Doc } from '../port.js';

/** One stored record: its private copy and its insertion rank. */
export interface Entry {
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
export interface SvcData {
  collections: Map<string, Map<string, Entry>>;
  /** Next insertion rank (in memory only, not persisted). */
  nextSeq: number;
}

export function checkCollectionName(collection: string): void {
  if (typeof collection !== 'string' || collection.length === 0) {
    throw new TypeError('collection name must be a non-empty string');
  }
}

/**
 * Deep copy of a stored doc. Stored docs are plain JSON (copyDoc guarantees it),
 * so a recursive copy is exact — and several times cheaper than structuredClone,
 * which matters on the read path of every authenticated request.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    // An own "__proto__" field (JSON.parse makes those) must stay a field, not become the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

/** An entry's JSON text, handed to the writer thread and no longer held here. */
export function takeJson(entry: Entry): string {
  const json = entry.json ?? JSON.stringify(entry.doc);
  entry.json = undefined;
  return json;
}

export function bySeq(a: Entry, b: Entry): number {
  return a.seq - b.seq;
}

/** Whether `entries` are in insertion order already (checking is a tenth of sorting 100,000 of them). */
export function inSeqOrder(entries: readonly Entry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (entries[i - 1]!.seq > entries[i]!.seq) return false;
  return true;
}

/**
 * Validates a doc and makes the store's private copy. The copy is what the JSON
 * round trip of the doc would give (a deep copy, and exactly what a reopen will
 * load: Dates become strings, undefined fields disappear).
 */
export function copyDoc(collection: string, doc: unknown): { id: string; doc: Doc; json: string } {
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
    throw new TypeError(
      `put(${JSON.stringify(collection)}, ${JSON.stringify(id)}): the record does not serialize to a JSON object with the same id`,
    );
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

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? ((err as { code?: unknown }).code as string | undefined) : undefined;
}

export function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
