/**
 * The dispatcher's books: which deliveries it holds (claimed and not yet confirmed), per subscription, and, on a
 * store used by this process alone, the queue of pending deliveries it knows of with their due times.
 *
 * The queue is per subscription, and subscriptions are served round-robin (one served now goes to the back of the
 * line), so a slow receiver holds at most its own share of the slots.
 */
import type { Job } from './claim.js';

/** Deliveries queued and held by one dispatcher. */
export class DeliveryQueue {
  /** webhookId -> (deliveryId -> due time, unix ms); Map order gives round-robin. */
  readonly #queue = new Map<string, Map<string, number>>();
  readonly #queued = new Set<string>();
  /** deliveryId -> webhookId, from claim until the outcome is durable. */
  readonly #inflight = new Map<string, string>();
  readonly #perSub = new Map<string, number>();

  /** Deliveries queued, not yet taken for a claim. */
  get queuedCount(): number {
    return this.#queued.size;
  }

  /** Deliveries held: claimed (or being claimed) and not yet confirmed. */
  get heldCount(): number {
    return this.#inflight.size;
  }

  isQueued(id: string): boolean {
    return this.#queued.has(id);
  }

  isHeld(id: string): boolean {
    return this.#inflight.has(id);
  }

  /** The subscription of a held delivery. */
  heldWebhook(id: string): string | undefined {
    return this.#inflight.get(id);
  }

  /** How many deliveries of a subscription are held. */
  heldFor(webhookId: string): number {
    return this.#perSub.get(webhookId) ?? 0;
  }

  /** Queues a delivery due at `due` (unix ms); one already held is left alone. */
  add(id: string, webhookId: string, due: number): void {
    if (this.#inflight.has(id)) return;
    let items = this.#queue.get(webhookId);
    if (!items) this.#queue.set(webhookId, (items = new Map()));
    items.set(id, due);
    this.#queued.add(id);
  }

  /** Records a delivery as held. */
  hold(id: string, webhookId: string): void {
    this.#inflight.set(id, webhookId);
    this.#perSub.set(webhookId, (this.#perSub.get(webhookId) ?? 0) + 1);
  }

  /** A held delivery leaves the books (its outcome is durable, or it was given back). */
  release(id: string): void {
    const webhookId = this.#inflight.get(id);
    if (webhookId === undefined) return;
    this.#inflight.delete(id);
    const n = (this.#perSub.get(webhookId) ?? 1) - 1;
    if (n <= 0) this.#perSub.delete(webhookId);
    else this.#perSub.set(webhookId, n);
  }

  /** When the next queued delivery is due (unix ms), or null when none is queued. */
  nextDue(): number | null {
    let min = Infinity;
    for (const items of this.#queue.values()) for (const due of items.values()) min = Math.min(min, due);
    return min === Infinity ? null : min;
  }

  /** Whether some queued delivery is due at `now`. */
  hasDue(now: number): boolean {
    for (const items of this.#queue.values()) for (const due of items.values()) if (due <= now) return true;
    return false;
  }

  /**
   * Takes the deliveries due at `now` that fit: at most `free` in all and `perSubscription` held per subscription,
   * round-robin over subscriptions. They are held from now on. Also answers when the earliest delivery not yet due
   * is due (Infinity when none): due work blocked by the bounds is taken when a slot frees.
   */
  takeDue(now: number, free: number, perSubscription: number): { batch: string[]; earliest: number } {
    let earliest = Infinity;
    const batch: string[] = [];
    const served: string[] = [];
    for (const [webhookId, items] of this.#queue) {
      let slots = Math.min(free, perSubscription - (this.#perSub.get(webhookId) ?? 0));
      for (const [id, due] of items) {
        if (due > now) {
          earliest = Math.min(earliest, due);
          continue;
        }
        if (slots <= 0) break;
        items.delete(id);
        this.#queued.delete(id);
        this.hold(id, webhookId);
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
    return { batch, earliest };
  }
}

/**
 * Claimed jobs waiting for a send slot, and the slots in use: at most `max` requests on the wire, and
 * `perSubscription` per subscription, served round-robin.
 */
export class SendSlots {
  /** Claimed (durably) and waiting for a send slot, per subscription; Map order gives round-robin. */
  readonly #ready = new Map<string, Job[]>();
  #sending = 0;
  readonly #sendingPerSub = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly perSubscription: number,
  ) {}

  /** Requests on the wire now. */
  get sending(): number {
    return this.#sending;
  }

  /** A claimed job waits for a slot. */
  push(job: Job): void {
    const list = this.#ready.get(job.webhook.id);
    if (list) list.push(job);
    else this.#ready.set(job.webhook.id, [job]);
  }

  /** Removes and answers every waiting job. */
  drain(): Job[] {
    const jobs = [...this.#ready.values()].flat();
    this.#ready.clear();
    return jobs;
  }

  /**
   * Takes waiting jobs for the free slots, round-robin over subscriptions; each holds its slot until `done`. A job
   * for which `isLate` is true is taken out without a slot and answered apart.
   */
  take(isLate: (job: Job) => boolean): { send: Job[]; late: Job[] } {
    const send: Job[] = [];
    const late: Job[] = [];
    const served: string[] = [];
    for (const [webhookId, jobs] of this.#ready) {
      if (this.#sending >= this.max) break;
      let n = this.#sendingPerSub.get(webhookId) ?? 0;
      while (jobs.length > 0 && n < this.perSubscription && this.#sending < this.max) {
        const job = jobs.shift()!;
        if (isLate(job)) {
          late.push(job);
          continue;
        }
        n++;
        this.#sending++;
        this.#sendingPerSub.set(webhookId, n);
        send.push(job);
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
    return { send, late };
  }

  /** A request of the subscription is over: its slot is free. */
  done(webhookId: string): void {
    this.#sending--;
    const n = (this.#sendingPerSub.get(webhookId) ?? 1) - 1;
    if (n <= 0) this.#sendingPerSub.delete(webhookId);
    else this.#sendingPerSub.set(webhookId, n);
  }
}
