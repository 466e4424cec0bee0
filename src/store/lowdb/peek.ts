/**
 * A read-only look at a lowdb data directory, without taking its lock: the data file as it is on disk now (it is
 * always replaced whole, by a rename, so a read sees one complete state). `svc mcp` uses it to check its key before
 * the store itself is opened (src/access/light-key.ts); nothing here writes.
 *
 * The look reads only the collections it is asked for. The store writes its data file one record per line
 * (src/store/lowdb/writer-worker.mjs, `encode`):
 *
 *   {"format":"svc-store","version":1,"generation":7,"collections":{
 *   "accounts":{
 *   "acct_1":{...},
 *   "acct_2":{...}},
 *   "api_keys":{
 *   ...
 *   }}
 *
 * and JSON text has no raw line break, so each wanted collection is found by its header line and only its record
 * lines are parsed, and the file is read from its start only as far as they go: a store holding many plans and
 * contracts is neither read nor parsed whole for one key. A data file laid out otherwise, or one with a journal beside
 * it (changes not yet in the snapshot), is read whole, as the store reads it.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { Doc } from '../port.js';
import { DATA_FILE, DurableJsonAdapter } from './file.js';
import { FORMAT, VERSION } from './format.js';
import { JOURNAL_FILE } from './journal.js';
import { heldByAnother } from './lock.js';
import { isPlainObject } from './records.js';

/** The records of a data file's wanted collections, read once. */
export interface RecordReader {
  get(collection: string, id: string): Doc | undefined;
  /** The first record (in the store's order) whose `field` equals `value`. */
  findFirst(collection: string, field: string, value: unknown): Doc | undefined;
}

/**
 * The records of the `collections` of `dataDir`'s data file; `absent` when there is none yet (the first start creates
 * it), `locked` when another live process has the directory open (opening the store would fail). Throws when the
 * file cannot be read, or when asked for a collection not named here.
 */
export async function peekLowdb(
  dataDir: string,
  collections: readonly string[],
): Promise<RecordReader | 'absent' | 'locked'> {
  const dir = path.resolve(dataDir);
  const held = heldByAnother(dir);
  held.catch(() => undefined); // awaited below; a throw of the read meanwhile must not leave it unhandled
  // Read while the lock is looked at: the files are only read, and what they hold is not used when another process
  // has the directory.
  const lines = readByLines(dir, collections);
  if (await held) return 'locked';
  if (lines) return reader(lines, collections);
  const data = await new DurableJsonAdapter(dir).read();
  return data ? reader(data.collections, collections) : 'absent';
}

/** Records by id, in the store's order (the store's own entries, or those read from the lines). */
type Records = ReadonlyMap<string, { doc: Doc }>;

function reader(data: ReadonlyMap<string, Records>, wanted: readonly string[]): RecordReader {
  const records = (collection: string) => {
    if (!wanted.includes(collection)) throw new Error(`collection ${collection} was not read`);
    return data.get(collection);
  };
  return {
    get: (collection, id) => records(collection)?.get(id)?.doc,
    findFirst(collection, field, value) {
      for (const entry of records(collection)?.values() ?? []) if (entry.doc[field] === value) return entry.doc;
      return undefined;
    },
  };
}

const HEAD = Buffer.from(`{"format":${JSON.stringify(FORMAT)},"version":${VERSION},"generation":`);
const TAIL = Buffer.from('\n}}\n');
const NL = 0x0a;
/** The first read of the data file; each further one doubles what was read. The key collections come first. */
const FIRST_READ = 64 * 1024;

/**
 * The wanted collections of the data file, read from their lines alone, reading the file from its start only as far
 * as they go (the store writes the collections in the order they were first used, and the accounts and keys are
 * among the first); undefined when that cannot be done exactly (no data file, a journal beside it, another layout):
 * the caller then reads the file whole.
 */
function readByLines(dir: string, collections: readonly string[]): Map<string, Records> | undefined {
  // Synchronous: a few small reads from the page cache take a fraction of a millisecond, while each step of an
  // asynchronous read waits for a turn of an event loop the start-up keeps busy.
  if (existsSync(path.join(dir, JOURNAL_FILE))) return undefined;
  let fd: number;
  try {
    fd = openSync(path.join(dir, DATA_FILE), 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    if (size < HEAD.length + TAIL.length) return undefined;
    const tail = Buffer.alloc(TAIL.length);
    readSync(fd, tail, 0, TAIL.length, size - TAIL.length);
    if (!tail.equals(TAIL)) return undefined;
    let file = Buffer.alloc(0);
    for (;;) {
      const want = Math.min(Math.max(FIRST_READ, file.length), size - file.length);
      const chunk = Buffer.allocUnsafe(want);
      const bytesRead = readSync(fd, chunk, 0, want, file.length);
      if (bytesRead === 0) return undefined; // the file shrank: it was replaced while read
      file = Buffer.concat([file, chunk.subarray(0, bytesRead)]);
      if (!file.subarray(0, HEAD.length).equals(HEAD)) return undefined;
      const whole = file.length >= size;
      const out = new Map<string, Records>();
      for (const name of collections) {
        const records = collectionByLines(file, name, whole);
        if (records === 'more') break;
        if (!records) return undefined;
        out.set(name, records);
      }
      if (out.size === collections.length) return out;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * One collection's records from its lines in `file` (the data file's start, or all of it when `whole`), in file
 * order; `more` when they may go on past what was read; undefined when its lines are not as the store writes them.
 */
function collectionByLines(file: Buffer, name: string, whole: boolean): Records | 'more' | undefined {
  const records = new Map<string, { doc: Doc }>();
  // The header line: `"name":{` (records follow on their own lines) or `"name":{}` (none). A record line of another
  // collection may begin the same way (a record whose id is this name), but goes on with its fields.
  const head = Buffer.from(`\n${JSON.stringify(name)}:{`);
  let at = file.indexOf(head);
  while (at >= 0 && at + head.length < file.length && file[at + head.length] !== NL && file[at + head.length] !== 0x7d)
    at = file.indexOf(head, at + 1);
  if (at < 0) return whole ? records : 'more'; // the store writes no header for a collection it never held
  let start = at + head.length;
  if (start >= file.length) return whole ? undefined : 'more';
  if (file[start] === 0x7d) return records;
  // Each record line is `"id":{...}` then `,` when another record follows, or `}` (the collection's end) and `,` when
  // another collection follows. A record with the collection's closing brace is not a JSON member: parsing tells the
  // last record from the others.
  for (;;) {
    start += 1;
    const end = file.indexOf(NL, start);
    if (end < 0) return whole ? undefined : 'more';
    let line = file.toString('utf8', start, end);
    if (line.endsWith(',')) line = line.slice(0, -1);
    const member = parseMember(line);
    const last = member === undefined && line.endsWith('}') ? parseMember(line.slice(0, -1)) : undefined;
    const entry = member ?? last;
    if (!entry) return undefined;
    records.set(entry[0], { doc: entry[1] });
    if (last) return records;
    start = end;
  }
}

/** The id and record of a line `"id":{...}`, or undefined when it is not exactly one such member. */
function parseMember(line: string): [string, Doc] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(`{${line}}`);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const keys = Object.keys(parsed);
  if (keys.length !== 1) return undefined;
  const id = keys[0]!;
  const doc = parsed[id];
  return isPlainObject(doc) && doc.id === id ? [id, doc as Doc] : undefined;
}
