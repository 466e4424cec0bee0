/**
 * Vitest global setup: compiles src/ once, before any test file runs, into `.test-build-<pid>/` at the project root
 * (the same depth as src/ and dist/, so the program's paths to jurisdictions/, docs-index/ and assets/ hold), and
 * points the `svc` processes the tests start at it (SVC_BUILD_DIR, read by bin/svc.js; the test workers inherit it).
 * One directory per run, so two runs in one checkout never rebuild under each other; it is removed when the run
 * ends, and one left by a run that was killed is removed by the next.
 *
 * Why: the suite starts `svc` a few hundred times. Run from the sources through tsx, each start spent about a second
 * of CPU more than the compiled program, on a suite bound by its two cores. The build is fresh for every run, from
 * the sources under test, so a stale dist/ can never be what a test exercises. It is compiled as `npm run build`
 * compiles dist/ (scripts/compile.mjs: esbuild, file by file, in about a second).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { svcRuntime } from '../bench/util.js';
import { compileTree } from '../scripts/compile.mjs';
import { removeLeftovers } from './support/leftovers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PREFIX = '.test-build-';

/** This run's build, made once however many times Vitest calls the setup (below). */
const BUILT = Symbol.for('svc.test-build');
type WithBuild = typeof globalThis & { [BUILT]?: Promise<string> };

/**
 * Vitest calls a global setup once per project that inherits it: here the root's and each of the four projects' (it
 * compiled the same tree five times over, each some 2.5 s before any test and 3 to 4 s of CPU). The first call builds
 * and its teardown removes the build; the later ones wait for that build and leave it alone.
 */
export default async function setup(): Promise<() => void> {
  const shared = globalThis as WithBuild;
  const first = shared[BUILT] === undefined;
  shared[BUILT] ??= build();
  const out = await shared[BUILT];
  process.env.SVC_BUILD_DIR = out;
  // The environment the `svc` command sets on its first line (two malloc arenas: bin/svc.js), as `svcArgs` passes its
  // node flags: the programs the tests start inherit it, and so do the test workers, which start after this.
  Object.assign(process.env, svcRuntime(path.join(ROOT, 'bin', 'svc.js')).env);
  if (!first) return () => undefined;
  return () => {
    delete shared[BUILT];
    rmSync(out, { recursive: true, force: true });
  };
}

async function build(): Promise<string> {
  removeLeftovers(ROOT, PREFIX);
  const out = path.join(ROOT, `${PREFIX}${process.pid}`);
  // The same compilation as `npm run build`'s (scripts/compile.mjs), into this run's directory.
  await compileTree(out);
  return out;
}
