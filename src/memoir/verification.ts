/**
 * The waiting period between a reported dead man's switch trigger and a memoir opening to heirs: a verification that
 * the owner's sign of life ends (`verification.failed`) and that its end completes (`verification.complete`, once).
 * The rules are described in src/memoir/heirs.ts.
 */
import type { Clock } from '../core/clock.js';
import type { Store, Tx } from '../store/port.js';
import { onSignOfLife, type LifeSign } from '../accounts/liveness.js';
import { recordEvent, subscribedTo } from '../events/events.js';
import {
  MEMOIR_HEIR_PLANS,
  sharesOf,
  syncShares,
  type HeirPlanRecord,
  type NotifyChannel,
  type Verification,
  waitingOver,
} from './heir-plans.js';
import { checkInLink, heirGuideLink, mailHeir, mailOwners, ownerVoice, takeOnce } from './owner-mail.js';
import { GRANTS, type GrantRecord } from '../accounts/grants.js';

type VerificationEvent = 'verification.started' | 'verification.failed' | 'verification.complete';

/** Mails the owner's confirmed addresses about the verification; answers how many messages were queued. */
function mailAbout(tx: Tx, plan: HeirPlanRecord, v: Verification, type: VerificationEvent, clock: Clock) {
  const planLabel = plan.label;
  if (type === 'verification.started') {
    // The link cancels the report: it works until the waiting period ends, once.
    const until = Date.parse(v.endsAt);
    return mailOwners(
      tx,
      plan,
      'verification-started',
      true,
      async (user) => ({ planLabel, endsAt: v.endsAt, cancelLink: await checkInLink(tx, user, plan, until, clock) }),
      clock,
    );
  }
  if (type === 'verification.failed')
    return mailOwners(tx, plan, 'verification-failed', true, async () => ({ planLabel }), clock);
  return sharesOf(tx, plan.ownerId, plan.id).then((shares) => {
    const sharesOpened = String(shares.filter((g) => !g.revokedAt && g.opensAt).length);
    // Released by the chain: there was no waiting period, and the heirs can claim the funds on chain as well.
    const chain = chainOf(v);
    if (chain)
      return mailOwners(tx, plan, 'chain-released', true, async () => ({ planLabel, sharesOpened, ...chain }), clock);
    return mailOwners(tx, plan, 'verification-complete', true, async () => ({ planLabel, sharesOpened }), clock);
  });
}

/**
 * The contract whose release on chain opened a verification (`chain:<network>:<address>`), or null for a report. A
 * network id never holds a colon (an EVM chain id, `ton-mainnet`); an address may (TON's raw form, `0:<hex>`).
 */
export function chainOf(v: Pick<Verification, 'reporter'>): { network: string; contractAddress: string } | null {
  const m = /^chain:([^:]+):(.+)$/.exec(v.reporter);
  return m ? { network: m[1]!, contractAddress: m[2]! } : null;
}

/**
 * Tells the owner about their plan's verification on every channel the account has: the event goes to the
 * account's webhooks through the event log (the outbox) and a message to each confirmed address, both in the
 * caller's transaction. The event's data, and the answer, name the channels used (`webhook`, `email`).
 */
export async function notifyOwner(
  tx: Tx,
  plan: HeirPlanRecord,
  v: Verification,
  type: VerificationEvent,
  data: Record<string, unknown>,
  clock: Clock,
): Promise<NotifyChannel[]> {
  const channels: NotifyChannel[] = [];
  if (await subscribedTo(tx, plan.ownerId, type)) channels.push('webhook');
  // A report ended because the chain took over (chainTakesOver) is no sign of life: the message saying the owner
  // showed one would mislead, so only the event tells of it.
  const mailed =
    type === 'verification.failed' && data.reason === WATCHED ? 0 : await mailAbout(tx, plan, v, type, clock);
  if (mailed > 0) channels.push('email');
  await recordEvent(tx, { type, ownerId: plan.ownerId, data: { ...data, channels } }, clock);
  return channels;
}

/**
 * Tells each heir with an address on an open share of the plan that it opened, with where to claim it: once per share,
 * by a once-key taken with the message (whichever path opened it: a sweep, the owner's own call, the chain watcher, or
 * heirs' access turned on after the switch fired).
 */
export async function mailOpenedShares(tx: Tx, plan: HeirPlanRecord, nowIso: string, clock: Clock): Promise<void> {
  const voice = await ownerVoice(tx, plan.ownerId);
  // Opened by the chain: all that is known is that the owner did not check in and the contract released.
  const template = plan.verification && chainOf(plan.verification) ? 'share-opened-chain' : 'share-opened';
  for (const g of await sharesOf(tx, plan.ownerId, plan.id)) {
    if (g.revokedAt || !g.opensAt || g.opensAt > nowIso || !g.claimEmail || g.openMailedAt) continue;
    const until = g.expiresAt ?? nowIso;
    if (!(await takeOnce(tx, `opn_${g.id}`, { ownerId: plan.ownerId, planId: plan.id, until }, clock))) continue;
    const heir = plan.heirs.find((h) => h.shareId === g.id);
    await mailHeir(
      tx,
      plan.ownerId,
      { email: g.claimEmail, name: heir?.name ?? g.label },
      template,
      { ownerName: voice.name, link: heirGuideLink('share-opened', voice.locale) },
      voice.locale,
      clock,
    );
    await tx.put<GrantRecord>(GRANTS, { ...g, openMailedAt: nowIso });
  }
}

/** Ends a plan's verification when its waiting period is over: `verification.complete`, once (a state check). */
export async function settle(tx: Tx, plan: HeirPlanRecord, clock: Clock): Promise<HeirPlanRecord> {
  const v = plan.verification;
  const nowIso = clock.now().toISOString();
  if (!v || !waitingOver(plan, nowIso)) return plan;
  const opened = (await sharesOf(tx, plan.ownerId, plan.id)).filter((g) => !g.revokedAt && g.opensAt).length;
  const channels = await notifyOwner(
    tx,
    plan,
    v,
    'verification.complete',
    { planId: plan.id, startedAt: v.startedAt, endsAt: v.endsAt, memoirSharesOpened: opened },
    clock,
  );
  // A verification opened by the chain had no notice when it started: the owner learns of it from this one.
  const next: HeirPlanRecord = {
    ...plan,
    state: 'triggered',
    verification: { ...v, state: 'complete', endedAt: nowIso, channels: v.channels ?? channels },
    updatedAt: nowIso,
  };
  await mailOpenedShares(tx, next, nowIso, clock);
  await tx.put(MEMOIR_HEIR_PLANS, next);
  return next;
}

/** Ends a waiting verification because the owner showed life: the shares close again and `verification.failed`. */
export async function failVerification(
  tx: Tx,
  plan: HeirPlanRecord,
  failedBy: string,
  clock: Clock,
): Promise<HeirPlanRecord> {
  const v = plan.verification!;
  const nowIso = clock.now().toISOString();
  const cancelled = (await sharesOf(tx, plan.ownerId, plan.id)).filter((g) => !g.revokedAt && g.opensAt).length;
  const next: HeirPlanRecord = {
    ...plan,
    state: 'armed',
    triggeredAt: null,
    triggerEventId: null,
    verification: { ...v, state: 'failed', failedBy, endedAt: nowIso },
    updatedAt: nowIso,
  };
  await syncShares(tx, next, nowIso);
  await notifyOwner(
    tx,
    plan,
    v,
    'verification.failed',
    { planId: plan.id, startedAt: v.startedAt, reason: failedBy, memoirSharesCancelled: cancelled },
    clock,
  );
  await tx.put(MEMOIR_HEIR_PLANS, next);
  return next;
}

/** Why a verification ended when its plan became watched on chain (chainTakesOver). */
const WATCHED = 'watched';

/**
 * A plan that becomes watched on chain (src/watch/plans.ts) while the waiting period of a reported trigger runs: the
 * chain alone opens a watched plan and reports about it are refused, so the report no longer applies either. A period
 * already over completes as it would have; one still running ends (`verification.failed`, reason `watched`) and the
 * shares close again, to open when the chain's switch fires. Otherwise a trigger reported just before the deployment
 * was registered (again) opened the shares at the end of the period although the chain had not fired, while the owner,
 * checking in on chain, could no longer check in by a report.
 */
export async function chainTakesOver(tx: Tx, plan: HeirPlanRecord, clock: Clock): Promise<HeirPlanRecord> {
  const settled = await settle(tx, plan, clock);
  const v = settled.verification;
  if (settled.state !== 'verifying' || v?.state !== 'waiting' || chainOf(v)) return settled;
  return failVerification(tx, settled, WATCHED, clock);
}

/** Settles those of `plans` whose waiting period is over, each in its own transaction (re-read: settled once). */
export async function settleDue(store: Store, plans: HeirPlanRecord[], clock: Clock): Promise<number> {
  const nowIso = clock.now().toISOString();
  let settled = 0;
  for (const { id } of plans.filter((p) => waitingOver(p, nowIso))) {
    await store.transact(async (tx) => {
      const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, id);
      if (plan && (await settle(tx, plan, clock)) !== plan) settled += 1;
    });
  }
  return settled;
}

/** Settles every verification whose waiting period is over, across accounts (the service runs it periodically). */
export async function completeDueVerifications(store: Store, clock: Clock): Promise<number> {
  return settleDue(store, await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'state', 'verifying'), clock);
}

/** A sign of life of an owner ends their waiting verifications, unless it came from the credential that reported. */
async function onOwnerAlive(store: Store, sign: LifeSign): Promise<void> {
  const at = sign.at.toISOString();
  const waiting = (await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', sign.accountId)).filter(
    (p) => p.state === 'verifying' && p.verification?.state === 'waiting',
  );
  for (const { id } of waiting) {
    await store.transact(async (tx) => {
      const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, id);
      const v = plan?.verification;
      if (plan?.state !== 'verifying' || v?.state !== 'waiting' || v.reporter === sign.credential) return;
      // Past its end the owner came too late: the verification completes instead.
      if (v.endsAt <= at) await settle(tx, plan, { now: () => sign.at });
      else await failVerification(tx, plan, sign.kind, { now: () => sign.at });
    });
  }
}
onSignOfLife(onOwnerAlive);

/** What the chain showed when a watched plan's switch fired: where, and the event that reported it. */
export interface ChainProof {
  /** `chain:<network>:<contract address>`, recorded as the verification's reporter. */
  source: string;
  /** The `deadman.triggered` event the watcher recorded for it. */
  eventId: string;
}

/**
 * Opens the shares of a plan watched on chain whose switch fired on chain. The chain is the proof, so the waiting
 * period is empty: a verification that starts and ends now, completed by `settle` like any other (it sends
 * `verification.complete` and opens the shares). Once: a plan already triggered is left as it is.
 */
export async function openByChain(
  tx: Tx,
  plan: HeirPlanRecord,
  proof: ChainProof,
  clock: Clock,
): Promise<HeirPlanRecord> {
  if (plan.state === 'triggered') return plan;
  const nowIso = clock.now().toISOString();
  const fired: HeirPlanRecord = {
    ...plan,
    state: 'verifying',
    triggeredAt: nowIso,
    triggerEventId: proof.eventId,
    lastEvent: { type: 'deadman.triggered', eventId: proof.eventId, at: nowIso },
    verification: {
      startedAt: nowIso,
      endsAt: nowIso,
      reporter: proof.source,
      state: 'waiting',
      failedBy: null,
      endedAt: null,
    },
    updatedAt: nowIso,
  };
  await syncShares(tx, fired, nowIso);
  return settle(tx, fired, clock);
}
