import { hash, randomBytes } from 'node:crypto';
import type { Store } from '../store/port.js';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Scope, Tier } from '../accounts/scopes.js';
import type { KeyRateLimit } from './limits.js';
import type { Principal } from '../accounts/principal.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import { countWorkingKeysWith } from '../accounts/password-hooks.js';

export const API_KEYS = 'api_keys';
/** Indexed fields of the api_keys collection. */
export const API_KEY_INDEXES = ['keyHash', 'ownerId'];
declareTenantCollection(API_KEYS);

/** The password-change notice says how many of the account's keys keep working (src/accounts/email-flows.ts). */
countWorkingKeysWith(async (tx, accountId, now) => {
  const keys = await tx.findBy<ApiKeyRecord>(API_KEYS, 'ownerId', accountId);
  return keys.filter((k) => keyWorks(k, now)).length;
});

export const KEY_PREFIX: Record<Tier, string> = {
  public: 'svc_pk_',
  partner: 'svc_pt_',
  internal: 'svc_sk_',
};

/** A stored API key. The key value itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  [field: string]: unknown;
  id: string;
  name: string;
  tier: Tier;
  scopes: Scope[];
  ipWhitelist: string[];
  /** Origins that may embed the wizard with this key; missing on keys made before it existed. */
  allowedOrigins?: string[];
  /**
   * The key's own rate limits per bucket, below its account's (src/keys/limits.ts); missing or null: none, the key
   * counts in its account's budget only.
   */
  rateLimit?: KeyRateLimit | null;
  displayPrefix: string;
  keyHash: string;
  ownerId: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /**
   * `user:<userId>` when a user's session made it: a reset of that user's password revokes it with their sessions
   * (src/keys/manage.ts). Absent for keys made by a key or the operator, and on keys made before it was recorded.
   */
  madeBy?: string;
}

export type { Principal } from '../accounts/principal.js';

export function hashKey(value: string): string {
  // One-shot hashing: no Hash object per request on the authentication path.
  return hash('sha256', value, 'hex');
}

/** A new key value: tier prefix plus 256 random bits (43 base64url characters). */
export function generateKeyValue(tier: Tier): string {
  return KEY_PREFIX[tier] + randomBytes(32).toString('base64url');
}

export interface NewKey {
  name: string;
  tier: Tier;
  scopes: Scope[];
  /** The account the key belongs to. */
  ownerId: string;
  ipWhitelist?: string[] | undefined;
  expiresAt?: string | null | undefined;
  /** Normalized origins allowed to embed the wizard (src/keys/origins.ts). */
  allowedOrigins?: string[] | undefined;
  /** The key's own rate limits (lower than its account's); none when omitted. */
  rateLimit?: KeyRateLimit | null | undefined;
  /** `user:<userId>` when a user's session makes it (ApiKeyRecord.madeBy). */
  madeBy?: string | undefined;
}

/** Builds a key record and its value; the caller stores the record and shows the value once. */
export function buildKey(input: NewKey, clock: Clock): { record: ApiKeyRecord; key: string } {
  const key = generateKeyValue(input.tier);
  const record: ApiKeyRecord = {
    id: newId('apiKey'),
    name: input.name,
    tier: input.tier,
    scopes: [...new Set(input.scopes)],
    ipWhitelist: input.ipWhitelist ?? [],
    allowedOrigins: input.allowedOrigins ?? [],
    rateLimit: input.rateLimit ?? null,
    displayPrefix: key.slice(0, KEY_PREFIX[input.tier].length + 4),
    keyHash: hashKey(key),
    ownerId: input.ownerId,
    createdAt: clock.now().toISOString(),
    lastUsedAt: null,
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
    ...(input.madeBy ? { madeBy: input.madeBy } : {}),
  };
  return { record, key };
}

// Module-level rather than a closure in usableKey: under tsx every local
// function expression gets a name-keeping Object.defineProperty call per use.
function invalidKey(): ApiError {
  return new ApiError('API_KEY_INVALID', 'The API key is invalid, revoked or expired.');
}

export function keyPrincipal(record: ApiKeyRecord): Principal {
  return {
    kind: 'key',
    keyId: record.id,
    ownerId: record.ownerId,
    tier: record.tier,
    scopes: record.scopes,
    expiresAt: record.expiresAt,
    ipWhitelist: record.ipWhitelist,
  };
}

/** Throws API_KEY_MISSING when no key was presented, API_KEY_INVALID when the value cannot be a key. */
export function checkPresented(presented: string | undefined): asserts presented is string {
  if (presented === undefined || presented === '') {
    throw new ApiError(
      'API_KEY_MISSING',
      'No API key supplied. Send it as "Authorization: Bearer <key>", the X-API-Key header, or (over MCP stdio) the SVC_API_KEY environment variable.',
    );
  }
  if (presented.length > 200) throw invalidKey();
}

/** The stored key a presented value matched, or API_KEY_INVALID when there is none or it is revoked or expired. */
export function usableKey(record: ApiKeyRecord | undefined, now: Date): ApiKeyRecord {
  if (!record || !keyWorks(record, now)) throw invalidKey();
  return record;
}

/** Whether a key works at `now`: neither revoked nor expired. */
export function keyWorks(record: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
  return !record.revokedAt && (!record.expiresAt || Date.parse(record.expiresAt) > now.getTime());
}

/** lastUsedAt is written at most this often per key, to keep reads from turning into writes. */
export const TOUCH_INTERVAL_MS = 60_000;

function recentlyUsed(lastUsedAt: string | null, now: number): boolean {
  return lastUsedAt !== null && now - Date.parse(lastUsedAt) < TOUCH_INTERVAL_MS;
}

/**
 * Records that a key was used, at most once a minute. Reads the record afresh
 * inside the transaction and changes only lastUsedAt, so it can never undo a
 * concurrent update or revocation.
 */
export function touchKey(store: Store, record: ApiKeyRecord, clock: Clock): Promise<void> | undefined {
  const now = clock.now();
  if (recentlyUsed(record.lastUsedAt, now.getTime())) return undefined;
  return writeLastUsed(store, record, now);
}

async function writeLastUsed(store: Store, record: ApiKeyRecord, now: Date): Promise<void> {
  await store.transact(async (tx) => {
    const fresh = await tx.get<ApiKeyRecord>(API_KEYS, record.id);
    if (!fresh || recentlyUsed(fresh.lastUsedAt, now.getTime())) return;
    await tx.put(API_KEYS, { ...fresh, lastUsedAt: now.toISOString() });
  });
}
