/**
 * The in-process fixed-window rate limiter (the port is src/core/limiter-port.ts). It
 * is exact within one process; when several instances run, a shared
 * implementation (Redis) replaces it behind the same interface.
 */
import { RATE_WINDOW_MS } from './limits.js';
import type { RateLimiter, RateState } from '../core/limiter-port.js';

export { LimiterUnavailableError } from '../core/limiter-port.js';
export type { RateLimiter, RateState } from '../core/limiter-port.js';

interface Window {
  start: number;
  count: number;
  /** End of the window, made once per window rather than per request. Never mutated. */
  readonly resetAt: Date;
}

/**
 * Counters live in this process's memory. A restart resets every counter, so a
 * client may get up to one extra window's worth of requests across a restart;
 * that is accepted for a single instance (documented in docs-index/limits.md).
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, Window>();
  readonly #windowMs: number;
  #lastSweep = 0;

  constructor(windowMs: number = RATE_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  #windowStart(now: number): number {
    return now - (now % this.#windowMs);
  }

  #current(key: string, now: number): Window {
    const start = this.#windowStart(now);
    let w = this.#windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0, resetAt: new Date(start + this.#windowMs) };
      this.#windows.set(key, w);
    }
    return w;
  }

  #sweep(now: number): void {
    // Drop counters of past windows, at most once per window, so memory stays bounded.
    const start = this.#windowStart(now);
    if (this.#lastSweep === start) return;
    this.#lastSweep = start;
    for (const [key, w] of this.#windows) if (w.start !== start) this.#windows.delete(key);
  }

  #state(w: Window, limit: number, allowed: boolean): RateState {
    return { limit, remaining: Math.max(0, limit - w.count), resetAt: w.resetAt, allowed };
  }

  // The port is asynchronous; here every answer is ready at once (a resolved promise).

  hit(key: string, limit: number, now: Date): Promise<RateState> {
    return Promise.resolve(this.hitAllNow([{ key, limit }], now)[0]!);
  }

  peek(key: string, limit: number, now: Date): Promise<RateState> {
    const w = this.#current(key, now.getTime());
    return Promise.resolve(this.#state(w, limit, w.count < limit));
  }

  hitAll(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): Promise<RateState[]> {
    try {
      return Promise.resolve(this.hitAllNow(entries, now));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  refund(entries: Array<{ key: string }>, now: Date): Promise<void> {
    const start = this.#windowStart(now.getTime());
    for (const e of entries) {
      const w = this.#windows.get(e.key);
      if (w && w.start === start && w.count > 0) w.count--;
    }
    return Promise.resolve();
  }

  async close(): Promise<void> {}

  /** hitAll, answered synchronously: all or nothing, when any counter is exhausted none is incremented. */
  hitAllNow(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): RateState[] {
    // Plain loops: this runs on every request.
    const t = now.getTime();
    this.#sweep(t);
    if (entries.length === 1) {
      // The usual call: one counter (a key within its account's budget), counted without the lists below.
      const e = entries[0]!;
      const w = this.#current(e.key, t);
      const allowed = w.count < e.limit;
      if (allowed) w.count++;
      return [this.#state(w, e.limit, allowed)];
    }
    const windows: Window[] = [];
    let allowed = true;
    for (const e of entries) {
      const w = this.#current(e.key, t);
      if (w.count >= e.limit) allowed = false;
      windows.push(w);
    }
    const states: RateState[] = [];
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i]!;
      if (allowed) w.count++;
      states.push(this.#state(w, entries[i]!.limit, allowed));
    }
    return states;
  }
}
