import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Tier } from './scopes.js';
import { declareTenantCollection } from './tenancy.js';

/** Accounts, the unit of tenancy; an account record belongs to itself. */
export const ACCOUNTS = 'accounts';
declareTenantCollection(ACCOUNTS, 'id');
export const ACCOUNT_INDEXES = ['kind', 'status'];

/** The people who sign in, each in one account, and their sessions (src/accounts/sessions.ts). */
export const USERS = 'users';
export const SESSIONS = 'sessions';
declareTenantCollection(USERS);
declareTenantCollection(SESSIONS);

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
/** operator: the one that runs the service; customer: made by the operator; personal: made by a user registering. */
export const ACCOUNT_KINDS = ['operator', 'customer', 'personal'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export interface AccountRecord {
  [field: string]: unknown;
  id: string;
  name: string;
  tier: Tier;
  kind: AccountKind;
  email: string | null;
  status: AccountStatus;
  createdAt: string;
  updatedAt: string;
  suspendedAt: string | null;
  /** Bytes the account may store, set by the operator; missing or null: the server's default (src/accounts/quota.ts). */
  storageQuotaBytes?: number | null;
}

export const TIER_RANK: Record<Tier, number> = { public: 0, partner: 1, internal: 2 };

export function newAccount(
  input: { name: string; tier: Tier; kind: AccountKind; email?: string | null | undefined },
  clock: Clock,
): AccountRecord {
  const now = clock.now().toISOString();
  return {
    id: newId('account'),
    name: input.name,
    tier: input.tier,
    kind: input.kind,
    email: input.email ?? null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    suspendedAt: null,
  };
}

/**
 * The account's record, for the admission check (raw store: runs before any principal exists). Here rather than in
 * accounts.ts so that the light key check of `svc mcp` (src/access/light-key.ts) can use it without loading zod.
 */
export function accountProblem(account: AccountRecord | undefined): ApiError | undefined {
  if (!account) return new ApiError('API_KEY_INVALID', 'The credentials belong to no account.');
  if (account.status === 'suspended') {
    return new ApiError(
      'ACCOUNT_SUSPENDED',
      'This account is suspended: its keys and sessions are refused until the operator re-activates it.',
    );
  }
  return undefined;
}
