/**
 * The lowdb store's secondary indexes: for each declared (collection, field), the ids of the committed records per
 * value. Only scalar values (string, number, boolean, null) are indexed, compared exactly (1 is not "1").
 */
import { NotIndexedError, type Doc, type IndexValue, type StoreOptions } from '../port.js';
import { isPlainObject, type Entry } from './records.js';

/** The ids of the committed records per collection, indexed field and value. */
export class Indexes {
  /** collection -> indexed field -> value -> ids. */
  private readonly byCollection = new Map<string, Map<string, Map<IndexValue, Set<string>>>>();

  constructor(spec: Record<string, string[]>) {
    for (const [collection, fields] of Object.entries(spec)) {
      const byField = new Map<string, Map<IndexValue, Set<string>>>();
      for (const field of fields) byField.set(field, new Map());
      this.byCollection.set(collection, byField);
    }
  }

  /** Ids with `field === value` in the committed state; throws when the field isn't indexed. */
  lookup(collection: string, field: string, value: IndexValue): Set<string> | undefined {
    const byValue = this.byCollection.get(collection)?.get(field);
    if (!byValue) {
      throw new NotIndexedError(collection, field);
    }
    return byValue.get(value);
  }

  add(collection: string, entry: Entry): void {
    const byField = this.byCollection.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) addToIndex(byValue, indexKey(entry.doc, field), entry.doc.id);
  }

  /** Moves an updated record between index sets, only for the fields whose value changed. */
  update(collection: string, before: Entry, after: Entry): void {
    const byField = this.byCollection.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) {
      const old = indexKey(before.doc, field);
      const now = indexKey(after.doc, field);
      if (old === now) continue;
      removeFromIndex(byValue, old, before.doc.id);
      addToIndex(byValue, now, after.doc.id);
    }
  }

  remove(collection: string, entry: Entry): void {
    const byField = this.byCollection.get(collection);
    if (!byField) return;
    for (const [field, byValue] of byField) removeFromIndex(byValue, indexKey(entry.doc, field), entry.doc.id);
  }
}

/** Checks and copies StoreOptions.indexes: collection -> list of field names. */
export function normalizeIndexes(indexes: StoreOptions['indexes']): Record<string, string[]> {
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

/** The value under which a doc is indexed for a field, or undefined when it isn't indexable. */
export function indexKey(doc: Doc, field: string): IndexValue | undefined {
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
