import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ApiError } from './errors.js';
import { currentQueueCaller, FairQueue } from './fair-queue.js';
import {
  estimatedWaitMs,
  MAX_TIMER,
  type QueueBounds,
  queueRefusal,
  TOTAL_QUEUE_FACTOR,
  waitedTooLong,
} from './queue-admission.js';
import { avoidWasmWrapperDoubleFree } from './wasm-code-gc.js';
import { type FromWorker, keepShared, revive, sharedOf } from './worker-messages.js';
import type { LimitKind, RunOptions, WorkerPoolOptions } from './worker-pool-options.js';

export type { LimitKind, RunOptions, WorkerPoolOptions } from './worker-pool-options.js';

/**
 * A small pool of worker threads running the tasks of one module, so that no CPU-heavy step holds the event loop.
 * Every job has a time limit (the worker running it is terminated when it is exceeded), every worker has
 * `resourceLimits`, the queue is bounded in length and in waiting time (past either, SERVICE_BUSY with a retry time),
 * and an AbortSignal removes a queued job or terminates the worker running it. Workers start on first use (or at once
 * with `eager`), stay warm between jobs, and are unref'd while idle so that an idle pool never keeps the process alive.
 *
 * The task module exports `tasks: { [name]: (args) => value }` (see worker-host.mjs); arguments and results must be
 * structured-cloneable. An ApiError thrown by a task arrives as an ApiError. The messages between the two, and what a
 * module's first worker shares with later ones, are in ./worker-messages.ts.
 */

const HOST_URL = new URL('./worker-host.mjs', import.meta.url);

interface Job {
  id: number;
  /** The account the job is queued for, and its weight (see fair-queue.ts). */
  account: string;
  weight: number;
  task: string;
  args: unknown;
  timeoutMs: number;
  onLimit: (kind: LimitKind, limit: string) => Error;
  onProgress?: ((value: unknown) => void) | undefined;
  onStart?: (() => void) | undefined;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
  waitTimer?: NodeJS.Timeout;
  startedAt?: number;
  done?: boolean;
}

interface Slot {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy';
  /** The job running, or (while starting) the job that runs once the worker is ready. */
  job?: Job;
  /** The job was stopped on purpose (time limit, abort, close): its exit is not a crash. */
  stopping?: boolean;
  /** Ends the worker once it has been idle for the pool's `idleMs`. */
  idleTimer?: NodeJS.Timeout;
  /** Resolved once the worker has loaded its module, or is gone (`warm` waits for it). */
  started: Promise<void>;
  markStarted: () => void;
}

export class WorkerPool implements QueueBounds {
  readonly name: string;
  readonly size: number;
  readonly timeoutMs: number;
  readonly maxQueue: number;
  readonly maxQueueTotal: number;
  readonly maxWaitMs: number;
  private readonly module: URL;
  private readonly eager: boolean;
  private readonly shareFirst: boolean;
  /** A worker of this pool has been ready: later ones start together. */
  private hadReady = false;
  private readonly resourceLimits: ResourceLimits;
  readonly noun: readonly [string, string];
  private readonly idleMs: number | undefined;
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Job>();
  private averageMs: number;
  private nextId = 1;
  private closed = false;
  /** Counters, for tests and benchmarks. */
  readonly stats = {
    workersStarted: 0,
    workersEndedIdle: 0,
    completed: 0,
    timeouts: 0,
    memoryLimits: 0,
    crashes: 0,
    busy: 0,
    aborted: 0,
  };

  constructor(opts: WorkerPoolOptions) {
    // Before the first thread: the engines' WebAssembly in several threads could otherwise abort the process.
    avoidWasmWrapperDoubleFree();
    this.name = opts.name;
    this.module = opts.module;
    this.size = Math.max(1, Math.floor(opts.size ?? 1));
    this.eager = opts.eager === true;
    this.shareFirst = opts.shareFirst === true;
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxQueue = Math.max(0, opts.maxQueue ?? 100);
    this.maxQueueTotal = Math.max(this.maxQueue, opts.maxQueueTotal ?? this.maxQueue * TOTAL_QUEUE_FACTOR);
    this.maxWaitMs = Math.max(1, opts.maxWaitMs ?? 30_000);
    this.resourceLimits = opts.resourceLimits ?? { maxOldGenerationSizeMb: 256 };
    this.averageMs = opts.typicalMs ?? 1_000;
    this.noun = opts.noun ?? ['job', 'jobs'];
    this.idleMs = opts.idleMs !== undefined && !this.eager ? Math.max(0, opts.idleMs) : undefined;
    this.topUp();
  }

  /** Live worker threads (starting, idle or busy). */
  get workers(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.size;
  }

  /** Jobs running now. */
  get running(): number {
    return this.slots.filter((s) => s.state === 'busy').length;
  }

  /** Starts the workers (up to `count`, default all) and resolves when they have loaded their module. */
  async warm(count = this.size): Promise<void> {
    const want = Math.min(count, this.size);
    // A `shareFirst` pool starts the others once its first is ready: a second round.
    for (let round = 0; round < (this.shareFirst ? 2 : 1) && !this.closed; round++) {
      while (this.slots.length < want && this.mayStartAnother()) this.spawn();
      // One promise per worker, however many callers wait (a listener each would add up while a worker starts).
      await Promise.all(this.slots.map((slot) => slot.started));
    }
  }

  /**
   * Whether another worker may start now: always, unless this is a `shareFirst` pool whose module has shared nothing
   * yet in this process and one of its workers is starting (the next ones wait for what it shares).
   */
  private mayStartAnother(): boolean {
    if (!this.shareFirst || this.hadReady || sharedOf(this.module) !== undefined) return true;
    return !this.slots.some((slot) => slot.state === 'starting');
  }

  /** An eager pool starts workers up to its size (a `shareFirst` pool its first one, then the others). */
  private topUp(): void {
    if (!this.eager || this.closed) return;
    while (this.slots.length < this.size && this.mayStartAnother()) this.spawn();
  }

  private spawn(): Slot {
    // stdout of the process may be a protocol (MCP over stdio): whatever a worker prints goes to stderr.
    const worker = new Worker(HOST_URL, {
      workerData: { module: this.module.href, shared: sharedOf(this.module) },
      resourceLimits: this.resourceLimits,
      stdout: true,
      stderr: true,
    });
    // What a worker prints arrives as `stdio` messages (worker-host.mjs writes them there), forwarded to stderr here:
    // reading the worker's stdio streams instead would keep this process alive as long as the worker lives, even
    // unref'd, and letting Node pipe them adds listeners to process.stderr per worker (a pool of more workers than an
    // emitter's listener limit, on a machine of many cores, set off Node's warning of a leak). The streams are asked
    // for (`stdout: true`) so that nothing reaches this process's stdout, which may be a protocol.
    this.stats.workersStarted++;
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const slot: Slot = { worker, state: 'starting', started, markStarted };
    this.slots.push(slot);
    worker.on('message', (msg: FromWorker) => this.onMessage(slot, msg));
    worker.on('error', (err) => this.onExit(slot, err));
    worker.on('exit', (code) => this.onExit(slot, new Error(`${this.name} worker exited with code ${code}`)));
    return slot;
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (msg.type === 'stdio') {
      process.stderr.write(msg.text);
      return;
    }
    if (msg.type === 'ready') {
      if (msg.shared !== undefined) keepShared(this.module, msg.shared);
      this.hadReady = true;
      slot.state = 'idle';
      slot.markStarted();
      const next = slot.job;
      slot.job = undefined;
      if (next) this.start(slot, next);
      else this.idle(slot);
      this.pump();
      this.topUp();
      return;
    }
    if (msg.type === 'failed') {
      // The module does not load: every waiting job would fail the same way.
      const err = revive(msg.error);
      const assigned = slot.job;
      this.drop(slot, false);
      if (assigned) this.settle(assigned, err);
      for (const job of this.queue.drain()) this.settle(job, err);
      return;
    }
    const job = slot.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'progress') {
      try {
        job.onProgress?.(msg.value);
      } catch {
        // a listener's failure is not the job's
      }
      return;
    }
    slot.job = undefined;
    this.idle(slot);
    if (job.startedAt !== undefined) this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - job.startedAt);
    this.stats.completed++;
    if (msg.ok) this.settle(job, undefined, msg.value);
    else this.settle(job, revive(msg.error));
    this.pump();
  }

  /** A worker stopped (terminated on purpose, crashed, or ran out of memory). */
  private onExit(slot: Slot, err: Error & { code?: string }): void {
    if (!this.slots.includes(slot)) return;
    const job = slot.job;
    const wasStopping = slot.stopping === true;
    this.drop(slot);
    if (job && !wasStopping) {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.stats.memoryLimits++;
        this.settle(job, job.onLimit('memory', `${this.resourceLimits.maxOldGenerationSizeMb ?? '?'} MB`));
      } else {
        this.stats.crashes++;
        this.settle(job, err);
      }
    }
    this.pump();
  }

  /** A worker with nothing to do: it no longer keeps the process alive, and it ends after `idleMs` of it. */
  private idle(slot: Slot): void {
    slot.state = 'idle';
    slot.worker.unref();
    if (this.idleMs === undefined) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.state !== 'idle' || slot.job || !this.slots.includes(slot)) return;
      this.stats.workersEndedIdle++;
      this.drop(slot, false);
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  /** Forgets a worker and terminates it. */
  private drop(slot: Slot, respawn = true): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    slot.markStarted();
    clearTimeout(slot.idleTimer);
    slot.stopping = true;
    if (slot.job?.timer) clearTimeout(slot.job.timer);
    slot.job = undefined;
    void slot.worker.terminate().catch(() => undefined);
    if (respawn) this.topUp();
  }

  private settle(job: Job, err: unknown, value?: unknown): void {
    if (job.done) return;
    job.done = true;
    if (job.timer) clearTimeout(job.timer);
    if (job.waitTimer) clearTimeout(job.waitTimer);
    if (err !== undefined) job.reject(err);
    else job.resolve(value);
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.size === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      if (slot.state === 'idle') this.start(slot, job);
      else this.assign(slot, job);
    }
    // More jobs than workers: start more, up to the pool size.
    while (this.queue.size > 0 && this.slots.length < this.size && this.mayStartAnother())
      this.assign(this.spawn(), this.queue.shift()!);
  }

  /** Gives a starting worker its first job: it no longer waits in the queue, and its time limit starts with the worker. */
  private assign(slot: Slot, job: Job): void {
    if (job.waitTimer) clearTimeout(job.waitTimer);
    slot.job = job;
  }

  private start(slot: Slot, job: Job): void {
    if (job.waitTimer) clearTimeout(job.waitTimer);
    job.startedAt = performance.now();
    clearTimeout(slot.idleTimer);
    slot.job = job;
    slot.state = 'busy';
    slot.worker.ref();
    if (job.timeoutMs <= MAX_TIMER) {
      job.timer = setTimeout(() => {
        if (slot.job !== job) return;
        this.stats.timeouts++;
        this.drop(slot);
        this.settle(job, job.onLimit('time', `${job.timeoutMs} ms`));
        this.pump();
      }, job.timeoutMs);
    }
    slot.worker.postMessage({ id: job.id, task: job.task, args: job.args });
    try {
      job.onStart?.();
    } catch {
      // a listener's failure is not the job's
    }
  }

  /** Workers without a job, counting those not started yet. */
  private get free(): number {
    let free = this.size - this.slots.length;
    for (const slot of this.slots) if (!slot.job) free++;
    return free;
  }

  /**
   * How long a job queued now by `account` would wait for a worker: the jobs served before it (fairly across
   * accounts), plus the ones running, shared among the workers, at the average job time.
   */
  estimatedWaitMs(account: string, weight: number): number {
    return estimatedWaitMs(this.queue, this.size, this.free, this.averageMs, { account, weight });
  }

  private defaultLimit(kind: LimitKind, limit: string): Error {
    return ApiError.validation(
      `Input too complex: ${this.name} ${kind === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`} and was stopped`,
      [{ field: '', reason: `${kind} limit of ${limit} exceeded` }],
    );
  }

  /** Runs `task` with `args` in a worker. */
  run<T>(task: string, args: unknown, opts: RunOptions = {}): Promise<T> {
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new Error(`${this.name} pool is closed`));
    const caller = currentQueueCaller();
    const refused = queueRefusal(this.queue, this, this.free, this.averageMs, caller);
    if (refused) {
      this.stats.busy++;
      return Promise.reject(refused);
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        account: caller.account,
        weight: caller.weight,
        task,
        args,
        timeoutMs: Math.max(1, opts.timeoutMs ?? this.timeoutMs),
        onLimit: opts.onLimit ?? ((k, l) => this.defaultLimit(k, l)),
        onProgress: opts.onProgress,
        onStart: opts.onStart,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      if (this.maxWaitMs <= MAX_TIMER) {
        job.waitTimer = setTimeout(() => {
          if (!this.queue.remove(job)) return;
          this.stats.busy++;
          this.settle(job, waitedTooLong(this, this.queue.size, this.averageMs, ' for a worker'));
        }, this.maxWaitMs);
        job.waitTimer.unref();
      }
      if (signal) {
        const onAbort = () => this.cancel(job, signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        const off = () => signal.removeEventListener('abort', onAbort);
        const { resolve: res, reject: rej } = job;
        job.resolve = (v) => {
          off();
          res(v);
        };
        job.reject = (e) => {
          off();
          rej(e);
        };
      }
      this.queue.push(job.account, job.weight, job);
      this.pump();
    });
  }

  /** Takes a job out of the queue, or terminates the worker running it. */
  private cancel(job: Job, reason: unknown): void {
    if (job.done) return;
    if (this.queue.remove(job)) {
      this.stats.aborted++;
      this.settle(job, reason);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot?.state === 'starting') {
      // Its worker has not begun it: it stays, for the next job.
      slot.job = undefined;
      this.stats.aborted++;
      this.settle(job, reason);
      this.pump();
      return;
    }
    if (slot) {
      // A task cannot be interrupted inside its thread: the worker is terminated (a new one starts when needed).
      this.stats.aborted++;
      this.drop(slot);
      this.settle(job, reason);
      this.pump();
    }
  }

  /** Stops every worker; queued and running jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const err = new Error(`${this.name} pool closed`);
    for (const job of this.queue.drain()) this.settle(job, err);
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        clearTimeout(slot.idleTimer);
        slot.markStarted();
        slot.stopping = true;
        const job = slot.job;
        slot.job = undefined;
        if (job) this.settle(job, err);
        await slot.worker.terminate().catch(() => undefined);
      }),
    );
  }
}
