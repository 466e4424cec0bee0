/**
 * Files of the process group that run one at a time (vitest.config.ts), beside that group's other files rather than in
 * a group of their own after them.
 *
 * Each of them needs the machine's PostgreSQL or Redis to itself as far as two of them at once are concerned (some
 * open up to 40 connections of the server's 100), not the whole machine: in a group of their own, one worker ran them
 * while the second core stayed idle for most of a minute. They are files of the process project now (a project of
 * their own would cost a fresh worker, modules loaded again, at every switch between the projects: vitest reuses a
 * worker only for the same project), and ./exclusive-setup.ts makes a worker that starts one of them wait until no
 * other is running: a lock directory in the run's build (test/global-build.ts), taken before the file's own hooks and
 * given back after them. A lock whose holder died is taken over.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../../src/store/lowdb/lock.js';

/** The files, as globs from the project's root. */
export const ONE_AT_A_TIME = [
  'test/store/pg*.test.ts',
  'test/credits/ledger-postgres.test.ts',
  'test/scale/{config,instances,migrate}.test.ts',
  'test/keys/redis-*.test.ts',
];

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Whether a file (its absolute path, or its path from the project's root) is one of them. */
export function runsAlone(file: string): boolean {
  const relative = path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/');
  return ONE_AT_A_TIME.some((glob) => path.matchesGlob(relative, glob));
}

/** How often a waiting worker looks again. */
const POLL_MS = 50;

/**
 * One lock per run, in the run's build directory (removed with it when the run ends); a file run without one (vitest
 * started some other way) shares one per machine.
 */
export function exclusiveLockDir(): string {
  const build = process.env.SVC_BUILD_DIR;
  return build ? path.join(build, '.one-at-a-time') : path.join(os.tmpdir(), 'svc-test-one-at-a-time');
}

/** A holder made the directory, then wrote its pid: a directory this old without one was left by a dead maker. */
const PIDLESS_MS = 5000;

function holderAlive(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(dir).mtimeMs < PIDLESS_MS;
    } catch {
      return false;
    }
  }
  return Number.isSafeInteger(pid) && pid > 0 && isAlive(pid);
}

/** Waits for the lock and takes it; resolves with its release. */
export async function takeExclusive(dir = exclusiveLockDir()): Promise<() => void> {
  let lastHolderCheck = 0;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // A dead holder's lock is removed (checked once a second).
    if (Date.now() - lastHolderCheck > 1000) {
      if (!holderAlive(dir)) rmSync(dir, { recursive: true, force: true });
      lastHolderCheck = Date.now();
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
