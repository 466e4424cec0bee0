/**
 * The webhook dispatcher: delivers the outbox (pending delivery records written
 * by `recordEvent` in the same store write as the operation's effect).
 *
 * Life of a delivery:
 *   pending --claim--> delivering --result--> succeeded | pending (retry) | failed
 *
 * - Claim: one store write marks a batch `delivering` with a lease (this
 *   dispatcher's id, an expiry) and records the attempt's start. Only once that
 *   write is durable is the request sent, so an attempt is never lost from the
 *   record, and attempt numbers survive restarts.
 * - Result: outcomes are written in batches (one transaction per burst, and
 *   the store group-commits concurrent transactions). A delivery is confirmed
 *   only when its outcome is durable.
 * - Recovery: at start, every `delivering` record left by an earlier process
 *   (crash, SIGKILL, restart) is interrupted and sent again; every `pending`
 *   one is queued. Deliveries are therefore at-least-once: only the ones in
 *   flight at the crash (claimed, not confirmed: at most `claimAhead` x
 *   `maxConcurrent`)
 *   can arrive twice.
 *
 * Several instances (a store that can claim with row locks, the PostgreSQL one: `claimWith`): each instance
 * claims due pending deliveries itself with `FOR UPDATE SKIP LOCKED`, so concurrent instances take disjoint
 * batches and each delivery is sent by one of them. It claims only as many as it has free send slots (no claim-ahead:
 * `maxConcurrent` overall, `perSubscription` per subscription), and sends each at once, so what it holds under lease
 * is what is in flight: a claim whose lease another instance takes over after a crash was on the wire (or its outcome
 * was about to be written), never one still waiting for a slot. It claims when a delivery is written in this process, when a
 * retry of its own falls due, when an outcome frees a slot, and every `pollMs` (default 500 ms) for the deliveries
 * other instances wrote. The lease of a claim (`leaseMs`) is respected by everyone until it expires; then any
 * instance takes the delivery over (its attempt marked interrupted) and sends it again: an instance that died
 * (SIGKILL) repeats only what it had claimed and not confirmed. A claimed job whose lease would run out before its
 * attempt could finish is not sent (the takeover sends it). The claim path is generic: the per-record checks
 * (#prepare) run on whatever records the claim returns.
 *
 * Retries: attempts at 0, 1, 2, 4, 8 s after the previous failure (plus up to
 * `jitterMs`); after five failed attempts the delivery is `failed`. Fifty
 * consecutive failed deliveries disable the subscription; a success resets
 * the count. Concurrency is bounded overall (`maxConcurrent`) and per
 * subscription (`perSubscription`), and subscriptions are served round-robin,
 * so one slow receiver holds at most its own share of the slots.
 *
 * Time: retry schedules use the injected `clock` and `scheduler` (tests use a
 * fake pair); the per-attempt timeout and latencies use real time.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Keyring } from '../core/keyring.js';
import type { Logger } from '../core/log.js';
import { DELIVERIES, EVENTS, WEBHOOKS, onOutboxWrite, type DeliveryRecord, type EventRecord, type QueuedDelivery } from '../events/events.js';
import type { Store, Tx } from '../store/port.js';
import type { ClaimableStore } from '../store/postgres/index.js';
import type { Resolver } from './guard.js';
import { DEFAULT_TIMEOUT_MS, WebhookClient, type AttemptResult } from './send.js';
import { eraseExpiredSecrets } from './secrets.js';
import { buildRequest, type WebhookRecord } from './subscriptions.js';
import { deliveryTarget } from './targets.js';

/** Delay before attempts 1 to 5, in milliseconds. */
export const RETRY_DELAYS_MS = [0, 1000, 2000, 4000, 8000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;
/** Consecutive failed deliveries that disable a subscription. */
export const DISABLE_AFTER_FAILURES = 50;
/** An attempt interrupted by a crash is sent again without counting; past this many records the delivery fails. */
const MAX_ATTEMPT_RECORDS = MAX_ATTEMPTS * 2;
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
  /** Requests on the wire now. */
  sending: number;
  /** Deliveries claimed and not yet confirmed (the ones a crash could repeat). */
  inflight: number;
  queued: number;
}

interface Job {
  id: string;
  webhook: WebhookRecord;
  event: EventRecord;
  attempt: number;
  /** When this dispatcher's lease on the delivery ends (unix ms). */
  leaseUntil: number;
}

/** Records locked by one claim on a shared store. */
const CLAIM_BATCH = 100;

/** A store whose outbox several instances can claim from (duck-typed: this module does not load the driver). */
function claimable(store: Store): ClaimableStore | undefined {
  const s = store as Partial<ClaimableStore>;
  return typeof s.claimWith === 'function' && typeof s.claim === 'function' ? (store as ClaimableStore) : undefined;
}

interface Outcome {
  job: Job;
  result: AttemptResult;
}

function countedAttempts(d: DeliveryRecord): number {
  return d.attempts.filter((a) => !a.interrupted).length;
}

/** A delivery whose sender went away: its unfinished attempt is marked interrupted, and it is due again now. */
function interrupt(d: DeliveryRecord, now: Date): void {
  const last = d.attempts[d.attempts.length - 1];
  if (last && last.finishedAt === null) {
    last.finishedAt = now.toISOString();
    last.error = 'interrupted: the server stopped before the outcome was known';
    last.interrupted = true;
  }
  d.state = 'pending';
  d.nextAttemptAt = now.getTime();
  d.leaseOwner = null;
  d.leaseUntil = null;
}

export class Dispatcher {
  readonly id = `dsp_${randomBytes(8).toString('hex')}`;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #keyring: Keyring;
  readonly #log: Logger | undefined;
  readonly #scheduler: Scheduler;
  readonly #client: WebhookClient;
  readonly #opts: Required<
    Pick<DispatcherOptions, 'timeoutMs' | 'maxConcurrent' | 'perSubscription' | 'claimAhead' | 'jitterMs' | 'leaseMs' | 'exclusive' | 'retentionMs' | 'pruneEveryMs' | 'pollMs'>
  >;
  /** Set when the store is shared by several instances and claims with row locks. */
  readonly #shared: ClaimableStore | undefined;
  #pollTimer: unknown;
  #claiming = false;
  #claimAgain = false;
  #lastSweep = -Infinity;
  #lastClaimError = -Infinity;

  /** webhookId -> (deliveryId -> due time, unix ms); Map order gives round-robin. */
  readonly #queue = new Map<string, Map<string, number>>();
  readonly #queued = new Set<string>();
  /** deliveryId -> webhookId, from claim until the outcome is durable. */
  readonly #inflight = new Map<string, string>();
  readonly #perSub = new Map<string, number>();
  /** Claimed (durably) and waiting for a send slot, per subscription; Map order gives round-robin. */
  readonly #ready = new Map<string, Job[]>();
  #sending = 0;
  readonly #sendingPerSub = new Map<string, number>();
  #outcomes: Outcome[] = [];
  #flushScheduled = false;
  #flushing: Promise<void> | undefined;
  #timer: unknown;
  #timerDue = Infinity;
  #busy = 0;
  #started = false;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;
  #lastPrune = -Infinity;
  #idleWaiters: Array<() => void> = [];
  readonly #stats: Omit<DispatcherStats, 'inflight' | 'queued' | 'sending'> = { attempts: 0, succeeded: 0, failed: 0, retried: 0, recovered: 0, pruned: 0 };

  constructor(opts: DispatcherOptions) {
    this.#store = opts.store;
    this.#shared = claimable(opts.store);
    this.#clock = opts.clock;
    this.#keyring = opts.keyring;
    this.#log = opts.log;
    this.#scheduler = opts.scheduler ?? realScheduler;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxConcurrent = Math.max(1, opts.maxConcurrent ?? 64);
    this.#opts = {
      timeoutMs,
      maxConcurrent,
      perSubscription: Math.max(1, Math.min(maxConcurrent, opts.perSubscription ?? 8)),
      claimAhead: Math.max(1, opts.claimAhead ?? DEFAULT_CLAIM_AHEAD),
      jitterMs: opts.jitterMs ?? 250,
      leaseMs: opts.leaseMs ?? timeoutMs + 60_000,
      exclusive: opts.exclusive ?? !this.#shared,
      pollMs: Math.max(10, opts.pollMs ?? 500),
      retentionMs: opts.retentionMs ?? 30 * 24 * 3600 * 1000,
      pruneEveryMs: opts.pruneEveryMs ?? 60_000,
    };
    this.#client = new WebhookClient({ ca: opts.ca, allow: opts.allow, resolve: opts.resolve, connections: maxConcurrent });
  }

  /** Starts delivering: recovers interrupted deliveries, queues pending ones, then follows new events. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#shared) {
      // Deliveries written by this process: claim at once rather than at the next poll.
      this.#unsubscribe = onOutboxWrite(() => this.#wake());
      this.#track(eraseExpiredSecrets(this.#store, this.#clock.now().getTime()).catch((err: unknown) => this.#log?.error({ err: String(err) }, 'erasing expired webhook secrets failed')));
      this.#wake();
      this.#schedulePoll();
      return;
    }
    // New deliveries are announced with their ids: no store scan per event burst.
    this.#unsubscribe = onOutboxWrite((queued) => this.#take(queued));
    this.#track(
      this.#recover()
        .then(() => this.#queuePending())
        .then(() => eraseExpiredSecrets(this.#store, this.#clock.now().getTime()))
        .catch((err: unknown) => this.#log?.error({ err: String(err) }, 'webhook dispatcher could not recover or queue pending deliveries')),
    );
  }

  /** Stops taking new work and waits for in-flight attempts to finish and be recorded. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pollTimer !== undefined) this.#scheduler.clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    await this.#returnReady();
    // Wait for attempts on the wire and their outcomes to be written. The short
    // timer re-checks the state even if no notification comes and keeps the event
    // loop alive meanwhile (without it, a process stopping on SIGTERM could exit
    // before its shutdown finished); past the deadline, unconfirmed deliveries
    // keep their leases and are sent again by the next start.
    const deadline = Date.now() + this.#opts.timeoutMs + 5_000;
    while (this.#busy > 0 || this.#inflight.size > 0 || this.#outcomes.length > 0 || this.#flushing) {
      if (Date.now() > deadline) {
        this.#log?.warn({ inflight: this.#inflight.size }, 'webhook dispatcher stopped with deliveries unconfirmed; they are sent again at the next start');
        await this.#client.destroy();
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.#idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await this.#client.close();
  }

  /**
   * Resolves when nothing is left to do now: no attempt in flight, no outcome
   * unwritten, no delivery due. Deliveries due later (retries) may remain; a
   * test moves its fake clock and calls idle() again.
   */
  async idle(): Promise<void> {
    while (!this.#isIdle()) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }

  /** When the next retry is due (unix ms), or null when none is queued. */
  nextDue(): number | null {
    let min = Infinity;
    for (const items of this.#queue.values()) for (const due of items.values()) min = Math.min(min, due);
    return min === Infinity ? null : min;
  }

  stats(): DispatcherStats {
    const s = this.#stats;
    return {
      attempts: s.attempts,
      succeeded: s.succeeded,
      failed: s.failed,
      retried: s.retried,
      recovered: s.recovered,
      pruned: s.pruned,
      sending: this.#sending,
      inflight: this.#inflight.size,
      queued: this.#queued.size,
    };
  }

  // --- bookkeeping ---------------------------------------------------------

  #isIdle(): boolean {
    if (this.#busy > 0 || this.#inflight.size > 0 || this.#outcomes.length > 0 || this.#flushing) return false;
    if (this.#stopped) return true;
    const now = this.#clock.now().getTime();
    for (const items of this.#queue.values()) for (const due of items.values()) if (due <= now) return false;
    return true;
  }

  #checkIdle(): void {
    const stoppedDone = this.#stopped && this.#busy === 0 && this.#inflight.size === 0 && this.#outcomes.length === 0 && !this.#flushing;
    if (!stoppedDone && !this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  #track(p: Promise<unknown>): void {
    this.#busy++;
    p.finally(() => {
      this.#busy--;
      this.#checkIdle();
    });
  }

  #enqueue(id: string, webhookId: string, due: number): void {
    if (this.#shared) {
      // Shared store: the record is pending in the store; wake up when it is due and claim it (or another instance does).
      this.#arm(due, this.#clock.now().getTime());
      return;
    }
    if (this.#inflight.has(id)) return;
    let items = this.#queue.get(webhookId);
    if (!items) this.#queue.set(webhookId, (items = new Map()));
    items.set(id, due);
    this.#queued.add(id);
  }

  // --- recovery and scanning -------------------------------------------------

  async #recover(): Promise<void> {
    const now = this.#clock.now();
    const nowMs = now.getTime();
    const recovered = await this.#store.transact(async (tx) => {
      let n = 0;
      for (const d of await tx.findBy<DeliveryRecord>(DELIVERIES, 'state', 'delivering')) {
        if (d.leaseOwner === this.id) continue;
        if (!this.#opts.exclusive && d.leaseUntil !== null && d.leaseUntil > nowMs) continue;
        interrupt(d, now);
        await tx.put(DELIVERIES, d);
        n++;
      }
      return n;
    });
    this.#stats.recovered += recovered;
    if (recovered > 0) this.#log?.warn({ recovered }, 'webhook deliveries interrupted by a restart will be sent again');
  }

  /** Queues announced deliveries (a claim skips any that turn out not to be pending). */
  #take(queued: QueuedDelivery[]): void {
    if (this.#stopped) return;
    for (const q of queued) {
      if (!this.#queued.has(q.id)) this.#enqueue(q.id, q.webhookId, q.due); // #enqueue skips in-flight ones
    }
    this.#pump();
    this.#checkIdle();
  }

  /** At start: queues every pending delivery in the store (later ones are announced). */
  async #queuePending(): Promise<void> {
    const pending = await this.#store.findBy<DeliveryRecord>(DELIVERIES, 'state', 'pending');
    this.#take(pending.map((d) => ({ id: d.id, webhookId: d.webhookId, due: d.nextAttemptAt ?? 0 })));
  }

  // --- scheduling ----------------------------------------------------------

  #pump(): void {
    if (this.#stopped || !this.#started) return;
    if (this.#shared) {
      this.#wake();
      return;
    }
    const now = this.#clock.now().getTime();
    this.#startSends();
    let free = this.#opts.maxConcurrent * this.#opts.claimAhead - this.#inflight.size;
    let earliest = Infinity;
    const batch: string[] = [];
    const served: string[] = [];
    for (const [webhookId, items] of this.#queue) {
      let slots = Math.min(free, this.#opts.perSubscription * this.#opts.claimAhead - (this.#perSub.get(webhookId) ?? 0));
      for (const [id, due] of items) {
        if (due > now) {
          earliest = Math.min(earliest, due);
          continue;
        }
        if (slots <= 0) break;
        items.delete(id);
        this.#queued.delete(id);
        this.#inflight.set(id, webhookId);
        this.#perSub.set(webhookId, (this.#perSub.get(webhookId) ?? 0) + 1);
        batch.push(id);
        slots--;
        free--;
      }
      if (items.size === 0) this.#queue.delete(webhookId);
      else served.push(webhookId);
      if (free <= 0) break;
    }
    // Round-robin: subscriptions served now go to the back of the line.
    for (const webhookId of served) {
      const items = this.#queue.get(webhookId);
      if (!items) continue;
      this.#queue.delete(webhookId);
      this.#queue.set(webhookId, items);
    }
    // Only future work needs a timer: due work blocked by the concurrency
    // bounds is picked up when a slot frees (every outcome pumps again).
    this.#arm(earliest, now);
    if (batch.length > 0) this.#track(this.#claim(batch));
  }

  #arm(due: number, now: number): void {
    if (due === Infinity || this.#stopped) return;
    if (this.#timer !== undefined && this.#timerDue <= due) return;
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timerDue = due;
    this.#timer = this.#scheduler.setTimeout(() => {
      this.#timer = undefined;
      this.#timerDue = Infinity;
      this.#pump();
      this.#checkIdle();
    }, Math.max(0, due - now));
  }

  #release(id: string): void {
    const webhookId = this.#inflight.get(id);
    if (webhookId === undefined) return;
    this.#inflight.delete(id);
    const n = (this.#perSub.get(webhookId) ?? 1) - 1;
    if (n <= 0) this.#perSub.delete(webhookId);
    else this.#perSub.set(webhookId, n);
  }

  // --- shared store: claims with row locks ----------------------------------------

  #schedulePoll(): void {
    if (this.#stopped) return;
    this.#pollTimer = this.#scheduler.setTimeout(() => {
      this.#pollTimer = undefined;
      this.#wake();
      this.#schedulePoll();
    }, this.#opts.pollMs);
  }

  /** Claims what is due now (one round at a time; a wake-up during a round runs one more). */
  #wake(): void {
    if (this.#stopped || !this.#started || !this.#shared) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    this.#claiming = true;
    this.#track(
      this.#claimRound()
        .catch((err: unknown) => {
          // Every poll fails while the database is down: one line per 10 s, not two a second.
          const now = Date.now();
          if (now - this.#lastClaimError < 10_000) return;
          this.#lastClaimError = now;
          this.#log?.error({ err: String(err) }, 'claiming webhook deliveries failed; will retry');
        })
        .finally(() => {
          this.#claiming = false;
          if (this.#claimAgain) {
            this.#claimAgain = false;
            this.#wake();
          }
        }),
    );
  }

  async #claimRound(): Promise<void> {
    const store = this.#shared!;
    const started = this.#clock.now().getTime();
    if (started - this.#lastSweep >= this.#opts.pollMs) {
      this.#lastSweep = started;
      await this.#takeOverExpired(store, started);
    }
    // No claim-ahead here: a claim is a lease other instances respect until it expires, and after a crash they take
    // over (and send again) everything the dead instance held. Claiming only for free send slots keeps that to the
    // deliveries actually in flight. A slot frees once its outcome is durable (#flush releases it).
    const cap = this.#opts.perSubscription;
    for (;;) {
      if (this.#stopped) return;
      const free = this.#opts.maxConcurrent - this.#inflight.size;
      if (free <= 0) return;
      const limit = Math.min(free, CLAIM_BATCH);
      const query = { field: 'state', value: 'pending', dueField: 'nextAttemptAt', dueBefore: this.#clock.now().getTime(), limit };
      const { jobs, seen } = await store.claimWith<DeliveryRecord, { jobs: Job[]; seen: number }>(DELIVERIES, query, async (tx, records) => ({
        jobs: await this.#prepare(tx, records, { persistSecrets: false, cap }),
        seen: records.length,
      }));
      for (const job of jobs) {
        this.#inflight.set(job.id, job.webhook.id);
        this.#perSub.set(job.webhook.id, (this.#perSub.get(job.webhook.id) ?? 0) + 1);
        const list = this.#ready.get(job.webhook.id);
        if (list) list.push(job);
        else this.#ready.set(job.webhook.id, [job]);
      }
      if (this.#stopped) {
        await this.#returnReady();
        return;
      }
      this.#startSends();
      if (seen < limit || jobs.length === 0) return;
    }
  }

  /** Deliveries whose lease has expired (their instance died or stalled) go back to pending, their attempt interrupted. */
  async #takeOverExpired(store: ClaimableStore, nowMs: number): Promise<void> {
    const now = new Date(nowMs);
    const query = { field: 'state', value: 'delivering', dueField: 'leaseUntil', dueBefore: nowMs, limit: 500 };
    const taken = await store.claimWith<DeliveryRecord, number>(DELIVERIES, query, async (tx, records) => {
      let n = 0;
      for (const d of records) {
        if (d.leaseOwner === this.id && this.#inflight.has(d.id)) continue; // still ours, its outcome is on the way
        interrupt(d, now);
        await tx.put(DELIVERIES, d);
        n++;
      }
      return n;
    });
    if (taken === 0) return;
    this.#stats.recovered += taken;
    this.#log?.warn({ recovered: taken }, 'webhook deliveries whose lease expired (an instance stopped mid-delivery) will be sent again');
  }

  // --- claim, send, record -----------------------------------------------------

  async #claim(ids: string[]): Promise<void> {
    let jobs: Job[];
    try {
      jobs = await this.#store.transact((tx) => this.#claimTx(tx, ids));
    } catch (err) {
      this.#log?.error({ err: String(err) }, 'webhook claim failed; will retry');
      const later = this.#clock.now().getTime() + 1000;
      for (const id of ids) {
        const webhookId = this.#inflight.get(id);
        this.#release(id);
        if (webhookId !== undefined) this.#enqueue(id, webhookId, later);
      }
      this.#pump();
      return;
    }
    const claimed = new Set(jobs.map((j) => j.id));
    for (const id of ids) if (!claimed.has(id)) this.#release(id);
    for (const job of jobs) {
      const list = this.#ready.get(job.webhook.id);
      if (list) list.push(job);
      else this.#ready.set(job.webhook.id, [job]);
    }
    if (this.#stopped) await this.#returnReady();
    else if (jobs.length < ids.length) this.#pump();
    else this.#startSends();
  }

  /** Starts claimed jobs while send slots are free, round-robin over subscriptions. */
  #startSends(): void {
    if (this.#stopped) return;
    const served: string[] = [];
    const late: Job[] = [];
    for (const [webhookId, jobs] of this.#ready) {
      if (this.#sending >= this.#opts.maxConcurrent) break;
      let n = this.#sendingPerSub.get(webhookId) ?? 0;
      while (jobs.length > 0 && n < this.#opts.perSubscription && this.#sending < this.#opts.maxConcurrent) {
        const job = jobs.shift()!;
        if (this.#shared && job.leaseUntil < this.#clock.now().getTime() + this.#opts.timeoutMs) {
          // Too late to finish within the lease (the process stalled since the claim): another instance may take it
          // over meanwhile. Not sent here; given back to pending at once (its unsent attempt removed), so it is not
          // counted as an interrupted attempt nor held until the lease expires.
          late.push(job);
          continue;
        }
        n++;
        this.#sending++;
        this.#sendingPerSub.set(webhookId, n);
        this.#track(this.#send(job));
      }
      if (jobs.length === 0) this.#ready.delete(webhookId);
      else served.push(webhookId);
    }
    for (const webhookId of served) {
      const jobs = this.#ready.get(webhookId);
      if (!jobs) continue;
      this.#ready.delete(webhookId);
      this.#ready.set(webhookId, jobs);
    }
    if (late.length > 0) this.#track(this.#giveBack(late).then(() => this.#pump()));
  }

  /** On stop: claimed jobs not yet sent go back to pending, their unsent attempt removed. */
  async #returnReady(): Promise<void> {
    const jobs = [...this.#ready.values()].flat();
    this.#ready.clear();
    await this.#giveBack(jobs);
  }

  /**
   * Claimed jobs that were not sent go back to pending (due now), their unsent attempt removed, and leave this
   * dispatcher's books. Should the write fail, the records keep their lease until it expires and are then taken over.
   */
  async #giveBack(jobs: Job[]): Promise<void> {
    if (jobs.length === 0) return;
    const nowMs = this.#clock.now().getTime();
    try {
      await this.#store.transact(async (tx) => {
        for (const job of jobs) {
          const d = await tx.get<DeliveryRecord>(DELIVERIES, job.id);
          if (!d || d.state !== 'delivering' || d.leaseOwner !== this.id) continue;
          const last = d.attempts[d.attempts.length - 1];
          if (last && last.finishedAt === null) d.attempts.pop();
          d.state = 'pending';
          d.nextAttemptAt = nowMs;
          d.leaseOwner = null;
          d.leaseUntil = null;
          await tx.put(DELIVERIES, d);
        }
      });
    } catch (err) {
      this.#log?.error({ err: String(err) }, 'returning unsent webhook deliveries failed; they are re-sent after a restart');
    }
    for (const job of jobs) this.#release(job.id);
  }

  async #claimTx(tx: Tx, ids: string[]): Promise<Job[]> {
    const pending: DeliveryRecord[] = [];
    for (const id of ids) {
      const d = await tx.get<DeliveryRecord>(DELIVERIES, id);
      if (d && d.state === 'pending') pending.push(d);
    }
    return this.#prepare(tx, pending, { persistSecrets: true });
  }

  /**
   * The claim of pending deliveries, whichever way they were selected: cancels those whose subscription or event is
   * gone or inactive, and marks the others `delivering` under this dispatcher's lease with a new attempt. `cap`
   * (shared store) leaves a delivery untouched, still pending, when its subscription already has that many claimed.
   * No effect outside `tx` (a transaction may run twice).
   */
  async #prepare(tx: Tx, records: DeliveryRecord[], opts: { persistSecrets: boolean; cap?: number }): Promise<Job[]> {
    const now = this.#clock.now();
    const nowMs = now.getTime();
    const nowIso = now.toISOString();
    const targets = new Map<string, Awaited<ReturnType<typeof deliveryTarget>>>();
    const taken = new Map<string, number>();
    const jobs: Job[] = [];
    for (const d of records) {
      const id = d.id;
      if (opts.cap !== undefined) {
        const n = (this.#perSub.get(d.webhookId) ?? 0) + (taken.get(d.webhookId) ?? 0);
        if (n >= opts.cap) continue;
      }
      // A subscription, or a callback target the delivery carries (src/webhooks/targets.ts). Read for signing: an ended
      // grace is erased, but not written under a row-lock claim (READ COMMITTED could overwrite a concurrent change to
      // the subscription); the periodic eraseExpiredSecrets does it there.
      if (!targets.has(d.webhookId)) targets.set(d.webhookId, await deliveryTarget(tx, d, nowMs, { persistSecrets: opts.persistSecrets, keyring: this.#keyring }));
      const target = targets.get(d.webhookId)!;
      const webhook = 'webhook' in target ? target.webhook : undefined;
      const event = await tx.get<EventRecord>(EVENTS, d.eventId);
      const cancel = 'cancel' in target ? target.cancel : !event ? 'event no longer stored' : null;
      if (cancel || !webhook || !event) {
        d.state = 'cancelled';
        d.reason = cancel ?? 'cancelled';
        d.completedAt = nowIso;
        d.nextAttemptAt = null;
        await tx.put(DELIVERIES, d);
        continue;
      }
      const attempt = countedAttempts(d) + 1;
      d.attempts.push({ attempt, at: nowIso, finishedAt: null, statusCode: null, latencyMs: null, error: null });
      d.state = 'delivering';
      d.nextAttemptAt = null;
      d.leaseOwner = this.id;
      d.leaseUntil = nowMs + this.#opts.leaseMs;
      await tx.put(DELIVERIES, d);
      taken.set(d.webhookId, (taken.get(d.webhookId) ?? 0) + 1);
      jobs.push({ id, webhook, event, attempt, leaseUntil: d.leaseUntil });
    }
    return jobs;
  }

  async #send(job: Job): Promise<void> {
    const { body, headers } = buildRequest(job.event, job.webhook, job.attempt, this.#clock.now().getTime());
    const result = await this.#client.send(job.webhook.url, body, headers, this.#opts.timeoutMs);
    this.#stats.attempts++;
    this.#sending--;
    const n = (this.#sendingPerSub.get(job.webhook.id) ?? 1) - 1;
    if (n <= 0) this.#sendingPerSub.delete(job.webhook.id);
    else this.#sendingPerSub.set(job.webhook.id, n);
    this.#outcomes.push({ job, result });
    this.#scheduleFlush();
    this.#startSends();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled || this.#flushing) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      const p = this.#flush();
      this.#flushing = p;
      this.#track(
        p.finally(() => {
          this.#flushing = undefined;
          if (this.#outcomes.length > 0) this.#scheduleFlush();
        }),
      );
    });
  }

  async #flush(): Promise<void> {
    const outcomes = this.#outcomes;
    this.#outcomes = [];
    if (outcomes.length === 0) return;
    let retries: Array<{ id: string; webhookId: string; due: number }> = [];
    try {
      const recorded = await this.#store.transact((tx) => this.#recordTx(tx, outcomes));
      retries = recorded.retries;
      // Counted once the outcomes are stored (a transaction may run more than once).
      this.#stats.succeeded += recorded.succeeded;
      this.#stats.failed += recorded.failed;
      this.#stats.retried += retries.length;
      for (const webhookId of recorded.disabled) {
        this.#log?.warn({ webhookId }, `webhook subscription disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries`);
      }
    } catch (err) {
      // The lowdb store keeps the change in memory and retries the write with the next one.
      this.#log?.error({ err: String(err) }, 'writing webhook delivery outcomes failed');
      if (this.#shared && !this.#stopped) {
        // A failed transaction wrote nothing: the records are still `delivering` under this dispatcher's lease. Keep
        // the outcomes (and their slots) and write them again shortly, while the lease lasts; dropping them would free
        // the slots, and once the lease expired the deliveries, sent and answered, would be taken over and sent again.
        const nowMs = this.#clock.now().getTime();
        const keep = outcomes.filter((o) => o.job.leaseUntil > nowMs);
        if (keep.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          this.#outcomes = [...keep, ...this.#outcomes];
          for (const o of outcomes) if (!keep.includes(o)) this.#release(o.job.id);
          return;
        }
      }
    }
    for (const o of outcomes) this.#release(o.job.id);
    for (const r of retries) this.#enqueue(r.id, r.webhookId, r.due);
    this.#pump();
    this.#maybePrune();
  }

  async #recordTx(
    tx: Tx,
    outcomes: Outcome[],
  ): Promise<{ retries: Array<{ id: string; webhookId: string; due: number }>; succeeded: number; failed: number; disabled: string[] }> {
    const now = this.#clock.now();
    const nowMs = now.getTime();
    const nowIso = now.toISOString();
    const webhooks = new Map<string, WebhookRecord | undefined>();
    const retries: Array<{ id: string; webhookId: string; due: number }> = [];
    let succeeded = 0;
    let failed = 0;
    const disabled: string[] = [];
    for (const { job, result } of outcomes) {
      const d = await tx.get<DeliveryRecord>(DELIVERIES, job.id);
      if (!d || d.state !== 'delivering' || d.leaseOwner !== this.id) continue; // lease lost meanwhile
      const a = d.attempts[d.attempts.length - 1];
      if (a) {
        a.finishedAt = nowIso;
        a.statusCode = result.statusCode;
        a.latencyMs = result.latencyMs;
        a.error = result.error;
      }
      if (!webhooks.has(d.webhookId)) webhooks.set(d.webhookId, await tx.get<WebhookRecord>(WEBHOOKS, d.webhookId));
      const w = webhooks.get(d.webhookId);
      if (w && a) {
        w.lastDeliveryAttempt = a.at;
        w.lastDeliveryStatus = result.statusCode;
      }
      d.leaseOwner = null;
      d.leaseUntil = null;
      const counted = countedAttempts(d);
      if (result.ok) {
        d.state = 'succeeded';
        d.completedAt = nowIso;
        d.nextAttemptAt = null;
        succeeded++;
        if (w) w.consecutiveFailures = 0;
      } else if (counted >= MAX_ATTEMPTS || d.attempts.length >= MAX_ATTEMPT_RECORDS) {
        d.state = 'failed';
        d.completedAt = nowIso;
        d.nextAttemptAt = null;
        failed++;
        if (w) {
          w.failures++;
          w.consecutiveFailures++;
          if (w.consecutiveFailures >= DISABLE_AFTER_FAILURES && w.status === 'active') {
            w.status = 'disabled';
            w.disabledAt = nowIso;
            disabled.push(w.id);
          }
        }
      } else {
        const jitter = this.#opts.jitterMs > 0 ? Math.floor(Math.random() * this.#opts.jitterMs) : 0;
        d.state = 'pending';
        d.nextAttemptAt = nowMs + RETRY_DELAYS_MS[counted]! + jitter;
        retries.push({ id: d.id, webhookId: d.webhookId, due: d.nextAttemptAt });
      }
      await tx.put(DELIVERIES, d);
    }
    for (const w of webhooks.values()) if (w) await tx.put(WEBHOOKS, w);
    return { retries, succeeded, failed, disabled };
  }

  // --- retention -------------------------------------------------------------

  #maybePrune(): void {
    if (this.#stopped) return;
    const now = this.#clock.now().getTime();
    if (now - this.#lastPrune < this.#opts.pruneEveryMs) return;
    this.#lastPrune = now;
    this.#track(eraseExpiredSecrets(this.#store, now).catch((err: unknown) => this.#log?.error({ err: String(err) }, 'erasing expired webhook secrets failed')));
    if (this.#opts.retentionMs <= 0) return;
    this.#track(
      this.prune().catch((err: unknown) => this.#log?.error({ err: String(err) }, 'pruning the webhook event log failed')),
    );
  }

  /**
   * Deletes events older than the retention period whose deliveries are all
   * final, with their deliveries. Events are stored in time order, so the scan
   * stops at the first one inside the period.
   */
  async prune(): Promise<number> {
    const cutoff = this.#clock.now().getTime() - this.#opts.retentionMs;
    const removed = await this.#store.transact(async (tx) => {
      let n = 0;
      // Deliveries are checked by id against the (small) sets of unfinished ones, without reading them.
      const unfinished = new Set(await tx.idsBy(DELIVERIES, 'state', 'pending'));
      for (const id of await tx.idsBy(DELIVERIES, 'state', 'delivering')) unfinished.add(id);
      // Oldest first, copied one at a time: the scan stops at the first recent event.
      for await (const e of tx.scan<EventRecord>(EVENTS)) {
        if (e.created * 1000 >= cutoff) break;
        const deliveries = await tx.idsBy(DELIVERIES, 'eventId', e.id);
        if (deliveries.some((id) => unfinished.has(id))) continue;
        for (const id of deliveries) await tx.delete(DELIVERIES, id);
        await tx.delete(EVENTS, e.id);
        n++;
      }
      return n;
    });
    this.#stats.pruned += removed;
    return removed;
  }
}
