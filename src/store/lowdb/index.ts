/**
 * The lowdb implementation of the persistence port (see ../port.ts), the embedded default.
 *
 * Layout of a data directory (docs/architecture.md, "The lowdb files", has the details):
 *   svc.json     the snapshot: {"format":"svc-store","version":1,"generation":<n>,"collections":{"<name>":{"<id>":{...doc}}}}
 *   svc.journal  the changes since the snapshot of that generation, appended (absent after a clean close)
 *   svc.lock     the pid of the process that has the directory open
 *
 * The parts: ./file.ts reads the data files (./journal.ts the journal) and hands writes to the writer thread
 * (writer-worker.mjs), which appends them to the journal and compacts it into the snapshot;
 * ./lock.ts holds the directory lock; ./indexes.ts keeps the secondary indexes; ./transaction.ts is a transaction's
 * view and overlay; ./store.ts runs transactions one at a time and group-commits their writes.
 */
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import type { Store, StoreOptions } from '../port.js';
import { DATA_FILE, DurableJsonAdapter, ensureDir, FILE_MODE, restrict, TMP_PREFIX } from './file.js';
import { normalizeIndexes } from './indexes.js';
import { JOURNAL_FILE, JOURNAL_TMP_PREFIX } from './journal.js';
import { acquireLock, STALE_LOCK_PREFIX } from './lock.js';
import type { SvcData } from './records.js';
import { LowdbStore } from './store.js';

export async function openLowdbStore(opts: StoreOptions): Promise<Store> {
  if (typeof opts?.dataDir !== 'string' || opts.dataDir.length === 0) {
    throw new TypeError('openLowdbStore: dataDir must be a non-empty string');
  }
  const indexSpec = normalizeIndexes(opts.indexes);
  const dir = path.resolve(opts.dataDir);
  await ensureDir(dir);
  const releaseLock = await acquireLock(dir);
  try {
    await removeLeftovers(dir);
    await restrict(path.join(dir, DATA_FILE), FILE_MODE);
    await restrict(path.join(dir, JOURNAL_FILE), FILE_MODE);
    const adapter = new DurableJsonAdapter(dir);
    const db = new Low<SvcData>(adapter, { collections: new Map(), nextSeq: 0 });
    await db.read();
    return new LowdbStore(dir, db, adapter.writer, indexSpec, releaseLock);
  } catch (err) {
    await releaseLock().catch(() => undefined);
    throw err;
  }
}

/** Deletes temp files of interrupted writes and lock take-overs (we hold the lock). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith(TMP_PREFIX) || name.startsWith(JOURNAL_TMP_PREFIX) || name.startsWith(STALE_LOCK_PREFIX)) {
      await unlink(path.join(dir, name)).catch(() => undefined);
    }
  }
}
