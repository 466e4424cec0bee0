/**
 * Admission to a fair queue (./fair-queue.ts) in front of a few workers: the worker threads of ./worker-pool.ts and
 * the programs of ./fair-slots.ts. A job that cannot start at once waits, unless waiting makes no sense; then it is
 * refused at once with SERVICE_BUSY and a retry time:
 * - its account already has `maxQueue` jobs waiting (a bound per account, so that one account filling the queue
 *   never turns another away: the other would be served next);
 * - all accounts together have `maxQueueTotal` waiting (memory);
 * - its estimated wait, fairly across accounts, is over `maxWaitMs`.
 */
import { ApiError } from './errors.js';
import type { FairQueue, QueueCaller } from './fair-queue.js';

/** setTimeout fires at once beyond this delay: a longer wait limit (or time limit) means none. */
export const MAX_TIMER = 2 ** 31 - 1;

/** How many jobs all accounts together may have waiting, by default: this many times one account's bound. */
export const TOTAL_QUEUE_FACTOR = 8;

export interface QueueBounds {
  /** What does the work, in words, for messages ("The TON compiler and sandbox"). */
  readonly name: string;
  /** What a job is called in messages, singular and plural. */
  readonly noun: readonly [string, string];
  /** Jobs that run at once. */
  readonly size: number;
  /** Jobs one account may have waiting. */
  readonly maxQueue: number;
  /** Jobs all accounts together may have waiting. */
  readonly maxQueueTotal: number;
  /** Longest estimated wait admitted, ms. */
  readonly maxWaitMs: number;
}

/** A duration in seconds as a limit is set, to the millisecond: 30000 -> "30 s", 1500 -> "1.5 s". */
export function exactSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * An estimate in seconds, rounded up: to a tenth under 10 s, else to the second. Rounded up, an estimate over a limit
 * always reads as more than the limit's exactSeconds ("about 1.6 s, longer than the 1.5 s allowed").
 */
export function roundedUpSeconds(ms: number): string {
  return ms < 10_000 ? `${Math.ceil(ms / 100) / 10} s` : `${Math.ceil(ms / 1000)} s`;
}

/** SERVICE_BUSY, its retry time the wait (at least 1 s, at most a minute), said in the message too. */
export function busyError(message: string, waitMs: number): ApiError {
  const seconds = Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
  return new ApiError(
    'SERVICE_BUSY',
    `${message}; retry in about ${seconds} s`,
    undefined,
    new Date(Date.now() + seconds * 1000).toISOString(),
  );
}

/**
 * How long a job queued now by `caller` would wait to start: the jobs served before it (fairly across accounts), less
 * the free places, shared among the `size` places, at the average job time.
 */
export function estimatedWaitMs(
  queue: FairQueue<unknown>,
  size: number,
  free: number,
  averageMs: number,
  caller: QueueCaller,
): number {
  const ahead = queue.ahead(caller.account, caller.weight);
  if (ahead < free) return 0;
  return Math.ceil((ahead + 1 - free) / size) * averageMs;
}

/** The refusal of a job `caller` would queue now, or undefined when it may start or wait. */
export function queueRefusal(
  queue: FairQueue<unknown>,
  bounds: QueueBounds,
  free: number,
  averageMs: number,
  caller: QueueCaller,
): ApiError | undefined {
  if (free > 0 && queue.size === 0) return undefined;
  const { name, noun } = bounds;
  const own = queue.queuedOf(caller.account);
  if (own >= bounds.maxQueue) {
    const wait = estimatedWaitMs(queue, bounds.size, free, averageMs, caller);
    return busyError(`${name} is busy: you have ${own} ${own === 1 ? noun[0] : noun[1]} waiting`, wait);
  }
  if (queue.size >= bounds.maxQueueTotal) {
    const wait = Math.ceil((queue.size + 1) / bounds.size) * averageMs;
    return busyError(`${name} is busy: ${queue.size} ${noun[1]} are waiting`, wait);
  }
  const estimate = estimatedWaitMs(queue, bounds.size, free, averageMs, caller);
  if (estimate > bounds.maxWaitMs) {
    return busyError(
      `${name} is busy: this ${noun[0]} would wait about ${roundedUpSeconds(estimate)}, longer than the ${exactSeconds(bounds.maxWaitMs)} allowed`,
      estimate,
    );
  }
  return undefined;
}

/**
 * SERVICE_BUSY for a job that waited `maxWaitMs` without starting (`where`: what it waited for, in words), its retry
 * time from the jobs still queued.
 */
export function waitedTooLong(bounds: QueueBounds, queued: number, averageMs: number, where = ''): ApiError {
  return busyError(
    `${bounds.name} is busy: this ${bounds.noun[0]} waited ${exactSeconds(bounds.maxWaitMs)}${where}`,
    Math.ceil((queued + 1) / bounds.size) * averageMs,
  );
}
