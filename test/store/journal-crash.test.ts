/**
 * Crashes at each step of an append and of a compaction of the lowdb journal: a child process
 * (fixtures/crash-writer.ts) is killed by its own writer thread at the step named in SVC_STORE_CRASH_AT, and the
 * store must then open with every write it acknowledged, leave no temp file or stale journal behind, and close to
 * svc.json alone. The steps are listed in writer-worker.mjs (compact, createJournal, appendEntry).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLowdbStore } from '../../src/store/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'svc-journal-crash-'));
  // A store with a snapshot, so the child's writes go to the journal.
  const store = await openLowdbStore({ dataDir: dir });
  await store.put('records', { id: 'seed' });
  await store.close();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runCrashing(
  step: string,
  after: number,
): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/store/fixtures/crash-writer.ts', dir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SVC_STORE_CRASH_AT: step, SVC_STORE_CRASH_AFTER: String(after) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout, stderr }));
  });
}

const generationIn = async (file: string) =>
  Number(/"generation":(\d+)/.exec((await readFile(file, 'utf8')).slice(0, 200))?.[1]);

// [step, how many times the step is passed before the crash, what the child has acknowledged by then]
const STEPS: Array<[string, number, string]> = [
  ['snapshot-written', 0, 'five puts, then the compaction dies with its new snapshot in a temp file'],
  ['snapshot-renamed', 0, 'five puts, then the compaction dies after renaming, before the directory fsync'],
  ['journal-unlinked', 0, 'five puts, then the compaction dies after unlinking the journal'],
  ['journal-created', 1, 'five puts and a compaction, then dies creating the next journal'],
  ['entry-written', 7, 'seven puts (one compaction), then dies before the eighth entry is fdatasynced'],
];

describe('lowdb journal: a crash at each step of an append or a compaction', () => {
  it.each(STEPS)('%s (after %i): %s', { timeout: 60_000 }, async (step, after) => {
    const child = await runCrashing(step, after);
    expect(child.stdout, `the writer did not start: ${child.stderr}`).toMatch(/^ready$/m);
    expect(child.signal, `the writer was not killed at ${step}: ${child.stderr}`).toBe('SIGKILL');
    const acked = [...child.stdout.matchAll(/^ack (\S+)$/gm)].map((m) => m[1]);
    expect(acked.length).toBeGreaterThanOrEqual(5);

    const left = await readdir(dir);
    if (step === 'snapshot-written') expect(left.some((n) => n.startsWith('svc.json.tmp-'))).toBe(true);
    if (step === 'snapshot-renamed') {
      // The journal the compaction was replacing is still there, one generation behind the snapshot.
      expect(await generationIn(path.join(dir, 'svc.journal'))).toBe(
        (await generationIn(path.join(dir, 'svc.json'))) - 1,
      );
    }

    const store = await openLowdbStore({ dataDir: dir });
    const ids = new Set((await store.all('records')).map((d) => d.id));
    for (const id of ['seed', ...acked]) expect(ids.has(id as string), `acknowledged ${id} lost at ${step}`).toBe(true);
    // Nothing left over: no temp file, no stale journal.
    expect((await readdir(dir)).filter((n) => n.includes('tmp'))).toEqual([]);
    if (step === 'snapshot-renamed') expect(await readdir(dir)).not.toContain('svc.journal');
    // And it writes on: after the crash, appends and compaction still work.
    await store.put('records', { id: 'after' });
    await store.close();
    expect(await readdir(dir)).toEqual(['svc.json']);
    const reopened = await openLowdbStore({ dataDir: dir });
    expect(await reopened.count('records')).toBe(ids.size + 1);
    await reopened.close();
  });
});
