// Writer thread of the lowdb store (see file.ts, FileWriter): it holds the
// serialized image of every record and rewrites the data file durably on the
// store's request, so the main thread only sends what changed since the last
// write and never spends time on the whole file. Plain JavaScript so it loads
// the same way under node, tsx and vitest.
//
// Changes travel as three parallel lists: collection, id, and the record's JSON
// text, null for a deletion. A set appends a new id and keeps an existing one in
// place, like Map#set, so the file order follows the store's.
//
// Messages from the store (answered in order, one at a time):
//   { type: 'load', names: [collection names in order], cols, ids, jsons }
//       replaces the image (at the first write, and after a restart of this
//       thread); no answer.
//   { type: 'write', cols, ids, jsons }
//       applies the changes in order, then writes the file: temp file, fsync,
//       rename over the data file, fsync of the directory. Answers { ok: true }
//       or { ok: false, error: { message, code } }.
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writevSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { dir, file, tmp, format, version } = workerData;
const HEAD = Buffer.from(`{"format":${JSON.stringify(format)},"version":${version},"collections":{`);
const CLOSE_COLLECTION = Buffer.from('}');
const CLOSE_FILE = Buffer.from('\n}}\n');

/** collection name -> id -> `,\n<quoted id>:<json>` as bytes, in file order. */
const image = new Map();

function records(name) {
  let c = image.get(name);
  if (!c) image.set(name, (c = new Map()));
  return c;
}

function load(msg) {
  image.clear();
  for (const name of msg.names) records(name);
  apply(msg);
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

/** The file as a list of buffers (mostly the records' chunks) and its size. */
function encode() {
  const parts = [HEAD];
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

function writeDurably() {
  const { parts, size } = encode();
  // 0600: the data file (this temp file once renamed) is the owner's alone; fchmod covers a temp file left by a crash.
  let fd = openSync(tmp, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
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
    load(msg);
    return;
  }
  apply(msg);
  try {
    writeDurably();
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: { message: String(err?.message ?? err), code: err?.code } });
  }
});
