/**
 * The snapshot file's format (svc.json): `{format, version, generation, collections}`, each collection's records in
 * the order they were put. Reading it checks every part and names what is wrong (StoreCorruptError); the record order
 * is read from the text itself, because JSON.parse would put integer-like ids first.
 */
import { StoreCorruptError, type Doc } from '../port.js';
import { errMessage, isPlainObject, type Entry, type SvcData } from './records.js';

export const FORMAT = 'svc-store';
export const VERSION = 1;

export function decode(file: string, text: string): { data: SvcData; generation: number } {
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
  const generation = root.generation ?? 0; // files written before the journal have none
  if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0) {
    throw corrupt(file, '"generation" is not a non-negative integer');
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
        throw corrupt(
          file,
          `record ${JSON.stringify(id)} of collection ${JSON.stringify(name)} is not an object with a matching "id"`,
        );
      }
      entries.set(id, { doc: doc as Doc, json: undefined, seq: data.nextSeq++ });
    }
    data.collections.set(name, entries);
  }
  return { data, generation };
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
      if (c === 0x5c)
        i += 2; // backslash escape
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

/** Takes group and other permissions off an existing file or directory (a no-op when it has none or is missing). */

export function corrupt(file: string, reason: string): StoreCorruptError {
  return new StoreCorruptError(
    `data file ${file} is unreadable: ${reason}. The file was left untouched. ` +
      `Restore it from a backup, or move it away to start with an empty store.`,
  );
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}
