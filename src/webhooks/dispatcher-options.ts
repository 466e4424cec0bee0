/**
 * The options of the webhook dispatcher (./dispatcher.ts), their defaults, and its counters.
 */
import type { Clock } from '../core/clock.js';
import type { Keyring } from '../core/keyring.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import type { Resolver } from './guard.js';
import { DEFAULT_TIMEOUT_MS } from './send.js';

/**
 * Claims run ahead of the send slots by this factor (default), so that sending
 * never waits for a store write: while some requests are in flight, the next
 * ones are being claimed and the finished ones recorded. It also bounds how
 * many deliveries a crash can repeat (claimed x not confirmed).
 */
export const DEFAULT_CLAIM_AHEAD = 8;

/** Timer functions, injectable so tests can drive retries with a fake clock. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  /** Opens the sealed signing secrets of subscriptions and callback targets (src/core/keyring.ts). */
  keyring: Keyring;
  log?: Logger | undefined;
  /** Allow-list for the address guard; default `SVC_WEBHOOK_ALLOW`. */
  allow?: string | undefined;
  resolve?: Resolver | undefined;
  /** Extra CA certificate(s), PEM, trusted besides the system roots and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | undefined;
  /** Per-attempt timeout (connect to end of response), default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Deliveries in flight at once, overall (default 64). */
  maxConcurrent?: number | undefined;
  /** Deliveries in flight at once per subscription (default 8). */
  perSubscription?: number | undefined;
  scheduler?: Scheduler | undefined;
  /** Random extra delay added to each retry, up to this many ms (default 250; 0 in tests). */
  jitterMs?: number | undefined;
  /**
   * Deliveries claimed and not yet confirmed, as a multiple of the send slots
   * (default 8). Larger values hide store write latency; it is also the most
   * deliveries a crash can repeat (claimAhead x maxConcurrent). Single-process
   * stores only: on a shared store (claimWith) an instance claims only for free
   * send slots, so a crash repeats only what was in flight.
   */
  claimAhead?: number | undefined;
  /** Lease length of a claim; default timeout + 60 s. */
  leaseMs?: number | undefined;
  /**
   * The store is used by this process only (true for the lowdb store, which
   * locks its directory): at start, every lease of another dispatcher belongs
   * to a dead process and is taken over at once. When false, foreign leases are
   * respected until they expire.
   */
  exclusive?: boolean | undefined;
  /** Shared store (claimWith): how often to look for deliveries other instances wrote, ms (default 500). */
  pollMs?: number | undefined;
  /** Finished events (all deliveries final) older than this are pruned; default 30 days. 0 disables pruning. */
  retentionMs?: number | undefined;
  /** How often pruning runs at most, default 60 s. */
  pruneEveryMs?: number | undefined;
}

export interface DispatcherStats {
  attempts: number;
  succeeded: number;
  failed: number;
  retried: number;
  recovered: number;
  pruned: number;
  /**
   * Times a claim or outcome transaction of this dispatcher ran again because it conflicted with a concurrent one
   * (the store retries a serialization failure or deadlock by running the transaction again).
   */
  conflicts: number;
  /** Requests on the wire now. */
  sending: number;
  /** Deliveries claimed and not yet confirmed (the ones a crash could repeat). */
  inflight: number;
  queued: number;
}

/** The options the dispatcher works with, defaults applied. */
export type ResolvedOptions = Required<
  Pick<
    DispatcherOptions,
    | 'timeoutMs'
    | 'maxConcurrent'
    | 'perSubscription'
    | 'claimAhead'
    | 'jitterMs'
    | 'leaseMs'
    | 'exclusive'
    | 'retentionMs'
    | 'pruneEveryMs'
    | 'pollMs'
  >
>;

/** Applies the defaults; `shared`: the store is shared by several instances (it can claim). */
export function resolveOptions(opts: DispatcherOptions, shared: boolean): ResolvedOptions {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxConcurrent = Math.max(1, opts.maxConcurrent ?? 64);
  return {
    timeoutMs,
    maxConcurrent,
    perSubscription: Math.max(1, Math.min(maxConcurrent, opts.perSubscription ?? 8)),
    claimAhead: Math.max(1, opts.claimAhead ?? DEFAULT_CLAIM_AHEAD),
    jitterMs: opts.jitterMs ?? 250,
    leaseMs: opts.leaseMs ?? timeoutMs + 60_000,
    exclusive: opts.exclusive ?? !shared,
    pollMs: Math.max(10, opts.pollMs ?? 500),
    retentionMs: opts.retentionMs ?? 30 * 24 * 3600 * 1000,
    pruneEveryMs: opts.pruneEveryMs ?? 60_000,
  };
}
