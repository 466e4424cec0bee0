/**
 * A bounded number of places for work that runs outside this process (the memoir's programs: speech synthesis, video,
 * transcripts), handed out fairly across accounts. A caller takes a place with `acquire` and gives it back with the
 * function it receives; while every place is taken, callers wait in a fair queue (./fair-queue.ts: each account in
 * turn, weighted by tier, so one account's many jobs delay another's by at most one job each place), under the
 * admission rules of ./queue-admission.ts (a bound per account and for all, the estimated wait). An AbortSignal
 * takes a waiting caller out of the queue.
 */
import type { ApiError } from './errors.js';
import { currentQueueCaller, FairQueue } from './fair-queue.js';
import { MAX_TIMER, queueRefusal, TOTAL_QUEUE_FACTOR, type QueueBounds, waitedTooLong } from './queue-admission.js';

export interface FairSlotsOptions {
  /** What does the work, in words, for messages ("The media programs"). */
  name: string;
  /** Places (jobs at once); default 1. */
  size?: number;
  /** Jobs one account may have waiting; default 20. All accounts together: 8 times this. */
  maxQueue?: number;
  /** Longest wait for a place, ms (estimated at admission, then enforced); default 30 s. */
  maxWaitMs?: number;
  /** A rough duration of one job, for the first estimates (learned as jobs run); default 1 s. */
  typicalMs?: number;
  /** What a job is called in messages, singular and plural; default ['job', 'jobs']. */
  noun?: readonly [string, string];
}

/** Gives a place back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  refuse: (err: unknown) => void;
  timer?: NodeJS.Timeout;
}

export class FairSlots implements QueueBounds {
  readonly name: string;
  readonly noun: readonly [string, string];
  size = 1;
  maxQueue = 20;
  maxWaitMs = 30_000;
  readonly #queue = new FairQueue<Waiter>();
  #running = 0;
  #averageMs: number;
  /** Counters, for tests. */
  readonly stats = { granted: 0, busy: 0, aborted: 0 };

  constructor(opts: FairSlotsOptions) {
    this.name = opts.name;
    this.noun = opts.noun ?? ['job', 'jobs'];
    this.configure(opts);
    this.#averageMs = opts.typicalMs ?? 1_000;
  }

  /** Changes the bounds (the service's configuration); places freed by a larger size are handed out at once. */
  configure(opts: Pick<FairSlotsOptions, 'size' | 'maxQueue' | 'maxWaitMs'>): void {
    if (opts.size !== undefined) this.size = Math.max(1, Math.floor(opts.size));
    if (opts.maxQueue !== undefined) this.maxQueue = Math.max(0, Math.floor(opts.maxQueue));
    if (opts.maxWaitMs !== undefined) this.maxWaitMs = Math.max(1, opts.maxWaitMs);
    this.#pump();
  }

  /** Jobs all accounts together may have waiting. */
  get maxQueueTotal(): number {
    return this.maxQueue * TOTAL_QUEUE_FACTOR;
  }

  /** Jobs holding a place now. */
  get running(): number {
    return this.#running;
  }

  /** Callers waiting for a place. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Runs `work` with a place (see acquire), given back when it settles. */
  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * A place for the current caller's account (./fair-queue.ts: `runAsQueueCaller`), at once when one is free, else
   * after waiting its turn. Rejects with SERVICE_BUSY when waiting makes no sense or lasted `maxWaitMs`, and with the
   * signal's reason when it is aborted while waiting.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const caller = currentQueueCaller();
    const refused: ApiError | undefined = queueRefusal(
      this.#queue,
      this,
      Math.max(0, this.size - this.#running),
      this.#averageMs,
      caller,
    );
    if (refused) {
      this.stats.busy++;
      return Promise.reject(refused);
    }
    return new Promise<Release>((resolve, reject) => {
      const off = () => signal?.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        grant: (release) => {
          off();
          clearTimeout(waiter.timer);
          resolve(release);
        },
        refuse: (err) => {
          off();
          clearTimeout(waiter.timer);
          reject(err);
        },
      };
      const onAbort = () => {
        if (!this.#queue.remove(waiter)) return;
        this.stats.aborted++;
        waiter.refuse(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.maxWaitMs <= MAX_TIMER) {
        waiter.timer = setTimeout(() => {
          if (!this.#queue.remove(waiter)) return;
          this.stats.busy++;
          waiter.refuse(waitedTooLong(this, this.#queue.size, this.#averageMs));
        }, this.maxWaitMs);
        waiter.timer.unref();
      }
      // Through the queue even when a place is free: the account's turn is counted (./fair-queue.ts).
      this.#queue.push(caller.account, caller.weight, waiter);
      this.#pump();
    });
  }

  /** Takes a place; its release learns the job's time and hands the place to the next caller. */
  #grant(): Release {
    this.#running++;
    this.stats.granted++;
    const startedAt = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - startedAt);
      this.#pump();
    };
  }

  #pump(): void {
    while (this.#running < this.size && this.#queue.size > 0) this.#queue.shift()!.grant(this.#grant());
  }
}
