/**
 * The lock of a lowdb data directory: svc.lock holds the pid of the process that has the directory open, so two
 * processes never write the same data file.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, open, readFile, realpath, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
// Imported from the module rather than taken from globalThis so that fake timers installed by a test cannot stall it.
import { setTimeout as delay } from 'node:timers';
import { StoreLockedError } from '../port.js';
import { FILE_MODE } from './file.js';
import { errCode } from './records.js';

const LOCK_FILE = 'svc.lock';
export const STALE_LOCK_PREFIX = `${LOCK_FILE}.stale-`;

/** Directories opened by a store in this process (realpath), see acquireLock. */
const openDirs = new Set<string>();

/**
 * Takes <dir>/svc.lock, returns its release function. A lock whose pid is dead
 * (left by a crash or SIGKILL) is taken over. Our own pid counts as a live holder
 * only while another store of this process has the directory open; otherwise it
 * is a leftover of an earlier process that had the same pid (common in containers).
 */
export async function acquireLock(dir: string): Promise<() => Promise<void>> {
  const key = await realpath(dir);
  if (openDirs.has(key)) {
    throw new StoreLockedError(
      `data directory ${dir} is already open by another store in this process (pid ${process.pid}); close it first`,
    );
  }
  openDirs.add(key);
  const lockPath = path.join(dir, LOCK_FILE);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (await createLockFile(lockPath)) {
        let released = false;
        return async () => {
          if (released) return;
          released = true;
          openDirs.delete(key);
          await unlink(lockPath).catch((err: unknown) => {
            if (errCode(err) !== 'ENOENT') throw err;
          });
        };
      }
      const content = await readLock(lockPath);
      if (content === undefined) continue; // vanished meanwhile: try again
      const pid = parsePid(content);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) {
        throw new StoreLockedError(
          `data directory ${dir} is in use by another svc process (pid ${pid}); stop it or choose another --data-dir`,
        );
      }
      await takeOverStaleLock(lockPath, content);
    }
    throw new StoreLockedError(`data directory ${dir}: could not take the lock ${lockPath} (it keeps changing)`);
  } catch (err) {
    openDirs.delete(key);
    throw err;
  }
}

/** Creates the lock file exclusively; false when it already exists. */
async function createLockFile(lockPath: string): Promise<boolean> {
  let fh: FileHandle;
  try {
    fh = await open(lockPath, 'wx', FILE_MODE);
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    await fh.writeFile(`${process.pid}\n`, 'utf8');
    await fh.sync();
    await fh.close();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(lockPath).catch(() => undefined);
    throw err;
  }
  return true;
}

/**
 * Reads the lock file; undefined when it doesn't exist. Content without a pid may
 * belong to a process that has created the file but not written it yet, so it is
 * re-read for a moment before being treated as garbage. `first: 'sync'` makes the first read synchronous (see
 * heldByAnother); the re-reads wait asynchronously either way.
 */
async function readLock(lockPath: string, first: 'sync' | 'async' = 'async'): Promise<string | undefined> {
  for (let tries = 0; ; tries++) {
    let content: string;
    try {
      content = tries === 0 && first === 'sync' ? readFileSync(lockPath, 'utf8') : await readFile(lockPath, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    if (parsePid(content) !== undefined || tries >= 5) return content;
    await new Promise((resolve) => delay(resolve, 40));
  }
}

/**
 * Removes a stale lock without racing another process doing the same: the lock
 * is renamed aside (atomic, only one process wins) and checked to still be the
 * stale one; if a fresh lock was moved by mistake it is linked back in place.
 */
async function takeOverStaleLock(lockPath: string, staleContent: string): Promise<void> {
  const aside = `${path.join(path.dirname(lockPath), STALE_LOCK_PREFIX)}${process.pid}-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== staleContent) {
    await link(aside, lockPath).catch(() => undefined); // fails if yet another lock exists: fine
  }
  await unlink(aside).catch(() => undefined);
}

function parsePid(content: string): number | undefined {
  const text = content.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const pid = Number(text);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether process `pid` runs (a signal 0 reaches it, or it exists under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errCode(err) !== 'ESRCH'; // EPERM: exists, owned by someone else
  }
}

/**
 * Whether another live process holds the lock of `dir` now (read only: nothing is taken or removed). The light key
 * check of `svc mcp` asks it, since a store it cannot open leaves it nothing to answer from. The file is read at once,
 * synchronously (it runs while `svc mcp` starts, where each step of an asynchronous read waits for a turn of a busy
 * event loop, and the file is a few bytes in the page cache); only a lock without a pid yet, one being written, is
 * read again, for a moment.
 */
export async function heldByAnother(dir: string): Promise<boolean> {
  const content = await readLock(path.join(dir, LOCK_FILE), 'sync');
  if (content === undefined) return false;
  const pid = parsePid(content);
  return pid !== undefined && pid !== process.pid && isAlive(pid);
}
