/**
 * Accounts: the unit of tenancy (DECISIONS.md "Accounts"). Every key, webhook,
 * event, delivery, user and session belongs to exactly one account. The first
 * start creates the operator's account and its internal key; an internal key
 * (scope `users`) creates customer accounts; registering a user creates a
 * personal account of tier `public`. Nothing is ever deleted: DELETE suspends.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Store, Tx } from '../store/port.js';
import { API_KEYS, buildKey, type ApiKeyRecord } from '../keys/keys.js';
import { keyView, ApiKeySchema, checkNewKey, type ApiKeyView } from '../keys/manage.js';
import { SCOPES, TIERS, type Scope, type Tier } from '../keys/scopes.js';
import type { Principal } from './principal.js';
import { newAccount, ACCOUNTS, ACCOUNT_INDEXES, ACCOUNT_KINDS, ACCOUNT_STATUSES, TIER_RANK, type AccountKind, type AccountRecord, type AccountStatus } from './records.js';
import { offsetPageInput, paginateOffset } from '../core/pagination.js';
import { recordEvent } from '../events/events.js';

export { newAccount, ACCOUNTS, ACCOUNT_INDEXES, ACCOUNT_STATUSES, ACCOUNT_KINDS, TIER_RANK, type AccountRecord, type AccountStatus, type AccountKind };

export const AccountSchema = z
  .object({
    id: z.string().describe('Account id, `acct_<id>`.'),
    name: z.string().describe('Display name of the account.'),
    tier: z.enum(TIERS).describe('Highest tier the account\'s keys may have.'),
    kind: z.enum(ACCOUNT_KINDS).describe('operator (runs the service), customer (made by the operator) or personal (made by a user registering).'),
    email: z.string().nullable().describe('Contact email, or null.'),
    status: z.enum(ACCOUNT_STATUSES).describe('active, or suspended: its keys and sessions are refused with ACCOUNT_SUSPENDED until re-activated.'),
    createdAt: z.string().describe('Creation time, ISO 8601.'),
    updatedAt: z.string().describe('Last change, ISO 8601.'),
    suspendedAt: z.string().nullable().describe('When the account was suspended, or null.'),
    storageQuotaBytes: z
      .number()
      .int()
      .nullable()
      .describe("Bytes the account may store (media, later vault files), set by the operator; null: the server's default (SVC_STORAGE_QUOTA_BYTES, 1 GiB)."),
  })
  .describe('An account: the owner of keys, webhooks, events, users and every other record.');
export type AccountView = z.infer<typeof AccountSchema>;

const accountId = z.string().min(1).max(64).describe('Account id, `acct_<id>`.');
const emailField = z.string().trim().toLowerCase().max(254).pipe(z.email({ error: 'not a valid email address' })).describe('Contact email.');

/** Scopes of a new account's first key when the request names none. */
export const DEFAULT_FIRST_KEY_SCOPES: Record<Exclude<Tier, 'internal'>, Scope[]> = {
  partner: ['contracts', 'webhooks', 'embed', 'chat'],
  public: ['contracts', 'chat'],
};

export const CreateAccountInput = z
  .strictObject({
    name: z.string().trim().min(1).max(100).describe('Name of the customer or partner.'),
    tier: z.enum(['partner', 'public']).describe('Tier of the account; caps the tier of its keys.'),
    email: emailField.optional(),
    keyName: z.string().trim().min(1).max(100).optional().describe('Name of the first key (default "primary").'),
    keyScopes: z
      .array(z.enum(SCOPES).describe('A scope.'))
      .min(1)
      .max(SCOPES.length)
      .optional()
      .describe('Scopes of the first key (default: contracts, webhooks, embed, chat for partner; contracts, chat for public).'),
    keyExpiresAt: z.iso.datetime({ offset: true }).optional().describe('Expiry of the first key, ISO 8601 (no later than the calling key\'s).'),
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
    key: z.string().describe('The first key\'s value, shown this once. Only its hash is stored.'),
  })
  .describe('The account, its first key record and the key value (shown once).');

export const ListAccountsInput = z
  .strictObject({
    ...offsetPageInput,
    status: z.enum(ACCOUNT_STATUSES).optional().describe('Only accounts with this status.'),
  })
  .describe('Which page of accounts to list.');

export const AccountIdInput = z.strictObject({ id: accountId }).describe('Names one account.');

export const UpdateAccountInput = z
  .strictObject({
    id: accountId,
    name: z.string().trim().min(1).max(100).optional().describe('New display name.'),
    status: z.enum(ACCOUNT_STATUSES).optional().describe('`suspended` refuses every key and session of the account; `active` restores them.'),
    email: emailField.nullable().optional().describe('New contact email, or null to remove it.'),
    storageQuotaBytes: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional()
      .describe("Bytes the account may store (0: nothing more may be uploaded); null returns it to the server's default. Stored files are never deleted by a lower quota."),
  })
  .describe('Changes to an account.');

export const CreateAccountKeyInput = z
  .strictObject({
    id: accountId,
    name: z.string().trim().min(1).max(100).describe('A name to recognise the key by.'),
    tier: z.enum(TIERS).optional().describe('Tier of the key; at most the account\'s tier (default: the account\'s tier).'),
    scopes: z.array(z.enum(SCOPES).describe('A scope.')).min(1).max(SCOPES.length).describe('Scopes to grant; each must be held by the calling key.'),
    expiresAt: z.iso.datetime({ offset: true }).optional().describe('Expiry time, ISO 8601 (no later than the calling key\'s).'),
    ipWhitelist: z
      .array(z.string().max(64).describe('An IPv4/IPv6 address or CIDR range.'))
      .max(100)
      .optional()
      .describe('Addresses allowed to use the key; empty or omitted means any.'),
  })
  .describe('A new API key inside another account (operator only).');

export const CreatedKeyOutput = ApiKeySchema.extend({ key: z.string().describe('The key value, shown this once.') }).describe(
  'The new key record and its value (shown once).',
);

export function accountView(r: AccountRecord): AccountView {
  return {
    id: r.id,
    name: r.name,
    tier: r.tier,
    kind: r.kind,
    email: r.email,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    suspendedAt: r.suspendedAt,
    storageQuotaBytes: typeof r.storageQuotaBytes === 'number' ? r.storageQuotaBytes : null,
  };
}

/** The operator's account (creating it on first use). */
export async function operatorAccount(tx: Tx, clock: Clock): Promise<AccountRecord> {
  const [existing] = await tx.findBy<AccountRecord>(ACCOUNTS, 'kind', 'operator');
  if (existing) return existing;
  const created = newAccount({ name: 'operator', tier: 'internal', kind: 'operator' }, clock);
  await tx.put(ACCOUNTS, created);
  return created;
}

/**
 * On first start with no operator key, creates the operator account (if missing) and one
 * internal key with scope `all`, and returns its value so the caller can print
 * it once.
 */
export async function bootstrapOperator(store: Store, clock: Clock): Promise<{ record: ApiKeyRecord; key: string } | undefined> {
  return store.transact(async (tx) => {
    const operator = await operatorAccount(tx, clock);
    // The operator's first key; customer accounts' keys (say, made offline with `svc accounts create`) do not count.
    if ((await tx.idsBy(API_KEYS, 'ownerId', operator.id)).length > 0) return undefined;
    const built = buildKey({ name: 'bootstrap', tier: 'internal', scopes: ['all'], ownerId: operator.id }, clock);
    await tx.put(API_KEYS, built.record);
    return built;
  });
}

/**
 * Data written before accounts existed carries owner ids (`own_<id>`) with no
 * account record. Each such owner becomes an account, once, in one transaction:
 * the owner of the first internal key becomes the operator (when there is none
 * yet), the others customer accounts with the highest tier among their keys.
 * Every record of the declared collections is rewritten to the new id.
 */
export async function migrateOwners(store: Store, clock: Clock, collections: readonly string[]): Promise<number> {
  return store.transact(async (tx) => {
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
      const account = newAccount({ name: kind === 'operator' ? 'operator' : `migrated ${old}`, tier: info.tier, kind }, clock);
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

/** The account's record, for the admission check (raw store: runs before any principal exists). */
export function accountProblem(account: AccountRecord | undefined): ApiError | undefined {
  if (!account) return new ApiError('API_KEY_INVALID', 'The credentials belong to no account.');
  if (account.status === 'suspended') {
    return new ApiError('ACCOUNT_SUSPENDED', 'This account is suspended: its keys and sessions are refused until the operator re-activates it.');
  }
  return undefined;
}

// --- operator operations (raw store: they work across accounts) -------------

export interface AccountDeps {
  /** The raw store: account management works across accounts. */
  system: Store;
  clock: Clock;
}

/** api_key.created in the event log of the account that received the key. */
async function keyCreated(tx: Tx, record: ApiKeyRecord, clock: Clock): Promise<void> {
  await recordEvent(
    tx,
    { type: 'api_key.created', ownerId: record.ownerId, data: { id: record.id, name: record.name, tier: record.tier, scopes: record.scopes, createdBy: 'operator' } },
    clock,
  );
}

async function findAccount(deps: AccountDeps, id: string): Promise<AccountRecord> {
  const account = await deps.system.get<AccountRecord>(ACCOUNTS, id);
  if (!account) throw ApiError.notFound(`Account ${id}`);
  return account;
}

export async function createAccount(
  deps: AccountDeps,
  caller: Principal,
  input: z.infer<typeof CreateAccountInput>,
): Promise<z.infer<typeof CreateAccountOutput>> {
  const tier = input.tier;
  const scopes = input.keyScopes ?? DEFAULT_FIRST_KEY_SCOPES[tier];
  const details: ErrorDetail[] = [];
  checkNewKey(caller, { tier, scopes, expiresAt: input.keyExpiresAt, ipWhitelist: input.keyIpWhitelist, accountTier: tier }, deps.clock.now(), details, {
    scopes: 'keyScopes',
    expiresAt: 'keyExpiresAt',
    ipWhitelist: 'keyIpWhitelist',
    crossAccount: true,
  });
  if (details.length) throw ApiError.validation('The account cannot be created as requested.', details);
  const account = newAccount({ name: input.name, tier, kind: 'customer', email: input.email }, deps.clock);
  const { record, key } = buildKey(
    { name: input.keyName ?? 'primary', tier, scopes, ownerId: account.id, ipWhitelist: input.keyIpWhitelist, expiresAt: input.keyExpiresAt ?? caller.expiresAt },
    deps.clock,
  );
  await deps.system.transact(async (tx) => {
    await tx.put(ACCOUNTS, account);
    await tx.put(API_KEYS, record);
    await keyCreated(tx, record, deps.clock);
  });
  return { account: accountView(account), apiKey: keyView(record), key };
}

export async function listAccounts(deps: AccountDeps, input: z.infer<typeof ListAccountsInput>) {
  const all = (await deps.system.all<AccountRecord>(ACCOUNTS)).filter((a) => !input.status || a.status === input.status);
  return paginateOffset(all.map(accountView), input.page, input.limit);
}

export async function getAccount(deps: AccountDeps, id: string): Promise<AccountView> {
  return accountView(await findAccount(deps, id));
}

export async function updateAccount(deps: AccountDeps, caller: Principal, input: z.infer<typeof UpdateAccountInput>): Promise<AccountView> {
  await findAccount(deps, input.id);
  return deps.system.transact(async (tx) => {
    const fresh = await tx.get<AccountRecord>(ACCOUNTS, input.id);
    if (!fresh) throw ApiError.notFound(`Account ${input.id}`);
    if (input.status === 'suspended' && (fresh.kind === 'operator' || fresh.id === caller.ownerId)) {
      throw ApiError.validation('The operator account cannot be suspended: it would lock the operator out.', [
        { field: 'status', reason: 'the operator account (or the caller\'s own account) cannot be suspended' },
      ]);
    }
    const now = deps.clock.now().toISOString();
    const next: AccountRecord = { ...fresh, updatedAt: now };
    if (input.name !== undefined) next.name = input.name;
    if (input.email !== undefined) next.email = input.email;
    if (input.storageQuotaBytes !== undefined) next.storageQuotaBytes = input.storageQuotaBytes;
    if (input.status !== undefined && input.status !== fresh.status) {
      next.status = input.status;
      next.suspendedAt = input.status === 'suspended' ? now : null;
    }
    await tx.put(ACCOUNTS, next);
    return accountView(next);
  });
}

export async function createAccountKey(deps: AccountDeps, caller: Principal, input: z.infer<typeof CreateAccountKeyInput>): Promise<ApiKeyView & { key: string }> {
  const account = await findAccount(deps, input.id);
  const tier = input.tier ?? account.tier;
  const details: ErrorDetail[] = [];
  checkNewKey(caller, { tier, scopes: input.scopes, expiresAt: input.expiresAt, ipWhitelist: input.ipWhitelist, accountTier: account.tier }, deps.clock.now(), details, {
    crossAccount: true,
  });
  if (details.length) throw ApiError.validation('The key cannot be created as requested.', details);
  const { record, key } = buildKey(
    { name: input.name, tier, scopes: input.scopes, ownerId: account.id, ipWhitelist: input.ipWhitelist, expiresAt: input.expiresAt ?? caller.expiresAt },
    deps.clock,
  );
  await deps.system.transact(async (tx) => {
    if (!(await tx.get(ACCOUNTS, account.id))) throw ApiError.notFound(`Account ${account.id}`);
    await tx.put(API_KEYS, record);
    await keyCreated(tx, record, deps.clock);
  });
  return { ...keyView(record), key };
}
