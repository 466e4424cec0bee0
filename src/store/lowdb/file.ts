/**
 * The data files of the lowdb store: reading svc.json (the snapshot) and svc.journal (the changes since) at open,
 * and handing writes to the writer thread that makes them durable.
 *
 * The files are written by a worker thread (writer-worker.mjs) that keeps the serialized form of every record: the
 * main thread sends it only the records that changed since the last write, and the file work (appending a journal
 * entry, rewriting the snapshot at a compaction, waiting on fsync) never runs on the thread that serves requests.
 * docs/architecture.md, "The lowdb files", has the format, the recovery rules and when compaction runs.
 */
import { chmod, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Adapter } from 'lowdb';
import { StoreCorruptError, type Doc } from '../port.js';
import { corrupt, decode, FORMAT, VERSION } from './format.js';
import { JOURNAL_FILE, JOURNAL_FORMAT, JOURNAL_TMP_PREFIX, parseJournal, replay } from './journal.js';
import { errCode, errMessage, type SvcData } from './records.js';

export const DATA_FILE = 'svc.json';
export const TMP_PREFIX = `${DATA_FILE}.tmp-`;
/** The data directory and the files in it are the owner's alone: they hold key hashes and webhook secrets. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** The journal is compacted once it is larger than the snapshot, and than this. */
const MIN_COMPACT_BYTES = 4 * 1024 * 1024;
/** Young generation of the writer thread (see start). */
const WRITER_YOUNG_GENERATION_MB = 8;
const WRITER_URL = new URL('./writer-worker.mjs', import.meta.url);
/** The writer thread's name, as the system shows it. */
export const WRITER_THREAD_NAME = 'svc-writer';

/** What open found on disk, for the writer thread's first start. */
export interface DiskState {
  /** Generation of svc.json (0 when there is none). */
  generation: number;
  snapshotExists: boolean;
  snapshotBytes: number;
  /** Length of the journal's valid part, or null when there is no journal to append to. */
  journalBytes: number | null;
  journalEntries: number;
}

export interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * lowdb adapter for the data files, hand-written on purpose: lowdb's stock TextFile / JSONFile adapters write
 * through steno, which writes a temp file and renames it without fsyncing either the file or the directory, so an
 * acknowledged write can vanish (or leave an empty file) after a power loss or kernel crash. This one hands writes
 * to the writer thread (see FileWriter), which appends them to the journal and fdatasyncs it, and fsyncs the
 * snapshot and the directory around every rename.
 *
 * It converts between the files and the in-memory model (Maps that keep id insertion order).
 */
export class DurableJsonAdapter implements Adapter<SvcData> {
  readonly file: string;
  readonly journalFile: string;
  readonly writer: FileWriter;

  constructor(private readonly dir: string) {
    this.file = path.join(dir, DATA_FILE);
    this.journalFile = path.join(dir, JOURNAL_FILE);
    this.writer = new FileWriter(dir, this.file);
  }

  /**
   * The snapshot with the journal replayed onto it (see loadDataFiles). A stale journal is deleted here: it holds
   * nothing the snapshot lacks, and may hold bytes a scrub meant to remove.
   */
  async read(): Promise<SvcData | null> {
    const loaded = await loadDataFiles(this.dir);
    if (loaded.staleJournal) {
      await unlink(this.journalFile);
      await syncDir(this.dir);
    }
    this.writer.found(loaded.disk);
    return loaded.data;
  }

  write(data: SvcData): Promise<void> {
    // Called synchronously by the store's startWrite: the changes handed over
    // are exactly those applied before the write started (group commit).
    return this.writer.write(data);
  }
}

/**
 * The main-thread side of the writer thread. The thread starts at the first
 * write with the whole image as it is in memory then; after that, it gets only
 * the changes recorded since the previous write. If it dies (it should not),
 * the write in flight is rejected and the next write starts a new thread with
 * the whole image again, so nothing in memory is lost.
 */
export class FileWriter {
  private worker: Worker | undefined;
  /**
   * Changes since the last write, in order, as three parallel lists: the
   * collection, the id, and the record's JSON text (null: deleted). Plain lists
   * of the strings the store already has cross to the thread faster than
   * anything built from them.
   */
  private cols: string[] = [];
  private ids: string[] = [];
  private jsons: Array<string | null> = [];
  /**
   * collection -> id -> where in the lists the record's last change is, while
   * it is a set: a later set of the same record replaces the text there (same
   * position in the file, only the newer text crosses). A deletion ends this:
   * a set after it must append.
   */
  private lastSet = new Map<string, Map<string, number>>();
  private pending: Waiter | undefined;
  /** What open found on disk (see found), sent to the first thread, then dropped. */
  private disk: DiskState | undefined;
  /** A journal file may be on disk (as the last answer of the thread says; true when unknown). */
  private journalOnDisk = false;
  /** The next write must leave no old bytes in any file (see scrubNext). */
  private scrub = false;

  constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  record(collection: string, id: string, json: string | null): void {
    let sets = this.lastSet.get(collection);
    if (json === null) {
      sets?.delete(id);
    } else {
      const at = sets?.get(id);
      if (at !== undefined) {
        this.jsons[at] = json;
        return;
      }
      if (!sets) this.lastSet.set(collection, (sets = new Map()));
      sets.set(id, this.ids.length);
    }
    this.cols.push(collection);
    this.ids.push(id);
    this.jsons.push(json);
  }

  /**
   * Makes the next write a compaction (or, with nothing to write and an empty journal, only the removal of the
   * journal file): when it is acknowledged, no file in the data directory holds a value the changes before it
   * removed or replaced. Cleared when that write is started; set again by the store if it fails.
   */
  scrubNext(): void {
    this.scrub = true;
  }

  /** Called by the adapter's read at open. */
  found(disk: DiskState): void {
    this.disk = disk;
    this.journalOnDisk = disk.journalBytes !== null;
  }

  /** Whether a journal file may be on disk (then close compacts, so a closed store is svc.json alone). */
  get hasJournal(): boolean {
    return this.journalOnDisk;
  }

  write(data: SvcData): Promise<void> {
    let worker = this.worker;
    if (!worker) worker = this.start(data);
    const message = { type: 'write', cols: this.cols, ids: this.ids, jsons: this.jsons, scrub: this.scrub };
    this.scrub = false;
    this.clearOps();
    return new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.ref(); // keeps the process alive until the write is durable
      worker.postMessage(message);
    });
  }

  /** Stops the thread (no write may be in flight). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private clearOps(): void {
    this.cols = [];
    this.ids = [];
    this.jsons = [];
    this.lastSet.clear();
  }

  private start(data: SvcData): Worker {
    // Loaded here, not with this module: reading a data directory (src/store/lowdb/peek.ts) needs no thread.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(WRITER_URL, {
      // Named, so that `top -H` and `ps -L` show which thread is busy (and the webhooks bench its CPU).
      name: WRITER_THREAD_NAME,
      workerData: {
        dir: this.dir,
        file: this.file,
        tmp: path.join(this.dir, `${TMP_PREFIX}${process.pid}`),
        journalFile: path.join(this.dir, JOURNAL_FILE),
        journalTmp: path.join(this.dir, `${JOURNAL_TMP_PREFIX}${process.pid}`),
        format: FORMAT,
        version: VERSION,
        journalFormat: JOURNAL_FORMAT,
        minCompactBytes: MIN_COMPACT_BYTES,
      },
      // The thread's garbage is short-lived (a write's message and journal text), so a small young generation
      // serves it. Left to V8, it grows to 128 MB under a steady stream of writes, and stays there resident. (Under
      // the `svc` command, node's --max-semi-space-size sets every thread's instead: see bin/svc.js.)
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    worker.unref();
    worker.on('message', (answer: { ok: boolean; journal: boolean; error?: { message: string; code?: string } }) => {
      worker.unref();
      this.journalOnDisk = answer.journal;
      const pending = this.pending;
      this.pending = undefined;
      if (answer.ok) pending?.resolve();
      else
        pending?.reject(
          Object.assign(new Error(answer.error?.message ?? 'write failed'), { code: answer.error?.code }),
        );
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`the store writer thread exited (code ${code})`)));
    // The first thread learns what open found on disk; a later one (after a thread was lost) compacts first.
    worker.postMessage({ type: 'load', ...snapshot(data), disk: this.disk ?? null });
    if (!this.disk) this.journalOnDisk = true;
    this.disk = undefined;
    this.worker = worker;
    // The image just sent holds the changes recorded so far too; they are sent again with the write (applying them
    // twice changes nothing), since the first write after open appends exactly them to the journal.
    return worker;
  }

  private lost(worker: Worker, err: unknown): void {
    if (this.worker !== worker) return; // stopped, or already replaced
    this.worker = undefined;
    this.journalOnDisk = true; // unknown: the next thread compacts at its first write
    this.clearOps();
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(
      new Error(
        `the store writer thread failed (${errMessage(err)}); the change is kept in memory and written by the next write`,
      ),
    );
  }
}

/**
 * Reads the data files without changing them. A journal of an older generation than the snapshot is left from a
 * compaction interrupted after its rename: the snapshot already holds all of it, so it is not replayed
 * (`staleJournal`). A journal of a newer generation follows a snapshot that is not there (svc.json replaced or
 * restored without its journal): refused rather than lose those changes.
 */
async function loadDataFiles(dir: string): Promise<{ data: SvcData | null; disk: DiskState; staleJournal: boolean }> {
  const file = path.join(dir, DATA_FILE);
  const journalFile = path.join(dir, JOURNAL_FILE);
  // Both files are read at once (nothing else writes them while they are read: the store holds the directory's lock,
  // and a read-only look, src/store/lowdb/peek.ts, does not use them when another process holds it).
  const [text, journalBuf] = await Promise.all([
    readFile(file, 'utf8').catch((err: unknown) => {
      if (errCode(err) !== 'ENOENT') throw corrupt(file, `it cannot be read (${errMessage(err)})`);
      return undefined;
    }),
    readFile(journalFile).catch((err: unknown) => {
      if (errCode(err) !== 'ENOENT') {
        throw new StoreCorruptError(`journal ${journalFile} cannot be read (${errMessage(err)})`);
      }
      return undefined;
    }),
  ]);
  const snapshot = text === undefined ? undefined : decode(file, text);
  const generation = snapshot?.generation ?? 0;
  const disk: DiskState = {
    generation,
    snapshotExists: snapshot !== undefined,
    snapshotBytes: text === undefined ? 0 : Buffer.byteLength(text),
    journalBytes: null,
    journalEntries: 0,
  };

  if (journalBuf === undefined) return { data: snapshot?.data ?? null, disk, staleJournal: false };

  const journal = parseJournal(journalFile, journalBuf, VERSION);
  if (journal.generation < generation) return { data: snapshot?.data ?? null, disk, staleJournal: true };
  if (journal.generation > generation) {
    throw new StoreCorruptError(
      `journal ${journalFile} follows generation ${journal.generation} of the data file, but ${file} ` +
        `${snapshot ? `is generation ${generation}` : 'is missing'}: the data file was replaced or restored without ` +
        'its journal. Both files were left untouched. Put back the data file the journal belongs to, or move ' +
        'both away to start with an empty store.',
    );
  }
  const data = snapshot?.data ?? { collections: new Map(), nextSeq: 0 };
  replay(data, journal.changes);
  disk.journalBytes = journal.validBytes;
  disk.journalEntries = journal.entries;
  return { data, disk, staleJournal: false };
}

/**
 * What a data directory holds, read without changing anything (the store need not be open, nor closed): the
 * snapshot with the journal replayed, in the snapshot's own shape. For tests and offline inspection; the store
 * itself reads through DurableJsonAdapter.
 */
export async function readDataDir(dir: string): Promise<{
  format: string;
  version: number;
  generation: number;
  collections: Record<string, Record<string, Doc>>;
}> {
  const { data, disk } = await loadDataFiles(dir);
  const collections: Record<string, Record<string, Doc>> = {};
  for (const [name, entries] of data?.collections ?? []) {
    const docs: Record<string, Doc> = {};
    for (const [id, entry] of entries) docs[id] = entry.doc;
    collections[name] = docs;
  }
  return { format: FORMAT, version: VERSION, generation: disk.generation, collections };
}

/** Every collection in file order (empty ones too) and every record as a change, for a new writer thread. */
function snapshot(data: SvcData): { names: string[]; cols: string[]; ids: string[]; jsons: string[] } {
  const names: string[] = [];
  const cols: string[] = [];
  const ids: string[] = [];
  const jsons: string[] = [];
  for (const [name, entries] of data.collections) {
    names.push(name);
    for (const [id, entry] of entries) {
      cols.push(name);
      ids.push(id);
      // The copy is the JSON round trip of what was put, so this is the same text
      // (committed entries no longer hold theirs: see takeJson).
      jsons.push(JSON.stringify(entry.doc));
    }
  }
  return { names, cols, ids, jsons };
}

export async function restrict(p: string, mode: number): Promise<void> {
  try {
    if (((await stat(p)).mode & 0o077) !== 0) await chmod(p, mode);
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * mkdir -p (directories created 0700), then fsyncs the parents of the
 * directories it created so they survive a crash. An existing data directory
 * open to group or others is narrowed to 0700.
 */
export async function ensureDir(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (firstCreated === undefined) {
    await restrict(dir, DIR_MODE);
    return;
  }
  const parents: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    parents.push(path.dirname(d));
    if (d === firstCreated || path.dirname(d) === d) break;
  }
  for (const parent of parents) await syncDir(parent);
}

export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
