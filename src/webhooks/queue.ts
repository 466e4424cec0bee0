/**
 * The dispatcher's books: which deliveries it holds (claimed and not yet confirmed), per subscription, and, on a
 * store used by this process alone, the queue of pending deliveries it knows of with their due times.
 *
 * The queue is per subscription, and both the claims and the send slots serve accounts in turn, then each account's
 * subscriptions in turn (one served now goes to the back of its line): a slow receiver holds at most its own share of
 * the slots, and an account with many subscriptions (up to 100) gets one turn like any other, not one per
 * subscription. Within a subscription the earliest due goes first (a heap), so however many retries of a failing
 * receiver wait for later, the due ones are found at once.
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

/** Moves `key` to the back of a Map's order (a line served round-robin). */
function toBack<K, V>(line: Map<K, V>, key: K): void {
  if (line.size === 1) return; // already there
  const value = line.get(key);
  if (value === undefined) return;
  line.delete(key);
  line.set(key, value);
}

/**
 * Takes up to `free` items, one per account per pass: each pass walks the accounts in their line's order and takes
 * the next item of one of the account's subscriptions, those in their own line's order. `next` answers a
 * subscription's next item, or undefined when it has none to give now (it is then passed over until the end).
 * Answers the accounts and subscriptions served, in the order served, for the caller to move to the back. The
 * subscription lists given are used up.
 */
function takeInTurn<T>(
  lines: Array<[string, string[]]>,
  free: number,
  next: (webhookId: string, owner: string) => T | undefined,
): { taken: T[]; served: Array<[string, string[]]> } {
  if (lines.length === 1 && lines[0]![1].length === 1) {
    // One account with one subscription (the usual case, met once per answered delivery): turns change nothing, so
    // its items are taken in order without their bookkeeping.
    const [owner, [webhookId]] = lines[0]!;
    const taken: T[] = [];
    while (taken.length < free) {
      const item = next(webhookId!, owner);
      if (item === undefined) break;
      taken.push(item);
    }
    return { taken, served: taken.length > 0 ? lines : [] };
  }
  const candidates = lines.map(([owner, subs]) => ({ owner, subs, at: 0, served: [] as string[] }));
  const taken: T[] = [];
  let active = candidates;
  while (taken.length < free && active.length > 0) {
    const still: typeof candidates = [];
    for (const c of active) {
      if (taken.length >= free) {
        still.push(c);
        continue;
      }
      let item: T | undefined;
      while (item === undefined && c.subs.length > 0) {
        const i = c.at % c.subs.length;
        const webhookId = c.subs[i]!;
        item = next(webhookId, c.owner);
        if (item === undefined) c.subs.splice(i, 1);
        else {
          c.at = i + 1;
          if (!c.served.includes(webhookId)) c.served.push(webhookId);
        }
      }
      if (item !== undefined) taken.push(item);
      if (c.subs.length > 0) still.push(c);
    }
    active = still;
  }
  return { taken, served: candidates.filter((c) => c.served.length > 0).map((c) => [c.owner, c.served]) };
}

/** Deliveries queued and held by one dispatcher. */
export class DeliveryQueue {
  /** webhookId -> its queued deliveries. */
  readonly #queue = new Map<string, DueHeap>();
  /** ownerId -> its subscriptions with queued deliveries; both Maps' order gives the turns. */
  readonly #lines = new Map<string, Map<string, true>>();
  /** webhookId -> its account, while it has deliveries queued or held. */
  readonly #ownerOf = new Map<string, string>();
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
  /** Subscription -> how many of its deliveries are held (only those holding some). */
  heldBySubscription(): ReadonlyMap<string, number> {
    return this.#perSub;
  }

  heldFor(webhookId: string): number {
    return this.#perSub.get(webhookId) ?? 0;
  }

  /**
   * Queues a delivery due at `due` (unix ms), or moves a queued one to that time; one already held is left alone.
   * `ownerId` is the delivery's account (default: the one its subscription is known under, or the subscription alone).
   */
  add(id: string, webhookId: string, due: number, ownerId?: string): void {
    if (this.#inflight.has(id)) return;
    if (this.#queued.get(id)?.due === due) return;
    const owner = ownerId ?? this.#ownerOf.get(webhookId) ?? webhookId;
    this.#ownerOf.set(webhookId, owner);
    const entry: Queued = { id, due, seq: this.#seq++ };
    // An earlier entry of the same delivery stays in the heap, stale, and is skipped when it comes up.
    this.#queued.set(id, entry);
    let heap = this.#queue.get(webhookId);
    if (!heap) {
      this.#queue.set(webhookId, (heap = new DueHeap()));
      let line = this.#lines.get(owner);
      if (!line) this.#lines.set(owner, (line = new Map()));
      line.set(webhookId, true);
    }
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
    if (n <= 0) {
      this.#perSub.delete(webhookId);
      if (!this.#queue.has(webhookId)) this.#ownerOf.delete(webhookId);
    } else this.#perSub.set(webhookId, n);
  }

  /** The earliest live entry of a subscription's heap, stale ones dropped on the way; undefined when none is left. */
  #top(heap: DueHeap): Queued | undefined {
    for (let top = heap.peek(); top; top = heap.peek()) {
      if (this.#queued.get(top.id) === top) return top;
      heap.pop();
    }
    return undefined;
  }

  /** Forgets a subscription with nothing queued. */
  #drop(webhookId: string): void {
    this.#queue.delete(webhookId);
    const owner = this.#ownerOf.get(webhookId) ?? webhookId;
    const line = this.#lines.get(owner);
    line?.delete(webhookId);
    if (line?.size === 0) this.#lines.delete(owner);
    if (!this.#perSub.has(webhookId)) this.#ownerOf.delete(webhookId);
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
   * accounts in turn and each account's subscriptions in turn, each subscription's earliest due first. They are held
   * from now on. Also answers when the earliest delivery not yet due is due (Infinity when none): due work blocked by
   * the bounds is taken when a slot frees.
   */
  takeDue(now: number, free: number, perSubscription: number): { batch: string[]; earliest: number } {
    let earliest = Infinity;
    // First the subscriptions with something due and room for it, per account; the others only tell `earliest`.
    const ready: Array<[string, string[]]> = [];
    for (const [owner, line] of this.#lines) {
      const subs: string[] = [];
      for (const webhookId of line.keys()) {
        const heap = this.#queue.get(webhookId)!;
        const top = this.#top(heap);
        if (!top) this.#drop(webhookId);
        else if (top.due > now) earliest = Math.min(earliest, top.due);
        else if ((this.#perSub.get(webhookId) ?? 0) < perSubscription) subs.push(webhookId);
      }
      if (subs.length > 0) ready.push([owner, subs]);
    }
    const { taken, served } = takeInTurn(ready, Math.max(0, free), (webhookId) => {
      if ((this.#perSub.get(webhookId) ?? 0) >= perSubscription) return undefined;
      const heap = this.#queue.get(webhookId)!;
      const top = this.#top(heap);
      if (!top) return undefined;
      if (top.due > now) {
        earliest = Math.min(earliest, top.due);
        return undefined;
      }
      heap.pop();
      this.#queued.delete(top.id);
      this.hold(top.id, webhookId);
      return top.id;
    });
    // Turns: accounts and subscriptions served now go to the back of their lines.
    for (const [owner, subs] of served) {
      const line = this.#lines.get(owner);
      for (const webhookId of subs) {
        const heap = this.#queue.get(webhookId);
        if (heap && !this.#top(heap)) this.#drop(webhookId);
        else if (line) toBack(line, webhookId);
      }
      if (this.#lines.has(owner)) toBack(this.#lines, owner);
    }
    return { batch: taken, earliest };
  }
}

/**
 * Claimed jobs waiting for a send slot, and the slots in use: at most `max` requests on the wire, and
 * `perSubscription` per subscription, accounts in turn and each account's subscriptions in turn.
 */
export class SendSlots {
  /** ownerId -> webhookId -> claimed (durably) jobs waiting for a send slot; the Maps' order gives the turns. */
  readonly #ready = new Map<string, Map<string, Job[]>>();
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
    const owner = job.webhook.ownerId;
    let line = this.#ready.get(owner);
    if (!line) this.#ready.set(owner, (line = new Map()));
    const list = line.get(job.webhook.id);
    if (list) list.push(job);
    else line.set(job.webhook.id, [job]);
  }

  /** Removes and answers every waiting job. */
  drain(): Job[] {
    const jobs = [...this.#ready.values()].flatMap((line) => [...line.values()].flat());
    this.#ready.clear();
    return jobs;
  }

  /**
   * Takes waiting jobs for the free slots, accounts in turn and each account's subscriptions in turn; each holds its
   * slot until `done`. A job for which `isLate` is true is taken out without a slot and answered apart.
   */
  take(isLate: (job: Job) => boolean): { send: Job[]; late: Job[] } {
    const late: Job[] = [];
    const free = this.max - this.#sending;
    if (free <= 0 || this.#ready.size === 0) return { send: [], late };
    const lines: Array<[string, string[]]> = [];
    for (const [owner, line] of this.#ready) lines.push([owner, [...line.keys()]]);
    const { taken: send, served } = takeInTurn(lines, free, (webhookId, owner) =>
      this.#next(owner, webhookId, isLate, late),
    );
    for (const [owner, subs] of served) {
      const line = this.#ready.get(owner);
      if (!line) continue;
      for (const webhookId of subs) toBack(line, webhookId);
      toBack(this.#ready, owner);
    }
    return { send, late };
  }

  /**
   * The subscription's next waiting job, given a slot, or undefined when it has none or no room; late jobs met on the
   * way are moved to `late`. A subscription left without waiting jobs leaves the turns.
   */
  #next(owner: string, webhookId: string, isLate: (job: Job) => boolean, late: Job[]): Job | undefined {
    const jobs = this.#ready.get(owner)?.get(webhookId);
    const n = this.#sendingPerSub.get(webhookId) ?? 0;
    if (!jobs || n >= this.perSubscription) return undefined;
    let job = jobs.shift();
    while (job && isLate(job)) {
      late.push(job);
      job = jobs.shift();
    }
    if (jobs.length === 0) this.#forget(owner, webhookId);
    if (!job) return undefined;
    this.#sending++;
    this.#sendingPerSub.set(webhookId, n + 1);
    return job;
  }

  #forget(owner: string, webhookId: string): void {
    const line = this.#ready.get(owner);
    line?.delete(webhookId);
    if (line?.size === 0) this.#ready.delete(owner);
  }

  /** A request of the subscription is over: its slot is free. */
  done(webhookId: string): void {
    this.#sending--;
    const n = (this.#sendingPerSub.get(webhookId) ?? 1) - 1;
    if (n <= 0) this.#sendingPerSub.delete(webhookId);
    else this.#sendingPerSub.set(webhookId, n);
  }
}
