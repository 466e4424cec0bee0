/**
 * The owner's check-in through a link mailed to them (a reminder before the plan's deadline, or the notice that a
 * verification started). The link's token is single use, hashed at rest and expiring (src/accounts/email-tokens.ts);
 * it names the plan and the user it was mailed to.
 *
 * Opening it is a sign of life, as a sign-in is: in one transaction the token is used, the plan's check-in time moves
 * (its next deadline with it), and a waiting verification of that plan fails (`verification.failed`, reason
 * check-in; the shares close again). The sign of life then goes to every listener (src/accounts/liveness.ts), which
 * ends the account's other waiting verifications as a sign-in would.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Store, Tx } from '../store/port.js';
import { peekEmailToken, takeEmailToken } from '../accounts/email-tokens.js';
import { signOfLife } from '../accounts/liveness.js';
import { USERS } from '../accounts/records.js';
import { accountStore } from '../accounts/tenancy.js';
import { recordEvent } from '../events/events.js';
import { type HeirPlanRecord, MEMOIR_HEIR_PLANS, sharesOf, syncShares } from './heir-plans.js';
import { failVerification, settle } from './verification.js';

export interface CheckInResult {
  planLabel: string;
  /** The language of the user the link was mailed to, when their profile names one. */
  locale: string | undefined;
  /** The plan's state after the check-in: `armed` unless its waiting period had ended before (`triggered`). */
  state: HeirPlanRecord['state'];
  /** Whether the plan is watched on chain: its deadline is the contract's, which only a check-in there moves. */
  watched: boolean;
}

const gone = () =>
  new ApiError('GONE', 'This link has been used already or has expired.', [
    { field: 'token', reason: 'used, expired or unknown' },
  ]);

/** The plan a valid check-in token is for, and its user's language, without using it (410 GONE otherwise). */
export async function peekCheckIn(
  store: Store,
  token: string,
  clock: Clock,
): Promise<{ planLabel: string; locale: string | undefined }> {
  const record = await peekEmailToken(store, token, 'check-in', clock);
  const own = accountStore(store, record.ownerId);
  const plan = record.subject ? await own.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, record.subject) : undefined;
  if (!plan) throw gone();
  const user = await own.get<{ id: string; locale?: string }>(USERS, record.userId);
  return { planLabel: plan.label, locale: user?.locale };
}

/** Uses a check-in token: see the top of this file. A used, expired or unknown token, or a plan since unlinked: 410. */
export async function checkIn(store: Store, token: string, clock: Clock, log?: Logger): Promise<CheckInResult> {
  // Found by its hash across accounts (the token is the only credential); everything after runs in its account.
  const found = await peekEmailToken(store, token, 'check-in', clock);
  const own = accountStore(store, found.ownerId);
  const result = await own.transact(async (tx) => {
    const used = await takeEmailToken(tx, token, 'check-in', clock);
    const plan = used.subject ? await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, used.subject) : undefined;
    const user = await tx.get<{ id: string; email: string; locale?: string }>(USERS, used.userId);
    // A link mailed to an address the user has since left proves nothing.
    if (!plan || !user || user.email !== used.email) throw gone();
    const nowIso = clock.now().toISOString();
    let next = await settle(tx, plan, clock);
    if (next.state === 'verifying' && next.verification?.state === 'waiting')
      next = await failVerification(tx, next, 'check-in', clock);
    if (next.state === 'triggered' && !next.watched) next = await rearmUnreleased(tx, next, clock);
    next = { ...next, checkedInAt: nowIso, updatedAt: nowIso };
    await tx.put(MEMOIR_HEIR_PLANS, next);
    return {
      planLabel: next.label,
      state: next.state,
      watched: next.watched === true,
      userId: used.userId,
      locale: user.locale,
    };
  });
  await signOfLife(
    store,
    { accountId: found.ownerId, credential: `mail:${result.userId}`, kind: 'check-in', at: clock.now() },
    log,
  );
  return { planLabel: result.planLabel, state: result.state, watched: result.watched, locale: result.locale };
}

/**
 * A plan whose waiting period ended while nothing reached an heir (heirs' access off, or every share withdrawn): the
 * owner, alive, arms it again, as a reported reset would (`deadman.reset`). Left `triggered`, turning heirs' access on
 * later would open the shares at once. A plan whose shares opened stays triggered: the owner withdraws them.
 */
async function rearmUnreleased(tx: Tx, plan: HeirPlanRecord, clock: Clock): Promise<HeirPlanRecord> {
  const nowIso = clock.now().toISOString();
  const shares = await sharesOf(tx, plan.ownerId, plan.id);
  const released =
    plan.heirAccess.enabled && shares.some((g) => !g.revokedAt && g.opensAt !== null && g.opensAt <= nowIso);
  if (released) return plan;
  const next: HeirPlanRecord = { ...plan, state: 'armed', triggeredAt: null, triggerEventId: null };
  const cancelled = shares.filter((g) => !g.revokedAt && g.opensAt !== null).length;
  await syncShares(tx, next, nowIso);
  const data = {
    planId: plan.id,
    blockchain: plan.blockchain,
    ownerAddress: plan.ownerAddress,
    contractAddress: plan.contractAddress,
    memoirSharesCancelled: cancelled,
  };
  const event = await recordEvent(tx, { type: 'deadman.reset', ownerId: plan.ownerId, data }, clock);
  return { ...next, lastEvent: { type: 'deadman.reset', eventId: event.id, at: nowIso } };
}
