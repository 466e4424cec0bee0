/**
 * The dispatcher's claim loop on a store shared by several instances (the PostgreSQL one; see ./claim.ts for how
 * instances share the outbox under leases). A round claims what is due now with row locks, as many as there are free
 * send slots, and hands the jobs to the dispatcher's books and slots; it also takes over, once per `pollMs`, the
 * deliveries whose lease expired. Rounds run one at a time: a wake-up during a round runs one more after it.
 *
 * It wakes when a delivery is written in this process, when a retry of its own falls due, when an outcome frees a
 * slot (the dispatcher calls wake), and every `pollMs` for the deliveries other instances wrote.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { ClaimableStore } from '../store/port.js';
import { CLAIM_BATCH, claimDue, takeOverExpired, type ClaimContext } from './claim.js';
import type { ResolvedOptions, Scheduler } from './dispatcher-options.js';
import type { DeliveryQueue, SendSlots } from './queue.js';

/** Accounts whose last served subscription a claim loop remembers; past it, it starts over (one turn out of order). */
const MAX_RESUMED = 10_000;

/** What the loop needs from its dispatcher. */
export interface ClaimLoopHost {
  /** The dispatcher's id: its own leases are never taken over while their outcome is on the way. */
  readonly owner: string;
  readonly store: ClaimableStore;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly log: Logger | undefined;
  readonly opts: ResolvedOptions;
  readonly books: DeliveryQueue;
  readonly slots: SendSlots;
  /** Whether the dispatcher runs (started and not stopped). */
  running(): boolean;
  stopped(): boolean;
  /** Work the dispatcher waits for before it is idle or stopped. */
  track(p: Promise<unknown>): void;
  /** Starts claimed jobs while send slots are free. */
  startSends(): void;
  /** On stop: claimed jobs not yet sent go back to pending. */
  returnReady(): Promise<void>;
  /** What a claim made now needs to know about the dispatcher. */
  context(cap: number): ClaimContext;
  /** Counts store transactions run again after a conflict, and deliveries taken over from a dead instance. */
  conflicts(n: number): void;
  recovered(n: number): void;
}

export class SharedClaimLoop {
  #pollTimer: unknown;
  #claiming = false;
  #claimAgain = false;
  #lastSweep = -Infinity;
  #lastClaimError = -Infinity;
  /** The account this loop's last claim served last: the next claim starts with the one after it. */
  #after: string | undefined;
  /** Per account, the subscription this loop's claims served last: the account's next turn starts after it. */
  readonly #resume = new Map<string, string>();

  constructor(private readonly host: ClaimLoopHost) {}

  /** Claims now, then every `pollMs`. */
  start(): void {
    this.wake();
    this.#schedulePoll();
  }

  stop(): void {
    if (this.#pollTimer !== undefined) this.host.scheduler.clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
  }

  #schedulePoll(): void {
    if (this.host.stopped()) return;
    this.#pollTimer = this.host.scheduler.setTimeout(() => {
      this.#pollTimer = undefined;
      this.wake();
      this.#schedulePoll();
    }, this.host.opts.pollMs);
  }

  /** Claims what is due now (one round at a time; a wake-up during a round runs one more). */
  wake(): void {
    if (!this.host.running()) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    this.#claiming = true;
    this.host.track(
      this.#round()
        .catch((err: unknown) => {
          // Every poll fails while the database is down: one line per 10 s, not two a second.
          const now = Date.now();
          if (now - this.#lastClaimError < 10_000) return;
          this.#lastClaimError = now;
          this.host.log?.error({ err: String(err) }, 'claiming webhook deliveries failed; will retry');
        })
        .finally(() => {
          this.#claiming = false;
          if (this.#claimAgain) {
            this.#claimAgain = false;
            this.wake();
          }
        }),
    );
  }

  async #round(): Promise<void> {
    const host = this.host;
    const started = host.clock.now().getTime();
    if (started - this.#lastSweep >= host.opts.pollMs) {
      this.#lastSweep = started;
      await this.#takeOverExpired(started);
    }
    // No claim-ahead here: a claim is a lease other instances respect until it expires, and after a crash they take
    // over (and send again) everything the dead instance held. Claiming only for free send slots keeps that to the
    // deliveries actually in flight. A slot frees once its outcome is durable (./flush.ts releases it).
    const cap = host.opts.perSubscription;
    for (;;) {
      if (host.stopped()) return;
      const free = host.opts.maxConcurrent - host.books.heldCount;
      if (free <= 0) return;
      const limit = Math.min(free, CLAIM_BATCH);
      // Accounts in turn: the claim starts after the account this dispatcher served last, and leaves out the
      // subscriptions it already holds its cap of (their backlog would otherwise fill the claim).
      const room = new Map<string, number>();
      for (const [webhookId, held] of host.books.heldBySubscription()) room.set(webhookId, Math.max(0, cap - held));
      let runs = 0;
      const turns = { after: this.#after, room, most: cap, resume: this.#resume };
      const { jobs, seen, last, served } = await claimDue(
        host.store,
        limit,
        host.clock.now().getTime(),
        () => {
          runs++;
          return host.context(cap);
        },
        turns,
      );
      if (last !== undefined) this.#after = last;
      if (this.#resume.size + served.size > MAX_RESUMED) this.#resume.clear();
      for (const [account, webhookId] of served) this.#resume.set(account, webhookId);
      host.conflicts(Math.max(0, runs - 1));
      for (const job of jobs) {
        host.books.hold(job.id, job.webhook.id);
        host.slots.push(job);
      }
      if (host.stopped()) {
        await host.returnReady();
        return;
      }
      host.startSends();
      // Fewer than asked: the claim went round every subscription with room (or as far as one claim looks; the
      // next wake-up goes on from where it stopped).
      if (seen < limit || jobs.length === 0) return;
    }
  }

  /** Deliveries whose lease has expired (their instance died or stalled) go back to pending, their attempt interrupted. */
  async #takeOverExpired(nowMs: number): Promise<void> {
    const { owner, books } = this.host;
    // Still ours: its outcome is on the way.
    const taken = await takeOverExpired(this.host.store, nowMs, (d) => d.leaseOwner === owner && books.isHeld(d.id));
    if (taken === 0) return;
    this.host.recovered(taken);
    this.host.log?.warn(
      { recovered: taken },
      'webhook deliveries whose lease expired (an instance stopped mid-delivery) will be sent again',
    );
  }
}
