/**
 * Grants: the only way one account reads another account's records.
 *
 * A grant belongs to the account that gives it (the grantor, `ownerId`), like
 * every record, and is written through the grantor's own view. It names the
 * collections it covers and what it permits. It is bound to the receiving
 * account (the grantee) by a claim code the grantor hands over out of band:
 * only the code's SHA-256 is stored. It is open between `opensAt` and
 * `expiresAt`, unless revoked. The shared wrapper (src/access/share.ts) opens a
 * grant for tools that declare one, and the handler then gets a read-only view
 * of the grantor's covered collections (src/accounts/tenancy.ts grantedStore).
 *
 * The cross-account operations (claiming by code, listing what an account
 * holds, opening one, and recording a use of an opened one in the grantor's
 * account) are here and nowhere else.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../core/errors.js';
import type { Doc, Store } from '../store/port.js';
import { recordEvent } from '../events/events.js';
import { accountStore, declareTenantCollection, grantedStore } from './tenancy.js';

export const GRANTS = 'grants';
declareTenantCollection(GRANTS);
/** Indexed fields of the grants collection (src/app.ts STORE_INDEXES). */
export const GRANT_INDEXES = ['ownerId', 'granteeId', 'claimHash', 'sourceId'];

/** What a grant lets its holder do with the covered records: read them, or also talk to the agent built from them. */
export type GrantPermission = 'read' | 'chat';

/**
 * - `pending`: given but not opened yet (for a memoir: the owner's dead man's switch has not fired);
 * - `waiting`: opening is scheduled (`opensAt` in the future);
 * - `open`; `expired`; `revoked`.
 */
export type GrantState = 'pending' | 'waiting' | 'open' | 'expired' | 'revoked';

export interface GrantRecord {
  [field: string]: unknown;
  /** `shr_<ulid>`. */
  id: string;
  /** The grantor's account. */
  ownerId: string;
  /** What is shared (the only kind today: `memoir`). */
  kind: 'memoir';
  /** Collections of the grantor the holder may read. */
  collections: string[];
  permissions: GrantPermission[];
  /** What the holder is shown (the memoir's name). */
  title: string;
  /** Who it is for, as the grantor named them (an heir's name): shown to the grantor only. */
  label: string;
  /** The record that made it (a memoir heir plan), or null. */
  sourceId: string | null;
  /** SHA-256 (hex) of the claim code; null once revoked. */
  claimHash: string | null;
  /** When set, only a signed-in user with this email (lower case) may claim it. */
  claimEmail: string | null;
  /** The account holding it, once claimed. */
  granteeId: string | null;
  claimedAt: string | null;
  /** When it opens (null: not scheduled yet). */
  opensAt: string | null;
  /** When it closes for good (null: while not scheduled). */
  expiresAt: string | null;
  revokedAt: string | null;
  /** When its heir was mailed that it opened (once), if it is bound to an email. Absent otherwise. */
  openMailedAt?: string | undefined;
  /**
   * Credits the grantor prepaid for the holder's use (a memoir's heirs' chat): spent before the holder's own credits.
   * Absent: none.
   */
  allowance?: number;
  createdAt: string;
  updatedAt: string;
}

/** The state of a grant at `now`. */
export function grantState(g: Pick<GrantRecord, 'revokedAt' | 'opensAt' | 'expiresAt'>, now: Date): GrantState {
  if (g.revokedAt) return 'revoked';
  if (!g.opensAt) return 'pending';
  const t = now.getTime();
  if (g.expiresAt && t >= Date.parse(g.expiresAt)) return 'expired';
  if (t < Date.parse(g.opensAt)) return 'waiting';
  return 'open';
}

const CODE_PREFIX = 'shc_';
const CODE_PATTERN = /^shc_[A-Za-z0-9_-]{43}$/;

export const hashClaimCode = (code: string): string => createHash('sha256').update(code).digest('hex');

/** A new claim code (256 random bits) and the hash that is stored. The code itself is shown once and never kept. */
export function newClaimCode(): { code: string; hash: string } {
  const code = CODE_PREFIX + randomBytes(32).toString('base64url');
  return { code, hash: hashClaimCode(code) };
}

function notAvailable(
  reason: 'pending' | 'waiting' | 'expired' | 'revoked' | 'email' | 'permission',
  message: string,
): ApiError {
  return new ApiError('SHARE_NOT_AVAILABLE', message, [{ field: reason === 'email' ? 'code' : 'shareId', reason }]);
}

/**
 * Binds the grant whose claim code this is to the claiming account. Idempotent for
 * the account that holds it already; a grant held by another account stays theirs.
 */
export async function claimGrant(
  store: Store,
  code: string,
  claimant: { accountId: string; email: string | null },
  nowIso: string,
): Promise<GrantRecord> {
  if (!CODE_PATTERN.test(code)) {
    throw ApiError.validation('Invalid share code', [
      { field: 'code', reason: 'a share code looks like shc_ followed by 43 letters, digits, - or _' },
    ]);
  }
  const hash = hashClaimCode(code);
  return store.transact(async (tx) => {
    const [grant] = await tx.findBy<GrantRecord>(GRANTS, 'claimHash', hash);
    if (!grant || grant.revokedAt)
      throw new ApiError(
        'NOT_FOUND',
        'No share matches this code: it may have been replaced or withdrawn by its owner.',
      );
    if (grant.ownerId === claimant.accountId)
      throw new ApiError('CONFLICT', 'This share was given by your own account: it is for the heir it names.');
    if (grant.granteeId === claimant.accountId) return grant;
    if (grant.granteeId !== null)
      throw new ApiError(
        'CONFLICT',
        'This share has been claimed by another account already. Ask its owner for a new code.',
      );
    if (grant.claimEmail !== null && grant.claimEmail !== claimant.email?.toLowerCase()) {
      throw notAvailable(
        'email',
        'This share is for a user with another email address: sign in as that user to claim it.',
      );
    }
    const claimed: GrantRecord = { ...grant, granteeId: claimant.accountId, claimedAt: nowIso, updatedAt: nowIso };
    await tx.put(GRANTS, claimed);
    return claimed;
  });
}

/** The grants an account holds (claimed by it), newest first. */
export async function grantsHeldBy(store: Store, granteeId: string): Promise<GrantRecord[]> {
  const held = await store.findBy<GrantRecord>(GRANTS, 'granteeId', granteeId);
  return held.sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** What a tool acting through a grant receives. */
export interface GrantedAccess {
  grant: GrantRecord;
  /** The grantor's account: the owner of the records the view shows. */
  grantorId: string;
  /** The grantor's covered collections, read-only. */
  store: Store;
  /**
   * Records one use of the grant in the grantor's account, in one write: an entry in a collection declared with
   * `declareGrantLog` (its `ownerId` is the grantor's, its `grantId` this grant's) and an event in the grantor's event
   * log (and so their webhooks). The only write a holder's call makes in the grantor's account.
   */
  logUse(collection: string, entry: Doc, event: { type: string; data: Record<string, unknown> }): Promise<void>;
  /**
   * The credits the grantor prepaid on this grant: `take` spends some when the whole amount is left (else takes
   * nothing and answers false); `giveBack` returns what was taken for work that then failed (to the grantor's wallet
   * when the grant was withdrawn meanwhile: src/access/share.ts).
   */
  allowance: { take(credits: number): Promise<boolean>; giveBack(credits: number): Promise<void> };
}

/** A grant as `openGrant` opens it: what gives prepaid credits back is the caller's to add (it pays into a wallet). */
export type OpenedGrant = Omit<GrantedAccess, 'allowance'> & { allowance: Pick<GrantedAccess['allowance'], 'take'> };

/** Collections in which a use of a grant is recorded for its grantor (an access log). */
const GRANT_LOGS = new Set<string>();

/** Declares `collection` (an account collection) as a log of grant uses, written by `GrantedAccess.logUse`. */
export function declareGrantLog(collection: string): void {
  GRANT_LOGS.add(collection);
}

function grantUseLogger(store: Store, grant: GrantRecord, now: Date): GrantedAccess['logUse'] {
  return async (collection, entry, event) => {
    if (!GRANT_LOGS.has(collection)) throw new Error(`${collection} is not declared as a log of grant uses`);
    const record = { ...entry, ownerId: grant.ownerId, grantId: grant.id };
    await accountStore(store, grant.ownerId).transact(async (tx) => {
      await tx.put(collection, record);
      await recordEvent(tx, { type: event.type, ownerId: grant.ownerId, data: event.data }, { now: () => now });
    });
  };
}

/** Takes `credits` from a grant's prepaid credits in one transaction, unless that would take it below zero; answers whether it did. */
async function takeAllowance(store: Store, grantId: string, credits: number, nowIso: string): Promise<boolean> {
  return store.transact(async (tx) => {
    const current = await tx.get<GrantRecord>(GRANTS, grantId);
    if (!current) return false;
    const next = (current.allowance ?? 0) - credits;
    if (next < 0) return false;
    await tx.put(GRANTS, { ...current, allowance: next, updatedAt: nowIso });
    return true;
  });
}

/**
 * Opens a grant the caller holds for one use: 404 when the caller holds no grant
 * with this id (another account's grant does not exist for it), 403
 * SHARE_NOT_AVAILABLE when it is not open now or does not permit the use.
 */
export async function openGrant(
  store: Store,
  grantId: string,
  granteeId: string,
  permission: GrantPermission,
  now: Date,
): Promise<OpenedGrant> {
  const grant = await store.get<GrantRecord>(GRANTS, grantId);
  if (!grant || grant.granteeId !== granteeId)
    throw new ApiError('NOT_FOUND', 'You hold no share with this id (claim it first with its code).');
  const state = grantState(grant, now);
  if (state === 'revoked') throw notAvailable('revoked', 'Its owner has withdrawn this share.');
  if (state === 'pending')
    throw notAvailable('pending', 'This share is not open: it opens when the owner’s dead man’s switch fires.');
  if (state === 'waiting') throw notAvailable('waiting', `This share opens at ${grant.opensAt}.`);
  if (state === 'expired') throw notAvailable('expired', `This share expired at ${grant.expiresAt}.`);
  if (!grant.permissions.includes(permission))
    throw notAvailable(
      'permission',
      `This share does not permit ${permission === 'chat' ? 'talking with the agent' : 'reading'}.`,
    );
  const nowIso = now.toISOString();
  return {
    grant,
    grantorId: grant.ownerId,
    store: grantedStore(store, grant.ownerId, grant.collections),
    logUse: grantUseLogger(store, grant, now),
    allowance: {
      take: (credits) => (credits > 0 ? takeAllowance(store, grant.id, credits, nowIso) : Promise.resolve(true)),
    },
  };
}

/**
 * Adds prepaid credits to a grant of the caller's own (the grantor's account view of the store): 404 for a grant it
 * does not own. Answers the new allowance.
 */
export async function addAllowance(store: Store, grantId: string, credits: number, nowIso: string): Promise<number> {
  return store.transact(async (tx) => {
    const current = await tx.get<GrantRecord>(GRANTS, grantId);
    if (!current) throw ApiError.notFound(`Share ${grantId.slice(0, 60)}`);
    const allowance = (current.allowance ?? 0) + credits;
    await tx.put(GRANTS, { ...current, allowance, updatedAt: nowIso });
    return allowance;
  });
}

/**
 * The grantee's side of grants for one account, as handlers get it (ctx.grants):
 * claiming by code and listing what the account holds, without the raw store.
 */
export class GrantDesk {
  constructor(
    private readonly store: Store,
    private readonly accountId: string,
  ) {}

  /** Binds the grant of this claim code to the account (`email`: the signed-in user's, or null for a key). */
  claim(code: string, email: string | null, nowIso: string): Promise<GrantRecord> {
    return claimGrant(this.store, code, { accountId: this.accountId, email }, nowIso);
  }

  /** The grants the account holds, newest first. */
  held(): Promise<GrantRecord[]> {
    return grantsHeldBy(this.store, this.accountId);
  }

  /** Opens a grant the account holds for one use, as a tool acting through it is given it (`openGrant`). */
  open(grantId: string, permission: GrantPermission, now: Date): Promise<OpenedGrant> {
    return openGrant(this.store, grantId, this.accountId, permission, now);
  }
}
