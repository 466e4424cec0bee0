import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a queued job is for: the account whose call made it, and that account's share of the machine (its tier's
 * weight). Set once per tool call by the shared wrapper, read by every worker pool the call reaches, so no handler
 * or engine passes it along.
 */
export interface QueueCaller {
  account: string;
  weight: number;
}

const callers = new AsyncLocalStorage<QueueCaller>();

/** Runs `fn(...args)` with `caller` as the owner of the jobs it queues. */
export function runAsQueueCaller<A extends unknown[], T>(caller: QueueCaller, fn: (...args: A) => T, ...args: A): T {
  return callers.run(caller, fn, ...args);
}

/** The caller of the current tool call; work started outside one (warm-up, maintenance) is the system's. */
export function currentQueueCaller(): QueueCaller {
  return callers.getStore() ?? SYSTEM;
}

const SYSTEM: QueueCaller = { account: '(system)', weight: 1 };

interface Lane<T> {
  items: T[];
  weight: number;
  /** Virtual time at which this account's next item is due; lower is served first. */
  pass: number;
}

/**
 * A queue served fairly across accounts: start-time fair queuing. Each account's items keep their order; between
 * accounts, the item with the lowest virtual start time goes first, and each item served advances its account's
 * clock by 1/weight. An account arriving with nothing queued starts at the current virtual time, so it waits for at
 * most one item of each other account (fewer for lighter weights) however many items they have queued, and an
 * account with weight 2 is served twice as often as one with weight 1 while both have work.
 */
export class FairQueue<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private now = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** How many items `account` has queued. */
  queuedOf(account: string): number {
    return this.lanes.get(account)?.items.length ?? 0;
  }

  push(account: string, weight: number, item: T): void {
    let lane = this.lanes.get(account);
    if (!lane) {
      lane = { items: [], weight: Math.max(weight, 1e-6), pass: this.now };
      this.lanes.set(account, lane);
    } else if (lane.items.length === 0) {
      // Back after a pause: no credit for the time away, no debt beyond what it was served.
      lane.pass = Math.max(lane.pass, this.now);
      lane.weight = Math.max(weight, 1e-6);
    }
    lane.items.push(item);
    this.count++;
  }

  /** The next item, fairly; undefined when empty. */
  shift(): T | undefined {
    let best: Lane<T> | undefined;
    let bestKey: string | undefined;
    for (const [key, lane] of this.lanes) {
      if (lane.items.length === 0) continue;
      if (!best || lane.pass < best.pass) {
        best = lane;
        bestKey = key;
      }
    }
    if (!best || bestKey === undefined) return undefined;
    const item = best.items.shift()!;
    this.count--;
    this.now = best.pass;
    best.pass += 1 / best.weight;
    this.forgetIdle();
    return item;
  }

  /** Removes one item wherever it is; false when it is not queued. */
  remove(item: T): boolean {
    for (const [key, lane] of this.lanes) {
      const at = lane.items.indexOf(item);
      if (at < 0) continue;
      lane.items.splice(at, 1);
      this.count--;
      if (lane.items.length === 0 && lane.pass <= this.now) this.lanes.delete(key);
      return true;
    }
    return false;
  }

  /** Empties the queue, returning every item. */
  drain(): T[] {
    const all = [...this.lanes.values()].flatMap((l) => l.items);
    this.lanes.clear();
    this.count = 0;
    return all;
  }

  /**
   * How many queued items would be served before one that `account` pushed now: its own queued items, and each other
   * account's items whose virtual start time comes before it.
   */
  ahead(account: string, weight: number): number {
    const own = this.lanes.get(account);
    const w = Math.max(weight, 1e-6);
    const ownQueued = own?.items.length ?? 0;
    const start = own && ownQueued > 0 ? own.pass : Math.max(own?.pass ?? this.now, this.now);
    const due = start + ownQueued / w;
    let n = ownQueued;
    for (const [key, lane] of this.lanes) {
      if (key === account || lane.items.length === 0 || lane.pass > due) continue;
      // Items of this lane start at pass, pass + 1/weight, ...; those at or before `due` go first (ties: earlier lane).
      n += Math.min(lane.items.length, Math.floor((due - lane.pass) * lane.weight) + 1);
    }
    return n;
  }

  /** Lanes whose account has nothing queued and no lead over the virtual clock hold no information: dropped. */
  private forgetIdle(): void {
    if (this.lanes.size < 64) return;
    for (const [key, lane] of this.lanes) if (lane.items.length === 0 && lane.pass <= this.now) this.lanes.delete(key);
  }
}
