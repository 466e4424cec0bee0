import type { ResourceLimits } from 'node:worker_threads';

/** What a worker pool (./worker-pool.ts) is made with, and what one job may ask of it. */

export interface WorkerPoolOptions {
  /** What the workers do, in words, for error messages ("The TON sandbox"). */
  name: string;
  /** The task module (TypeScript or JavaScript), as a URL. */
  module: URL;
  /** Most worker threads; default 1. */
  size?: number;
  /** Start `size` workers at once and replace any that stops (default: start them as jobs arrive). */
  eager?: boolean;
  /**
   * Start one worker first and the others once it is ready, when nothing is shared yet for this module in this
   * process: they then start from what it shared (see ./worker-messages.ts) instead of each making it again at the same
   * time. For a module whose `shared()` is costly to make (solc's compiled WebAssembly). Default: all at once.
   */
  shareFirst?: boolean;
  /** Per-job time limit, in ms; default 20 s. */
  timeoutMs?: number;
  /**
   * Jobs one account may have waiting for a worker; one more is refused with SERVICE_BUSY. Default 100. All accounts
   * together may have `maxQueueTotal` waiting (default 8 times this).
   */
  maxQueue?: number;
  maxQueueTotal?: number;
  /**
   * Longest wait for a worker, in ms; default 30 s; Infinity for none. A job whose estimated wait (the jobs served
   * before it, fairly across accounts, times the average job time) exceeds it is refused at once with
   * SERVICE_BUSY; one that still waits this long is refused then.
   */
  maxWaitMs?: number;
  /** Limits of each worker (heap sizes, stack). Default: 256 MB old generation. */
  resourceLimits?: ResourceLimits;
  /** A rough duration of one job, for the first retry-after hints (learned as jobs run). Default 1 s. */
  typicalMs?: number;
  /** What a job is called in messages, singular and plural; default ['job', 'jobs']. */
  noun?: readonly [string, string];
  /**
   * Terminate a worker that has been idle this long, ms (its memory goes back; the next job starts a new one). Default:
   * idle workers are kept. Not for an `eager` pool.
   */
  idleMs?: number;
}

export type LimitKind = 'time' | 'memory';

export interface RunOptions {
  /** Time limit of this job (default: the pool's). */
  timeoutMs?: number;
  /** Aborting removes the job from the queue, or terminates the worker running it; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * The error for a job stopped by its time or memory limit. Default: a
   * VALIDATION_ERROR saying the input is too complex (the job's input is what
   * made it slow).
   */
  onLimit?: (kind: LimitKind, limit: string) => Error;
  /** Called with what the task reports through its `progress` function, as it runs. */
  onProgress?: (value: unknown) => void;
  /** Called when a worker starts the job (it no longer waits in the queue). */
  onStart?: () => void;
}
