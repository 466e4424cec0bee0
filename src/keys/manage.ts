import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { recordEvent } from '../events/events.js';
import type { Store, Tx } from '../store/port.js';
import { validateWhitelist, whitelistWithin } from '../core/ip.js';
import { MAX_ALLOWED_ORIGINS, normalizeAllowedOrigins } from './origins.js';
import { ACCOUNTS, SESSIONS, TIER_RANK, type AccountRecord } from '../accounts/records.js';
import { onPasswordReset } from '../accounts/password-hooks.js';
import { accountTx } from '../accounts/tenancy.js';
import { nameField } from '../accounts/accounts.js';
import { API_KEYS, buildKey, type ApiKeyRecord, type Principal } from './keys.js';
import { hasScope, SCOPES, TIERS, type Scope, type Tier } from '../accounts/scopes.js';
import { BUCKETS, RATE_LIMITS, type KeyRateLimit } from './limits.js';

// Key management: a key sees and manages only its owner's keys, and can never
// create or widen a key beyond itself.

/** "a partner key", "an internal key". */
function aKey(tier: Tier): string {
  return `${tier === 'internal' ? 'an' : 'a'} ${tier} key`;
}

export const ApiKeySchema = z
  .object({
    id: z.string().describe('Key id, `key_<id>`.'),
    name: z.string().describe('Name given at creation.'),
    tier: z.enum(TIERS).describe('Tier: public, partner or internal.'),
    scopes: z.array(z.enum(SCOPES).describe('A scope.')).describe('Scopes granted.'),
    ipWhitelist: z
      .array(z.string().describe('An address or CIDR range.'))
      .describe('Addresses allowed to use the key; empty means any.'),
    allowedOrigins: z
      .array(z.string().describe('An origin, scheme://host[:port].'))
      .describe('Origins whose pages may embed the contract wizard with this key; empty means none.'),
    rateLimit: z
      .object({
        all: z.number().int().optional().describe('All requests per 15-minute window.'),
        generation: z.number().int().optional().describe('Contract generations per 15-minute window.'),
        chat: z.number().int().optional().describe('AI chat messages per 15-minute window.'),
      })
      .nullable()
      .describe(
        "The key's own rate limits, below its account's shared budget; null when it has none (the account's budget applies).",
      ),
    displayPrefix: z.string().describe('The first characters of the key, to recognise it.'),
    ownerId: z.string().describe('Account the key belongs to.'),
    createdAt: z.string().describe('Creation time, ISO 8601.'),
    lastUsedAt: z.string().nullable().describe('Last use (recorded at most once a minute), ISO 8601.'),
    expiresAt: z.string().nullable().describe('Expiry time, ISO 8601, or null.'),
    revokedAt: z.string().nullable().describe('Revocation time, ISO 8601, or null while the key is active.'),
  })
  .describe('An API key record (never the key value).');
export type ApiKeyView = z.infer<typeof ApiKeySchema>;

const scopesField = z
  .array(z.enum(SCOPES).describe('A scope.'))
  .min(1)
  .max(SCOPES.length)
  .describe('Scopes to grant; each must be held by the calling key. `all` only on internal keys.');
const whitelistField = z
  .array(z.string().max(64).describe('An IPv4/IPv6 address or CIDR range.'))
  .max(100)
  .describe('Addresses or CIDR ranges allowed to use the key; empty or omitted means any address.');
const originsField = z
  .array(z.string().max(200).describe('An exact origin, scheme://host[:port] (https; http only for localhost).'))
  .max(MAX_ALLOWED_ORIGINS)
  .describe(
    `Origins whose pages may embed the contract wizard with this key (at most ${MAX_ALLOWED_ORIGINS}, no wildcards); needs a partner or internal key with the embed scope to be of use.`,
  );
/** Highest figure a key's own limit may name: the internal tier's (a key's tier caps it further, checked in checkRateLimit). */
const limitFigure = (bucket: 'all' | 'generation' | 'chat', what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(RATE_LIMITS.internal[bucket])
    .optional()
    .describe(`${what} per 15-minute window, at most the key's tier figure.`);
const rateLimitField = z
  .strictObject({
    all: limitFigure('all', 'All requests'),
    generation: limitFigure('generation', 'Contract generations'),
    chat: limitFigure('chat', 'AI chat messages'),
  })
  .describe(
    "The key's own rate limits per bucket, lower than the account's: the key is refused past them while its requests still count in " +
      "the account's shared budget. A bucket left out has no limit of its own. Omitted at creation: the calling key's own limits.",
  );
const expiresField = z.iso.datetime({ offset: true }).describe('Expiry time, ISO 8601; must be in the future.');

export const CreateApiKeyInput = z
  .strictObject({
    name: nameField().describe(
      'A name to recognise the key by: one line, without control characters or bidirectional controls.',
    ),
    scopes: scopesField,
    ipWhitelist: whitelistField.optional(),
    allowedOrigins: originsField.optional(),
    rateLimit: rateLimitField.optional(),
    tier: z
      .enum(TIERS)
      .optional()
      .describe(
        "Tier of the new key; defaults to the calling key's tier. Partner keys may create partner or public keys.",
      ),
    expiresAt: expiresField.optional(),
  })
  .describe('A new API key.');

export const UpdateApiKeyInput = z
  .strictObject({
    id: z.string().min(1).max(64).describe('Key id.'),
    name: nameField().optional().describe('New name: one line, without control characters or bidirectional controls.'),
    scopes: scopesField.optional(),
    ipWhitelist: whitelistField.optional(),
    allowedOrigins: originsField.optional(),
    expiresAt: expiresField
      .nullable()
      .optional()
      .describe('New expiry time (ISO 8601, in the future), or null to remove it.'),
    rateLimit: rateLimitField
      .nullable()
      .optional()
      .describe('New own rate limits (replacing the old ones), or null to remove them.'),
  })
  .describe('Changes to a key.');

export function keyView(record: ApiKeyRecord): ApiKeyView {
  const { keyHash: _hash, madeBy: _madeBy, ...view } = record;
  return { ...view, allowedOrigins: record.allowedOrigins ?? [], rateLimit: record.rateLimit ?? null } as ApiKeyView;
}

export interface KeyDeps {
  store: Store;
  clock: Clock;
}

function checkScopesGrantable(
  caller: Principal,
  scopes: readonly Scope[],
  tier: Tier,
  details: ErrorDetail[],
  field = 'scopes',
): void {
  scopes.forEach((s, i) => {
    if (s === 'all' && tier !== 'internal')
      details.push({ field: `${field}.${i}`, reason: 'the "all" scope exists only on internal keys' });
    else if (!hasScope(caller.scopes, s))
      details.push({
        field: `${field}.${i}`,
        reason: `${caller.kind === 'key' ? 'the calling key' : 'a user session'} does not hold "${s}", so it cannot grant it`,
      });
  });
}

/** Field names of a key's limits in the input being checked. */
interface KeyFields {
  scopes?: string;
  expiresAt?: string;
  ipWhitelist?: string;
  /** The key goes to another account (operator): its whitelist is that account's own business. */
  crossAccount?: boolean;
}

/**
 * The limits a key passes on: a key's expiry is no later than its
 * creator's, its whitelist lies within its creator's, its scopes are a subset.
 * The same rules bound a PATCH, so a key cannot lengthen its own expiry, remove
 * it, or widen its own whitelist.
 */
function checkLimits(
  caller: Principal,
  input: { expiresAt?: string | null | undefined; ipWhitelist?: string[] | undefined },
  now: Date,
  details: ErrorDetail[],
  fields: KeyFields,
): void {
  const expiresField = fields.expiresAt ?? 'expiresAt';
  const whitelistField = fields.ipWhitelist ?? 'ipWhitelist';
  if (input.ipWhitelist) details.push(...validateWhitelist(input.ipWhitelist, whitelistField));
  if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime())
    details.push({ field: expiresField, reason: 'must be in the future' });
  if (caller.expiresAt && input.expiresAt !== undefined) {
    if (input.expiresAt === null)
      details.push({
        field: expiresField,
        reason: `cannot be removed: the calling key expires at ${caller.expiresAt}`,
      });
    else if (Date.parse(input.expiresAt) > Date.parse(caller.expiresAt)) {
      details.push({
        field: expiresField,
        reason: `must be no later than the calling key's expiry (${caller.expiresAt})`,
      });
    }
  }
  if (
    !fields.crossAccount &&
    input.ipWhitelist &&
    !whitelistWithin(input.ipWhitelist, caller.ipWhitelist) &&
    details.every((d) => !d.field.startsWith(whitelistField))
  ) {
    details.push({
      field: whitelistField,
      reason: `must lie within the calling key's whitelist (${caller.ipWhitelist.join(', ')})`,
    });
  }
}

/** Every rule a new key must pass; problems are pushed to `details`. */
export function checkNewKey(
  caller: Principal,
  key: {
    tier: Tier;
    scopes: readonly Scope[];
    expiresAt?: string | undefined;
    ipWhitelist?: string[] | undefined;
    accountTier: Tier;
  },
  now: Date,
  details: ErrorDetail[],
  fields: KeyFields = {},
): void {
  if (caller.kind === 'session' && key.tier !== 'public')
    details.push({ field: 'tier', reason: 'a user session can create public keys only' });
  else if (TIER_RANK[key.tier] > TIER_RANK[caller.tier])
    details.push({ field: 'tier', reason: `${aKey(caller.tier)} cannot create ${aKey(key.tier)}` });
  else if (TIER_RANK[key.tier] > TIER_RANK[key.accountTier]) {
    details.push({
      field: 'tier',
      reason: `the account is ${key.accountTier} tier, which caps its keys at ${key.accountTier}`,
    });
  }
  checkScopesGrantable(caller, key.scopes, key.tier, details, fields.scopes);
  checkLimits(caller, key, now, details, fields);
}

/**
 * The own rate limits a key may have: each at most its tier's figure (a higher one would mean nothing), and, when the
 * calling key has limits of its own, none higher than the caller's nor missing where the caller has one, so a
 * limited key cannot make or leave a key with a larger share of the account's budget than its own.
 */
function checkRateLimit(
  limits: KeyRateLimit | undefined,
  tier: Tier,
  callerLimits: KeyRateLimit | undefined,
  details: ErrorDetail[],
): void {
  for (const b of BUCKETS) {
    const mine = limits?.[b];
    const theirs = callerLimits?.[b];
    if (mine !== undefined && mine > RATE_LIMITS[tier][b]) {
      details.push({
        field: `rateLimit.${b}`,
        reason: `at most ${RATE_LIMITS[tier][b]} (the ${tier} tier's figure); a key's own limit can only lower it`,
      });
    } else if (theirs !== undefined && (mine === undefined || mine > theirs)) {
      details.push({ field: `rateLimit.${b}`, reason: `must be at most ${theirs}, the calling key's own limit` });
    }
  }
}

/** The own rate limits of the calling key (a session has none). */
async function callerRateLimit(store: Store, caller: Principal): Promise<KeyRateLimit | undefined> {
  if (caller.kind !== 'key') return undefined;
  return (await store.get<ApiKeyRecord>(API_KEYS, caller.keyId))?.rateLimit ?? undefined;
}

/** Only the buckets that have a figure; undefined when none has. */
function compactLimits(limits: KeyRateLimit | null | undefined): KeyRateLimit | undefined {
  if (!limits) return undefined;
  const out: KeyRateLimit = {};
  for (const b of BUCKETS) if (limits[b] !== undefined) out[b] = limits[b];
  return Object.keys(out).length ? out : undefined;
}

/** The caller may not act on a key with more rights than itself. */
function assertManageable(caller: Principal, target: ApiKeyRecord): void {
  if (TIER_RANK[target.tier] > TIER_RANK[caller.tier]) {
    throw new ApiError(
      'TIER_NOT_ALLOWED',
      `${aKey(caller.tier).replace(/^a/, 'A')} cannot manage ${aKey(target.tier)}.`,
    );
  }
  const missing = target.scopes.filter((s) => !hasScope(caller.scopes, s));
  if (missing.length) {
    throw new ApiError(
      'INSUFFICIENT_SCOPE',
      `This key cannot manage a key holding scopes it lacks: ${missing.join(', ')}.`,
    );
  }
}

function ownKey(store: Store, caller: Principal, id: string): Promise<ApiKeyRecord> {
  return store.get<ApiKeyRecord>(API_KEYS, id).then((r) => {
    // Another owner's key is indistinguishable from a missing one.
    if (!r || r.ownerId !== caller.ownerId) throw ApiError.notFound(`API key ${id}`);
    return r;
  });
}

export async function createApiKey(
  deps: KeyDeps,
  caller: Principal,
  input: z.infer<typeof CreateApiKeyInput>,
): Promise<ApiKeyView & { key: string }> {
  const tier = input.tier ?? (caller.kind === 'session' ? 'public' : caller.tier);
  const account = await deps.store.get<AccountRecord>(ACCOUNTS, caller.ownerId);
  if (!account) throw ApiError.notFound(`Account ${caller.ownerId}`);
  const details: ErrorDetail[] = [];
  checkNewKey(
    caller,
    {
      tier,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      ipWhitelist: input.ipWhitelist,
      accountTier: account.tier,
    },
    deps.clock.now(),
    details,
  );
  const allowedOrigins = normalizeAllowedOrigins(input.allowedOrigins ?? [], 'allowedOrigins', details);
  // Omitted buckets inherit the caller's own limits, like the expiry and the whitelist.
  const callerLimits = await callerRateLimit(deps.store, caller);
  const rateLimit = compactLimits({ ...callerLimits, ...compactLimits(input.rateLimit) });
  checkRateLimit(rateLimit, tier, callerLimits, details);
  if (details.length) throw ApiError.validation('The key cannot be created as requested.', details);
  const { record, key } = buildKey(
    {
      name: input.name,
      tier,
      scopes: input.scopes,
      ownerId: caller.ownerId,
      // Omitted limits are inherited from the creator.
      ipWhitelist: input.ipWhitelist ?? caller.ipWhitelist,
      expiresAt: input.expiresAt ?? caller.expiresAt,
      allowedOrigins,
      rateLimit: rateLimit ?? null,
      // A session's key ends with its user's sessions when the password is reset (revokeKeysMadeBy below).
      madeBy: caller.kind === 'session' && caller.userId ? `user:${caller.userId}` : undefined,
    },
    deps.clock,
  );
  await deps.store.transact(async (tx) => {
    // A session admitted before a password reset (which ends it and revokes the keys its user's sessions made) must
    // not store a key after it: the key would outlive the reset.
    if (
      caller.kind === 'session' &&
      (await tx.get<{ id: string; revokedAt: string | null }>(SESSIONS, caller.keyId))?.revokedAt !== null
    )
      throw new ApiError('UNAUTHORIZED', 'The session has ended; sign in again.');
    await tx.put(API_KEYS, record);
    await recordEvent(
      tx,
      {
        type: 'api_key.created',
        ownerId: caller.ownerId,
        data: { id: record.id, name: record.name, tier, scopes: record.scopes, createdBy: caller.keyId },
      },
      deps.clock,
    );
  });
  return { ...keyView(record), key };
}

/** The owner's keys, oldest first. */
export async function listApiKeys(deps: KeyDeps, caller: Principal): Promise<ApiKeyView[]> {
  return (await deps.store.findBy<ApiKeyRecord>(API_KEYS, 'ownerId', caller.ownerId)).map(keyView);
}

export async function getApiKey(deps: KeyDeps, caller: Principal, id: string): Promise<ApiKeyView> {
  return keyView(await ownKey(deps.store, caller, id));
}

/**
 * What must happen, in the same transaction, when a key's allowed origins change: the embed tokens made by the key
 * for an origin it no longer allows are revoked (src/embed/store.ts, revokeSessionsOutside). Passed in by the caller
 * because embedding sits above keys.
 */
export type OriginsChanged = (
  tx: Tx,
  before: ApiKeyRecord,
  remaining: readonly string[],
  now: Date,
) => Promise<unknown>;

/**
 * Why a key can no longer be changed, or undefined when it can: a revoked key stays revoked, and an expired one stays
 * expired (a new expiresAt would bring back to life a key its owner, or the key that made it, meant to end; a key
 * past its time is replaced by a new one).
 */
function unchangeable(key: ApiKeyRecord, now: Date): ApiError | undefined {
  if (key.revokedAt)
    return ApiError.validation('A revoked key cannot be changed.', [{ field: 'id', reason: 'the key is revoked' }]);
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime())
    return ApiError.validation(
      'An expired key cannot be changed: create a new key instead (create_api_key, POST /api/v1/api-keys).',
      [{ field: 'id', reason: `the key expired at ${key.expiresAt}` }],
    );
  return undefined;
}

export async function updateApiKey(
  deps: KeyDeps,
  caller: Principal,
  input: z.infer<typeof UpdateApiKeyInput>,
  originsChanged: OriginsChanged,
): Promise<ApiKeyView> {
  const current = await ownKey(deps.store, caller, input.id);
  assertManageable(caller, current);
  const ended = unchangeable(current, deps.clock.now());
  if (ended) throw ended;
  const details: ErrorDetail[] = [];
  if (input.scopes) checkScopesGrantable(caller, input.scopes, current.tier, details);
  checkLimits(caller, input, deps.clock.now(), details, {});
  const allowedOrigins =
    input.allowedOrigins && normalizeAllowedOrigins(input.allowedOrigins, 'allowedOrigins', details);
  const rateLimit = input.rateLimit === undefined ? undefined : (compactLimits(input.rateLimit) ?? null);
  if (input.rateLimit !== undefined)
    checkRateLimit(rateLimit ?? undefined, current.tier, await callerRateLimit(deps.store, caller), details);
  if (details.length) throw ApiError.validation('The key cannot be changed as requested.', details);
  return deps.store.transact(async (tx) => {
    const fresh = await tx.get<ApiKeyRecord>(API_KEYS, input.id);
    if (!fresh || fresh.ownerId !== caller.ownerId) throw ApiError.notFound(`API key ${input.id}`);
    const endedNow = unchangeable(fresh, deps.clock.now());
    if (endedNow) throw endedNow;
    const next: ApiKeyRecord = {
      ...fresh,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.scopes !== undefined ? { scopes: [...new Set(input.scopes)] } : {}),
      ...(input.ipWhitelist !== undefined ? { ipWhitelist: input.ipWhitelist } : {}),
      ...(allowedOrigins !== undefined ? { allowedOrigins } : {}),
      ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
      ...(rateLimit !== undefined ? { rateLimit } : {}),
    };
    await tx.put(API_KEYS, next);
    // Embed tokens a removed origin could use die with the change, for good (re-adding the origin does not revive them).
    if (allowedOrigins !== undefined) await originsChanged(tx, fresh, allowedOrigins, deps.clock.now());
    return keyView(next);
  });
}

/** Revokes a key; the record stays, marked revoked. Revoking twice is harmless and emits one event. */
export async function revokeApiKey(deps: KeyDeps, caller: Principal, id: string): Promise<ApiKeyView> {
  const target = await ownKey(deps.store, caller, id);
  // A key may not revoke one with more rights (a leaked low key would stop the account's integrations), but the
  // account's own user, signed in, may stop any key of the account: keys the operator made for it (an embed key, a
  // webhooks key) hold scopes no session holds, and a leaked one must still be stoppable by the person it belongs to.
  if (caller.kind !== 'session') assertManageable(caller, target);
  return deps.store.transact(async (tx) => {
    const fresh = await tx.get<ApiKeyRecord>(API_KEYS, id);
    if (!fresh || fresh.ownerId !== caller.ownerId) throw ApiError.notFound(`API key ${id}`);
    if (fresh.revokedAt) return keyView(fresh);
    return keyView(await revokeInTx(tx, fresh, { revokedBy: caller.keyId }, deps.clock));
  });
}

/** Marks a key revoked and records `api_key.revoked` (who revoked it, or why), in the caller's transaction. */
async function revokeInTx(
  tx: Tx,
  key: ApiKeyRecord,
  why: { revokedBy: string | null; reason?: string },
  clock: Clock,
): Promise<ApiKeyRecord> {
  const next = { ...key, revokedAt: clock.now().toISOString() };
  await tx.put(API_KEYS, next);
  await recordEvent(
    tx,
    { type: 'api_key.revoked', ownerId: key.ownerId, data: { id: key.id, name: key.name, ...why } },
    clock,
  );
  return next;
}

/**
 * A reset of a user's password from a mailed link revokes the keys that user's sessions made, in the reset's
 * transaction (`api_key.revoked` each, reason `password-reset`). The owner of the address takes the account back:
 * someone who registered the address first and kept a session while its owner confirmed it must not keep a key made
 * meanwhile, which would read whatever the owner then claims (a memoir share, a vault left to them).
 */
async function revokeKeysMadeBy(tx: Tx, user: { id: string; ownerId: string }, clock: Clock): Promise<void> {
  const own = accountTx(tx, user.ownerId);
  const maker = `user:${user.id}`;
  for (const k of await own.findBy<ApiKeyRecord>(API_KEYS, 'ownerId', user.ownerId))
    if (k.madeBy === maker && !k.revokedAt)
      await revokeInTx(own, k, { revokedBy: null, reason: 'password-reset' }, clock);
}
onPasswordReset(revokeKeysMadeBy);
