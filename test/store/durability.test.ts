import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLowdbStore, StoreCorruptError, StoreLockedError, type Doc, type Store } from '../../src/store/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const writerScript = 'test/store/fixtures/writer.ts';

let dir: string;
const opened: Store[] = [];

async function open(): Promise<Store> {
  const store = await openLowdbStore({ dataDir: dir, indexes: { records: ['group'] } });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'svc-durability-'));
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the writer fixture. With killAfterAck, SIGKILLs it that many ms after it
 * acknowledges its first write (not after "ready": on a loaded machine the first
 * fsync can take longer than the delay, and a run killed before any
 * acknowledgement checks nothing). Resolves once the process is gone and its
 * pipes are drained.
 */
function runWriter(args: string[], killAfterAck?: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (killAfterAck !== undefined && !killTimer && /^ack /m.test(stdout)) {
        killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterAck);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Acknowledged docs from the writer's stdout (complete lines only). */
function acknowledged(stdout: string): Doc[] {
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line.startsWith('ack '))
    .map((line) => JSON.parse(line.slice(4)) as Doc);
}

describe('durability: SIGKILL during writes', () => {
  // Each run appends to the journal faster than a whole-file rewrite could, so the store grows to some ten thousand
  // records over the runs, and every reopen reads them all: hence the generous timeout.
  it('keeps every acknowledged write and never tears a transaction, over 20 kills', { timeout: 150_000 }, async () => {
    const acked = new Map<string, Doc>();
    let runsWithAcks = 0;

    for (let run = 0; run < 20; run++) {
      const child = await runWriter([dir, 'write', String(run)], randomInt(0, 351));
      expect(child.stdout, `writer run ${run} did not start: ${child.stderr}`).toMatch(/^ready$/m);
      expect(child.signal, `writer run ${run} ended by itself: ${child.stderr}`).toBe('SIGKILL');

      const docs = acknowledged(child.stdout);
      if (docs.length > 0) runsWithAcks++;
      for (const doc of docs) acked.set(doc.id, doc);

      // The killed writer's lock is stale: reopening must take it over, and the file must parse.
      const store = await open();
      const all = await store.all('records');
      const byId = new Map(all.map((doc) => [doc.id, doc]));
      for (const [id, doc] of acked) {
        expect(byId.get(id), `acknowledged record ${id} missing after run ${run}`).toEqual(doc);
      }

      // Transactions are all-or-nothing, acknowledged or not.
      const groups = new Map<string, { size: number; count: number }>();
      for (const doc of all) {
        if (doc.kind !== 'tx') continue;
        const g = groups.get(doc.group as string) ?? { size: doc.size as number, count: 0 };
        g.count++;
        groups.set(doc.group as string, g);
      }
      for (const [group, { size, count }] of groups) {
        expect(count, `transaction ${group} is torn after run ${run}`).toBe(size);
        expect((await store.findBy('records', 'group', group)).length).toBe(size);
      }
      await store.close();
    }

    // The test must be able to fail: writes were in fact acknowledged before the kills.
    expect(runsWithAcks).toBeGreaterThanOrEqual(5);
    expect(acked.size).toBeGreaterThan(100);
    // No temp files or stale locks pile up.
    expect((await readdir(dir)).sort()).toEqual(['svc.json']);
  });
});

describe('durability: locking across processes', () => {
  it('refuses a second process while the directory is open, and admits it after close', {
    timeout: 20_000,
  }, async () => {
    const store = await open();
    await store.put('records', { id: 'r1' });

    const refused = await runWriter([dir, 'open']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).not.toMatch(/opened/);
    expect(refused.stderr).toContain(
      `StoreLockedError: data directory ${path.resolve(dir)} is in use by another svc process (pid ${process.pid}); ` +
        'stop it or choose another --data-dir',
    );
    // The refused process left our lock alone.
    expect((await readFile(path.join(dir, 'svc.lock'), 'utf8')).trim()).toBe(String(process.pid));
    expect(await store.get('records', 'r1')).toEqual({ id: 'r1' });

    await store.close();
    const admitted = await runWriter([dir, 'open']);
    expect(admitted.stderr).toBe('');
    expect(admitted.code).toBe(0);
    expect(admitted.stdout).toMatch(/^opened$/m);
  });

  it('takes over a lock whose process is dead', { timeout: 20_000 }, async () => {
    const deadPid = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', () => resolve(child.pid!));
    });
    await writeFile(path.join(dir, 'svc.lock'), `${deadPid}\n`);
    const store = await open();
    expect((await readFile(path.join(dir, 'svc.lock'), 'utf8')).trim()).toBe(String(process.pid));
    await store.put('records', { id: 'r1' });
  });

  it('takes over a lock left by an earlier process with our pid, or with garbage in it', async () => {
    for (const content of [`${process.pid}\n`, 'not a pid', '']) {
      await writeFile(path.join(dir, 'svc.lock'), content);
      const store = await open();
      expect((await readFile(path.join(dir, 'svc.lock'), 'utf8')).trim()).toBe(String(process.pid));
      await store.close();
    }
  });

  it('refuses a lock held by another live process and leaves it in place', async () => {
    const livePid = process.ppid; // our parent is alive while we run
    await writeFile(path.join(dir, 'svc.lock'), `${livePid}\n`);
    const err = await openLowdbStore({ dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as Error).message).toBe(
      `data directory ${dir} is in use by another svc process (pid ${livePid}); stop it or choose another --data-dir`,
    );
    expect(await readFile(path.join(dir, 'svc.lock'), 'utf8')).toBe(`${livePid}\n`);
  });
});

describe('durability: corrupt data file', () => {
  async function validFileText(): Promise<string> {
    const store = await open();
    for (let i = 0; i < 20; i++) await store.put('records', { id: `r${i}`, text: 'x'.repeat(40) });
    await store.close();
    const text = await readFile(path.join(dir, 'svc.json'), 'utf8');
    await rm(path.join(dir, 'svc.json'));
    return text;
  }

  const cases: Array<[string, (valid: string) => Buffer | string]> = [
    ['truncated JSON', (valid) => valid.slice(0, Math.floor(valid.length / 2))],
    ['random bytes', () => Buffer.concat([Buffer.from([0xff, 0x00]), randomBytes(1024)])],
    ['an empty file', () => ''],
    ['JSON null', () => 'null'],
    ['a JSON array', () => '[]'],
    ['another format', () => '{"format":"something-else","version":1,"collections":{}}'],
    ['no collections', () => '{"format":"svc-store","version":1}'],
    ['collections as an array', () => '{"format":"svc-store","version":1,"collections":[]}'],
    ['an unknown version', () => '{"format":"svc-store","version":99,"collections":{}}'],
    ['a collection that is not an object', () => '{"format":"svc-store","version":1,"collections":{"records":5}}'],
    [
      'a record whose id does not match',
      () => '{"format":"svc-store","version":1,"collections":{"records":{"a":{"id":"b"}}}}',
    ],
  ];

  it.each(cases)('refuses %s and leaves the file byte-for-byte untouched', async (_name, make) => {
    const content = make(await validFileText());
    const file = path.join(dir, 'svc.json');
    await writeFile(file, content);
    const past = new Date(Date.now() - 3_600_000);
    await utimes(file, past, past);
    const before = await stat(file);
    const bytesBefore = await readFile(file);

    for (let attempt = 0; attempt < 2; attempt++) {
      const err = await openLowdbStore({ dataDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreCorruptError);
      const message = (err as Error).message;
      expect(message).toContain(file);
      expect(message).toMatch(/left untouched/);
      expect(message).toMatch(/backup/);
      expect(message).toMatch(/move it away/);
    }

    const after = await stat(file);
    expect(await readFile(file)).toEqual(bytesBefore);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
    // The lock was released and nothing else was created.
    expect(await readdir(dir)).toEqual(['svc.json']);

    // Moving the file away, as the message says, gives a working empty store.
    await rm(file);
    const store = await open();
    expect(await store.count('records')).toBe(0);
  });

  it('refuses a data file that cannot be read', async () => {
    const file = path.join(dir, 'svc.json');
    await mkdir(path.join(file, 'inside'), { recursive: true });
    const err = await openLowdbStore({ dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/cannot be read/);
    expect(await readdir(file)).toEqual(['inside']);
    expect(await readdir(dir)).toEqual(['svc.json']);
  });
});
