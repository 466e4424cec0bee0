/**
 * Names and records of the PostgreSQL store: the table name of a collection, and the checks and JSON text of a
 * record before it is sent (jsonb cannot hold every string JavaScript can).
 */
import type { IndexValue } from '../port.js';

export function checkCollectionName(collection: unknown): asserts collection is string {
  if (typeof collection !== 'string' || collection.length === 0) {
    throw new TypeError('collection name must be a non-empty string');
  }
}

const CLEAN_NAME = /^[a-z][a-z0-9_]{0,40}$/;

/** 32-bit FNV-1a of a string, as 8 hex digits: a short, stable suffix for derived identifiers. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The table of a collection: c_<name> when the name is a plain lower-case identifier, else sanitised + hash. */
export function tableNameFor(collection: string): string {
  if (CLEAN_NAME.test(collection)) return `c_${collection}`;
  const cleaned = collection
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 32);
  return `c_${cleaned}_${shortHash(collection)}`;
}

export function indexNameFor(table: string, field: string): string {
  return `${table}_i_${shortHash(field)}`;
}

/** Matches a \u0000 or an unpaired-surrogate escape in JSON text (one not preceded by an odd run of backslashes). */
export const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * A record holds text PostgreSQL's jsonb cannot store: the NUL character (U+0000) or an unpaired UTF-16 surrogate.
 * Nothing was written (the transaction it was part of fails). The message names the collection, the record and the
 * field, never the text itself.
 */
export class UnstorableTextError extends Error {
  override name = 'UnstorableTextError';
  constructor(
    readonly collection: string,
    /** The record's id (undefined for a claim's `set`). */
    readonly id: string | undefined,
    /** Path of the offending string inside the record (`content`, `answers.family.parents.answer`); a key's path for a bad key. */
    readonly field: string,
    readonly problem: 'nul' | 'surrogate',
  ) {
    const what = problem === 'nul' ? 'a NUL character (U+0000)' : 'an unpaired UTF-16 surrogate';
    const where =
      id === undefined
        ? `claim(${JSON.stringify(collection)}) set`
        : `put(${JSON.stringify(collection)}, ${JSON.stringify(id)})`;
    super(`${where}: field ${JSON.stringify(field)} holds ${what}, which PostgreSQL cannot store; nothing was written`);
  }
}

/** String.prototype.isWellFormed (ES2024, Node 20), not in this project's ES2022 library typings. */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const problemOf = (s: string): 'nul' | 'surrogate' | undefined =>
  s.includes('\u0000') ? 'nul' : isWellFormed(s) ? undefined : 'surrogate';

/** Where the first unstorable string (or key) of a value is, walking it as JSON.stringify would (no recursion). */
function locateUnstorable(value: unknown): { field: string; problem: 'nul' | 'surrogate' } | undefined {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  const at = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { field: path, problem };
    } else if (v !== null && typeof v === 'object') {
      const json = (v as { toJSON?: unknown }).toJSON;
      if (typeof json === 'function') {
        stack.push({ v: (json as () => unknown).call(v), path });
      } else if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: at(path, i) });
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i]!;
          const problem = problemOf(key);
          if (problem) return { field: at(path, key.replace(/[\u0000\ud800-\udfff]/g, '\ufffd')), problem };
          stack.push({ v: (v as Record<string, unknown>)[key], path: at(path, key) });
        }
      }
    }
  }
  return undefined;
}

/** The UnstorableTextError for a value whose JSON text showed an unstorable escape. */
export function unstorableError(collection: string, id: string | undefined, value: unknown): UnstorableTextError {
  // The JSON text had the escape, so the walk finds it; the fallback only guards against a toJSON that changes.
  const found = locateUnstorable(value) ?? { field: '', problem: 'nul' as const };
  return new UnstorableTextError(collection, id, found.field, found.problem);
}

/** Validates a record and gives its JSON text (what the lowdb store would store: the JSON round trip). */
export function encodeDoc(collection: string, doc: unknown): { id: string; json: string } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new TypeError(`put(${JSON.stringify(collection)}): the record must be an object`);
  }
  const id = (doc as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0) {
    throw new TypeError(`put(${JSON.stringify(collection)}): record.id must be a non-empty string`);
  }
  const json = JSON.stringify(doc);
  const back = json === undefined ? undefined : (JSON.parse(json) as unknown);
  if (typeof back !== 'object' || back === null || Array.isArray(back) || (back as { id?: unknown }).id !== id) {
    throw new TypeError(
      `put(${JSON.stringify(collection)}, ${JSON.stringify(id)}): the record does not serialize to a JSON object with the same id`,
    );
  }
  if (json.includes('\\u') && UNSTORABLE_ESCAPE.test(json)) throw unstorableError(collection, id, doc);
  return { id, json };
}

export function indexValueJson(value: IndexValue): string {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  ) {
    return JSON.stringify(value);
  }
  throw new TypeError(`findBy: the value must be a string, a finite number, a boolean or null (got ${typeof value})`);
}
