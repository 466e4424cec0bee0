/**
 * The dispatcher's outcome flush: answered attempts wait here until their outcomes are written, a batch per
 * transaction. One flush runs at a time; the outcomes that arrive meanwhile make the next batch. A delivery is confirmed
 * (its slot in the dispatcher's books freed) only once its outcome is durable.
 *
 * If the write fails on a shared store, the records are still `delivering` under this dispatcher's lease: the outcomes
 * are kept and written again shortly, while the lease lasts (see `#flush`). On the single-process store the store
 * keeps the change in memory and writes it with the next write.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Tx } from '../store/port.js';
import { DISABLE_AFTER_FAILURES, recordOutcomes, type Outcome, type Recorded, type Retry } from './recorder.js';

/** What the flush needs from its dispatcher. */
export interface FlushHost {
  /** The dispatcher's id: the lease owner the outcomes are written for. */
  readonly owner: string;
  readonly clock: Clock;
  readonly jitterMs: number;
  readonly log: Logger | undefined;
  /** The store is shared by several instances (a failed write is retried while the leases last). */
  readonly shared: boolean;
  stopped(): boolean;
  /** A store transaction (the dispatcher counts its reruns). */
  transact<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Work the dispatcher waits for before it is idle or stopped. */
  track(p: Promise<unknown>): void;
  /** Counts what a written batch recorded. */
  recorded(recorded: Recorded): void;
  /** A delivery leaves the dispatcher's books (its outcome is durable, or will never be written by this flush). */
  release(id: string): void;
  /** After a batch: queues the retries, then lets the dispatcher claim and send more. */
  settled(retries: Retry[]): void;
}

/** Answered attempts waiting for their outcomes to be written, and the flush that writes them. */
export class OutcomeFlush {
  #outcomes: Outcome[] = [];
  #scheduled = false;
  #flushing: Promise<void> | undefined;

  constructor(private readonly host: FlushHost) {}

  /** Whether outcomes wait to be written or a flush runs. */
  get busy(): boolean {
    return this.#outcomes.length > 0 || this.#flushing !== undefined;
  }

  /** An answered attempt: written with the next batch. */
  add(outcome: Outcome): void {
    this.#outcomes.push(outcome);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#flushing) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const p = this.#flush();
      this.#flushing = p;
      this.host.track(
        p.finally(() => {
          this.#flushing = undefined;
          if (this.#outcomes.length > 0) this.#schedule();
        }),
      );
    });
  }

  async #flush(): Promise<void> {
    const host = this.host;
    const outcomes = this.#outcomes;
    this.#outcomes = [];
    if (outcomes.length === 0) return;
    let retries: Retry[] = [];
    try {
      const recorded = await host.transact((tx) =>
        recordOutcomes(tx, outcomes, host.owner, host.clock.now(), host.jitterMs),
      );
      retries = recorded.retries;
      // Counted once the outcomes are stored (a transaction may run more than once).
      host.recorded(recorded);
      for (const webhookId of recorded.disabled) {
        host.log?.warn(
          { webhookId },
          `webhook subscription disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries`,
        );
      }
    } catch (err) {
      // The lowdb store keeps the change in memory and retries the write with the next one.
      host.log?.error({ err: String(err) }, 'writing webhook delivery outcomes failed');
      if (host.shared && !host.stopped()) {
        // A failed transaction wrote nothing: the records are still `delivering` under this dispatcher's lease. Keep
        // the outcomes (and their slots) and write them again shortly, while the lease lasts; dropping them would free
        // the slots, and once the lease expired the deliveries, sent and answered, would be taken over and sent again.
        const nowMs = host.clock.now().getTime();
        const keep = outcomes.filter((o) => o.job.leaseUntil > nowMs);
        if (keep.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          this.#outcomes = [...keep, ...this.#outcomes];
          for (const o of outcomes) if (!keep.includes(o)) host.release(o.job.id);
          return;
        }
      }
    }
    for (const o of outcomes) host.release(o.job.id);
    host.settled(retries);
  }
}
