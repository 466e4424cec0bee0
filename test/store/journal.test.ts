/**
 * The journal of the lowdb store (svc.journal beside svc.json): what open does with the files a crash can leave,
 * compaction, and scrubbing (docs/architecture.md, "The lowdb files").
 *
 * A crash is imitated by copying the data files while the store is open and its writes are acknowledged: the copy
 * is exactly what a process killed at that moment leaves (the files hold every acknowledged write, and close has
 * not compacted). test/store/journal-crash.test.ts kills real processes between the steps of a compaction.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declareSealedFields } from '../../src/core/keyring.js';
import { readDataDir } from '../../src/store/lowdb/file.js';
import { openLowdbStore, StoreCorruptError, type Doc, type Store } from '../../src/store/index.js';

let dir: string;
let copyDir: string;
const opened: Store[] = [];

async function open(at = dir): Promise<Store> {
  const store = await openLowdbStore({ dataDir: at });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'svc-journal-'));
  copyDir = await mkdtemp(path.join(os.tmpdir(), 'svc-journal-crash-'));
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await rm(copyDir, { recursive: true, force: true });
});

const journalOf = (at: string) => path.join(at, 'svc.journal');
const snapshotOf = (at: string) => path.join(at, 'svc.json');

/** The data files as a crash now would leave them, copied to copyDir (the lock is not copied: its process is gone). */
async function crashCopy(): Promise<void> {
  for (const name of ['svc.json', 'svc.journal']) {
    await copyFile(path.join(dir, name), path.join(copyDir, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}

/** Every byte of every file in a directory, as text (to look for values that must be gone). */
async function everyFile(at: string): Promise<string> {
  let out = '';
  for (const name of await readdir(at)) out += await readFile(path.join(at, name), 'latin1');
  return out;
}

/** A store with a snapshot of `u0` and a journal of `u1`..`u<n>`, one entry each; returns it open. */
async function journaled(n: number): Promise<Store> {
  const store = await open();
  await store.put('users', { id: 'u0', name: 'in the snapshot' }); // a new store's first write makes svc.json
  for (let i = 1; i <= n; i++) await store.put('users', { id: `u${i}`, name: `entry ${i}` });
  expect((await readdir(dir)).sort()).toEqual(['svc.journal', 'svc.json', 'svc.lock']);
  return store;
}

/** Byte offsets where each journal entry starts (after the header line). */
function entryStarts(buf: Buffer): number[] {
  const starts: number[] = [];
  let pos = buf.indexOf(0x0a) + 1;
  while (pos < buf.length) {
    starts.push(pos);
    const nl = buf.indexOf(0x0a, pos);
    const length = Number(/^#(\d+):/.exec(buf.subarray(pos, nl).toString('latin1'))![1]);
    pos = nl + 1 + length + 1;
  }
  return starts;
}

const ids = async (store: Store) => (await store.all('users')).map((d) => d.id);

describe('lowdb journal: what open does with the files a crash leaves', () => {
  it('replays the journal onto the snapshot', async () => {
    await journaled(3);
    await crashCopy();
    const recovered = await open(copyDir);
    expect(await ids(recovered)).toEqual(['u0', 'u1', 'u2', 'u3']);
    expect(await recovered.get('users', 'u2')).toEqual({ id: 'u2', name: 'entry 2' });
  });

  it('keeps updates in place, deletions and moves, as memory had them', async () => {
    const store = await journaled(3);
    await store.put('users', { id: 'u1', name: 'updated' });
    await store.delete('users', 'u2');
    await store.transact(async (tx) => {
      await tx.delete('users', 'u0');
      await tx.put('users', { id: 'u0', name: 'moved to the end' });
    });
    await crashCopy();
    const recovered = await open(copyDir);
    expect(await recovered.all('users')).toEqual(await store.all('users'));
    expect(await ids(recovered)).toEqual(['u1', 'u3', 'u0']);
  });

  it('drops a torn last entry (its append never finished, so it was never acknowledged) and appends after it', async () => {
    await journaled(3);
    await crashCopy();
    const intact = await readFile(journalOf(copyDir));
    const last = entryStarts(intact).at(-1)!;
    // Every way the last append can be cut short: in its header line, in its payload, before its final newline.
    for (const cut of [last + 3, last + 20, intact.length - 1]) {
      await writeFile(journalOf(copyDir), intact.subarray(0, cut));
      const recovered = await open(copyDir);
      expect(await ids(recovered), `cut at ${cut}`).toEqual(['u0', 'u1', 'u2']);
      await recovered.put('users', { id: 'u9', name: 'after the torn tail' });
      await recovered.flush();
      // The torn bytes were cut before the new entry went in: the journal reads back whole.
      expect(Object.keys((await readDataDir(copyDir)).collections.users ?? {})).toEqual(['u0', 'u1', 'u2', 'u9']);
      await recovered.close();
      await copyFile(snapshotOf(dir), snapshotOf(copyDir)); // back to the crash copy for the next cut
    }
  });

  it('drops a last entry whose checksum fails (zeros where its bytes never reached the disk)', async () => {
    await journaled(2);
    await crashCopy();
    const buf = await readFile(journalOf(copyDir));
    const last = entryStarts(buf).at(-1)!;
    const payloadStart = buf.indexOf(0x0a, last) + 1;
    buf.fill(0, payloadStart, buf.length - 1);
    await writeFile(journalOf(copyDir), buf);
    expect(await ids(await open(copyDir))).toEqual(['u0', 'u1']);
  });

  it('refuses a journal with a bad checksum in the middle, and leaves every file untouched', async () => {
    await journaled(3);
    await crashCopy();
    const buf = await readFile(journalOf(copyDir));
    const second = entryStarts(buf)[1]!;
    const at = buf.indexOf('entry 2', second);
    buf.write('ENTRY', at, 'latin1'); // same length, different bytes: only the checksum can tell
    await writeFile(journalOf(copyDir), buf);
    const snapshot = await readFile(snapshotOf(copyDir));

    const err = await openLowdbStore({ dataDir: copyDir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/fails its checksum and \d+ byte\(s\) of entries follow it/);
    expect(await readFile(journalOf(copyDir))).toEqual(buf);
    expect(await readFile(snapshotOf(copyDir))).toEqual(snapshot);
    expect(await readdir(copyDir)).not.toContain('svc.lock'); // and it did not stay locked
  });

  it('refuses a journal that follows a newer snapshot than svc.json (a data file restored without its journal)', async () => {
    const store = await journaled(2);
    await crashCopy(); // the journal of generation g, with u1 and u2
    const older = await readFile(snapshotOf(copyDir));
    await store.compactNow(); // svc.json of generation g + 1
    await store.put('users', { id: 'u3', name: 'in the new journal' });
    await crashCopy(); // the journal of g + 1 ...
    await writeFile(snapshotOf(copyDir), older); // ... beside the snapshot of g

    await expect(openLowdbStore({ dataDir: copyDir })).rejects.toThrow(
      /follows generation (\d+) of the data file, but .*svc\.json is generation (?!\1)\d+/,
    );
    await rm(snapshotOf(copyDir)); // svc.json gone altogether: refused too, not taken for an empty store
    await expect(openLowdbStore({ dataDir: copyDir })).rejects.toThrow(/svc\.json is missing/);
  });

  it('ignores and deletes a journal older than the snapshot (a compaction interrupted after its rename)', async () => {
    const store = await journaled(2);
    await crashCopy(); // svc.json and journal of generation g
    const staleJournal = await readFile(journalOf(copyDir));
    await store.put('users', { id: 'u1', name: 'changed after the journal was copied' });
    await store.compactNow();
    await copyFile(snapshotOf(dir), snapshotOf(copyDir)); // svc.json of g + 1, the journal of g still there
    expect(await readFile(journalOf(copyDir))).toEqual(staleJournal);

    const recovered = await open(copyDir);
    // Replaying the stale journal would have put back u1's older name.
    expect(await recovered.get('users', 'u1')).toEqual({ id: 'u1', name: 'changed after the journal was copied' });
    expect(await ids(recovered)).toEqual(['u0', 'u1', 'u2']);
    expect((await readdir(copyDir)).sort()).toEqual(['svc.json', 'svc.lock']);
  });

  it('opens a store written before the journal (no generation in svc.json)', async () => {
    await writeFile(
      snapshotOf(dir),
      '{"format":"svc-store","version":1,"collections":{\n"users":{\n"a":{"id":"a"}}\n}}\n',
    );
    const store = await open();
    await store.put('users', { id: 'b' });
    expect(await ids(store)).toEqual(['a', 'b']);
    await store.close();
    expect(await ids(await open())).toEqual(['a', 'b']);
  });
});

describe('lowdb journal: compaction', () => {
  it('keeps every write made while it runs, whether asked for or set off by the journal outgrowing the snapshot', async () => {
    const store = await open();
    await store.put('blobs', { id: 'first' });
    const before = (await readDataDir(dir)).generation;
    // Records of 200 KiB: the journal passes its 4 MiB floor, and the snapshot's size, within the run.
    const big = 'x'.repeat(200 * 1024);
    const writes: Promise<unknown>[] = [];
    const settle = () => new Promise((resolve) => setImmediate(resolve)); // lets writes start in between
    // First by size alone: 30 records of 200 KiB pass the floor, and compaction sets itself off.
    for (let i = 0; i < 30; i++) {
      writes.push(store.put('blobs', { id: `b${i % 25}`, i, big }));
      if (i % 4 === 0) await settle();
    }
    await Promise.all(writes);
    // The compaction runs after the write that set it off was acknowledged; the writer thread does one thing at a
    // time, so the next write is acknowledged after it.
    await store.put('blobs', { id: 'first', after: 'the compaction' });
    const bySize = (await readDataDir(dir)).generation;
    expect(bySize).toBeGreaterThan(before);
    // Then asked for, while puts keep coming.
    for (let i = 30; i < 60; i++) {
      writes.push(store.put('blobs', { id: `b${i % 25}`, i, big }));
      if (i % 10 === 5) writes.push(store.compactNow());
      if (i % 4 === 0) await settle();
    }
    await Promise.all(writes);
    const expected = await store.all('blobs');
    expect(expected).toHaveLength(26);
    expect((await readDataDir(dir)).generation).toBeGreaterThan(bySize); // (calls close together share one)
    // What is on disk right now (the snapshot with whatever the journal holds) is what memory holds ...
    const disk = await readDataDir(dir);
    expect(Object.values(disk.collections.blobs ?? {})).toEqual(expected);
    // ... and a crash now loses nothing either.
    await crashCopy();
    expect(await (await open(copyDir)).all('blobs')).toEqual(expected);
    await store.close();
    expect(await readdir(dir)).toEqual(['svc.json']);
  });

  it('compactNow leaves svc.json alone, a higher generation, and is a no-op with nothing journaled', async () => {
    const store = await journaled(2);
    const before = (await readDataDir(dir)).generation;
    await store.compactNow();
    expect((await readdir(dir)).sort()).toEqual(['svc.json', 'svc.lock']);
    const after = await stat(snapshotOf(dir));
    expect((await readDataDir(dir)).generation).toBe(before + 1);
    await store.compactNow();
    expect((await stat(snapshotOf(dir))).mtimeMs).toBe(after.mtimeMs);
    expect((await readDataDir(dir)).generation).toBe(before + 1);
  });

  it('a store reopened after a crash compacts its journal away at close', async () => {
    await journaled(2);
    await crashCopy();
    const recovered = await open(copyDir);
    await recovered.close();
    expect(await readdir(copyDir)).toEqual(['svc.json']);
    expect(await ids(await open(copyDir))).toEqual(['u0', 'u1', 'u2']);
  });
});

describe('lowdb journal: scrubbing', () => {
  // A collection with a sealed field, as src/webhooks/secrets.ts declares its own. The store compares stored
  // values only; whether they are sealed does not matter to it.
  const SECRETS = 'journal_test_secrets';
  declareSealedFields(SECRETS, ['secret', 'previousSecret']);
  const record = (secret: string, previousSecret: string | null = null): Doc => ({
    id: 's1',
    secret,
    previousSecret,
  });

  it('a replaced or erased sealed value is in no file once the write is acknowledged', async () => {
    const store = await journaled(1);
    await store.put(SECRETS, record('OLD-SECRET-1'));
    await store.put('users', { id: 'u2' }); // journaled after it
    expect(await everyFile(dir)).toContain('OLD-SECRET-1');

    // Rotated with a grace: the old value moves to previousSecret and may stay where it is.
    await store.put(SECRETS, record('NEW-SECRET-2', 'OLD-SECRET-1'));
    expect(await readdir(dir)).toContain('svc.journal');
    // The grace ends: the old value is erased from the record, and from every file.
    await store.put(SECRETS, record('NEW-SECRET-2'));
    const files = await everyFile(dir);
    expect(files).not.toContain('OLD-SECRET-1');
    expect(files).toContain('NEW-SECRET-2');
    // Deleting the record erases its secret from every file too.
    await store.put('users', { id: 'u3' });
    await store.delete(SECRETS, 's1');
    expect(await everyFile(dir)).not.toContain('NEW-SECRET-2');
    await store.close();
    expect(await ids(await open())).toEqual(['u0', 'u1', 'u2', 'u3']);
  });

  it('compactNow removes any value an earlier write replaced, from every file', async () => {
    const store = await journaled(1);
    await store.put('users', { id: 'u1', name: 'PERSONAL-DATA-1' });
    await store.put('users', { id: 'u1', name: 'replaced' });
    expect(await everyFile(dir)).toContain('PERSONAL-DATA-1');
    await store.compactNow();
    expect(await everyFile(dir)).not.toContain('PERSONAL-DATA-1');
    expect(await store.get('users', 'u1')).toEqual({ id: 'u1', name: 'replaced' });
  });
});
