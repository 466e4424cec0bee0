/**
 * Recording what happened to webhook deliveries: the outcome of each attempt (succeeded, retried later, failed), the
 * subscription's failure count that disables it, and the pruning of finished events past their retention.
 *
 * Retries: attempts at 0, 1, 2, 4, 8 s after the previous failure (plus up to `jitterMs`); after five failed attempts
 * the delivery is `failed`. Fifty consecutive failed deliveries disable the subscription; a success resets the count.
 *
 * Every function here that takes a Tx has no effect outside it: a transaction may run more than once.
 */
import { DELIVERIES, EVENTS, WEBHOOKS, type DeliveryRecord, type EventRecord } from '../events/events.js';
import type { Tx } from '../store/port.js';
import { countedAttempts, type Job } from './claim.js';
import type { AttemptResult } from './send.js';
import type { WebhookRecord } from './subscriptions.js';

/** Delay before attempts 1 to 5, in milliseconds. */
export const RETRY_DELAYS_MS = [0, 1000, 2000, 4000, 8000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;
/** Consecutive failed deliveries that disable a subscription. */
export const DISABLE_AFTER_FAILURES = 50;
/**
 * How stale the subscription's last-delivery fields may get. Every instance records outcomes in its own transactions;
 * writing the subscription row with each batch made that one row the point every transaction conflicted on. The row
 * is now written when its counters or status change, when the last status code changes, or when the recorded last
 * attempt is older than this.
 */
export const LAST_DELIVERY_REFRESH_MS = 1000;
/** An attempt interrupted by a crash is sent again without counting; past this many records the delivery fails. */
const MAX_ATTEMPT_RECORDS = MAX_ATTEMPTS * 2;

/** A sent attempt and its answer, waiting to be recorded. */
export interface Outcome {
  job: Job;
  result: AttemptResult;
}

/** A delivery to try again, and when (unix ms). */
export interface Retry {
  id: string;
  webhookId: string;
  /** The delivery's account. */
  ownerId: string;
  due: number;
}

export interface Recorded {
  retries: Retry[];
  succeeded: number;
  failed: number;
  /** Subscriptions disabled by this batch of outcomes. */
  disabled: string[];
}

/**
 * Writes a batch of outcomes: finishes each attempt, then marks the delivery succeeded, failed (attempts used up) or
 * pending again with the next retry time (plus up to `jitterMs`), and updates the subscriptions' counters. A delivery
 * whose lease `owner` lost meanwhile is left alone.
 */
export async function recordOutcomes(
  tx: Tx,
  outcomes: Outcome[],
  owner: string,
  now: Date,
  jitterMs: number,
): Promise<Recorded> {
  const nowIso = now.toISOString();
  const webhooks = new Map<string, WebhookRecord | undefined>();
  /** The subscriptions this batch changes enough to write (see LAST_DELIVERY_REFRESH_MS). */
  const dirty = new Set<string>();
  const recorded: Recorded = { retries: [], succeeded: 0, failed: 0, disabled: [] };
  for (const { job, result } of outcomes) {
    const d = await tx.get<DeliveryRecord>(DELIVERIES, job.id);
    if (d?.state !== 'delivering' || d.leaseOwner !== owner) continue; // lease lost meanwhile
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
      const last = w.lastDeliveryAttempt === null ? -Infinity : Date.parse(w.lastDeliveryAttempt);
      const newer = Date.parse(a.at) >= last;
      if (
        newer &&
        (w.lastDeliveryStatus !== result.statusCode || Date.parse(a.at) - last >= LAST_DELIVERY_REFRESH_MS)
      ) {
        dirty.add(w.id);
      }
      if (newer) {
        w.lastDeliveryAttempt = a.at;
        w.lastDeliveryStatus = result.statusCode;
      }
    }
    d.leaseOwner = null;
    d.leaseUntil = null;
    if (settle(d, w, result.ok, now, jitterMs, recorded) && w) dirty.add(w.id);
    await tx.put(DELIVERIES, d);
  }
  for (const w of webhooks.values()) if (w && dirty.has(w.id)) await tx.put(WEBHOOKS, w);
  return recorded;
}

/**
 * The delivery's next state after an attempt, and its subscription's failure counters. Answers whether the
 * subscription's counters or status changed.
 */
function settle(
  d: DeliveryRecord,
  w: WebhookRecord | undefined,
  ok: boolean,
  now: Date,
  jitterMs: number,
  recorded: Recorded,
): boolean {
  const nowIso = now.toISOString();
  const counted = countedAttempts(d);
  if (ok) {
    d.state = 'succeeded';
    d.completedAt = nowIso;
    d.nextAttemptAt = null;
    recorded.succeeded++;
    if (!w || w.consecutiveFailures === 0) return false;
    w.consecutiveFailures = 0;
    return true;
  }
  if (counted >= MAX_ATTEMPTS || d.attempts.length >= MAX_ATTEMPT_RECORDS) {
    d.state = 'failed';
    d.completedAt = nowIso;
    d.nextAttemptAt = null;
    recorded.failed++;
    if (w) {
      w.failures++;
      w.consecutiveFailures++;
      if (w.consecutiveFailures >= DISABLE_AFTER_FAILURES && w.status === 'active') {
        w.status = 'disabled';
        w.disabledAt = nowIso;
        recorded.disabled.push(w.id);
      }
    }
    return w !== undefined;
  }
  const jitter = jitterMs > 0 ? Math.floor(Math.random() * jitterMs) : 0;
  d.state = 'pending';
  d.nextAttemptAt = now.getTime() + RETRY_DELAYS_MS[counted]! + jitter;
  recorded.retries.push({ id: d.id, webhookId: d.webhookId, ownerId: d.ownerId, due: d.nextAttemptAt });
  return false;
}

/**
 * Old events one prune passes over, still waiting for a delivery, before it stops. Such an event is read again at every
 * prune until its deliveries are final; past this many, the prune stops rather than copy the same waiting events
 * again and again (a backlog older than the retention), and the finished events behind them wait for a later prune.
 */
export const PRUNE_MAX_WAITING = 256;

/**
 * Deletes events created before `cutoff` (unix ms) whose deliveries are all final, with their deliveries. Events are
 * stored in time order, so the scan stops at the first one inside the period (or after `PRUNE_MAX_WAITING` old events
 * that still wait for a delivery). Resolves with how many were deleted.
 */
export async function pruneEvents(tx: Tx, cutoff: number, maxWaiting = PRUNE_MAX_WAITING): Promise<number> {
  let n = 0;
  let waiting = 0;
  // Deliveries are checked by id against the (small) sets of unfinished ones, without reading them; the sets are
  // built only once an event old enough is found.
  let unfinished: Set<string> | undefined;
  // Oldest first, copied one at a time: the scan stops at the first recent event.
  for await (const e of tx.scan<EventRecord>(EVENTS)) {
    if (e.created * 1000 >= cutoff) break;
    if (!unfinished) {
      unfinished = new Set(await tx.idsBy(DELIVERIES, 'state', 'pending'));
      for (const id of await tx.idsBy(DELIVERIES, 'state', 'delivering')) unfinished.add(id);
    }
    const open = unfinished;
    const deliveries = await tx.idsBy(DELIVERIES, 'eventId', e.id);
    if (deliveries.some((id) => open.has(id))) {
      if (++waiting >= maxWaiting) break;
      continue;
    }
    for (const id of deliveries) await tx.delete(DELIVERIES, id);
    await tx.delete(EVENTS, e.id);
    n++;
  }
  return n;
}
