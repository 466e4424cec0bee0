/**
 * Setup file of every project (vitest.config.ts): with SVC_TEST_CPU_LOG set (`npm run test:times` sets it), appends one
 * line per test file to that file: the file, its seconds, and the CPU seconds of its worker process and of the
 * programs the file started and waited for (svc, anvil, chromium, festival...), from /proc/self/stat. The suite is
 * bound by CPU on two cores, so this, not a file's wall time, says where its time goes. Does nothing elsewhere (and
 * where /proc is missing).
 *
 * Vitest evaluates setup files afresh before each test file, so the first reading is taken here, before the file's own
 * imports; the last in its `afterAll`, the file's last hook (after hooks run in the reverse order).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.SVC_TEST_CPU_LOG;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const HZ = 100;

/** utime + stime, cutime + cstime of this process, in seconds; undefined without /proc. */
function times(): { own: number; children: number } | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's closing parenthesis: state is the first, utime the 12th.
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { own: (f[11]! + f[12]!) / HZ, children: (f[13]! + f[14]!) / HZ };
  } catch {
    return undefined;
  }
}

if (LOG) {
  const start = times();
  const started = performance.now();
  let file = '';
  beforeAll(() => {
    file = path.relative(process.cwd(), expect.getState().testPath ?? '?');
  });
  afterAll(() => {
    const end = times();
    if (!start || !end) return;
    const seconds = (performance.now() - started) / 1000;
    const own = end.own - start.own;
    const children = end.children - start.children;
    appendFileSync(LOG, `${file}\t${seconds.toFixed(1)}\t${own.toFixed(2)}\t${children.toFixed(2)}\n`);
  });
}
