/**
 * What passes between a WorkerPool (./worker-pool.ts) and its worker threads (./worker-host.mjs): the messages a
 * worker sends, the errors they carry, and what a task module's first worker shares with the workers started after it.
 */
import { ApiError, type ErrorDetail } from './errors.js';

/** A task's error as it crosses threads: an ApiError keeps its code, details and retry time. */
export interface ErrorBody {
  api: boolean;
  code?: string;
  name?: string;
  message: string;
  details?: ErrorDetail[];
  retryAfter?: string;
}

/** What a worker posts to its pool. */
export type FromWorker =
  | { type: 'ready'; shared?: unknown }
  | { type: 'stdio'; text: string }
  | { type: 'failed'; error: ErrorBody }
  | { type: 'progress'; id: number; value: unknown }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: ErrorBody };

/** The error a worker reported, as the pool's callers see it. */
export function revive(e: ErrorBody): Error {
  if (e.api && e.code) return new ApiError(e.code as ApiError['code'], e.message, e.details, e.retryAfter);
  const err = new Error(e.message);
  err.name = e.name ?? 'Error';
  return err;
}

/**
 * What the first worker of a task module shared once it had loaded (worker-host.mjs: the module's `shared()`), handed
 * to every worker of that module started later in this process, by any pool: solc's compiled WebAssembly, so that a
 * worker replaced after a time limit or a cancelled job, or the pool of another server in the same process, starts
 * without reading and compiling it again. Kept for the process's life (one entry per task module); holding the
 * compiled module also keeps V8's code of the compiler alive, so that a worker's end never frees it.
 */
const sharedByModule = new Map<string, unknown>();

/** What the first worker of `module` shared in this process, if any. */
export function sharedOf(module: URL): unknown {
  return sharedByModule.get(module.href);
}

/** Keeps what a worker of `module` shared, unless one shared before it. */
export function keepShared(module: URL, value: unknown): void {
  if (!sharedByModule.has(module.href)) sharedByModule.set(module.href, value);
}
