/**
 * The webhook dispatcher: delivers the outbox (pending delivery records written by `recordEvent` in the same store
 * write as the operation's effect). It drives the parts: ./claim.ts (the claim and lease transactions), ./queue.ts
 * (its books: queue, held deliveries, send slots), ./flush.ts (answered attempts until their outcomes are written),
 * ./recorder.ts (outcomes, retries, pruning) and ./send.ts (HTTP).
 *
 * Life of a delivery:
 *   pending --claim--> delivering --result--> succeeded | pending (retry) | failed
 *
 * - Claim: one store write marks a batch `delivering` with a lease (this dispatcher's id, an expiry) and records the
 *   attempt's start. Only once that write is durable is the request sent, so an attempt is never lost from the
 *   record, and attempt numbers survive restarts.
 * - Result: outcomes are written in batches (one transaction per burst, and the store group-commits concurrent
 *   transactions). A delivery is confirmed only when its outcome is durable.
 * - Recovery: at start, every `delivering` record left by an earlier process (crash, SIGKILL, restart) is interrupted
 *   and sent again; every `pending` one is queued. Deliveries are therefore at-least-once: only the ones in flight at
 *   the crash (claimed, not confirmed: at most `claimAhead` x `maxConcurrent`) can arrive twice.
 *
 * Several instances (a store that can claim with row locks, the PostgreSQL one): see ./claim.ts for how they share
 * the outbox under leases, and ./claim-loop.ts for the loop that claims there.
 *
 * Concurrency is bounded overall (`maxConcurrent`) and per subscription (`perSubscription`), and accounts, then each
 * account's subscriptions, are served in turn (./queue.ts), so one slow receiver holds at most its own share of the
 * slots and one account with many subscriptions no more than another's. Retries: see ./recorder.ts.
 *
 * Time: retry schedules use the injected `clock` and `scheduler` (tests use a fake pair); the per-attempt timeout and
 * latencies use real time.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { runAsQueueCaller } from '../core/fair-queue.js';
import type { Keyring } from '../core/keyring.js';
import type { Logger } from '../core/log.js';
import { onOutboxWrite, type QueuedDelivery } from '../events/events.js';
import { isClaimable, type ClaimableStore, type Store, type Tx } from '../store/port.js';
import { claimByIds, giveBack, pendingPages, recoverInterrupted, type ClaimContext, type Job } from './claim.js';
import { SharedClaimLoop } from './claim-loop.js';
import {
  realScheduler,
  resolveOptions,
  type DispatcherOptions,
  type DispatcherStats,
  type ResolvedOptions,
  type Scheduler,
} from './dispatcher-options.js';
import { DeliveryQueue, SendSlots } from './queue.js';
import { OutcomeFlush } from './flush.js';
import { pruneEvents } from './recorder.js';
import { WebhookClient } from './send.js';
import { eraseExpiredSecrets, OpenedSecrets } from './secrets.js';
import { buildRequest } from './subscriptions.js';

export class Dispatcher {
  readonly id = `dsp_${randomBytes(8).toString('hex')}`;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #keyring: Keyring;
  readonly #log: Logger | undefined;
  readonly #scheduler: Scheduler;
  readonly #client: WebhookClient;
  readonly #opts: ResolvedOptions;
  /** Set when the store is shared by several instances and claims with row locks. */
  readonly #shared: ClaimableStore | undefined;
  /** Signing secrets opened by claims, kept for the next ones. */
  readonly #opened = new OpenedSecrets();
  /** The claim loop on a shared store. */
  readonly #loop: SharedClaimLoop | undefined;

  /** The queue (single-process store) and the deliveries held, per subscription. */
  readonly #books = new DeliveryQueue();
  readonly #slots: SendSlots;
  readonly #flush: OutcomeFlush;
  #timer: unknown;
  #timerDue = Infinity;
  #busy = 0;
  #started = false;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;
  #lastPrune = -Infinity;
  #idleWaiters: Array<() => void> = [];
  readonly #stats: Omit<DispatcherStats, 'inflight' | 'queued' | 'sending'> = {
    attempts: 0,
    succeeded: 0,
    failed: 0,
    retried: 0,
    recovered: 0,
    pruned: 0,
    conflicts: 0,
  };

  constructor(opts: DispatcherOptions) {
    this.#store = opts.store;
    this.#shared = isClaimable(opts.store) ? opts.store : undefined;
    this.#clock = opts.clock;
    this.#keyring = opts.keyring;
    this.#log = opts.log;
    this.#scheduler = opts.scheduler ?? realScheduler;
    this.#opts = resolveOptions(opts, this.#shared !== undefined);
    this.#slots = new SendSlots(this.#opts.maxConcurrent, this.#opts.perSubscription);
    this.#client = new WebhookClient({
      ca: opts.ca,
      allow: opts.allow,
      resolve: opts.resolve,
      connections: this.#opts.maxConcurrent,
    });
    this.#flush = new OutcomeFlush({
      owner: this.id,
      clock: this.#clock,
      jitterMs: this.#opts.jitterMs,
      log: this.#log,
      shared: this.#shared !== undefined,
      stopped: () => this.#stopped,
      transact: (fn) => this.#transact(fn),
      track: (p) => this.#track(p),
      recorded: (recorded) => {
        this.#stats.succeeded += recorded.succeeded;
        this.#stats.failed += recorded.failed;
        this.#stats.retried += recorded.retries.length;
      },
      release: (id) => this.#books.release(id),
      settled: (retries) => {
        for (const r of retries) this.#enqueue(r.id, r.webhookId, r.due, r.ownerId);
        this.#pump();
        this.#maybePrune();
      },
    });
    if (this.#shared) {
      this.#loop = new SharedClaimLoop({
        owner: this.id,
        store: this.#shared,
        clock: this.#clock,
        scheduler: this.#scheduler,
        log: this.#log,
        opts: this.#opts,
        books: this.#books,
        slots: this.#slots,
        running: () => this.#started && !this.#stopped,
        stopped: () => this.#stopped,
        track: (p) => this.#track(p),
        startSends: () => this.#startSends(),
        returnReady: () => this.#returnReady(),
        context: (cap) => this.#claimContext(false, cap),
        conflicts: (n) => {
          this.#stats.conflicts += n;
        },
        recovered: (n) => {
          this.#stats.recovered += n;
        },
      });
    }
  }

  /** Starts delivering: recovers interrupted deliveries, queues pending ones, then follows new events. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#loop) {
      const loop = this.#loop;
      // Deliveries written by this process: claim at once rather than at the next poll.
      this.#unsubscribe = onOutboxWrite(() => loop.wake());
      this.#track(
        eraseExpiredSecrets(this.#store, this.#clock.now().getTime()).catch((err: unknown) =>
          this.#log?.error({ err: String(err) }, 'erasing expired webhook secrets failed'),
        ),
      );
      loop.start();
      return;
    }
    // New deliveries are announced with their ids: no store scan per event burst.
    this.#unsubscribe = onOutboxWrite((queued) => this.#take(queued));
    this.#track(
      this.#recover()
        .then(() => this.#queuePending())
        .then(() => eraseExpiredSecrets(this.#store, this.#clock.now().getTime()))
        .catch((err: unknown) =>
          this.#log?.error({ err: String(err) }, 'webhook dispatcher could not recover or queue pending deliveries'),
        ),
    );
  }

  /** Stops taking new work and waits for in-flight attempts to finish and be recorded. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#loop?.stop();
    await this.#returnReady();
    // Wait for attempts on the wire and their outcomes to be written. The short
    // timer re-checks the state even if no notification comes and keeps the event
    // loop alive meanwhile (without it, a process stopping on SIGTERM could exit
    // before its shutdown finished); past the deadline, unconfirmed deliveries
    // keep their leases and are sent again by the next start.
    const deadline = Date.now() + this.#opts.timeoutMs + 5_000;
    while (this.#busy > 0 || this.#books.heldCount > 0 || this.#flush.busy) {
      if (Date.now() > deadline) {
        this.#log?.warn(
          { inflight: this.#books.heldCount },
          'webhook dispatcher stopped with deliveries unconfirmed; they are sent again at the next start',
        );
        await this.#client.destroy();
        this.#logTotals();
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
    this.#logTotals();
  }

  /** A store transaction whose reruns (the store runs it again after a conflict) are counted in the stats. */
  async #transact<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let runs = 0;
    try {
      return await this.#store.transact((tx) => {
        runs++;
        return fn(tx);
      });
    } finally {
      this.#stats.conflicts += Math.max(0, runs - 1);
    }
  }

  /** One line at stop with the totals (no ids, no payloads): what an operator, or the scale bench, reads back. */
  #logTotals(): void {
    const { attempts, succeeded, failed, retried, recovered, conflicts } = this.#stats;
    this.#log?.info({ attempts, succeeded, failed, retried, recovered, conflicts }, 'webhook dispatcher stopped');
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
    return this.#books.nextDue();
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
      conflicts: s.conflicts,
      sending: this.#slots.sending,
      inflight: this.#books.heldCount,
      queued: this.#books.queuedCount,
    };
  }

  // --- bookkeeping ---------------------------------------------------------

  #isIdle(): boolean {
    if (this.#busy > 0 || this.#books.heldCount > 0 || this.#flush.busy) return false;
    if (this.#stopped) return true;
    return !this.#books.hasDue(this.#clock.now().getTime());
  }

  #checkIdle(): void {
    const stoppedDone = this.#stopped && this.#busy === 0 && this.#books.heldCount === 0 && !this.#flush.busy;
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

  /** `ownerId`: the delivery's account; by default the one its subscription was queued under before. */
  #enqueue(id: string, webhookId: string, due: number, ownerId?: string): void {
    if (this.#shared) {
      // Shared store: the record is pending in the store; wake up when it is due and claim it (or another instance does).
      this.#arm(due, this.#clock.now().getTime());
      return;
    }
    this.#books.add(id, webhookId, due, ownerId);
  }

  // --- recovery and scanning -------------------------------------------------

  async #recover(): Promise<void> {
    const now = this.#clock.now();
    const recovered = await this.#store.transact((tx) => recoverInterrupted(tx, this.id, now, this.#opts.exclusive));
    this.#stats.recovered += recovered;
    if (recovered > 0) this.#log?.warn({ recovered }, 'webhook deliveries interrupted by a restart will be sent again');
  }

  /** Queues announced deliveries (a claim skips any that turn out not to be pending). */
  #take(queued: QueuedDelivery[]): void {
    if (this.#stopped) return;
    for (const q of queued) {
      if (!this.#books.isQueued(q.id)) this.#enqueue(q.id, q.webhookId, q.due, q.ownerId); // #enqueue skips in-flight ones
    }
    this.#pump();
    this.#checkIdle();
  }

  /**
   * At start: queues every pending delivery in the store (later ones are announced), read a page at a time so that
   * a long outbox is never held in full: the queue keeps only id, subscription and due time per delivery.
   */
  async #queuePending(): Promise<void> {
    for await (const page of pendingPages(this.#store)) {
      if (this.#stopped) return;
      this.#take(page);
    }
  }

  // --- scheduling ----------------------------------------------------------

  #pump(): void {
    if (this.#stopped || !this.#started) return;
    if (this.#loop) {
      this.#loop.wake();
      return;
    }
    const now = this.#clock.now().getTime();
    this.#startSends();
    const free = this.#opts.maxConcurrent * this.#opts.claimAhead - this.#books.heldCount;
    const { batch, earliest } = this.#books.takeDue(now, free, this.#opts.perSubscription * this.#opts.claimAhead);
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
    this.#timer = this.#scheduler.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerDue = Infinity;
        this.#pump();
        this.#checkIdle();
      },
      Math.max(0, due - now),
    );
  }

  // --- claim, send, record -----------------------------------------------------

  async #claim(ids: string[]): Promise<void> {
    let jobs: Job[];
    try {
      jobs = await this.#transact((tx) => claimByIds(tx, ids, this.#claimContext(true)));
    } catch (err) {
      this.#log?.error({ err: String(err) }, 'webhook claim failed; will retry');
      const later = this.#clock.now().getTime() + 1000;
      for (const id of ids) {
        const webhookId = this.#books.heldWebhook(id);
        this.#books.release(id);
        if (webhookId !== undefined) this.#enqueue(id, webhookId, later);
      }
      this.#pump();
      return;
    }
    const claimed = new Set(jobs.map((j) => j.id));
    for (const id of ids) if (!claimed.has(id)) this.#books.release(id);
    for (const job of jobs) this.#slots.push(job);
    if (this.#stopped) await this.#returnReady();
    else if (jobs.length < ids.length) this.#pump();
    else this.#startSends();
  }

  /** Starts claimed jobs while send slots are free, round-robin over subscriptions. */
  #startSends(): void {
    if (this.#stopped) return;
    // Too late to finish within the lease (the process stalled since the claim): another instance may take it over
    // meanwhile. Not sent here; given back to pending at once (its unsent attempt removed), so it is not counted as
    // an interrupted attempt nor held until the lease expires.
    const isLate = (job: Job): boolean =>
      this.#shared !== undefined && job.leaseUntil < this.#clock.now().getTime() + this.#opts.timeoutMs;
    const { send, late } = this.#slots.take(isLate);
    for (const job of send) this.#track(this.#send(job));
    if (late.length > 0) this.#track(this.#giveBack(late).then(() => this.#pump()));
  }

  /** On stop: claimed jobs not yet sent go back to pending, their unsent attempt removed. */
  async #returnReady(): Promise<void> {
    await this.#giveBack(this.#slots.drain());
  }

  /**
   * Claimed jobs that were not sent go back to pending (due now), their unsent attempt removed, and leave this
   * dispatcher's books. Should the write fail, the records keep their lease until it expires and are then taken over.
   */
  async #giveBack(jobs: Job[]): Promise<void> {
    if (jobs.length === 0) return;
    const nowMs = this.#clock.now().getTime();
    try {
      await this.#store.transact((tx) => giveBack(tx, jobs, this.id, nowMs));
    } catch (err) {
      this.#log?.error(
        { err: String(err) },
        'returning unsent webhook deliveries failed; they are re-sent after a restart',
      );
    }
    for (const job of jobs) this.#books.release(job.id);
  }

  /** What a claim made now needs to know about this dispatcher (read inside the transaction: it may run twice). */
  #claimContext(persistSecrets: boolean, cap?: number): ClaimContext {
    return {
      owner: this.id,
      now: this.#clock.now(),
      leaseMs: this.#opts.leaseMs,
      keyring: this.#keyring,
      opened: this.#opened,
      persistSecrets,
      cap,
      held: (webhookId) => this.#books.heldFor(webhookId),
    };
  }

  async #send(job: Job): Promise<void> {
    const { body, headers } = buildRequest(job.event, job.webhook, job.attempt, this.#clock.now().getTime());
    // Its host lookup waits its turn under the subscription's account (./resolver.ts), not in one lane with every
    // account's: one account's hosts behind slow name servers then delay another's lookup by one each, not by all.
    const result = await runAsQueueCaller({ account: job.webhook.ownerId, weight: 1 }, () =>
      this.#client.send(job.webhook.url, body, headers, this.#opts.timeoutMs),
    );
    this.#stats.attempts++;
    this.#slots.done(job.webhook.id);
    this.#flush.add({ job, result });
    this.#startSends();
  }

  // --- retention -------------------------------------------------------------

  #maybePrune(): void {
    if (this.#stopped) return;
    const now = this.#clock.now().getTime();
    if (now - this.#lastPrune < this.#opts.pruneEveryMs) return;
    this.#lastPrune = now;
    this.#track(
      eraseExpiredSecrets(this.#store, now).catch((err: unknown) =>
        this.#log?.error({ err: String(err) }, 'erasing expired webhook secrets failed'),
      ),
    );
    if (this.#opts.retentionMs <= 0) return;
    this.#track(
      this.prune().catch((err: unknown) =>
        this.#log?.error({ err: String(err) }, 'pruning the webhook event log failed'),
      ),
    );
  }

  /**
   * Deletes events older than the retention period whose deliveries are all
   * final, with their deliveries. Events are stored in time order, so the scan
   * stops at the first one inside the period.
   */
  async prune(): Promise<number> {
    const cutoff = this.#clock.now().getTime() - this.#opts.retentionMs;
    const removed = await this.#store.transact((tx) => pruneEvents(tx, cutoff));
    this.#stats.pruned += removed;
    return removed;
  }
}
