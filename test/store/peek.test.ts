/**
 * The read-only look at a lowdb data directory (src/store/lowdb/peek.ts) the light start of `svc mcp` checks its key
 * with: it reads only the collections asked for, from their lines, and must see exactly what the store itself reads,
 * whatever the records hold, and fall back to reading the file whole when its lines cannot be trusted.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDataDir } from '../../src/store/lowdb/file.js';
import { peekLowdb, type RecordReader } from '../../src/store/lowdb/peek.js';
import { openLowdbStore, type Doc } from '../../src/store/index.js';

let dir: string;
let copyDir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'svc-peek-'));
  copyDir = await mkdtemp(path.join(os.tmpdir(), 'svc-peek-copy-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(copyDir, { recursive: true, force: true });
});

const WANTED = ['api_keys', 'accounts', 'empty', 'never'];

/** Records meant to confuse a reader of lines: ids and values that look like collection headers or line ends. */
const RECORDS: Array<[string, Doc]> = [
  ['accounts', { id: 'acct_1', name: 'Zoë "Z" Müller', note: '},\n"api_keys":{' }],
  ['accounts', { id: '42', name: 'an integer-like id' }],
  ['accounts', { id: 'acct_2', nested: { deep: { list: [{ a: 1 }, { b: '}}' }] } } }],
  ['other', { id: 'api_keys', keyHash: 'not-a-key', text: 'a record named like a collection' }],
  ['other', { id: 'x', body: 'a}\n}}' }],
  ['api_keys', { id: 'key_1', keyHash: 'h1', ownerId: 'acct_1' }],
  ['api_keys', { id: 'key_2', keyHash: 'h2', ownerId: 'acct_2', revokedAt: '2026-01-01T00:00:00.000Z' }],
  ['api_keys', { id: 'key_3', keyHash: 'h3', ownerId: '42', emoji: '🔑', nested: { a: { b: {} } } }],
];

async function fill(at: string): Promise<void> {
  const store = await openLowdbStore({ dataDir: at });
  for (const [collection, doc] of RECORDS) await store.put(collection, doc);
  // A collection that held a record and holds none now.
  await store.put('empty', { id: 'gone' });
  await store.delete('empty', 'gone');
  await store.close();
}

/** Fills the store, closes it, and changes its data file's text with `edit` (which must change something). */
async function fillAndEdit(edit: (text: string) => string): Promise<void> {
  await fill(dir);
  const file = path.join(dir, 'svc.json');
  const text = await readFile(file, 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  await writeFile(file, edited);
}

/** What the reader gives for every record the store reads back from the directory, in the wanted collections. */
async function expectSame(reader: RecordReader | 'absent' | 'locked', at: string): Promise<void> {
  if (typeof reader === 'string') throw new Error(`expected records, got ${reader}`);
  const { collections } = await readDataDir(at);
  for (const name of WANTED) {
    const docs = collections[name] ?? {};
    for (const [id, doc] of Object.entries(docs)) expect(reader.get(name, id), `${name}/${id}`).toEqual(doc);
    expect(reader.get(name, 'missing')).toBeUndefined();
  }
  expect(reader.findFirst('api_keys', 'keyHash', 'h3')).toEqual(RECORDS[7]![1]);
  expect(reader.findFirst('api_keys', 'keyHash', 'not-a-key')).toBeUndefined();
  expect(reader.findFirst('accounts', 'name', 'an integer-like id')?.id).toBe('42');
}

describe('peekLowdb', () => {
  it('reads the wanted collections of a closed store exactly as the store does', async () => {
    await fill(dir);
    const reader = await peekLowdb(dir, WANTED);
    await expectSame(reader, dir);
    // Only what was asked for is read.
    if (typeof reader === 'string') throw new Error(reader);
    expect(() => reader.get('other', 'x')).toThrow(/not read/);
  });

  it('parses only the wanted collections: a damaged record elsewhere does not stop it', async () => {
    // A record of another collection whose id no longer matches its key: the store refuses the whole file.
    await fillAndEdit((text) => text.replace('"id":"x"', '"id":"y"'));
    await expect(readDataDir(dir)).rejects.toThrow(/matching "id"/);
    const reader = await peekLowdb(dir, WANTED);
    if (typeof reader === 'string') throw new Error(reader);
    expect(reader.findFirst('api_keys', 'keyHash', 'h2')?.revokedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(reader.get('accounts', 'acct_1')).toEqual(RECORDS[0]![1]);
  });

  it('reads on when the wanted collections lie past the first read, and lines cross its end', async () => {
    const store = await openLowdbStore({ dataDir: dir });
    // Some 600 kB of another collection first, so the key collections start well past the first 64 kB read...
    for (let i = 0; i < 300; i++) await store.put('bulk', { id: `b${i}`, text: 'x'.repeat(2_000) });
    for (const [collection, doc] of RECORDS) await store.put(collection, doc);
    // ...and a key record of 100 kB, which no read of 64 kB holds whole.
    await store.put('api_keys', { id: 'key_long', keyHash: 'h-long', ownerId: 'acct_1', note: 'y'.repeat(100_000) });
    await store.close();
    const { collections } = await readDataDir(dir);
    // A damaged record in the bulk: reading the file whole would now fail, so what follows is the line reader's.
    const file = path.join(dir, 'svc.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"id":"b7"', '"id":"b8"'));
    await expect(readDataDir(dir)).rejects.toThrow(/matching "id"/);
    const reader = await peekLowdb(dir, WANTED);
    if (typeof reader === 'string') throw new Error(reader);
    for (const name of ['api_keys', 'accounts'])
      for (const [id, doc] of Object.entries(collections[name]!)) expect(reader.get(name, id)).toEqual(doc);
    expect(reader.findFirst('api_keys', 'keyHash', 'h-long')?.id).toBe('key_long');
  });

  it('answers absent for a directory without a data file', async () => {
    expect(await peekLowdb(dir, WANTED)).toBe('absent');
  });

  it('sees the changes a journal holds beside the data file', async () => {
    // A crash leaves the journal: copied while the store is open, with changes the snapshot does not have.
    const store = await openLowdbStore({ dataDir: dir });
    for (const [collection, doc] of RECORDS) await store.put(collection, doc);
    await store.compactNow();
    await store.put('api_keys', { id: 'key_4', keyHash: 'h4', ownerId: 'acct_1' });
    await store.delete('api_keys', 'key_1');
    await store.flush();
    for (const name of ['svc.json', 'svc.journal']) await copyFile(path.join(dir, name), path.join(copyDir, name));
    await store.close();
    expect((await stat(path.join(copyDir, 'svc.journal'))).size).toBeGreaterThan(0);

    const reader = await peekLowdb(copyDir, WANTED);
    if (typeof reader === 'string') throw new Error(reader);
    expect(reader.findFirst('api_keys', 'keyHash', 'h4')?.id).toBe('key_4');
    expect(reader.get('api_keys', 'key_1')).toBeUndefined();
    await expectSame(reader, copyDir);
  });

  it('reads a data file laid out otherwise whole', async () => {
    // The same content, indented: no longer one record per line.
    await fillAndEdit((text) => JSON.stringify(JSON.parse(text), null, 2));
    await expectSame(await peekLowdb(dir, WANTED), dir);
  });

  it('reads the file whole when a record line is not what the store writes', async () => {
    // Two records on one line: still the same JSON, but not the store's layout.
    await fillAndEdit((text) => text.replace('},\n"key_2":', '},"key_2":'));
    await expectSame(await peekLowdb(dir, WANTED), dir);
  });
});

describe('peekLowdb and the directory lock', () => {
  const lock = () => path.join(dir, 'svc.lock');

  it('answers locked while another live process holds the directory, and reads the records otherwise', async () => {
    await fill(dir);
    // Our parent is alive while we run: a store held by it could not be opened here.
    writeFileSync(lock(), `${process.ppid}\n`);
    expect(await peekLowdb(dir, WANTED)).toBe('locked');

    // A lock with our own pid (a store this process has open) does not stop the look.
    writeFileSync(lock(), `${process.pid}\n`);
    await expectSame(await peekLowdb(dir, WANTED), dir);

    // A lock left by a process that has exited is stale: the store would take it over.
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lock(), `${exited}\n`);
    await expectSame(await peekLowdb(dir, WANTED), dir);

    // Garbage stays garbage after the moment the look waits for a pid: not a live holder.
    writeFileSync(lock(), 'not a pid');
    await expectSame(await peekLowdb(dir, WANTED), dir);
  });

  it('reads a lock being written again, and sees the pid written meanwhile', async () => {
    await fill(dir);
    // Created, not written yet: the look reads it again for a moment. The pid is written right after the call
    // starts, so the second read sees it.
    writeFileSync(lock(), '');
    const look = peekLowdb(dir, WANTED);
    writeFileSync(lock(), `${process.ppid}\n`);
    expect(await look).toBe('locked');
  });
});
