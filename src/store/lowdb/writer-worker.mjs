// Writer thread of the lowdb store (see file.ts, FileWriter, and docs/architecture.md, "The lowdb files"). It holds
// the serialized image of every record and makes the store's changes durable on the store's request, so the main
// thread only sends what changed since the last write and never spends time on the whole file.
//
// Two files: the snapshot svc.json (every record, rewritten whole, atomically) and the journal svc.journal (the
// changes since that snapshot, appended). A write normally appends one checksummed entry to the journal and
// fdatasyncs it; compaction rewrites the snapshot under the next generation number and removes the journal. Plain
// JavaScript so it loads the same way under node, tsx and vitest.
//
// Changes travel as three parallel lists: collection, id, and the record's JSON text, null for a deletion. A set
// appends a new id and keeps an existing one in place, like Map#set, so the file order follows the store's.
//
// Messages from the store (answered in order, one at a time):
//   { type: 'load', names: [collection names in order], cols, ids, jsons, disk }
//       replaces the image (at the first write, and after a restart of this thread); no answer. `disk` says what
//       the store found on disk at open (generation, snapshot size, valid journal length), or is null after a
//       restart of this thread: then the first write compacts, whatever the journal holds.
//   { type: 'write', cols, ids, jsons, scrub }
//       applies the changes in order and makes them durable: appended to the journal, or, with `scrub` (the
//       changes remove or replace bytes that must not stay on disk), written by a compaction, so that no file keeps
//       the old bytes. Answers { ok: true, journal } or { ok: false, error: { message, code }, journal }, where
//       journal says whether a journal file is left. After answering, a journal that has outgrown the snapshot is
//       compacted (before the next message is read).
import {
  closeSync,
  fchmodSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writevSync,
} from 'node:fs';
import { crc32 } from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';

const { dir, file, tmp, journalFile, journalTmp, format, version, journalFormat, minCompactBytes } = workerData;
const CLOSE_COLLECTION = Buffer.from('}');
const CLOSE_FILE = Buffer.from('\n}}\n');
const NEWLINE = Buffer.from('\n');

/** collection name -> id -> `,\n<quoted id>:<json>` as bytes, in file order. */
const image = new Map();

/** Generation of the snapshot on disk (0: no snapshot yet). */
let generation = 0;
let snapshotExists = false;
let snapshotBytes = 0;
/**
 * The journal: null when there is none we may append to. `fd` is undefined until the first append after a load
 * (the file is opened then, and cut back to `size`, the length of its valid entries).
 */
let journal = null;
/** The next write must compact: after a restart of this thread, or a failed write (the journal may be torn). */
let mustCompact = false;
/** A journal file exists on disk (ours or a stale one), which a compaction must remove. */
let journalOnDisk = false;
/** A background compaction failed: try again only once the journal has grown this far. */
let retryCompactAt = 0;

function records(name) {
  let c = image.get(name);
  if (!c) image.set(name, (c = new Map()));
  return c;
}

function load(msg) {
  closeJournal();
  image.clear();
  for (const name of msg.names) records(name);
  apply(msg);
  const disk = msg.disk;
  if (disk) {
    generation = disk.generation;
    snapshotExists = disk.snapshotExists;
    snapshotBytes = disk.snapshotBytes;
    journalOnDisk = disk.journalBytes !== null;
    journal =
      disk.journalBytes !== null ? { fd: undefined, size: disk.journalBytes, entries: disk.journalEntries } : null;
    mustCompact = false;
  } else {
    // A restart: what the dead thread left on disk is unknown. The first write compacts.
    journal = null;
    journalOnDisk = true;
    mustCompact = true;
  }
}

function apply({ cols, ids, jsons }) {
  for (let i = 0; i < ids.length; i++) {
    const collection = records(cols[i]);
    const id = ids[i];
    const json = jsons[i];
    if (json === null) collection.delete(id);
    else collection.set(id, Buffer.from(`,\n${JSON.stringify(id)}:${json}`, 'utf8'));
  }
}

// --- the snapshot --------------------------------------------------------------------------------------------

/** The snapshot of generation `gen` as a list of buffers (mostly the records' chunks) and its size. */
function encode(gen) {
  const parts = [
    Buffer.from(`{"format":${JSON.stringify(format)},"version":${version},"generation":${gen},"collections":{`),
  ];
  let first = true;
  for (const [name, collection] of image) {
    parts.push(Buffer.from(`${first ? '\n' : ',\n'}${JSON.stringify(name)}:{`));
    first = false;
    let firstRecord = true;
    for (const bytes of collection.values()) {
      parts.push(firstRecord ? bytes.subarray(1) : bytes); // the first one without its comma
      firstRecord = false;
    }
    parts.push(CLOSE_COLLECTION);
  }
  parts.push(CLOSE_FILE);
  let size = 0;
  for (const p of parts) size += p.length;
  return { parts, size };
}

/** The generation written at the start of a file (snapshot or journal header); 0 when missing or unreadable. */
function generationOnDisk(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    const head = Buffer.alloc(200);
    const n = readSync(fd, head, 0, head.length, 0);
    const m = /"generation":(\d+)/.exec(head.subarray(0, n).toString('latin1'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * Compaction: the whole image becomes the snapshot of the next generation, then the journal is removed.
 * Steps, each of which may be the last before a crash (docs/architecture.md lists what a reopen finds):
 *   1. the snapshot written to a temp file and fsynced;        2. renamed over svc.json;
 *   3. the directory fsynced;                                   4. the journal unlinked;
 *   5. the directory fsynced.
 * The generation is above anything on disk, so a journal left by a crash between 2 and 4 is older than the
 * snapshot and is ignored (and deleted) by the next open.
 */
function compact() {
  const next = Math.max(generation, generationOnDisk(file), generationOnDisk(journalFile)) + 1;
  const { parts, size } = encode(next);
  writeFileDurably(tmp, parts, size, 'snapshot-written');
  renameOrDrop(tmp, file);
  failpoint('snapshot-renamed');
  syncDir();
  // From here the snapshot holds everything: the journal, if any, is stale and never appended to again.
  generation = next;
  snapshotExists = true;
  snapshotBytes = size;
  mustCompact = false;
  retryCompactAt = 0;
  closeJournal();
  journal = null;
  removeJournal();
}

function removeJournal() {
  if (!journalOnDisk) return;
  try {
    unlinkSync(journalFile);
  } catch (err) {
    if (err?.code !== 'ENOENT') throw err;
  }
  failpoint('journal-unlinked');
  syncDir();
  journalOnDisk = false;
}

/** Writes a new file through `path` (a temp name): written, fchmod 0600, fsynced; the fd is closed unless kept. */
function writeFileDurably(path, parts, size, point, keep = false) {
  // 0600: the data files are the owner's alone; fchmod covers a temp file left by a crash.
  let fd = openSync(path, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    const written = writevSync(fd, parts);
    if (written !== size) throw new Error(`short write: ${written} of ${size} bytes`);
    fsyncSync(fd);
    failpoint(point);
    if (keep) return fd;
    closeSync(fd);
    fd = undefined;
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing
      }
    }
    try {
      unlinkSync(path);
    } catch {
      // not created, or already gone
    }
    throw err;
  }
  return undefined;
}

/** Renames a temp file in place; a temp file that cannot be renamed is removed (no leftovers). */
function renameOrDrop(from, to) {
  try {
    renameSync(from, to);
  } catch (err) {
    try {
      unlinkSync(from);
    } catch {
      // already failing
    }
    throw err;
  }
}

function syncDir() {
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

// --- the journal ---------------------------------------------------------------------------------------------

/** A new journal following the current snapshot: header only, created under a temp name and renamed in place. */
function createJournal() {
  const header = Buffer.from(`${JSON.stringify({ format: journalFormat, version, generation })}\n`);
  const fd = writeFileDurably(journalTmp, [header], header.length, 'journal-created', true);
  try {
    renameOrDrop(journalTmp, journalFile);
    journalOnDisk = true;
    syncDir();
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  journal = { fd, size: header.length, entries: 0 };
}

function openJournal() {
  const fd = openSync(journalFile, 'r+');
  try {
    // Cut a torn tail (an entry a crash left half written) before appending after the valid entries.
    if (fstatSync(fd).size !== journal.size) {
      ftruncateSync(fd, journal.size);
      fsyncSync(fd);
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  journal.fd = fd;
}

function closeJournal() {
  if (journal?.fd !== undefined) {
    try {
      closeSync(journal.fd);
    } catch {
      // closing only
    }
    journal.fd = undefined;
  }
}

/** One entry: `#<payload bytes>:<crc32 of the payload, 8 hex>\n<payload>\n`, the payload a JSON list of changes. */
function appendEntry({ cols, ids, jsons }) {
  if (!journal) createJournal();
  else if (journal.fd === undefined) openJournal();
  let text = '[';
  for (let i = 0; i < ids.length; i++) {
    const json = jsons[i];
    text += `${i === 0 ? '' : ','}[${JSON.stringify(cols[i])},${JSON.stringify(ids[i])},${json === null ? 'null' : json}]`;
  }
  text += ']';
  const payload = Buffer.from(text, 'utf8');
  const head = Buffer.from(`#${payload.length}:${crc32(payload).toString(16).padStart(8, '0')}\n`);
  const size = head.length + payload.length + 1;
  const written = writevSync(journal.fd, [head, payload, NEWLINE], journal.size);
  if (written !== size) throw new Error(`short write: ${written} of ${size} bytes`);
  failpoint('entry-written');
  fdatasyncSync(journal.fd);
  journal.size += size;
  journal.entries++;
}

/** A journal grown past the snapshot (and past a floor, so small stores are not rewritten often) is compacted. */
function wantsCompaction() {
  if (!journal || journal.entries === 0) return false;
  return journal.size > Math.max(minCompactBytes, snapshotBytes, retryCompactAt);
}

// --- crash tests ---------------------------------------------------------------------------------------------

/**
 * The crash tests (test/store/journal-crash.test.ts) name one step in SVC_STORE_CRASH_AT; reaching it kills the
 * whole process at once, as a power cut would leave the files. Unset in normal runs.
 */
const crashAt = process.env.SVC_STORE_CRASH_AT;
let crashAfter = Number(process.env.SVC_STORE_CRASH_AFTER ?? 0);
function failpoint(name) {
  if (crashAt === name && crashAfter-- <= 0) process.kill(process.pid, 'SIGKILL');
}

// --- messages ------------------------------------------------------------------------------------------------

function write(msg) {
  apply(msg);
  const changes = msg.ids.length > 0;
  if (!snapshotExists || mustCompact || (msg.scrub && (changes || journal?.entries > 0))) compact();
  else if (msg.scrub) {
    closeJournal();
    journal = null;
    removeJournal();
  } else if (changes) appendEntry(msg);
}

parentPort.on('message', (msg) => {
  if (msg.type === 'load') {
    load(msg);
    return;
  }
  try {
    write(msg);
    parentPort.postMessage({ ok: true, journal: journalOnDisk });
  } catch (err) {
    // The journal may end in a torn entry, or the snapshot be behind: the next write compacts.
    closeJournal();
    journal = null;
    mustCompact = true;
    parentPort.postMessage({
      ok: false,
      error: { message: String(err?.message ?? err), code: err?.code },
      journal: journalOnDisk,
    });
    return;
  }
  if (wantsCompaction()) {
    try {
      compact();
    } catch {
      // Nothing is lost: the journal still holds every change. Try again once it has grown by half.
      // (A compaction that failed after its rename has left no journal: the next write starts one.)
      if (journal) retryCompactAt = Math.ceil(journal.size * 1.5);
    }
  }
});
