import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { Tx } from '../store/port.js';

/** The durable event log, which is also the webhook outbox. */
export const EVENTS = 'events';
export const EVENT_INDEXES = ['ownerId', 'type'];

/** One event, as stored. Webhook payloads are built from it (DECISIONS.md, Webhooks). */
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

/**
 * Writes an event inside the caller's transaction, so it becomes durable in the
 * same store write as the effect it describes (and is never emitted for an effect
 * that did not happen).
 */
export function recordEvent(tx: Tx, event: NewEvent, clock: Clock): EventRecord {
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
  tx.put(EVENTS, record);
  return record;
}
