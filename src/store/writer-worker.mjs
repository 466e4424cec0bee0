// Writer thread of the lowdb store (see lowdb.ts, FileWriter): it holds the
// serialized image of every record and rewrites the data file durably on the
// store's request, so the main thread only sends what changed since the last
// write and never spends time on the whole file. Plain JavaScript so it loads
// the same way under node, tsx and vitest.
//
// Changes travel as one string: per change the quoted (JSON) collection name,
// the quoted id and the record's JSON text, empty for a deletion, each followed
// by NUL (which JSON text never holds raw). A set appends a new id and keeps an
// existing one in place, like Map#set, so the file order follows the store's.
//
// Messages from the store (answered in order, one at a time):
//   { type: 'load', collections: [quoted names in order], records: changes }
//       replaces the image (at the first write, and after a restart of this
//       thread); no answer.
//   { type: 'write', ops: changes }
//       applies the changes in order, then writes the file: temp file, fsync,
//       rename over the data file, fsync of the directory. Answers { ok: true }
//       or { ok: false, error: { message, code } }.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writevSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { dir, file, tmp, format, version } = workerData;
const HEAD = Buffer.from(`{"format":${JSON.stringify(format)},"version":${version},"collections":{`);
const CLOSE_COLLECTION = Buffer.from('}');
const CLOSE_FILE = Buffer.from('\n}}\n');

/** quoted collection name -> quoted id -> `,\n<quoted id>:<json>` as bytes, in file order. */
const image = new Map();

function records(quotedName) {
  let c = image.get(quotedName);
  if (!c) image.set(quotedName, (c = new Map()));
  return c;
}

function load(collections, changes) {
  image.clear();
  for (const name of collections) records(name);
  apply(changes);
}

function apply(changes) {
  let start = 0;
  while (start < changes.length) {
    const a = changes.indexOf('\0', start);
    const b = changes.indexOf('\0', a + 1);
    const c = changes.indexOf('\0', b + 1);
    const collection = records(changes.slice(start, a));
    const id = changes.slice(a + 1, b);
    if (c === b + 1) collection.delete(id);
    else collection.set(id, Buffer.from(`,\n${id}:${changes.slice(b + 1, c)}`, 'utf8'));
    start = c + 1;
  }
}

/** The file as a list of buffers (mostly the records' chunks) and its size. */
function encode() {
  const parts = [HEAD];
  let first = true;
  for (const [name, collection] of image) {
    parts.push(Buffer.from(`${first ? '\n' : ',\n'}${name}:{`));
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

function writeDurably() {
  const { parts, size } = encode();
  let fd = openSync(tmp, 'w');
  try {
    const written = writevSync(fd, parts);
    if (written !== size) throw new Error(`short write: ${written} of ${size} bytes`);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      // not created, or already gone
    }
    throw err;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

parentPort.on('message', (msg) => {
  if (msg.type === 'load') {
    load(msg.collections, msg.records);
    return;
  }
  apply(msg.ops);
  try {
    writeDurably();
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: { message: String(err?.message ?? err), code: err?.code } });
  }
});
