/**
 * Directories a test run names after its process (`<prefix><pid>...`), and removes when it ends: one left by a run
 * that was killed is removed by the next, once its process is gone.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../src/store/lowdb/lock.js';

/** Removes the entries of `dir` named `<prefix><pid>...` whose process no longer runs. */
export function removeLeftovers(dir: string, prefix: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid))
      rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}
