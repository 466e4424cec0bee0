/**
 * Heirs of a memoir: a memoir's owner links an
 * inheritance plan with a dead man's switch; each beneficiary named for heirs'
 * access gets a share (a grant, src/accounts/grants.ts) with a claim code shown
 * once, for the owner to hand over. When the plan's `deadman.triggered` event
 * arrives (reported by the account's own watcher or the owner), the shares open
 * after a waiting period (a check-in, `deadman.reset`, cancels within it) and
 * stay open for `accessDays`. Heirs' access is off by default: a plan linked
 * without `heirAccess.enabled` never opens anything.
 *
 * Everything here runs through the owner's account view of the store: the
 * plans and grants are the owner's records. What heirs read goes through
 * grants opened by the shared wrapper, never through this module.
 */
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import type { Store, Tx } from '../store/port.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import {
  GRANTS,
  grantState,
  newClaimCode,
  type GrantPermission,
  type GrantRecord,
  type GrantState,
} from '../accounts/grants.js';
import { recordEvent } from '../events/events.js';
import { canonicalAddress, planProblems, withPlanDefaults } from '../contracts/validate.js';
import type { Plan } from '../contracts/plan.js';
import { MEMOIR_ANSWERS, MEMOIR_JOURNAL, MEMOIR_MEDIA, MEMOIR_PROFILES } from './records.js';
import { DEFAULT_AGENT_NAME, readProfile } from './memoir.js';

export const MEMOIR_HEIR_PLANS = 'memoir_heir_plans';
declareTenantCollection(MEMOIR_HEIR_PLANS);
export const HEIR_PLAN_INDEXES: Record<string, string[]> = { [MEMOIR_HEIR_PLANS]: ['ownerId'] };

/** What an heir's share covers: the memoir itself, never the owner's chat history, prompts or anything else. */
export const SHARED_MEMOIR_COLLECTIONS = [MEMOIR_PROFILES, MEMOIR_JOURNAL, MEMOIR_ANSWERS, MEMOIR_MEDIA];

export const HEIR_LIMITS = { plansPerAccount: 20, label: 120 } as const;

export const HEIR_DEFAULTS = { openAfterDays: 7, accessDays: 365 } as const;

export interface HeirAccess {
  enabled: boolean;
  /** Days between the switch firing and the shares opening; a check-in within them cancels. */
  openAfterDays: number;
  /** Days the shares stay open once open. */
  accessDays: number;
  /** Whether heirs may talk with the agent, besides reading. */
  allowChat: boolean;
}

export interface PlanHeir {
  shareId: string;
  name: string;
  address: string;
  relationship: string | null;
  /** Whether claiming needs a signed-in user with the beneficiary's email. */
  emailBound: boolean;
}

export type PlanEventType = 'deadman.warning' | 'deadman.triggered' | 'deadman.reset';

export interface HeirPlanRecord {
  [field: string]: unknown;
  /** `mhp_<ulid>`. */
  id: string;
  ownerId: string;
  label: string;
  blockchain: Plan['blockchain'];
  ownerAddress: string;
  contractAddress: string | null;
  intervalDays: number;
  heirAccess: HeirAccess;
  heirs: PlanHeir[];
  /** `armed` until the switch fires, then `triggered`. */
  state: 'armed' | 'triggered';
  triggeredAt: string | null;
  triggerEventId: string | null;
  lastEvent: { type: PlanEventType; eventId: string; at: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface LinkInput {
  label?: string | undefined;
  plan: Plan;
  contractAddress?: string | undefined;
  heirAccess?: Partial<HeirAccess> | undefined;
  heirs?: string[] | undefined;
}

const DAY_MS = 86_400_000;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

function cleanLabel(raw: string | undefined, fallback: string): string {
  const label = (raw ?? fallback).normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!label || /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(label)) {
    throw ApiError.validation('Invalid label', [
      { field: 'label', reason: 'must be visible text without control characters' },
    ]);
  }
  return label;
}

function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No linked plan with this id in your account.');
}

/** A share as its owner sees it. */
export function ownerShareView(g: GrantRecord, now: Date) {
  return {
    shareId: g.id,
    planId: g.sourceId,
    heir: g.label,
    state: grantState(g, now),
    claimed: g.granteeId !== null,
    claimedAt: g.claimedAt,
    emailBound: g.claimEmail !== null,
    permissions: g.permissions,
    opensAt: g.opensAt,
    expiresAt: g.expiresAt,
    revokedAt: g.revokedAt,
  };
}

/** A share as its holder sees it: nothing of the owner's account but the memoir's title. */
export function heirShareView(g: GrantRecord, now: Date) {
  return {
    shareId: g.id,
    title: g.title,
    state: grantState(g, now),
    permissions: g.permissions,
    claimedAt: g.claimedAt,
    opensAt: g.opensAt,
    expiresAt: g.expiresAt,
  };
}

export function planView(p: HeirPlanRecord) {
  return {
    id: p.id,
    label: p.label,
    blockchain: p.blockchain,
    ownerAddress: p.ownerAddress,
    contractAddress: p.contractAddress,
    intervalDays: p.intervalDays,
    heirAccess: p.heirAccess,
    heirs: p.heirs,
    state: p.state,
    triggeredAt: p.triggeredAt,
    lastEvent: p.lastEvent,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

async function planIn(tx: Pick<Tx, 'get'>, id: string): Promise<HeirPlanRecord> {
  const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, id);
  if (!plan) throw notFound();
  return plan;
}

async function sharesOf(tx: Pick<Tx, 'findBy'>, ownerId: string, planId: string): Promise<GrantRecord[]> {
  return (await tx.findBy<GrantRecord>(GRANTS, 'sourceId', planId)).filter(
    (g) => g.ownerId === ownerId && g.kind === 'memoir',
  );
}

/** What heirs may do with a share of a plan with this access. */
const permissionsOf = (access: HeirAccess): GrantPermission[] => (access.allowChat ? ['read', 'chat'] : ['read']);

/** Opening times of a plan's shares once the switch fired at `triggeredAt` (never earlier than `now`). */
function schedule(access: HeirAccess, triggeredAt: string, nowIso: string): { opensAt: string; expiresAt: string } {
  const planned = plusDays(triggeredAt, access.openAfterDays);
  const opensAt = planned > nowIso ? planned : nowIso;
  return { opensAt, expiresAt: plusDays(opensAt, access.accessDays) };
}

/**
 * Brings a plan's live shares in line with the plan: scheduled while the switch
 * has fired and heirs' access is on, closed again (pending) otherwise. Revoked
 * shares stay revoked; shares already open keep their times.
 */
async function syncShares(tx: Tx, plan: HeirPlanRecord, nowIso: string): Promise<number> {
  const permissions = permissionsOf(plan.heirAccess);
  const opening = plan.state === 'triggered' && plan.heirAccess.enabled;
  let open = 0;
  for (const g of await sharesOf(tx, plan.ownerId, plan.id)) {
    if (g.revokedAt) continue;
    if (opening) open += 1;
    const times = !opening
      ? { opensAt: null, expiresAt: null }
      : g.opensAt
        ? { opensAt: g.opensAt, expiresAt: g.expiresAt }
        : schedule(plan.heirAccess, plan.triggeredAt!, nowIso);
    if (times.opensAt === g.opensAt && times.expiresAt === g.expiresAt && permissions.join() === g.permissions.join())
      continue;
    await tx.put(GRANTS, { ...g, ...times, permissions, updatedAt: nowIso });
  }
  return open;
}

/** Links a plan to the memoir and creates one share per heir; the claim codes are in the answer, once. */
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
    openAfterDays: input.heirAccess?.openAfterDays ?? HEIR_DEFAULTS.openAfterDays,
    accessDays: input.heirAccess?.accessDays ?? HEIR_DEFAULTS.accessDays,
    allowChat: input.heirAccess?.allowChat ?? true,
  };
  const label = cleanLabel(input.label, `${plan.blockchain} plan of ${plan.ownerAddress.slice(0, 12)}`);
  const now = clock.now();
  const nowIso = now.toISOString();
  const title = (await readProfile(store, ownerId))?.agentName ?? DEFAULT_AGENT_NAME;
  const planId = `mhp_${ulid(now.getTime())}`;
  const codes = heirs.map((b) => ({ b, shareId: `shr_${ulid(now.getTime())}`, ...newClaimCode() }));
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
    triggeredAt: null,
    triggerEventId: null,
    lastEvent: null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  await store.transact(async (tx) => {
    if ((await tx.findBy(MEMOIR_HEIR_PLANS, 'ownerId', ownerId)).length >= HEIR_LIMITS.plansPerAccount) {
      throw new ApiError(
        'CONFLICT',
        `An account links at most ${HEIR_LIMITS.plansPerAccount} plans; unlink one first.`,
      );
    }
    await tx.put(MEMOIR_HEIR_PLANS, record);
    for (const { b, shareId, hash } of codes) {
      const grant: GrantRecord = {
        id: shareId,
        ownerId,
        kind: 'memoir',
        collections: SHARED_MEMOIR_COLLECTIONS,
        permissions: permissionsOf(access),
        title,
        label: b.name,
        sourceId: planId,
        claimHash: hash,
        claimEmail: b.email?.toLowerCase() ?? null,
        granteeId: null,
        claimedAt: null,
        opensAt: null,
        expiresAt: null,
        revokedAt: null,
        createdAt: nowIso,
        updatedAt: nowIso,
      };
      await tx.put(GRANTS, grant);
    }
  });
  return {
    plan: planView(record),
    codes: codes.map(({ b, shareId, code }) => ({ shareId, heir: b.name, address: b.address, code })),
  };
}

export async function listPlans(store: Store, ownerId: string) {
  const plans = await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', ownerId);
  return { items: [...plans].sort((a, b) => (a.id < b.id ? 1 : -1)).map(planView) };
}

/** Changes heirs' access of a plan; its shares follow at once (opened, or closed again, when the switch has fired). */
export async function updatePlan(
  store: Store,
  ownerId: string,
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
    return planView(next);
  });
}

/** Unlinks a plan: its shares are withdrawn (kept as revoked, so their holders are told so). */
export async function unlinkPlan(store: Store, ownerId: string, planId: string, clock: Clock) {
  const nowIso = clock.now().toISOString();
  return store.transact(async (tx) => {
    await planIn(tx, planId);
    let revoked = 0;
    for (const g of await sharesOf(tx, ownerId, planId)) {
      if (g.revokedAt) continue;
      await tx.put(GRANTS, { ...g, revokedAt: nowIso, claimHash: null, updatedAt: nowIso });
      revoked += 1;
    }
    await tx.delete(MEMOIR_HEIR_PLANS, planId);
    return { deleted: true, sharesRevoked: revoked };
  });
}

export interface DeadmanReport {
  type: PlanEventType;
  transactionHash?: string | undefined;
  network?: string | undefined;
  blockNumber?: number | undefined;
}

/**
 * Records a dead man's switch event of a linked plan (and queues it for the
 * account's webhooks in the same write). `deadman.triggered` fires the plan once
 * (again: the first event is answered); `deadman.reset` after a trigger cancels
 * it while no share has opened, and is refused once one has.
 */
export async function reportDeadmanEvent(
  store: Store,
  ownerId: string,
  planId: string,
  report: DeadmanReport,
  clock: Clock,
) {
  const now = clock.now();
  const nowIso = now.toISOString();
  return store.transact(async (tx) => {
    const plan = await planIn(tx, planId);
    const shares = await sharesOf(tx, ownerId, planId);
    if (report.type === 'deadman.triggered' && plan.state === 'triggered') {
      return {
        eventId: plan.triggerEventId!,
        recorded: false,
        plan: planView(plan),
        sharesScheduled: shares.filter((g) => g.opensAt && !g.revokedAt).length,
      };
    }
    let next: HeirPlanRecord = { ...plan, updatedAt: nowIso };
    let cancelled = 0;
    if (report.type === 'deadman.warning' && plan.state === 'triggered') {
      throw new ApiError('CONFLICT', "This plan's switch has fired already: a warning no longer applies.");
    }
    if (report.type === 'deadman.reset' && plan.state === 'triggered') {
      const opened = shares.filter((g) => !g.revokedAt && g.opensAt && g.opensAt <= nowIso);
      if (opened.length) {
        throw new ApiError(
          'CONFLICT',
          `The switch fired and shares opened at ${opened[0]!.opensAt}: a check-in cannot close them. Withdraw them with revoke_memoir_share.`,
        );
      }
      cancelled = shares.filter((g) => !g.revokedAt && g.opensAt).length;
      next = { ...next, state: 'armed', triggeredAt: null, triggerEventId: null };
    }
    if (report.type === 'deadman.triggered') next = { ...next, state: 'triggered', triggeredAt: nowIso };
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
    next = { ...next, lastEvent: { type: report.type, eventId: event.id, at: nowIso } };
    if (report.type === 'deadman.triggered') next.triggerEventId = event.id;
    await tx.put(MEMOIR_HEIR_PLANS, next);
    return {
      eventId: event.id,
      recorded: true,
      plan: planView(next),
      sharesScheduled: report.type === 'deadman.triggered' ? scheduled : 0,
    };
  });
}

/** The owner's shares, newest first (optionally of one plan). */
export async function ownerShares(store: Store, ownerId: string, now: Date, planId?: string) {
  if (planId && !(await store.get(MEMOIR_HEIR_PLANS, planId))) throw notFound();
  const all = planId
    ? await sharesOf(store, ownerId, planId)
    : await store.findBy<GrantRecord>(GRANTS, 'ownerId', ownerId);
  return {
    items: all
      .filter((g) => g.kind === 'memoir')
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map((g) => ownerShareView(g, now)),
  };
}

async function shareIn(tx: Pick<Tx, 'get'>, shareId: string): Promise<GrantRecord> {
  const g = await tx.get<GrantRecord>(GRANTS, shareId);
  if (!g || g.kind !== 'memoir') throw new ApiError('NOT_FOUND', 'No share with this id in your account.');
  return g;
}

/** Withdraws one share for good (its holder loses access at once; its code stops working). */
export async function revokeShare(store: Store, shareId: string, clock: Clock) {
  const now = clock.now();
  const nowIso = now.toISOString();
  return store.transact(async (tx) => {
    const g = await shareIn(tx, shareId);
    const next: GrantRecord = g.revokedAt ? g : { ...g, revokedAt: nowIso, claimHash: null, updatedAt: nowIso };
    if (next !== g) await tx.put(GRANTS, next);
    return ownerShareView(next, now);
  });
}

/** A new claim code for a share (the old one stops working, and whoever claimed it loses it). */
export async function reissueShareCode(store: Store, shareId: string, clock: Clock) {
  const now = clock.now();
  const nowIso = now.toISOString();
  return store.transact(async (tx) => {
    const g = await shareIn(tx, shareId);
    if (g.revokedAt) throw new ApiError('CONFLICT', 'This share was withdrawn; link the plan again to give a new one.');
    const { code, hash } = newClaimCode();
    const next: GrantRecord = { ...g, claimHash: hash, granteeId: null, claimedAt: null, updatedAt: nowIso };
    await tx.put(GRANTS, next);
    return { share: ownerShareView(next, now), code };
  });
}

export type { GrantState };
