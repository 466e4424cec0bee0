/**
 * test/support/leftovers.ts: the directories a test run names after its process (the suite's build, the package
 * test's scratch space in memory) are removed by a later run once that process is gone, and only then.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers.js';
import { isAlive } from '../../src/store/lowdb/lock.js';
import { removeLeftovers } from '../support/leftovers.js';

const dirs: Array<Awaited<ReturnType<typeof tmpDir>>> = [];
afterAll(async () => {
  for (const d of dirs) await d.cleanup();
});

/** The pid of a process that has ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid;
}

describe('leftovers of earlier runs', () => {
  it('tells a running process from an ended one', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(endedPid())).toBe(false);
  });

  it('removes the entries with the prefix whose process has ended, and nothing else', async () => {
    const d = await tmpDir('svc-leftovers-');
    dirs.push(d);
    const gone = endedPid();
    const names = [`run-${gone}-abc`, `run-${process.pid}-abc`, `other-${gone}`, 'run-notapid', `run-${gone}`];
    for (const name of names) mkdirSync(path.join(d.dir, name, 'inside'), { recursive: true });
    removeLeftovers(d.dir, 'run-');
    expect(readdirSync(d.dir).sort()).toEqual([`other-${gone}`, `run-${process.pid}-abc`, 'run-notapid'].sort());
  });
});
