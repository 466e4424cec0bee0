/**
 * Webhook subscriptions: create, list, update, delete, rotate the
 * secret, send a test, read the event log. Every function takes the caller's
 * owner id; another owner's subscription answers NOT_FOUND.
 */
import type { Clock } from '../core/clock.js';
import type { Keyring } from '../core/keyring.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { newestFirst, newId } from '../core/ids.js';
import type { Logger } from '../core/log.js';
import { paginateCursor, type CursorCodec, type CursorPageMeta } from '../core/pagination.js';
import {
  DELIVERIES,
  EVENTS,
  EVENT_INDEXES,
  WEBHOOKS,
  newDelivery,
  type DeliveryRecord,
  type EventRecord,
} from '../events/events.js';
import type { Store, Tx } from '../store/port.js';
import { EVENT_CATALOGUE, EVENT_TYPES, WILDCARD, type EventType } from './catalogue.js';
import { resolveCheckedUrl, type Resolver } from './guard.js';
import { dropExpiredSecret, IN_GRACE, openSecrets, sealSecret } from './secrets.js';
import type {
  CreateWebhookInput,
  TestWebhookResult,
  UpdateWebhookInput,
  Webhook,
  WebhookEvent,
  WebhookPayload,
} from './schemas.js';
import { DEFAULT_TIMEOUT_MS, WebhookClient } from './send.js';
import { generateSecret, signWithSecrets } from './signature.js';

export { WEBHOOKS, DELIVERIES };

/** Indexed fields the webhook domain needs; merge into the app's STORE_INDEXES. */
export const WEBHOOK_INDEXES: Record<string, string[]> = {
  [WEBHOOKS]: ['ownerId', 'accounts', IN_GRACE],
  [DELIVERIES]: ['state', 'eventId', 'webhookId'],
  [EVENTS]: EVENT_INDEXES,
};

export const SECRET_WARNING =
  'Store this secret now: it is shown only once. It verifies the X-Webhook-Signature header of every delivery.';
export const MAX_WEBHOOKS_PER_OWNER = 100;
export const USER_AGENT = 'svc-webhooks/1';

/** What the subscription functions need. `Services` from src/tools satisfies it. */
export interface WebhookDeps {
  store: Store;
  clock: Clock;
  /** Seals the signing secrets stored with each subscription (src/core/keyring.ts). */
  keyring: Keyring;
  /** Cursor codec for the event log (the app's shared one). */
  cursors: CursorCodec;
  log?: Logger | undefined;
  /** Allow-list (hosts, CIDRs); default `SVC_WEBHOOK_ALLOW`. */
  allow?: string | undefined;
  /** Host resolver; default the system resolver. */
  resolve?: Resolver | undefined;
  /** Extra CA certificate(s) to trust, PEM. */
  ca?: string | Buffer | undefined;
  /** Attempt timeout for test deliveries, default 30 s. */
  timeoutMs?: number | undefined;
}

/** A subscription as stored (the secrets sealed: src/webhooks/secrets.ts). */
export interface WebhookRecord {
  [field: string]: unknown;
  id: string;
  _id: string;
  ownerId: string;
  /**
   * `*`: an operator's subscription to the events of every account (each delivery names its account in
   * `accountId`). Absent: the owner's events only. Set only at creation, by an internal key with scope `all`.
   */
  accounts?: '*' | undefined;
  url: string;
  name: string;
  events: string[];
  status: 'active' | 'paused' | 'disabled';
  /** The signing secret, sealed (plaintext only in the copy the dispatcher signs with). */
  secret: string;
  /** The secret before the last rotation (sealed), still signing until `previousSecretExpiresAt` (unix ms). */
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  failures: number;
  consecutiveFailures: number;
  lastDeliveryAttempt: string | null;
  lastDeliveryStatus: number | null;
  createdAt: string;
  updatedAt: string;
  disabledAt?: string | null;
}

export function toWebhook(r: WebhookRecord): Webhook {
  return {
    id: r.id,
    _id: r.id,
    ...(r.accounts === '*' ? { accounts: '*' as const } : {}),
    url: r.url,
    name: r.name,
    events: [...r.events],
    status: r.status,
    failures: r.failures,
    consecutiveFailures: r.consecutiveFailures,
    lastDeliveryAttempt: r.lastDeliveryAttempt,
    lastDeliveryStatus: r.lastDeliveryStatus,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Secrets that currently sign deliveries, newest first (of a record whose secrets were opened: openSecrets). */
export function activeSecrets(r: WebhookRecord, nowMs: number): string[] {
  const out = [r.secret];
  if (r.previousSecret && r.previousSecretExpiresAt !== null && r.previousSecretExpiresAt > nowMs)
    out.push(r.previousSecret);
  return out;
}

/** The JSON body of a delivery (shape A fields plus shape B's `event`, `timestamp`, `webhookId`). */
export function buildPayload(event: EventRecord, webhookId: string): WebhookPayload {
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    apiVersion: 'v1',
    accountId: event.ownerId,
    data: event.data,
    event: event.type,
    timestamp: event.createdAt,
    webhookId,
  };
}

/** Body and headers of one attempt; the signature covers exactly `body`. */
export function buildRequest(
  event: EventRecord,
  webhook: WebhookRecord,
  attempt: number,
  nowMs: number,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(buildPayload(event, webhook.id));
  const t = Math.floor(nowMs / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-signature': signWithSecrets(body, activeSecrets(webhook, nowMs), t),
      'x-webhook-timestamp': String(t),
      'x-webhook-event': event.type,
      'x-webhook-delivery': event.id,
      'x-webhook-attempt': String(attempt),
    },
  };
}

function checkEvents(list: readonly string[], field: string): string[] {
  const details: ErrorDetail[] = [];
  list.forEach((name, i) => {
    if (name !== WILDCARD && !EVENT_TYPES.has(name)) {
      details.push({
        field: field === 'event' ? 'event' : `${field}[${i}]`,
        reason: `unknown event "${name}"; see GET /webhooks/event-types`,
      });
    }
  });
  if (details.length > 0) throw ApiError.validation('Unknown event name', details);
  const unique = [...new Set(list)];
  return unique.includes(WILDCARD) ? [WILDCARD] : unique;
}

function pickEvents(input: { events?: string[] | undefined; event?: string | undefined }): string[] | undefined {
  if (input.events !== undefined && input.event !== undefined) {
    throw ApiError.validation('Give either events (shape A) or event (shape B), not both', [
      { field: 'event', reason: 'cannot be combined with events' },
    ]);
  }
  if (input.event !== undefined) return checkEvents([input.event], 'event');
  if (input.events !== undefined) return checkEvents(input.events, 'events');
  return undefined;
}

async function owned(deps: WebhookDeps, ownerId: string, id: string): Promise<WebhookRecord> {
  const r = await deps.store.get<WebhookRecord>(WEBHOOKS, id);
  if (!r || r.ownerId !== ownerId) throw ApiError.notFound('Webhook subscription');
  return r;
}

async function ownedTx(tx: Tx, ownerId: string, id: string): Promise<WebhookRecord> {
  const r = await tx.get<WebhookRecord>(WEBHOOKS, id);
  if (!r || r.ownerId !== ownerId) throw ApiError.notFound('Webhook subscription');
  return r;
}

export async function createWebhook(
  deps: WebhookDeps,
  ownerId: string,
  input: CreateWebhookInput,
): Promise<{ webhook: Webhook; secret?: string; warning?: string }> {
  const events = pickEvents(input);
  if (!events)
    throw ApiError.validation('Name the events to receive', [
      { field: 'events', reason: 'required (or `event` for a single one)' },
    ]);
  const checked = await resolveCheckedUrl(input.url, { allow: deps.allow, resolve: deps.resolve });
  const now = deps.clock.now().toISOString();
  const generated = input.secret === undefined;
  const secret = input.secret ?? generateSecret();
  const id = newId('webhook');
  const record: WebhookRecord = {
    id,
    _id: id,
    ownerId,
    ...(input.accounts === '*' ? { accounts: '*' as const } : {}),
    url: input.url,
    name: input.name ?? checked.host,
    events,
    status: input.status ?? 'active',
    secret: sealSecret(deps.keyring, WEBHOOKS, id, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failures: 0,
    consecutiveFailures: 0,
    lastDeliveryAttempt: null,
    lastDeliveryStatus: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.transact(async (tx) => {
    const count = (await tx.idsBy(WEBHOOKS, 'ownerId', ownerId)).length;
    if (count >= MAX_WEBHOOKS_PER_OWNER) {
      throw ApiError.validation('Too many webhook subscriptions', [
        { field: '', reason: `at most ${MAX_WEBHOOKS_PER_OWNER} per account; delete one first` },
      ]);
    }
    await tx.put(WEBHOOKS, record);
  });
  deps.log?.info({ webhookId: id, ownerId }, 'webhook subscription created');
  return generated ? { webhook: toWebhook(record), secret, warning: SECRET_WARNING } : { webhook: toWebhook(record) };
}

export async function listWebhooks(deps: WebhookDeps, ownerId: string): Promise<Webhook[]> {
  const list = await deps.store.findBy<WebhookRecord>(WEBHOOKS, 'ownerId', ownerId);
  return list.map(toWebhook);
}

export async function getWebhook(deps: WebhookDeps, ownerId: string, id: string): Promise<Webhook> {
  return toWebhook(await owned(deps, ownerId, id));
}

export async function updateWebhook(
  deps: WebhookDeps,
  ownerId: string,
  id: string,
  patch: Omit<UpdateWebhookInput, 'id'>,
): Promise<Webhook> {
  await owned(deps, ownerId, id);
  const events = pickEvents(patch);
  if (patch.url !== undefined) await resolveCheckedUrl(patch.url, { allow: deps.allow, resolve: deps.resolve });
  const updated = await deps.store.transact(async (tx) => {
    const r = await ownedTx(tx, ownerId, id);
    if (patch.url !== undefined) r.url = patch.url;
    if (patch.name !== undefined) r.name = patch.name;
    if (events !== undefined) r.events = events;
    if (patch.status !== undefined && patch.status !== r.status) {
      r.status = patch.status;
      if (patch.status === 'active') {
        r.consecutiveFailures = 0;
        r.disabledAt = null;
      }
    }
    r.updatedAt = deps.clock.now().toISOString();
    dropExpiredSecret(r, deps.clock.now().getTime());
    await tx.put(WEBHOOKS, r);
    return r;
  });
  return toWebhook(updated);
}

/** Cancels the subscription's pending deliveries in the same write. */
async function cancelPending(tx: Tx, webhookId: string, reason: string, at: string): Promise<void> {
  for (const d of await tx.findBy<DeliveryRecord>(DELIVERIES, 'webhookId', webhookId)) {
    if (d.state !== 'pending') continue;
    d.state = 'cancelled';
    d.reason = reason;
    d.completedAt = at;
    d.nextAttemptAt = null;
    await tx.put(DELIVERIES, d);
  }
}

export async function deleteWebhook(
  deps: WebhookDeps,
  ownerId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  await deps.store.transact(async (tx) => {
    await ownedTx(tx, ownerId, id);
    await tx.delete(WEBHOOKS, id);
    await cancelPending(tx, id, 'subscription deleted', deps.clock.now().toISOString());
  });
  deps.log?.info({ webhookId: id, ownerId }, 'webhook subscription deleted');
  return { id, deleted: true };
}

export async function regenerateSecret(
  deps: WebhookDeps,
  ownerId: string,
  id: string,
  opts: { graceSeconds?: number | undefined } = {},
): Promise<{ webhook: Webhook; secret: string; warning: string }> {
  const secret = generateSecret();
  let dropped = false;
  const r = await deps.store.transact(async (tx) => {
    const rec = await ownedTx(tx, ownerId, id);
    const now = deps.clock.now();
    const grace = opts.graceSeconds ?? 0;
    // A value leaves the record: the current secret (no grace), or a predecessor still in its grace.
    dropped = grace <= 0 || Boolean(rec.previousSecret);
    // Both sealed for this record (the same AAD): the old sealed value moves as it is.
    rec.previousSecret = grace > 0 ? rec.secret : null;
    rec.previousSecretExpiresAt = grace > 0 ? now.getTime() + grace * 1000 : null;
    rec.inGrace = grace > 0;
    rec.secret = sealSecret(deps.keyring, WEBHOOKS, id, secret);
    rec.updatedAt = now.toISOString();
    await tx.put(WEBHOOKS, rec);
    return rec;
  });
  // A secret that left the record must not stay in the store's files (the lowdb journal) until a later compaction.
  // (One kept as previousSecret during a grace stays, and is erased by the sweep when the grace ends.)
  if (dropped) await deps.store.compactNow();
  return { webhook: toWebhook(r), secret, warning: SECRET_WARNING };
}

/** Test deliveries one account may have under way at once (each may hold a connection for the whole timeout). */
export const MAX_TESTS_PER_ACCOUNT = 2;
/** Test deliveries under way in this process, by account. */
const testsUnderWay = new Map<string, number>();

/**
 * Sends one real `test.webhook` delivery to the subscription's URL (any status,
 * one attempt, no retries) and records it in the event log. It does not change
 * the subscription's failure counters. A test is sent outside the dispatcher and
 * its bounds, so an account has at most MAX_TESTS_PER_ACCOUNT under way (409).
 */
export async function testWebhook(deps: WebhookDeps, ownerId: string, id: string): Promise<TestWebhookResult> {
  const webhook = await owned(deps, ownerId, id);
  const running = testsUnderWay.get(ownerId) ?? 0;
  if (running >= MAX_TESTS_PER_ACCOUNT)
    throw new ApiError('CONFLICT', 'Test deliveries of this account are under way; retry once one has finished.', [
      { field: 'id', reason: `at most ${MAX_TESTS_PER_ACCOUNT} test deliveries at a time per account` },
    ]);
  testsUnderWay.set(ownerId, running + 1);
  try {
    return await sendTest(deps, ownerId, webhook);
  } finally {
    const left = (testsUnderWay.get(ownerId) ?? 1) - 1;
    if (left > 0) testsUnderWay.set(ownerId, left);
    else testsUnderWay.delete(ownerId);
  }
}

async function sendTest(deps: WebhookDeps, ownerId: string, webhook: WebhookRecord): Promise<TestWebhookResult> {
  const id = webhook.id;
  const now = deps.clock.now();
  const event: EventRecord = {
    id: newId('event'),
    type: 'test.webhook',
    ownerId,
    created: Math.floor(now.getTime() / 1000),
    createdAt: now.toISOString(),
    apiVersion: 'v1',
    data: { message: 'This is a test delivery from svc.', webhookId: id },
  };
  const { body, headers } = buildRequest(
    event,
    { ...webhook, ...openSecrets(deps.keyring, WEBHOOKS, webhook) },
    1,
    now.getTime(),
  );
  // A client of its own for this one delivery (its options are this call's), closed after.
  const client = new WebhookClient({ ca: deps.ca, allow: deps.allow, resolve: deps.resolve, connections: 1 });
  let result;
  try {
    result = await client.send(webhook.url, body, headers, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  } finally {
    await client.destroy();
  }
  const done = deps.clock.now().toISOString();
  const delivery = newDelivery(event, id, now.getTime(), event.createdAt);
  delivery.state = result.ok ? 'succeeded' : 'failed';
  delivery.nextAttemptAt = null;
  delivery.completedAt = done;
  delivery.attempts = [
    {
      attempt: 1,
      at: now.toISOString(),
      finishedAt: done,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
    },
  ];
  await deps.store.transact(async (tx) => {
    await tx.put(EVENTS, event);
    await tx.put(DELIVERIES, delivery);
  });
  const out: TestWebhookResult = {
    delivered: result.ok,
    statusCode: result.statusCode,
    payload: buildPayload(event, id),
    responseTime: result.latencyMs,
  };
  if (result.error) out.error = result.error;
  return out;
}

function toWebhookEvent(e: EventRecord, deliveries: DeliveryRecord[]): WebhookEvent {
  return {
    id: e.id,
    type: e.type,
    created: e.created,
    createdAt: e.createdAt,
    apiVersion: 'v1',
    data: e.data,
    deliveries: deliveries.map((d) => {
      const out: WebhookEvent['deliveries'][number] = {
        id: d.id,
        webhookId: d.webhookId,
        status: d.state,
        nextAttemptAt:
          d.state === 'pending' && d.nextAttemptAt !== null ? new Date(d.nextAttemptAt).toISOString() : null,
        attempts: d.attempts.map((a) => ({ ...a })),
        completedAt: d.completedAt,
      };
      if (d.reason) out.reason = d.reason;
      return out;
    }),
  };
}

/**
 * The caller's event log, newest first, cursor-paged by event id (ids grow
 * with time), so events recorded while paging never shift or repeat a page.
 * The page is chosen among the account's event ids and only its events are
 * read: an account keeps every event of the retention period (30 days by
 * default, tens of thousands for a busy one), and reading them all for each
 * page made walking the log cost the square of its length.
 */
export async function listWebhookEvents(
  deps: WebhookDeps,
  ownerId: string,
  opts: { cursor?: string | undefined; limit: number },
): Promise<{ items: WebhookEvent[]; pagination: CursorPageMeta }> {
  return deps.store.transact(
    async (tx) => {
      const ids = newestFirst(await tx.idsBy(EVENTS, 'ownerId', ownerId));
      const page = paginateCursor(ids, {
        codec: deps.cursors,
        scope: `webhook-events:${ownerId}`,
        keyOf: (id) => id,
        order: 'desc',
        cursor: opts.cursor,
        limit: opts.limit,
      });
      const items: WebhookEvent[] = [];
      for (const id of page.items) {
        const e = await tx.get<EventRecord>(EVENTS, id);
        if (e?.ownerId !== ownerId) continue;
        const deliveries = (await tx.findBy<DeliveryRecord>(DELIVERIES, 'eventId', id)).filter(
          (d) => d.ownerId === ownerId,
        );
        items.push(toWebhookEvent(e, deliveries));
      }
      return { items, pagination: page.pagination };
    },
    { readOnly: true },
  );
}

/** The catalogue served by GET /webhooks/event-types. */
export function listEventTypes(): { types: EventType[]; wildcard: '*' } {
  return { types: EVENT_CATALOGUE.map((e) => ({ ...e })), wildcard: '*' };
}
