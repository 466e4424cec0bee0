/**
 * A read-only look at a lowdb data directory, without taking its lock: the data file as it is on disk now (it is
 * always replaced whole, by a rename, so a read sees one complete state). `svc mcp` uses it to check its key before
 * the store itself is opened (src/access/light-key.ts); nothing here writes.
 */
import path from 'node:path';
import type { Doc } from '../port.js';
import { DurableJsonAdapter } from './file.js';
import { heldByAnother } from './lock.js';
import type { SvcData } from './records.js';

/** The records of a data file, read once. */
export interface RecordReader {
  get(collection: string, id: string): Doc | undefined;
  /** The first record (in the store's order) whose `field` equals `value`. */
  findFirst(collection: string, field: string, value: unknown): Doc | undefined;
}

/**
 * The records of `dataDir`'s data file; `absent` when there is none yet (the first start creates it), `locked` when
 * another live process has the directory open (opening the store would fail). Throws when the file cannot be read.
 */
export async function peekLowdb(dataDir: string): Promise<RecordReader | 'absent' | 'locked'> {
  const dir = path.resolve(dataDir);
  if (await heldByAnother(dir)) return 'locked';
  const data = await new DurableJsonAdapter(dir).read();
  return data ? reader(data) : 'absent';
}

function reader(data: SvcData): RecordReader {
  return {
    get: (collection, id) => data.collections.get(collection)?.get(id)?.doc,
    findFirst(collection, field, value) {
      for (const entry of data.collections.get(collection)?.values() ?? [])
        if (entry.doc[field] === value) return entry.doc;
      return undefined;
    },
  };
}
