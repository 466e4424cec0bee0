/**
 * Account-and-key creation, in one place: the operator's first start (its account and bootstrap key), a customer
 * account made with its first key, a key made by the operator inside another account, keys made from the command
 * line, and the one-time migration of owner ids written before accounts existed. The accounts module knows nothing
 * of keys; everything that makes an account together with a key, or a key across accounts, lives here.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import type { Store, Tx } from '../store/port.js';
import { recordEvent } from '../events/events.js';
import {
  accountIdField,
  AccountSchema,
  accountView,
  emailField,
  findAccount,
  nameField,
  operatorAccount,
  type AccountDeps,
} from '../accounts/accounts.js';
import type { Principal } from '../accounts/principal.js';
import { ACCOUNTS, newAccount, TIER_RANK, type AccountKind, type AccountRecord } from '../accounts/records.js';
import { SCOPES, TIERS, type Scope, type Tier } from '../accounts/scopes.js';
import { API_KEYS, buildKey, type ApiKeyRecord, type NewKey } from './keys.js';
import { ApiKeySchema, checkNewKey, keyView, type ApiKeyView } from './manage.js';

/** Scopes of a new account's first key when the request names none. */
export const DEFAULT_FIRST_KEY_SCOPES: Record<Exclude<Tier, 'internal'>, Scope[]> = {
  partner: ['contracts', 'webhooks', 'embed', 'chat'],
  public: ['contracts', 'chat'],
};

export const CreateAccountInput = z
  .strictObject({
    name: nameField().describe(
      'Name of the customer or partner: one line, without control characters or bidirectional controls.',
    ),
    tier: z.enum(['partner', 'public']).describe('Tier of the account; caps the tier of its keys.'),
    email: emailField.optional(),
    keyName: nameField()
      .optional()
      .describe(
        'Name of the first key (default "primary"): one line, without control characters or bidirectional controls.',
      ),
    keyScopes: z
      .array(z.enum(SCOPES).describe('A scope.'))
      .min(1)
      .max(SCOPES.length)
      .optional()
      .describe(
        'Scopes of the first key (default: contracts, webhooks, embed, chat for partner; contracts, chat for public).',
      ),
    keyExpiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Expiry of the first key, ISO 8601 (no later than the calling key's)."),
    keyIpWhitelist: z
      .array(z.string().max(64).describe('An IPv4/IPv6 address or CIDR range.'))
      .max(100)
      .optional()
      .describe('Addresses allowed to use the first key; empty or omitted means any.'),
  })
  .describe('A new customer account and its first API key.');

export const CreateAccountOutput = z
  .object({
    account: AccountSchema,
    apiKey: ApiKeySchema,
    key: z.string().describe("The first key's value, shown this once. Only its hash is stored."),
  })
  .describe('The account, its first key record and the key value (shown once).');

export const CreateAccountKeyInput = z
  .strictObject({
    id: accountIdField,
    name: nameField().describe(
      'A name to recognise the key by: one line, without control characters or bidirectional controls.',
    ),
    tier: z
      .enum(TIERS)
      .optional()
      .describe("Tier of the key; at most the account's tier (default: the account's tier)."),
    scopes: z
      .array(z.enum(SCOPES).describe('A scope.'))
      .min(1)
      .max(SCOPES.length)
      .describe('Scopes to grant; each must be held by the calling key.'),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Expiry time, ISO 8601 (no later than the calling key's)."),
    ipWhitelist: z
      .array(z.string().max(64).describe('An IPv4/IPv6 address or CIDR range.'))
      .max(100)
      .optional()
      .describe('Addresses allowed to use the key; empty or omitted means any.'),
  })
  .describe('A new API key inside another account (operator only).');

export const CreatedKeyOutput = ApiKeySchema.extend({
  key: z.string().describe('The key value, shown this once.'),
}).describe('The new key record and its value (shown once).');

/**
 * On first start with no operator key, creates the operator account (if missing) and one
 * internal key with scope `all`, and returns its value so the caller can print
 * it once.
 */
export async function bootstrapOperator(
  store: Store,
  clock: Clock,
): Promise<{ record: ApiKeyRecord; key: string } | undefined> {
  return store.transact(async (tx) => {
    const operator = await operatorAccount(tx, clock);
    // The operator's first key; customer accounts' keys (say, made offline with `svc accounts create`) do not count.
    if ((await tx.idsBy(API_KEYS, 'ownerId', operator.id)).length > 0) return undefined;
    const built = buildKey({ name: 'bootstrap', tier: 'internal', scopes: ['all'], ownerId: operator.id }, clock);
    await tx.put(API_KEYS, built.record);
    return built;
  });
}

/** The server's own collection (not account data), and the record saying the owners' migration has run. */
const SYSTEM = 'system';
const OWNERS_MIGRATED = 'owners-migrated';

/**
 * Data written before accounts existed carries owner ids (`own_<id>`) with no
 * account record. Each such owner becomes an account, once, in one transaction:
 * the owner of the first internal key becomes the operator (when there is none
 * yet), the others customer accounts with the highest tier among their keys.
 * Every record of the declared collections is rewritten to the new id. It runs at the first start of a store (with
 * this version or a later one) and is recorded as done (`system/owners-migrated`) in the same transaction.
 */
export async function migrateOwners(store: Store, clock: Clock, collections: readonly string[]): Promise<number> {
  return store.transact(async (tx) => {
    // Done once per store: every key written since has an account, and reading every key (and its account) at every
    // start grew the start with the number of keys.
    if (await tx.get(SYSTEM, OWNERS_MIGRATED)) return 0;
    await tx.put(SYSTEM, { id: OWNERS_MIGRATED, at: clock.now().toISOString() });
    const owners = new Map<string, { tier: Tier; internalAll: boolean }>();
    for await (const key of tx.scan<ApiKeyRecord>(API_KEYS)) {
      if (await tx.get(ACCOUNTS, key.ownerId)) continue;
      const seen = owners.get(key.ownerId) ?? { tier: 'public' as Tier, internalAll: false };
      if (TIER_RANK[key.tier] > TIER_RANK[seen.tier]) seen.tier = key.tier;
      if (key.tier === 'internal' && key.scopes.includes('all')) seen.internalAll = true;
      owners.set(key.ownerId, seen);
    }
    const mapping = new Map<string, string>();
    let hasOperator = (await tx.findBy<AccountRecord>(ACCOUNTS, 'kind', 'operator')).length > 0;
    for (const [old, info] of owners) {
      const kind: AccountKind = !hasOperator && info.internalAll ? 'operator' : 'customer';
      if (kind === 'operator') hasOperator = true;
      const account = newAccount(
        { name: kind === 'operator' ? 'operator' : `migrated ${old}`, tier: info.tier, kind },
        clock,
      );
      await tx.put(ACCOUNTS, account);
      mapping.set(old, account.id);
    }
    if (mapping.size === 0) return 0;
    let rewritten = 0;
    for (const collection of collections) {
      for (const doc of await tx.all<{ id: string; ownerId?: unknown }>(collection)) {
        const to = typeof doc.ownerId === 'string' ? mapping.get(doc.ownerId) : undefined;
        if (!to) continue;
        await tx.put(collection, { ...doc, ownerId: to });
        rewritten++;
      }
    }
    return rewritten;
  });
}

/**
 * Stores a new key, unchecked (tests, benches). Without `ownerId` the key
 * gets an account of its own, of the key's tier.
 */
export async function createKey(
  store: Store,
  input: Omit<NewKey, 'ownerId'> & { ownerId?: string | undefined },
  clock: Clock,
): Promise<{ record: ApiKeyRecord; key: string }> {
  return store.transact(async (tx) => {
    let ownerId = input.ownerId;
    if (ownerId === undefined) {
      const account = newAccount({ name: input.name, tier: input.tier, kind: 'customer' }, clock);
      await tx.put(ACCOUNTS, account);
      ownerId = account.id;
    } else if (!(await tx.get(ACCOUNTS, ownerId))) {
      throw new ApiError('NOT_FOUND', `Account ${ownerId} not found`);
    }
    const built = buildKey({ ...input, ownerId }, clock);
    await tx.put(API_KEYS, built.record);
    return built;
  });
}

/** api_key.created in the event log of the account that received the key. */
async function keyCreated(tx: Tx, record: ApiKeyRecord, clock: Clock): Promise<void> {
  await recordEvent(
    tx,
    {
      type: 'api_key.created',
      ownerId: record.ownerId,
      data: { id: record.id, name: record.name, tier: record.tier, scopes: record.scopes, createdBy: 'operator' },
    },
    clock,
  );
}

export async function createAccount(
  deps: AccountDeps,
  caller: Principal,
  input: z.infer<typeof CreateAccountInput>,
): Promise<z.infer<typeof CreateAccountOutput>> {
  const tier = input.tier;
  const scopes = input.keyScopes ?? DEFAULT_FIRST_KEY_SCOPES[tier];
  const details: ErrorDetail[] = [];
  checkNewKey(
    caller,
    { tier, scopes, expiresAt: input.keyExpiresAt, ipWhitelist: input.keyIpWhitelist, accountTier: tier },
    deps.clock.now(),
    details,
    {
      scopes: 'keyScopes',
      expiresAt: 'keyExpiresAt',
      ipWhitelist: 'keyIpWhitelist',
      crossAccount: true,
    },
  );
  if (details.length) throw ApiError.validation('The account cannot be created as requested.', details);
  const account = newAccount({ name: input.name, tier, kind: 'customer', email: input.email }, deps.clock);
  const { record, key } = buildKey(
    {
      name: input.keyName ?? 'primary',
      tier,
      scopes,
      ownerId: account.id,
      ipWhitelist: input.keyIpWhitelist,
      expiresAt: input.keyExpiresAt ?? caller.expiresAt,
    },
    deps.clock,
  );
  await deps.system.transact(async (tx) => {
    await tx.put(ACCOUNTS, account);
    await tx.put(API_KEYS, record);
    await keyCreated(tx, record, deps.clock);
  });
  return { account: accountView(account), apiKey: keyView(record), key };
}

export async function createAccountKey(
  deps: AccountDeps,
  caller: Principal,
  input: z.infer<typeof CreateAccountKeyInput>,
): Promise<ApiKeyView & { key: string }> {
  const account = await findAccount(deps, input.id);
  const tier = input.tier ?? account.tier;
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
    {
      crossAccount: true,
    },
  );
  if (details.length) throw ApiError.validation('The key cannot be created as requested.', details);
  const { record, key } = buildKey(
    {
      name: input.name,
      tier,
      scopes: input.scopes,
      ownerId: account.id,
      ipWhitelist: input.ipWhitelist,
      expiresAt: input.expiresAt ?? caller.expiresAt,
    },
    deps.clock,
  );
  await deps.system.transact(async (tx) => {
    if (!(await tx.get(ACCOUNTS, account.id))) throw ApiError.notFound(`Account ${account.id}`);
    await tx.put(API_KEYS, record);
    await keyCreated(tx, record, deps.clock);
  });
  return { ...keyView(record), key };
}
