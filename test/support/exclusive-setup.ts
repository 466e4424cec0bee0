/**
 * Setup file of the process project (vitest.config.ts): a file listed in ./exclusive.ts waits for the lock before its
 * own hooks run and gives it back after them. Vitest runs setup files before each test file, so these hooks are the
 * first of the file's root hooks (its `afterAll` runs last: after hooks run in the reverse order).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { runsAlone, takeExclusive } from './exclusive.js';

let release: (() => void) | undefined;

// Waits as long as another such file runs (the longest takes some 15 s on a loaded machine).
beforeAll(async () => {
  const file = expect.getState().testPath;
  if (file && runsAlone(file)) release = await takeExclusive();
}, 600_000);

afterAll(() => {
  release?.();
  release = undefined;
});
