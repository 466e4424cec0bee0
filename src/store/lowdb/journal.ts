/**
 * Reading the journal of the lowdb store (svc.journal) at open: the changes made since the snapshot (svc.json),
 * replayed onto it. The writer thread (writer-worker.mjs) appends to it; docs/architecture.md, "The lowdb files",
 * describes the format and the recovery rules this file applies.
 *
 *   {"format":"svc-journal","version":1,"generation":<the snapshot generation it follows>}\n
 *   #<payload bytes>:<crc32 of the payload, 8 hex digits>\n<payload>\n      (one entry per group commit)
 *
 * A payload is a JSON list of changes `[collection, id, record or null]`, applied in order.
 */
import { StoreCorruptError, type Doc } from '../port.js';
import { errMessage, isPlainObject, type SvcData } from './records.js';

/**
 * node:zlib's crc32, loaded when a journal is first parsed: reading a data directory without one (the light start of
 * `svc mcp` checks its key that way, src/store/lowdb/peek.ts) then does not load zlib.
 */
let zlibCrc32: typeof import('node:zlib').crc32 | undefined;
function crc32(data: Buffer): number {
  zlibCrc32 ??= process.getBuiltinModule('node:zlib').crc32;
  return zlibCrc32(data);
}

export const JOURNAL_FILE = 'svc.journal';
export const JOURNAL_TMP_PREFIX = `${JOURNAL_FILE}.tmp-`;
export const JOURNAL_FORMAT = 'svc-journal';
const NL = 0x0a;

export interface JournalRead {
  /** The generation in the journal's header. */
  generation: number;
  /** Length of the header and the valid entries: a torn tail after it is cut at the next append. */
  validBytes: number;
  /** How many entries were valid. */
  entries: number;
  /** Bytes of a torn last entry that were dropped (0 when the journal ended cleanly). */
  droppedBytes: number;
  /** The entries' changes, in order, not yet applied. */
  changes: Array<[string, string, Doc | null]>;
}

/**
 * Parses a journal. A last entry cut short (by a crash in the middle of its append, so never acknowledged) is
 * dropped; an entry whose checksum fails with more bytes after it is damage in the middle of the file, and the
 * journal is refused rather than replayed with a hole.
 */
export function parseJournal(file: string, buf: Buffer, version: number): JournalRead {
  const headerEnd = buf.indexOf(NL);
  if (headerEnd < 0) throw corruptJournal(file, 'its header line is missing');
  let header: unknown;
  try {
    header = JSON.parse(buf.subarray(0, headerEnd).toString('utf8'));
  } catch (err) {
    throw corruptJournal(file, `its header is not valid JSON (${errMessage(err)})`);
  }
  if (!isPlainObject(header) || header.format !== JOURNAL_FORMAT) {
    throw corruptJournal(file, `it is not an svc journal (expected "format": "${JOURNAL_FORMAT}")`);
  }
  if (header.version !== version) {
    throw corruptJournal(file, `it has unsupported version ${JSON.stringify(header.version)} (expected ${version})`);
  }
  const generation = header.generation;
  if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0) {
    throw corruptJournal(file, 'its header has no valid "generation"');
  }

  const changes: JournalRead['changes'] = [];
  let pos = headerEnd + 1;
  let entries = 0;
  while (pos < buf.length) {
    const lineEnd = buf.indexOf(NL, pos);
    if (lineEnd < 0) break; // torn: the entry's own header line is incomplete
    const m = /^#(\d{1,12}):([0-9a-f]{8})$/.exec(buf.subarray(pos, lineEnd).toString('latin1'));
    if (!m) {
      throw corruptJournal(file, `the entry at byte ${pos} has no valid entry header`);
    }
    const length = Number(m[1]);
    const start = lineEnd + 1;
    const end = start + length + 1;
    if (end > buf.length) break; // torn: the payload is incomplete
    const payload = buf.subarray(start, start + length);
    if (buf[end - 1] !== NL || crc32(payload) !== Number.parseInt(m[2] as string, 16)) {
      if (end === buf.length) break; // a damaged last entry: its append never completed, so it was never acked
      throw corruptJournal(
        file,
        `the entry at byte ${pos} fails its checksum and ${buf.length - end} byte(s) of entries follow it`,
      );
    }
    let list: unknown;
    try {
      list = JSON.parse(payload.toString('utf8'));
    } catch (err) {
      throw corruptJournal(file, `the entry at byte ${pos} is not valid JSON (${errMessage(err)})`);
    }
    if (!Array.isArray(list)) throw corruptJournal(file, `the entry at byte ${pos} is not a list of changes`);
    for (const change of list) {
      if (
        !Array.isArray(change) ||
        change.length !== 3 ||
        typeof change[0] !== 'string' ||
        typeof change[1] !== 'string' ||
        !(change[2] === null || (isPlainObject(change[2]) && change[2].id === change[1]))
      ) {
        throw corruptJournal(file, `the entry at byte ${pos} holds a malformed change`);
      }
      changes.push(change as [string, string, Doc | null]);
    }
    entries++;
    pos = end;
  }
  return { generation, validBytes: pos, entries, droppedBytes: buf.length - pos, changes };
}

/** Applies a journal's changes to the snapshot's model, as the store applied them (a set keeps an id's place). */
export function replay(data: SvcData, changes: JournalRead['changes']): void {
  for (const [name, id, doc] of changes) {
    let entries = data.collections.get(name);
    if (doc === null) {
      entries?.delete(id);
      continue;
    }
    if (!entries) data.collections.set(name, (entries = new Map()));
    const current = entries.get(id);
    entries.set(id, { doc, json: undefined, seq: current ? current.seq : data.nextSeq++ });
  }
}

export function corruptJournal(file: string, reason: string): StoreCorruptError {
  return new StoreCorruptError(
    `journal ${file} is unreadable: ${reason}. The data files were left untouched. ` +
      'Restore the data directory from a backup; the journal holds the changes made since the data file was written.',
  );
}
