/**
 * Heirs of a memoir: a memoir's owner links an
 * inheritance plan with a dead man's switch; each beneficiary named for heirs'
 * access gets a share (a grant, src/accounts/grants.ts) with a claim code shown
 * once, for the owner to hand over. Heirs' access is off by default: a plan
 * linked without `heirAccess.enabled` never opens anything.
 *
 * A reported `deadman.triggered` never opens shares by itself: it starts a
 * verification (`verification.started`, sent to the owner). The shares open
 * only when its waiting period (`openAfterDays`, at least 7 days) ends with no
 * sign of life of the owner: a check-in (`deadman.reset`), a sign-in, or a call
 * with any of the account's keys or sessions other than the one that reported
 * (src/accounts/liveness.ts). A sign of life ends it (`verification.failed`);
 * the end of the period sends `verification.complete`. A plan followed on chain
 * (`watched`) is opened by the chain alone: reports about it are refused.
 *
 * Everything here runs through the owner's account view of the store: the
 * plans and grants are the owner's records. What heirs read goes through
 * grants opened by the shared wrapper, never through this module.
 */
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import { hasUnsafeNameChars } from '../core/names.js';
import type { Store, Tx } from '../store/port.js';
import { GRANTS, grantState, newClaimCode, type GrantRecord, type GrantState } from '../accounts/grants.js';
import { recordEvent } from '../events/events.js';
import { forgetSignsOfLife } from '../accounts/liveness.js';
import { canonicalAddress, planProblems, withPlanDefaults } from '../contracts/validate.js';
import { DEFAULT_AGENT_NAME, readProfile } from './memoir.js';
import {
  codeMailOf,
  effectiveAccess,
  HEIR_DEFAULTS,
  HEIR_LIMITS,
  type HeirAccess,
  type HeirPlanRecord,
  MEMOIR_HEIR_PLANS,
  MIN_WAIT_DAYS,
  notFound,
  ownerShareView,
  type PlanEventType,
  permissionsOf,
  planIn,
  planView,
  plusDays,
  SHARED_MEMOIR_COLLECTIONS,
  sharesOf,
  syncShares,
  type LinkInput,
  type MailedGrant,
  type Verification,
} from './heir-plans.js';
import { failVerification, mailOpenedShares, notifyOwner, settle, settleDue } from './verification.js';
import { returnAllowanceInTx } from './heir-allowance.js';
import { heirGuideLink, mailHeir, ownerVoice } from './owner-mail.js';
import type { MailRecord } from '../events/mail.js';
import { VAULTS, type VaultRecord } from '../vaults/records.js';

export * from './heir-plans.js';
export { completeDueVerifications } from './verification.js';

function cleanLabel(raw: string | undefined, fallback: string): string {
  const label = (raw ?? fallback).normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!label || hasUnsafeNameChars(label)) {
    throw ApiError.validation('Invalid label', [
      { field: 'label', reason: 'must be visible text without control characters' },
    ]);
  }
  return label;
}

/**
 * Links a plan to the memoir and creates one share per heir. An heir with an address gets their claim code by mail
 * only (the answer says when it was queued); the code of an heir without one is in the answer, once, for the owner
 * to hand over.
 */
export async function linkPlan(store: Store, ownerId: string, input: LinkInput, clock: Clock) {
  const { plan } = withPlanDefaults(input.plan);
  const details: ErrorDetail[] = planProblems(plan).map((d) => ({ ...d, field: `plan.${d.field}` }));
  if (plan.deadMansSwitch?.enabled === false) {
    details.push({
      field: 'plan.deadMansSwitch.enabled',
      reason: "a plan without a dead man's switch never fires, so it could never open the memoir to heirs",
    });
  }
  const byAddress = new Map(plan.beneficiaries.map((b) => [canonicalAddress(plan.blockchain, b.address), b]));
  const chosen = new Set<string>();
  (input.heirs ?? []).forEach((a, i) => {
    const key = canonicalAddress(plan.blockchain, a);
    if (!byAddress.has(key))
      details.push({ field: `heirs.${i}`, reason: 'not the address of a beneficiary of this plan' });
    else if (chosen.has(key)) details.push({ field: `heirs.${i}`, reason: 'named twice' });
    chosen.add(key);
  });
  if (details.length) throw ApiError.validation('The plan cannot be linked', details);
  const heirs = input.heirs
    ? plan.beneficiaries.filter((b) => chosen.has(canonicalAddress(plan.blockchain, b.address)))
    : plan.beneficiaries;
  const access: HeirAccess = {
    enabled: input.heirAccess?.enabled ?? false,
    // The tool's schema refuses less than the minimum; a direct caller gets the minimum.
    openAfterDays: Math.max(MIN_WAIT_DAYS, input.heirAccess?.openAfterDays ?? HEIR_DEFAULTS.openAfterDays),
    accessDays: input.heirAccess?.accessDays ?? HEIR_DEFAULTS.accessDays,
    allowChat: input.heirAccess?.allowChat ?? true,
  };
  const label = cleanLabel(input.label, `${plan.blockchain} plan of ${plan.ownerAddress.slice(0, 12)}`);
  const now = clock.now();
  const nowIso = now.toISOString();
  const title = (await readProfile(store, ownerId))?.agentName ?? DEFAULT_AGENT_NAME;
  const planId = `mhp_${ulid(now.getTime())}`;
  const codes = heirs.map((b) => ({ b, shareId: `shr_${ulid(now.getTime())}`, ...newClaimCode() }));
  const mailedAt = new Map<string, string>();
  const record: HeirPlanRecord = {
    id: planId,
    ownerId,
    label,
    blockchain: plan.blockchain,
    ownerAddress: plan.ownerAddress,
    contractAddress: input.contractAddress ?? null,
    intervalDays: plan.deadMansSwitch?.intervalDays ?? 365,
    heirAccess: access,
    heirs: codes.map(({ b, shareId }) => ({
      shareId,
      name: b.name,
      address: b.address,
      relationship: b.relationship ?? null,
      emailBound: b.email !== undefined,
    })),
    state: 'armed',
    watched: false,
    verification: null,
    triggeredAt: null,
    triggerEventId: null,
    lastEvent: null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  await store.transact(async (tx) => {
    if ((await tx.idsBy(MEMOIR_HEIR_PLANS, 'ownerId', ownerId)).length >= HEIR_LIMITS.plansPerAccount) {
      throw new ApiError(
        'CONFLICT',
        `An account links at most ${HEIR_LIMITS.plansPerAccount} plans; unlink one first.`,
      );
    }
    await tx.put(MEMOIR_HEIR_PLANS, record);
    const voice = await ownerVoice(tx, ownerId);
    for (const { b, shareId, hash, code } of codes) {
      const claimEmail = b.email?.toLowerCase() ?? null;
      // An heir with an address is mailed their own code, and only theirs; the owner never sees it.
      const mail = claimEmail
        ? await mailHeir(
            tx,
            ownerId,
            { email: claimEmail, name: b.name },
            'heir-invitation',
            { ownerName: voice.name, claimCode: code, claimLink: heirGuideLink('invitation', voice.locale) },
            voice.locale,
            clock,
          )
        : undefined;
      const grant: MailedGrant = {
        id: shareId,
        ownerId,
        kind: 'memoir',
        collections: SHARED_MEMOIR_COLLECTIONS,
        permissions: permissionsOf(access),
        title,
        label: b.name,
        sourceId: planId,
        claimHash: hash,
        claimEmail,
        granteeId: null,
        claimedAt: null,
        opensAt: null,
        expiresAt: null,
        revokedAt: null,
        createdAt: nowIso,
        updatedAt: nowIso,
        ...(mail ? { codeMail: { id: mail.id, at: mail.createdAt } } : {}),
      };
      if (mail) mailedAt.set(shareId, mail.createdAt);
      await tx.put(GRANTS, grant);
    }
  });
  return {
    plan: planView(record),
    codes: codes.map(({ b, shareId, code }) => {
      const at = mailedAt.get(shareId) ?? null;
      return {
        shareId,
        heir: b.name,
        address: b.address,
        delivery: at ? ('email' as const) : ('owner' as const),
        code: at ? null : code,
        mailedAt: at,
      };
    }),
  };
}

export async function listPlans(store: Store, ownerId: string, clock: Clock) {
  // What the owner reads is current: verifications whose period is over are completed first.
  await settleDue(store, await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', ownerId), clock);
  const plans = await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', ownerId);
  return { items: [...plans].sort((a, b) => (a.id < b.id ? 1 : -1)).map(planView) };
}

/** Changes heirs' access of a plan; its shares follow at once (opened, or closed again, when the switch has fired). */
export async function updatePlan(
  store: Store,
  _ownerId: string,
  planId: string,
  patch: { label?: string | undefined; heirAccess?: Partial<HeirAccess> | undefined },
  clock: Clock,
) {
  const nowIso = clock.now().toISOString();
  return store.transact(async (tx) => {
    const plan = await planIn(tx, planId);
    const next: HeirPlanRecord = {
      ...plan,
      label: patch.label === undefined ? plan.label : cleanLabel(patch.label, plan.label),
      heirAccess: {
        ...plan.heirAccess,
        ...Object.fromEntries(Object.entries(patch.heirAccess ?? {}).filter(([, v]) => v !== undefined)),
      },
      updatedAt: nowIso,
    };
    await tx.put(MEMOIR_HEIR_PLANS, next);
    await syncShares(tx, next, nowIso);
    // Access turned on after the switch fired opens the shares now: their heirs are told, as at any opening.
    if (next.state === 'triggered') await mailOpenedShares(tx, next, nowIso, clock);
    return planView(next);
  });
}

/**
 * Unlinks a plan: its shares are withdrawn (kept as revoked, so their holders are told so), and the vaults linked to
 * it are unlinked in the same write (a `vault.updated` event each): a vault left naming a deleted plan would look
 * linked to its owner and never reach an heir.
 */
export async function unlinkPlan(store: Store, ownerId: string, planId: string, clock: Clock) {
  const nowIso = clock.now().toISOString();
  return store.transact(async (tx) => {
    await planIn(tx, planId);
    let revoked = 0;
    for (const g of await sharesOf(tx, ownerId, planId)) {
      if (g.revokedAt) continue;
      const { grant } = await returnAllowanceInTx(tx, g, clock.now());
      await tx.put(GRANTS, { ...grant, revokedAt: nowIso, claimHash: null, updatedAt: nowIso });
      revoked += 1;
    }
    const vaults = (await tx.findBy<VaultRecord>(VAULTS, 'planId', planId)).filter((v) => v.ownerId === ownerId);
    for (const vault of vaults) {
      await tx.put<VaultRecord>(VAULTS, { ...vault, planId: null, updatedAt: nowIso });
      const data = { vaultId: vault.id, planId: null, change: 'plan.unlinked' };
      await recordEvent(tx, { type: 'vault.updated', ownerId, data }, clock);
    }
    await tx.delete(MEMOIR_HEIR_PLANS, planId);
    return { deleted: true, sharesRevoked: revoked, vaultsUnlinked: vaults.length };
  });
}

export interface DeadmanReport {
  type: PlanEventType;
  transactionHash?: string | undefined;
  network?: string | undefined;
  blockNumber?: number | undefined;
}

/**
 * Records a dead man's switch event of a linked plan (and queues it for the account's webhooks in the same write).
 * `deadman.triggered` starts a verification once (again: the first event is answered); `deadman.reset`, a check-in,
 * ends a waiting verification, or an opened trigger while no share has opened (refused once one has). A plan
 * followed on chain refuses reports: the chain decides.
 */
export async function reportDeadmanEvent(
  store: Store,
  ownerId: string,
  planId: string,
  report: DeadmanReport,
  clock: Clock,
  reporter: string,
) {
  const result = await store.transact(async (tx) => {
    const plan = await settle(tx, await planIn(tx, planId), clock);
    const nowIso = clock.now().toISOString();
    if (plan.watched) {
      throw new ApiError(
        'CONFLICT',
        'This plan is watched on chain: its switch events come from the chain, not from reports.',
      );
    }
    const shares = await sharesOf(tx, ownerId, planId);
    if (report.type === 'deadman.triggered' && plan.state !== 'armed') {
      return {
        started: false,
        eventId: plan.triggerEventId!,
        recorded: false,
        plan: planView(plan),
        sharesScheduled: shares.filter((g) => g.opensAt && !g.revokedAt).length,
      };
    }
    if (report.type === 'deadman.warning' && plan.state !== 'armed') {
      throw new ApiError('CONFLICT', "This plan's switch was reported fired already: a warning no longer applies.");
    }
    let next: HeirPlanRecord = plan;
    let cancelled = 0;
    if (report.type === 'deadman.reset' && plan.state === 'verifying') {
      cancelled = shares.filter((g) => !g.revokedAt && g.opensAt).length;
      next = await failVerification(tx, plan, 'check-in', clock);
    } else if (report.type === 'deadman.reset' && plan.state === 'triggered') {
      const opened = shares.filter((g) => !g.revokedAt && g.opensAt && g.opensAt <= nowIso);
      if (opened.length) {
        throw new ApiError(
          'CONFLICT',
          `The switch fired and shares opened at ${opened[0]!.opensAt}: a check-in cannot close them. Withdraw them with revoke_memoir_share.`,
        );
      }
      cancelled = shares.filter((g) => !g.revokedAt && g.opensAt).length;
      next = { ...plan, state: 'armed', triggeredAt: null, triggerEventId: null };
    }
    next = { ...next, updatedAt: nowIso };
    let started: Verification | null = null;
    if (report.type === 'deadman.triggered') {
      const waitDays = effectiveAccess(plan.heirAccess).openAfterDays;
      started = {
        startedAt: nowIso,
        endsAt: plusDays(nowIso, waitDays),
        reporter,
        state: 'waiting',
        failedBy: null,
        endedAt: null,
      };
      next = { ...next, state: 'verifying', triggeredAt: nowIso, verification: started };
    }
    const scheduled = await syncShares(tx, next, nowIso);
    const data: Record<string, unknown> = {
      planId,
      blockchain: plan.blockchain,
      ownerAddress: plan.ownerAddress,
      contractAddress: plan.contractAddress,
      ...(report.transactionHash !== undefined ? { transactionHash: report.transactionHash } : {}),
      ...(report.network !== undefined ? { network: report.network } : {}),
      ...(report.blockNumber !== undefined ? { blockNumber: report.blockNumber } : {}),
    };
    if (report.type === 'deadman.triggered') data.memoirSharesScheduled = scheduled;
    if (report.type === 'deadman.reset') data.memoirSharesCancelled = cancelled;
    const event = await recordEvent(tx, { type: report.type, ownerId, data }, clock);
    if (started) {
      const channels = await notifyOwner(
        tx,
        next,
        started,
        'verification.started',
        { planId, startedAt: started.startedAt, endsAt: started.endsAt, memoirSharesScheduled: scheduled },
        clock,
      );
      next = { ...next, verification: { ...started, channels } };
    }
    next = { ...next, lastEvent: { type: report.type, eventId: event.id, at: nowIso } };
    if (report.type === 'deadman.triggered') next.triggerEventId = event.id;
    await tx.put(MEMOIR_HEIR_PLANS, next);
    return {
      started: started !== null,
      eventId: event.id,
      recorded: true,
      plan: planView(next),
      sharesScheduled: report.type === 'deadman.triggered' ? scheduled : 0,
    };
  });
  // The owner's next call is a sign of life from now on, even if one was passed on moments ago.
  if (result.started) forgetSignsOfLife(ownerId);
  const { started: _started, ...answer } = result;
  return answer;
}

/** The owner's shares, newest first (optionally of one plan). */
export async function ownerShares(store: Store, ownerId: string, now: Date, planId?: string) {
  if (planId && !(await store.get(MEMOIR_HEIR_PLANS, planId))) throw notFound();
  const all = planId
    ? await sharesOf(store, ownerId, planId)
    : await store.findBy<GrantRecord>(GRANTS, 'ownerId', ownerId);
  const items = all.filter((g) => g.kind === 'memoir').sort((a, b) => (a.id < b.id ? 1 : -1));
  return { items: await Promise.all(items.map(async (g) => ownerShareView(g, now, await codeMailOf(store, g)))) };
}

async function shareIn(tx: Pick<Tx, 'get'>, shareId: string): Promise<GrantRecord> {
  const g = await tx.get<GrantRecord>(GRANTS, shareId);
  if (g?.kind !== 'memoir') throw new ApiError('NOT_FOUND', 'No share with this id in your account.');
  return g;
}

/** Withdraws one share for good (its holder loses access at once; its code stops working). */
export async function revokeShare(store: Store, shareId: string, clock: Clock) {
  const now = clock.now();
  const nowIso = now.toISOString();
  return store.transact(async (tx) => {
    const g = await shareIn(tx, shareId);
    let next = g;
    if (!g.revokedAt) {
      // What is left of its heirs' chat allowance goes back to the owner in the same write.
      const { grant } = await returnAllowanceInTx(tx, g, now);
      next = { ...grant, revokedAt: nowIso, claimHash: null, updatedAt: nowIso };
      await tx.put(GRANTS, next);
    }
    return ownerShareView(next, now, await codeMailOf(tx, next));
  });
}

/**
 * A new claim code for a share (the old one stops working, and whoever claimed it loses it): mailed to an heir with
 * an address, in the answer otherwise. The heir of a share not open yet gets the invitation again; the heir of an
 * open share is told that the earlier code no longer works and that access continues once they claim with this one.
 */
export async function reissueShareCode(store: Store, shareId: string, clock: Clock) {
  const now = clock.now();
  const nowIso = now.toISOString();
  return store.transact(async (tx) => {
    const g = await shareIn(tx, shareId);
    if (g.revokedAt) throw new ApiError('CONFLICT', 'This share was withdrawn; link the plan again to give a new one.');
    const { code, hash } = newClaimCode();
    let next: MailedGrant = { ...g, claimHash: hash, granteeId: null, claimedAt: null, updatedAt: nowIso };
    let mail: MailRecord | undefined;
    // An heir with an address gets the new code by mail only, as with the first one.
    if (g.claimEmail) {
      const voice = await ownerVoice(tx, g.ownerId);
      const open = grantState(g, now) === 'open';
      mail = await mailHeir(
        tx,
        g.ownerId,
        { email: g.claimEmail, name: g.label },
        open ? 'heir-new-code' : 'heir-invitation',
        {
          ownerName: voice.name,
          claimCode: code,
          claimLink: heirGuideLink(open ? 'new-code' : 'invitation', voice.locale),
        },
        voice.locale,
        clock,
      );
      next = { ...next, codeMail: { id: mail.id, at: mail.createdAt } };
    }
    await tx.put(GRANTS, next);
    return {
      share: ownerShareView(next, now, mail),
      delivery: mail ? ('email' as const) : ('owner' as const),
      code: mail ? null : code,
      mailedAt: mail?.createdAt ?? null,
    };
  });
}

export type { GrantState };
