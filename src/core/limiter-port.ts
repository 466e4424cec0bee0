/**
 * The limiter port (asynchronous). The in-process MemoryRateLimiter (src/keys/limiter.ts) is the embedded default; a
 * Redis implementation (src/keys/redis-limiter.ts) is shared by several instances.
 */
import { createHash } from 'node:crypto';

/**
 * A personal value (an email address) as a counter key holds it: hashed, so that counter keys (in Redis, possibly)
 * never hold a user's or an heir's address.
 */
export const counterIdOf = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** The state of one counter after a hit. */
export interface RateState {
  limit: number;
  /** Requests left in this window after this hit (never negative). */
  remaining: number;
  /** When the window ends and the counter resets. */
  resetAt: Date;
  /** Whether this hit was within the limit. */
  allowed: boolean;
}

export interface RateLimiter {
  /** Counts one request against `key` and reports whether it is allowed. */
  hit(key: string, limit: number, now: Date): Promise<RateState>;
  /** The counter's state without counting. */
  peek(key: string, limit: number, now: Date): Promise<RateState>;
  /** Counts one request against several counters at once, all or nothing. Returns the states in order. */
  hitAll(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): Promise<RateState[]>;
  /**
   * hitAll answered at once, by a limiter whose counters are in this process: admission then has no promise to wait
   * for. It throws where hitAll would reject. Absent on a limiter that must ask another server.
   */
  hitAllNow?(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): RateState[];
  /**
   * Takes back one hit from each counter, for a caller that counts an attempt before it knows the outcome and
   * keeps only the ones that fail (sign-in). `now` is the time the hit was counted at: only that window's counter
   * changes, and never below zero; when that window has ended there is nothing to take back.
   */
  refund(entries: Array<{ key: string }>, now: Date): Promise<void>;
  /** Releases connections (no-op in process). */
  close?(): Promise<void>;
}

/** The limiter's engine cannot be reached: callers answer 503 SERVICE_UNAVAILABLE (or fail open if configured). */
export class LimiterUnavailableError extends Error {
  override name = 'LimiterUnavailableError';
}
