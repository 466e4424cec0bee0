/**
 * Accounts: the unit of tenancy. Every key, webhook, event, delivery, user and
 * session belongs to exactly one account. The first start creates the
 * operator's account; an internal key (scope `users`) creates customer
 * accounts; registering a user creates a personal account of tier `public`.
 * Nothing is ever deleted: DELETE suspends. An account made together with its
 * first API key (the operator's bootstrap key, a customer account) is made in
 * src/keys/provision.ts, the one owner of account-and-key creation: this module
 * knows nothing of keys.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { oldestFirst } from '../core/ids.js';
import { ApiError } from '../core/errors.js';
import { NAME_CHARS, NAME_CHARS_REASON } from '../core/names.js';
import type { Store, Tx } from '../store/port.js';
import { TIERS } from './scopes.js';
import type { Principal } from './principal.js';
import {
  accountProblem,
  newAccount,
  ACCOUNTS,
  ACCOUNT_INDEXES,
  ACCOUNT_KINDS,
  ACCOUNT_STATUSES,
  TIER_RANK,
  type AccountKind,
  type AccountRecord,
  type AccountStatus,
} from './records.js';
import { offsetPageInput, paginateOffset } from '../core/pagination.js';

/**
 * A name field of an input schema (a person's, an account's, a key's): trimmed, 1 to 100 characters, one line, without
 * control characters or bidirectional controls (src/core/names.ts): names go into mail headers, onto pages and, for
 * accounts and keys, onto the operator's terminal (`svc accounts list`), where an escape sequence would act. The
 * caller adds its `.describe()`.
 */
export const nameField = () => z.string().trim().min(1).max(100).regex(NAME_CHARS, { error: NAME_CHARS_REASON });
export {
  accountProblem,
  newAccount,
  ACCOUNTS,
  ACCOUNT_INDEXES,
  ACCOUNT_STATUSES,
  ACCOUNT_KINDS,
  TIER_RANK,
  type AccountRecord,
  type AccountStatus,
  type AccountKind,
};

export const AccountSchema = z
  .object({
    id: z.string().describe('Account id, `acct_<id>`.'),
    name: z.string().describe('Display name of the account.'),
    tier: z.enum(TIERS).describe("Highest tier the account's keys may have."),
    kind: z
      .enum(ACCOUNT_KINDS)
      .describe(
        'operator (runs the service), customer (made by the operator) or personal (made by a user registering).',
      ),
    email: z.string().nullable().describe('Contact email, or null.'),
    status: z
      .enum(ACCOUNT_STATUSES)
      .describe('active, or suspended: its keys and sessions are refused with ACCOUNT_SUSPENDED until re-activated.'),
    createdAt: z.string().describe('Creation time, ISO 8601.'),
    updatedAt: z.string().describe('Last change, ISO 8601.'),
    suspendedAt: z.string().nullable().describe('When the account was suspended, or null.'),
    storageQuotaBytes: z
      .number()
      .int()
      .nullable()
      .describe(
        "Bytes the account may store (media, later vault files), set by the operator; null: the server's default (SVC_STORAGE_QUOTA_BYTES, 1 GiB).",
      ),
  })
  .describe('An account: the owner of keys, webhooks, events, users and every other record.');
export type AccountView = z.infer<typeof AccountSchema>;

export const accountIdField = z.string().min(1).max(64).describe('Account id, `acct_<id>`.');
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'not a valid email address' }))
  .describe('Contact email.');

export const ListAccountsInput = z
  .strictObject({
    ...offsetPageInput,
    status: z.enum(ACCOUNT_STATUSES).optional().describe('Only accounts with this status.'),
  })
  .describe('Which page of accounts to list.');

export const AccountIdInput = z.strictObject({ id: accountIdField }).describe('Names one account.');

export const UpdateAccountInput = z
  .strictObject({
    id: accountIdField,
    name: nameField()
      .optional()
      .describe('New display name: one line, without control characters or bidirectional controls.'),
    status: z
      .enum(ACCOUNT_STATUSES)
      .optional()
      .describe('`suspended` refuses every key and session of the account; `active` restores them.'),
    email: emailField.nullable().optional().describe('New contact email, or null to remove it.'),
    storageQuotaBytes: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional()
      .describe(
        "Bytes the account may store (0: nothing more may be uploaded); null returns it to the server's default. Stored files are never deleted by a lower quota.",
      ),
  })
  .describe('Changes to an account.');

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

// --- operator operations (raw store: they work across accounts) -------------

export interface AccountDeps {
  /** The raw store: account management works across accounts. */
  system: Store;
  clock: Clock;
}

export async function findAccount(deps: AccountDeps, id: string): Promise<AccountRecord> {
  const account = await deps.system.get<AccountRecord>(ACCOUNTS, id);
  if (!account) throw ApiError.notFound(`Account ${id}`);
  return account;
}

/**
 * A page of the accounts, oldest first. Only the page's records are read: the ids come from the `status` index (every
 * account has had a status since accounts exist; ids are ULIDs, ordered like the accounts' creation), where copying
 * every account for each page made a walk through 100,000 of them cost the square of their number.
 */
export function listAccounts(deps: AccountDeps, input: z.infer<typeof ListAccountsInput>) {
  const statuses = input.status ? [input.status] : ACCOUNT_STATUSES;
  return deps.system.transact(
    async (tx) => {
      const lists: string[][] = [];
      for (const status of statuses) lists.push(await tx.idsBy(ACCOUNTS, 'status', status));
      const { items: pageIds, pagination } = paginateOffset(oldestFirst(lists), input.page, input.limit);
      const items: AccountView[] = [];
      for (const id of pageIds) {
        const account = await tx.get<AccountRecord>(ACCOUNTS, id);
        if (account) items.push(accountView(account));
      }
      return { items, pagination };
    },
    { readOnly: true },
  );
}

export async function getAccount(deps: AccountDeps, id: string): Promise<AccountView> {
  return accountView(await findAccount(deps, id));
}

export async function updateAccount(
  deps: AccountDeps,
  caller: Principal,
  input: z.infer<typeof UpdateAccountInput>,
): Promise<AccountView> {
  await findAccount(deps, input.id);
  return deps.system.transact(async (tx) => {
    const fresh = await tx.get<AccountRecord>(ACCOUNTS, input.id);
    if (!fresh) throw ApiError.notFound(`Account ${input.id}`);
    if (input.status === 'suspended' && (fresh.kind === 'operator' || fresh.id === caller.ownerId)) {
      throw ApiError.validation('The operator account cannot be suspended: it would lock the operator out.', [
        { field: 'status', reason: "the operator account (or the caller's own account) cannot be suspended" },
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
