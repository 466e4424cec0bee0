/**
 * The dispatcher's books: which deliveries it holds (claimed and not yet confirmed), per subscription, and, on a
 * store used by this process alone, the queue of pending deliveries it knows of with their due times.
 *
 * The queue is per subscription, and subscriptions are served round-robin (one served now goes to the back of the
 * line), so a slow receiver holds at most its own share of the slots. Within a subscription the earliest due goes
 * first (a heap), so however many retries of a failing receiver wait for later, the due ones are found at once.
 */
import type { Job } from './claim.js';

/** A queued delivery; an entry no longer in `DeliveryQueue#queued` (taken, or queued again) is stale. */
interface Queued {
  id: string;
  due: number;
  /** Arrival order, which breaks ties between deliveries due at the same time. */
  seq: number;
}

/**
 * A subscription's queued deliveries, earliest due first (then first come): taking the due ones never walks past
 * the many that may wait for a later retry. A binary heap of a few lines, rather than a dependency for it.
 */
class DueHeap {
  readonly #items: Queued[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): Queued | undefined {
    return this.#items[0];
  }

  push(entry: Queued): void {
    const items = this.#items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): Queued | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < items.length && before(items[l]!, items[least]!)) least = l;
        if (r < items.length && before(items[r]!, items[least]!)) least = r;
        if (least === i) break;
        [items[i], items[least]] = [items[least]!, items[i]!];
        i = least;
      }
    }
    return top;
  }
}

const before = (a: Queued, b: Queued) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/** Deliveries queued and held by one dispatcher. */
export class DeliveryQueue {
  /** webhookId -> its queued deliveries; Map order gives round-robin. */
  readonly #queue = new Map<string, DueHeap>();
  /** deliveryId -> its live entry in its subscription's heap. */
  readonly #queued = new Map<string, Queued>();
  #seq = 0;
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

  /** Queues a delivery due at `due` (unix ms), or moves a queued one to that time; one already held is left alone. */
  add(id: string, webhookId: string, due: number): void {
    if (this.#inflight.has(id)) return;
    if (this.#queued.get(id)?.due === due) return;
    const entry: Queued = { id, due, seq: this.#seq++ };
    // An earlier entry of the same delivery stays in the heap, stale, and is skipped when it comes up.
    this.#queued.set(id, entry);
    let heap = this.#queue.get(webhookId);
    if (!heap) this.#queue.set(webhookId, (heap = new DueHeap()));
    heap.push(entry);
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

  /** The earliest live entry of a subscription's heap, stale ones dropped on the way; undefined when none is left. */
  #top(heap: DueHeap): Queued | undefined {
    for (let top = heap.peek(); top; top = heap.peek()) {
      if (this.#queued.get(top.id) === top) return top;
      heap.pop();
    }
    return undefined;
  }

  /** When the next queued delivery is due (unix ms), or null when none is queued. */
  nextDue(): number | null {
    let min = Infinity;
    for (const heap of this.#queue.values()) min = Math.min(min, this.#top(heap)?.due ?? Infinity);
    return min === Infinity ? null : min;
  }

  /** Whether some queued delivery is due at `now`. */
  hasDue(now: number): boolean {
    for (const heap of this.#queue.values()) if ((this.#top(heap)?.due ?? Infinity) <= now) return true;
    return false;
  }

  /**
   * Takes the deliveries due at `now` that fit: at most `free` in all and `perSubscription` held per subscription,
   * round-robin over subscriptions, each subscription's earliest due first. They are held from now on. Also answers
   * when the earliest delivery not yet due is due (Infinity when none): due work blocked by the bounds is taken when
   * a slot frees.
   */
  takeDue(now: number, free: number, perSubscription: number): { batch: string[]; earliest: number } {
    let earliest = Infinity;
    const batch: string[] = [];
    const served: string[] = [];
    for (const [webhookId, heap] of this.#queue) {
      let slots = Math.min(free, perSubscription - (this.#perSub.get(webhookId) ?? 0));
      for (let top = this.#top(heap); top; top = this.#top(heap)) {
        if (top.due > now) {
          earliest = Math.min(earliest, top.due);
          break;
        }
        if (slots <= 0) break;
        heap.pop();
        this.#queued.delete(top.id);
        this.hold(top.id, webhookId);
        batch.push(top.id);
        slots--;
        free--;
      }
      if (heap.size === 0) this.#queue.delete(webhookId);
      else served.push(webhookId);
      if (free <= 0) break;
    }
    // Round-robin: subscriptions served now go to the back of the line.
    for (const webhookId of served) {
      const heap = this.#queue.get(webhookId);
      if (!heap) continue;
      this.#queue.delete(webhookId);
      this.#queue.set(webhookId, heap);
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
