/**
 * The records of heirs' access to a memoir: linked plans, their heirs, and how their shares (grants) follow a plan's
 * state. src/memoir/heirs.ts has the operations; src/memoir/verification.ts the waiting period before shares open.
 */
import { ApiError } from '../core/errors.js';
import type { Tx } from '../store/port.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import { GRANTS, grantState, type GrantPermission, type GrantRecord } from '../accounts/grants.js';
import type { Plan } from '../contracts/plan.js';
import { MAIL, type MailRecord, type MailState } from '../events/mail.js';
import { MEMOIR_ANSWERS, MEMOIR_JOURNAL, MEMOIR_MEDIA, MEMOIR_PROFILES } from './records.js';

export const MEMOIR_HEIR_PLANS = 'memoir_heir_plans';
declareTenantCollection(MEMOIR_HEIR_PLANS);
export const HEIR_PLAN_INDEXES: Record<string, string[]> = { [MEMOIR_HEIR_PLANS]: ['ownerId', 'state'] };

/** What an heir's share covers: the memoir itself, never the owner's chat history, prompts or anything else. */
export const SHARED_MEMOIR_COLLECTIONS = [MEMOIR_PROFILES, MEMOIR_JOURNAL, MEMOIR_ANSWERS, MEMOIR_MEDIA];

export const HEIR_LIMITS = { plansPerAccount: 20, label: 120 } as const;

export const HEIR_DEFAULTS = { openAfterDays: 7, accessDays: 365 } as const;

/** The shortest waiting period between a reported trigger and the shares opening: never less, whatever is stored. */
export const MIN_WAIT_DAYS = 7;

export interface HeirAccess {
  enabled: boolean;
  /** The waiting period: days between a reported trigger and the shares opening (at least MIN_WAIT_DAYS). */
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

/** How the owner was told of a verification: a webhook event delivery, and/or a message to a confirmed address. */
export type NotifyChannel = 'webhook' | 'email';

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
  /** `armed`; `verifying` from a reported trigger until its waiting period ends; then `triggered`. */
  state: 'armed' | 'verifying' | 'triggered';
  /** Followed on chain by a watcher: only the chain opens its shares, reports are refused. Absent on older records. */
  watched?: boolean;
  /** The verification of the last reported trigger. Absent on older records. */
  verification?: Verification | null;
  triggeredAt: string | null;
  triggerEventId: string | null;
  lastEvent: { type: PlanEventType; eventId: string; at: string } | null;
  /** The owner's last check-in through a mailed check-in link (ISO 8601). Absent on older records. */
  checkedInAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Verification {
  startedAt: string;
  /** When the shares open if no sign of life comes first. */
  endsAt: string;
  /**
   * The credential that reported the trigger (`key:<id>`, `session:<id>`; `user:<id>` on records written when every
   * session of a user counted as one; `chain:<network>:<address>`): its own calls are no sign of life.
   */
  reporter: string;
  state: 'waiting' | 'failed' | 'complete';
  /** Why it failed: `check-in`, `sign-in`, `key` or `session`. */
  failedBy: string | null;
  endedAt: string | null;
  /** The channels the owner was told on when it started. Absent on older records. */
  channels?: NotifyChannel[];
}

export interface LinkInput {
  label?: string | undefined;
  plan: Plan;
  contractAddress?: string | undefined;
  heirAccess?: Partial<HeirAccess> | undefined;
  heirs?: string[] | undefined;
}

export const DAY_MS = 86_400_000;

/**
 * The service's own check-in deadline of a plan (epoch ms): its interval after the last check-in, which is the last
 * reported `deadman.reset`, the last mailed check-in link opened, or else the linking. A plan followed on chain has
 * the chain's deadline instead, which the chain watcher warns about.
 */
export function checkInDeadline(p: HeirPlanRecord): number {
  const marks = [p.createdAt, p.checkedInAt ?? '', p.lastEvent?.type === 'deadman.reset' ? p.lastEvent.at : ''];
  const last = Math.max(...marks.filter(Boolean).map((m) => Date.parse(m)));
  return last + p.intervalDays * DAY_MS;
}
export const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** Heirs' access as it applies: a waiting period stored shorter than the minimum (older records) counts as the minimum. */
export function effectiveAccess(access: HeirAccess): HeirAccess {
  return access.openAfterDays >= MIN_WAIT_DAYS ? access : { ...access, openAfterDays: MIN_WAIT_DAYS };
}

export function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No linked plan with this id in your account.');
}

/**
 * The message that carried a share's current claim code to its heir's address: the code is mailed to an heir with an
 * address and never shown to the owner, who sees only that it was mailed, when, and how the sending went.
 */
export interface CodeMailRef {
  /** The outbox record (`mail_...`). */
  id: string;
  /** When it was queued (ISO 8601). */
  at: string;
}

/** A share record with the reference to the mail that carried its current code, when it was mailed. */
export type MailedGrant = GrantRecord & { codeMail?: CodeMailRef | undefined };

/** How a share's code reaches its heir: by mail to the bound address, or from the owner's hand. */
export const codeDelivery = (g: GrantRecord): 'email' | 'owner' => (g.claimEmail ? 'email' : 'owner');

/** Where the mailing of a share's current code stands, from its outbox record (when it was not read: unknown). */
function codeMailView(g: MailedGrant, mail: MailRecord | undefined) {
  if (!g.codeMail) return null;
  return {
    queuedAt: g.codeMail.at,
    state: (mail?.state ?? null) as MailState | null,
    sentAt: mail ? mail.sentAt : null,
  };
}

/** The outbox record of the mail that carried a share's code, if any (read through the owner's account view). */
export async function codeMailOf(tx: Pick<Tx, 'get'>, g: MailedGrant): Promise<MailRecord | undefined> {
  return g.codeMail ? tx.get<MailRecord>(MAIL, g.codeMail.id) : undefined;
}

/** A share as its owner sees it; `mail` is the outbox record of the mail that carried its code, when read. */
export function ownerShareView(g: MailedGrant, now: Date, mail?: MailRecord) {
  return {
    shareId: g.id,
    planId: g.sourceId,
    heir: g.label,
    state: grantState(g, now),
    claimed: g.granteeId !== null,
    claimedAt: g.claimedAt,
    emailBound: g.claimEmail !== null,
    codeDelivery: codeDelivery(g),
    codeMail: codeMailView(g, mail),
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
    heirAccess: effectiveAccess(p.heirAccess),
    heirs: p.heirs,
    state: p.state,
    watched: p.watched === true,
    verification: p.verification
      ? {
          state: p.verification.state,
          startedAt: p.verification.startedAt,
          endsAt: p.verification.endsAt,
          failedBy: p.verification.failedBy,
          endedAt: p.verification.endedAt,
          channels: p.verification.channels ?? [],
        }
      : null,
    triggeredAt: p.triggeredAt,
    lastEvent: p.lastEvent,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function planIn(tx: Pick<Tx, 'get'>, id: string): Promise<HeirPlanRecord> {
  const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, id);
  if (!plan) throw notFound();
  return plan;
}

export async function sharesOf(tx: Pick<Tx, 'findBy'>, ownerId: string, planId: string): Promise<GrantRecord[]> {
  return (await tx.findBy<GrantRecord>(GRANTS, 'sourceId', planId)).filter(
    (g) => g.ownerId === ownerId && g.kind === 'memoir',
  );
}

/** What heirs may do with a share of a plan with this access. */
export const permissionsOf = (access: HeirAccess): GrantPermission[] =>
  access.allowChat ? ['read', 'chat'] : ['read'];

/** Whether a plan's waiting period after a reported trigger has run out unbroken (its verification is due to complete). */
export function waitingOver(plan: HeirPlanRecord, nowIso: string): boolean {
  const v = plan.verification;
  return plan.state === 'verifying' && v?.state === 'waiting' && v.endsAt <= nowIso;
}

/** Opening times of a plan's shares: when its verification ends, or its waiting period after the trigger. */
export function schedule(plan: HeirPlanRecord, nowIso: string): { opensAt: string; expiresAt: string } {
  const access = effectiveAccess(plan.heirAccess);
  const planned = plan.verification?.endsAt ?? plusDays(plan.triggeredAt!, access.openAfterDays);
  const opensAt = planned > nowIso ? planned : nowIso;
  return { opensAt, expiresAt: plusDays(opensAt, access.accessDays) };
}

/**
 * Brings a plan's live shares in line with the plan: scheduled while the switch
 * has fired and heirs' access is on, closed again (pending) otherwise. Revoked
 * shares stay revoked; shares already open keep their times.
 */
export async function syncShares(tx: Tx, plan: HeirPlanRecord, nowIso: string): Promise<number> {
  const permissions = permissionsOf(plan.heirAccess);
  const opening = (plan.state === 'triggered' || plan.state === 'verifying') && plan.heirAccess.enabled;
  let open = 0;
  for (const g of await sharesOf(tx, plan.ownerId, plan.id)) {
    if (g.revokedAt) continue;
    if (opening) open += 1;
    const times = !opening
      ? { opensAt: null, expiresAt: null }
      : g.opensAt
        ? { opensAt: g.opensAt, expiresAt: g.expiresAt }
        : schedule(plan, nowIso);
    if (times.opensAt === g.opensAt && times.expiresAt === g.expiresAt && permissions.join() === g.permissions.join())
      continue;
    await tx.put(GRANTS, { ...g, ...times, permissions, updatedAt: nowIso });
  }
  return open;
}
