import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { Tx } from '../store/port.js';
import { declareTenantCollection, outboxTx } from '../accounts/tenancy.js';

/** The durable event log, which is also the webhook outbox. */
export const EVENTS = 'events';
/** Indexed fields of the event log: the owner (each owner's log is read by owner). */
export const EVENT_INDEXES = ['ownerId'];

/** Webhook subscriptions (owned by src/webhooks; named here because fan-out reads them). */
export const WEBHOOKS = 'webhooks';
/** One record per (event, subscription): the unit the dispatcher delivers. */
export const DELIVERIES = 'deliveries';
declareTenantCollection(EVENTS);
declareTenantCollection(WEBHOOKS);
declareTenantCollection(DELIVERIES);

/** One event, as stored. Webhook payloads are built from it (docs/decisions.md, Webhooks). */
export interface EventRecord {
  [field: string]: unknown;
  /** `evt_<id>`; ids sort by creation time. */
  id: string;
  type: string;
  /** Account the event belongs to; only that owner's subscriptions and event log see it. */
  ownerId: string;
  /** Unix seconds. */
  created: number;
  createdAt: string;
  apiVersion: 'v1';
  data: Record<string, unknown>;
}

export interface NewEvent {
  type: string;
  ownerId: string;
  data: Record<string, unknown>;
}

/** One try of a delivery, as recorded. */
export interface DeliveryAttempt {
  /** 1-based attempt number. */
  attempt: number;
  /** When the attempt started (ISO 8601). */
  at: string;
  /** When its outcome was recorded; null while in flight. */
  finishedAt: string | null;
  /** HTTP status received, or null when no response arrived. */
  statusCode: number | null;
  /** Milliseconds from sending to the response (or to the failure). */
  latencyMs: number | null;
  /** Why the attempt failed; null on success or while in flight. */
  error: string | null;
  /** The server stopped (crash or restart) before the outcome was known; the attempt is sent again. */
  interrupted?: boolean;
}

export type DeliveryState = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  [field: string]: unknown;
  /** `dlv_<id>`. */
  id: string;
  eventId: string;
  webhookId: string;
  ownerId: string;
  type: string;
  state: DeliveryState;
  /** Unix milliseconds at which the next attempt is due (pending only). */
  nextAttemptAt: number | null;
  attempts: DeliveryAttempt[];
  /** Dispatcher instance holding the lease while `delivering`, and until when. */
  leaseOwner: string | null;
  leaseUntil: number | null;
  createdAt: string;
  /** When the delivery reached a final state. */
  completedAt: string | null;
  /** Why a delivery was cancelled (subscription deleted, paused or disabled). */
  reason?: string;
}

/** The subset of a subscription record that fan-out reads. */
interface SubscriptionView {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  /** `*`: an operator's subscription to every account's events. */
  accounts?: string;
  events: string[];
  status: string;
}

/** A delivery queued by recordEvent, announced so a dispatcher can take it without scanning the store. */
export interface QueuedDelivery {
  id: string;
  webhookId: string;
  /** The delivery's account (its subscription's): the dispatcher serves accounts in turn. */
  ownerId: string;
  /** Unix ms at which it is due. */
  due: number;
}

type Listener = (queued: QueuedDelivery[]) => void;
const listeners = new Set<Listener>();
let announced: QueuedDelivery[] = [];
let notifyScheduled = false;

/**
 * Registers a callback run (once per burst, after the current synchronous
 * work) with the deliveries queued meanwhile. Used by the dispatcher to wake
 * up; returns the unsubscribe function. An announced delivery may be missing
 * from the store (its transaction failed): listeners must check.
 */
export function onOutboxWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells dispatchers that these deliveries were queued. */
export function notifyOutbox(queued: QueuedDelivery): void {
  announced.push(queued);
  if (notifyScheduled) return;
  notifyScheduled = true;
  setImmediate(() => {
    notifyScheduled = false;
    const batch = announced;
    announced = [];
    for (const l of listeners) l(batch);
  });
}

async function ownersSubscriptions(tx: Tx, ownerId: string): Promise<SubscriptionView[]> {
  try {
    return await tx.findBy<SubscriptionView>(WEBHOOKS, 'ownerId', ownerId);
  } catch {
    // A store opened without the webhook indexes (e.g. a unit test of another
    // domain): scan instead; the collection is small.
    return (await tx.all<SubscriptionView>(WEBHOOKS)).filter((w) => w.ownerId === ownerId);
  }
}

/** Whether the account has an active webhook subscription of its own that `type` events are delivered to. */
export async function subscribedTo(tx: Tx, ownerId: string, type: string): Promise<boolean> {
  return (await ownersSubscriptions(tx, ownerId)).some(
    (s) => s.status === 'active' && (s.events.includes('*') || s.events.includes(type)),
  );
}

/** The operators' subscriptions to every account's events (`accounts: "*"`), read across accounts. */
async function everyAccountSubscriptions(raw: Tx): Promise<SubscriptionView[]> {
  try {
    return await raw.findBy<SubscriptionView>(WEBHOOKS, 'accounts', '*');
  } catch {
    return (await raw.all<SubscriptionView>(WEBHOOKS)).filter((w) => w.accounts === '*');
  }
}

/** A pending delivery of `event` to subscription `webhookId`, due now. */
export function newDelivery(event: EventRecord, webhookId: string, nowMs: number, createdAt: string): DeliveryRecord {
  return {
    id: newId('delivery'),
    eventId: event.id,
    webhookId,
    ownerId: event.ownerId,
    type: event.type,
    state: 'pending',
    nextAttemptAt: nowMs,
    attempts: [],
    leaseOwner: null,
    leaseUntil: null,
    createdAt,
    completedAt: null,
  };
}

/**
 * Writes an event inside the caller's transaction, so it becomes durable in the
 * same store write as the effect it describes (and is never emitted for an effect
 * that did not happen). In the same write it queues one pending delivery per
 * active subscription of the owner that matches the type, and of every operator subscription to all accounts
 * (`accounts: "*"`): this is the outbox,
 * and nothing in it is lost if the process dies before delivering.
 */
export async function recordEvent(tx: Tx, event: NewEvent, clock: Clock): Promise<EventRecord> {
  const now = clock.now();
  const record: EventRecord = {
    id: newId('event'),
    type: event.type,
    ownerId: event.ownerId,
    created: Math.floor(now.getTime() / 1000),
    createdAt: now.toISOString(),
    apiVersion: 'v1',
    data: event.data,
  };
  await tx.put(EVENTS, record);
  for (const sub of await ownersSubscriptions(tx, event.ownerId)) {
    if (sub.status !== 'active') continue;
    if (!sub.events.includes('*') && !sub.events.includes(event.type)) continue;
    const delivery = newDelivery(record, sub.id, now.getTime(), record.createdAt);
    await tx.put(DELIVERIES, delivery);
    notifyOutbox({ id: delivery.id, webhookId: sub.id, ownerId: delivery.ownerId, due: delivery.nextAttemptAt ?? 0 });
  }
  // Operator subscriptions of other accounts: the delivery belongs to the subscription's (operator's) account, so
  // the event's account never sees it in its event log; the payload names the event's account (accountId).
  const raw = outboxTx(tx);
  for (const sub of await everyAccountSubscriptions(raw)) {
    if (sub.ownerId === event.ownerId || sub.status !== 'active') continue; // its own events were queued above
    if (!sub.events.includes('*') && !sub.events.includes(event.type)) continue;
    const delivery = newDelivery(record, sub.id, now.getTime(), record.createdAt);
    delivery.ownerId = sub.ownerId;
    await raw.put(DELIVERIES, delivery);
    notifyOutbox({ id: delivery.id, webhookId: sub.id, ownerId: delivery.ownerId, due: delivery.nextAttemptAt ?? 0 });
  }
  return record;
}
