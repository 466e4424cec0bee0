import { accountProblem } from '../accounts/accounts.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import type { AccessServices } from './services.js';

/**
 * The account a credential belongs to, read from the raw store (no principal exists yet); throws API_KEY_INVALID
 * when there is none and ACCOUNT_SUSPENDED when it is suspended.
 */
export async function activeAccount(services: AccessServices, ownerId: string): Promise<AccountRecord> {
  const account = await services.store.get<AccountRecord>(ACCOUNTS, ownerId);
  const problem = accountProblem(account);
  if (problem) throw problem;
  return account!;
}
