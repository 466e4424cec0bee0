/**
 * Claiming webhook deliveries: the store transactions that hand a delivery to one dispatcher under a lease, and
 * those that take it back (a restart, an expired lease, a claim that was never sent).
 *
 * A claimed delivery is `delivering`, with `leaseOwner` (the dispatcher's id), `leaseUntil` (unix ms) and a new
 * attempt whose `finishedAt` is null. Every function here that takes a Tx has no effect outside it: a transaction may
 * run more than once.
 *
 * Several instances (a store that can claim with row locks, the PostgreSQL one: `claimWith`; driven by
 * ./claim-loop.ts): each instance claims due pending deliveries itself with `FOR UPDATE SKIP LOCKED`, so concurrent
 * instances take disjoint batches and each delivery is sent by one of them. It claims only as many as it has free send
 * slots (no claim-ahead: `maxConcurrent` overall, `perSubscription` per subscription), and sends each at once, so what
 * it holds under lease is what is in flight: a claim whose lease another instance takes over after a crash was on the
 * wire (or its outcome was about to be written), never one still waiting for a slot. It claims when a delivery is
 * written in this process, when a retry of its own falls due, when an outcome frees a slot, and every `pollMs` (default
 * 500 ms) for the deliveries other instances wrote. The lease of a claim (`leaseMs`) is respected by everyone until it
 * expires; then any instance takes the delivery over (its attempt marked interrupted) and sends it again: an instance
 * that died (SIGKILL) repeats only what it had claimed and not confirmed. A claimed job whose lease would run out
 * before its attempt could finish is not sent (the takeover sends it). The claim path is generic: the per-record checks
 * (prepareClaim) run on whatever records the claim returns.
 */
import type { Keyring } from '../core/keyring.js';
import { DELIVERIES, EVENTS, type DeliveryRecord, type EventRecord, type QueuedDelivery } from '../events/events.js';
import type { ClaimableStore, ClaimQuery, ClaimTurns, Store, Tx } from '../store/port.js';
import type { OpenedSecrets } from './secrets.js';
import type { WebhookRecord } from './subscriptions.js';
import { deliveryTarget } from './targets.js';

/** A claimed delivery, ready to send. */
export interface Job {
  id: string;
  webhook: WebhookRecord;
  event: EventRecord;
  attempt: number;
  /** When this dispatcher's lease on the delivery ends (unix ms). */
  leaseUntil: number;
}

/** The attempts that count towards the limit (an attempt interrupted by a crash does not). */
export function countedAttempts(d: DeliveryRecord): number {
  return d.attempts.filter((a) => !a.interrupted).length;
}

/** A delivery whose sender went away: its unfinished attempt is marked interrupted, and it is due again now. */
export function interrupt(d: DeliveryRecord, now: Date): void {
  const last = d.attempts[d.attempts.length - 1];
  if (last && last.finishedAt === null) {
    last.finishedAt = now.toISOString();
    last.error = 'interrupted: the server stopped before the outcome was known';
    last.interrupted = true;
  }
  d.state = 'pending';
  d.nextAttemptAt = now.getTime();
  d.leaseOwner = null;
  d.leaseUntil = null;
}

/** What a claim needs to know about the dispatcher making it. */
export interface ClaimContext {
  /** The dispatcher's id, written as the lease owner. */
  owner: string;
  now: Date;
  leaseMs: number;
  /** Opens the sealed signing secrets of subscriptions and callback targets. */
  keyring: Keyring;
  /** The secrets this dispatcher opened lately. */
  opened?: OpenedSecrets | undefined;
  /** Write back a signing secret whose grace has ended (not under a row-lock claim: see prepareClaim). */
  persistSecrets: boolean;
  /** Leave a delivery pending when its subscription already has this many claimed (shared store). */
  cap?: number | undefined;
  /** How many deliveries of a subscription this dispatcher holds already. */
  held(webhookId: string): number;
}

/**
 * The claim of pending deliveries, whichever way they were selected: cancels those whose subscription or event is
 * gone or inactive, and marks the others `delivering` under the dispatcher's lease with a new attempt. `cap`
 * (shared store) leaves a delivery untouched, still pending, when its subscription already has that many claimed.
 */
export async function prepareClaim(tx: Tx, records: DeliveryRecord[], ctx: ClaimContext): Promise<Job[]> {
  const nowMs = ctx.now.getTime();
  const nowIso = ctx.now.toISOString();
  const targets = new Map<string, Awaited<ReturnType<typeof deliveryTarget>>>();
  const taken = new Map<string, number>();
  const jobs: Job[] = [];
  for (const d of records) {
    const id = d.id;
    if (ctx.cap !== undefined) {
      const n = ctx.held(d.webhookId) + (taken.get(d.webhookId) ?? 0);
      if (n >= ctx.cap) continue;
    }
    // A subscription, or a callback target the delivery carries (src/webhooks/targets.ts). Read for signing: an ended
    // grace is erased, but not written under a row-lock claim (READ COMMITTED could overwrite a concurrent change to
    // the subscription); the periodic eraseExpiredSecrets does it there.
    if (!targets.has(d.webhookId)) {
      targets.set(
        d.webhookId,
        await deliveryTarget(tx, d, nowMs, {
          persistSecrets: ctx.persistSecrets,
          keyring: ctx.keyring,
          opened: ctx.opened,
        }),
      );
    }
    const target = targets.get(d.webhookId)!;
    const webhook = 'webhook' in target ? target.webhook : undefined;
    const event = await tx.get<EventRecord>(EVENTS, d.eventId);
    const cancel = 'cancel' in target ? target.cancel : !event ? 'event no longer stored' : null;
    if (cancel || !webhook || !event) {
      d.state = 'cancelled';
      d.reason = cancel ?? 'cancelled';
      d.completedAt = nowIso;
      d.nextAttemptAt = null;
      await tx.put(DELIVERIES, d);
      continue;
    }
    const attempt = countedAttempts(d) + 1;
    d.attempts.push({ attempt, at: nowIso, finishedAt: null, statusCode: null, latencyMs: null, error: null });
    d.state = 'delivering';
    d.nextAttemptAt = null;
    d.leaseOwner = ctx.owner;
    d.leaseUntil = nowMs + ctx.leaseMs;
    await tx.put(DELIVERIES, d);
    taken.set(d.webhookId, (taken.get(d.webhookId) ?? 0) + 1);
    jobs.push({ id, webhook, event, attempt, leaseUntil: d.leaseUntil });
  }
  return jobs;
}

/** Records locked by one claim on a shared store. */
export const CLAIM_BATCH = 100;

/** What a claim of due deliveries got. */
export interface ClaimedDue {
  jobs: Job[];
  /** How many deliveries the claim locked (some may be left pending by the per-subscription cap, or cancelled). */
  seen: number;
  /** The account the next claim starts after (ClaimReach in ../store/port.ts). */
  last: string | undefined;
  /** Each account's subscription locked last, in the claim's order: its next turn starts after it. */
  served: Map<string, string>;
}

/**
 * Shared store: claims up to `limit` pending deliveries due at `dueBefore` that no other instance holds, accounts in
 * turn (starting after `turns.after`, the account served last), and within an account its subscriptions with room
 * (`turns.room`: subscription -> how many more this dispatcher may hold) in turn, starting after the one served last
 * (`turns.resume`), each giving its oldest deliveries first (see ClaimTurns in ../store/port.ts).
 */
export function claimDue(
  store: ClaimableStore,
  limit: number,
  dueBefore: number,
  context: () => ClaimContext,
  turns: Omit<ClaimTurns, 'by'>,
): Promise<ClaimedDue> {
  const query = dueClaimQuery(limit, dueBefore, turns);
  return store.claimWith<DeliveryRecord, ClaimedDue>(DELIVERIES, query, async (tx, records, reach) => ({
    jobs: await prepareClaim(tx, records, context()),
    seen: records.length,
    last: typeof reach.after === 'string' ? reach.after : undefined,
    served: new Map(records.map((r) => [r.ownerId, r.webhookId])),
  }));
}

/** The claim of claimDue: pending deliveries due at `dueBefore`, accounts in turn, then their subscriptions. */
export function dueClaimQuery(limit: number, dueBefore: number, turns: Omit<ClaimTurns, 'by'>): ClaimQuery {
  return {
    field: 'state',
    value: 'pending',
    dueField: 'nextAttemptAt',
    dueBefore,
    limit,
    turns: { by: ['ownerId', 'webhookId'], ...turns },
  };
}

/** Claims the given deliveries (single-process store), skipping any that are no longer pending. */
export async function claimByIds(tx: Tx, ids: string[], ctx: ClaimContext): Promise<Job[]> {
  const pending: DeliveryRecord[] = [];
  for (const id of ids) {
    const d = await tx.get<DeliveryRecord>(DELIVERIES, id);
    if (d && d.state === 'pending') pending.push(d);
  }
  return prepareClaim(tx, pending, ctx);
}

/**
 * At start: deliveries left `delivering` by an earlier process go back to pending, their attempt interrupted. On an
 * exclusive store every foreign lease belongs to a dead process; otherwise a lease is respected until it expires.
 * Resolves with how many were taken back.
 */
export async function recoverInterrupted(tx: Tx, owner: string, now: Date, exclusive: boolean): Promise<number> {
  const nowMs = now.getTime();
  let n = 0;
  for (const d of await tx.findBy<DeliveryRecord>(DELIVERIES, 'state', 'delivering')) {
    if (d.leaseOwner === owner) continue;
    if (!exclusive && d.leaseUntil !== null && d.leaseUntil > nowMs) continue;
    interrupt(d, now);
    await tx.put(DELIVERIES, d);
    n++;
  }
  return n;
}

/**
 * Shared store: deliveries whose lease has expired (their instance died or stalled) go back to pending, their attempt
 * interrupted; `stillOurs` keeps those of this dispatcher whose outcome is on the way. Resolves with how many.
 */
export function takeOverExpired(
  store: ClaimableStore,
  nowMs: number,
  stillOurs: (d: DeliveryRecord) => boolean,
): Promise<number> {
  const now = new Date(nowMs);
  const query = { field: 'state', value: 'delivering', dueField: 'leaseUntil', dueBefore: nowMs, limit: 500 };
  return store.claimWith<DeliveryRecord, number>(DELIVERIES, query, async (tx, records) => {
    let n = 0;
    for (const d of records) {
      if (stillOurs(d)) continue;
      interrupt(d, now);
      await tx.put(DELIVERIES, d);
      n++;
    }
    return n;
  });
}

/** Claimed jobs that were not sent go back to pending (due now), their unsent attempt removed. */
export async function giveBack(tx: Tx, jobs: Job[], owner: string, nowMs: number): Promise<void> {
  for (const job of jobs) {
    const d = await tx.get<DeliveryRecord>(DELIVERIES, job.id);
    if (d?.state !== 'delivering' || d.leaseOwner !== owner) continue;
    const last = d.attempts[d.attempts.length - 1];
    if (last && last.finishedAt === null) d.attempts.pop();
    d.state = 'pending';
    d.nextAttemptAt = nowMs;
    d.leaseOwner = null;
    d.leaseUntil = null;
    await tx.put(DELIVERIES, d);
  }
}

/** How many pending records one page of the start-up scan reads. */
export const PENDING_PAGE = 500;

/**
 * The pending deliveries, as the dispatcher's queue needs them (id, subscription, due), one page at a time: their ids
 * first, then the records of one page per read-only transaction. Only a page of full records (with their attempt
 * histories) is held at once, however long the outbox is; a record that left `pending` since the id scan is skipped.
 */
export async function* pendingPages(store: Store, page = PENDING_PAGE): AsyncGenerator<QueuedDelivery[]> {
  const ids = await store.transact((tx) => tx.idsBy(DELIVERIES, 'state', 'pending'), { readOnly: true });
  for (let i = 0; i < ids.length; i += page) {
    const slice = ids.slice(i, i + page);
    const queued = await store.transact(
      async (tx) => {
        const out: QueuedDelivery[] = [];
        for (const id of slice) {
          const d = await tx.get<DeliveryRecord>(DELIVERIES, id);
          if (d?.state === 'pending')
            out.push({ id: d.id, webhookId: d.webhookId, ownerId: d.ownerId, due: d.nextAttemptAt ?? 0 });
        }
        return out;
      },
      { readOnly: true },
    );
    if (queued.length > 0) yield queued;
  }
}
