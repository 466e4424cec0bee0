/**
 * Where a worker pool's task module is (./worker-pool.ts runs it), and pools of one worker made on first use.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

/**
 * The task module `relative` to the calling module `base` (its import.meta.url),
 * with the caller's own extension: `.ts` when svc runs from its sources (tsx,
 * vitest), `.js` when it runs compiled from dist/. From the sources with
 * SVC_BUILD_DIR naming a compiled copy of them (the test suite makes one per
 * run), the worker loads that copy's module instead: a worker thread then starts
 * without tsx, in about half the CPU time.
 */
export function taskModule(relative: string, base: string): URL {
  const ext = /\.ts$/.test(new URL(base).pathname) ? '.ts' : '.js';
  const url = new URL(relative.replace(/\.[cm]?[jt]s$/, '') + ext, base);
  return ext === '.ts' ? (compiledTwin(url) ?? url) : url;
}

/** The sources' root: this module is src/core/task-module.ts. */
const SOURCES = path.resolve(import.meta.dirname, '..');

/** `url`'s module in the compiled tree SVC_BUILD_DIR, when that tree has it. */
function compiledTwin(url: URL): URL | undefined {
  const dir = process.env.SVC_BUILD_DIR;
  if (!dir) return undefined;
  const relative = path.relative(SOURCES, fileURLToPath(url));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const twin = path.join(dir, relative.replace(/\.ts$/, '.js'));
  return existsSync(twin) ? pathToFileURL(twin) : undefined;
}

/**
 * A pool of one worker for a module-level task (`relative` to the calling module `base`, as for `taskModule`), made
 * with the first call of the returned function: for CPU work outside the contract engines that would otherwise hold
 * the main thread. Its worker is unref'd while idle, so the pool needs no closing.
 */
export function singleWorkerPool(
  relative: string,
  base: string,
  options: Omit<WorkerPoolOptions, 'module' | 'size'>,
): () => WorkerPool {
  let pool: WorkerPool | undefined;
  return () => {
    pool ??= new WorkerPool({ ...options, module: taskModule(relative, base), size: 1 });
    return pool;
  };
}
