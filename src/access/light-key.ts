/**
 * The key check of `svc mcp` before the service has loaded: what `admit` (./key.ts) would decide for the stdio
 * connection's key, worked out from the records alone, so that the first lists can be answered from the build-time
 * manifest (src/mcp/manifest.ts) while the tools, the store and their libraries are still loading.
 *
 * It decides only what it can decide exactly, and answers undefined otherwise (the request then waits for the
 * service, as every request did before): the same order of checks as `admit` (key, address, account), the same
 * errors, and the limit of the counter the request would count in, so that the caller answers early only while the
 * count stays below it. It never counts and never writes: the early-answered requests are handed to the service
 * once it has loaded, which admits them for real (counting them, noting the key's use) and whose answers are then
 * dropped. docs/architecture.md ("The first lists of svc mcp") has the whole design.
 */
import { ipAllowed } from '../core/ip.js';
import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import { ACCOUNTS, accountProblem, type AccountRecord } from '../accounts/records.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { API_KEYS, checkPresented, keyPrincipal, usableKey, type ApiKeyRecord } from '../keys/keys.js';
import { ANONYMOUS_LIMIT, RATE_LIMITS } from '../keys/limits.js';
import { keyBudget } from './budget.js';
import { ipNotAllowed } from './ip.js';

/**
 * The stored hash of a key (what `hashKey` in src/keys/keys.ts computes with node:crypto), in plain JavaScript: the
 * light start bundles it (scripts/bundle-light.mjs) instead of loading node:crypto, which takes longer than the
 * whole early answer.
 */
export function lightHashKey(value: string): string {
  return bytesToHex(sha256(utf8ToBytes(value)));
}

/** The collections the check reads. */
export const KEY_COLLECTIONS: readonly string[] = [API_KEYS, ACCOUNTS];

/** What the check needs of the store: two plain reads. */
export interface KeyRecords {
  get(collection: string, id: string): Record<string, unknown> | undefined;
  findFirst(collection: string, field: string, value: unknown): Record<string, unknown> | undefined;
}

/** What admission would decide, and how many requests of this process its counter admits in the current window. */
export type LightVerdict =
  | { principal: Principal; limit: number; error?: undefined }
  | { error: ApiError; limit: number; principal?: undefined };

/**
 * The verdict on `apiKey` from `clientIp`, given the store's records (`absent`: no data file yet, which the first
 * start creates with a fresh random key, so no presented key can match), at `now`. Undefined when the records do not
 * settle it the way the service would (a key from before accounts existed, which the service migrates first).
 */
export async function lightAdmit(
  records: KeyRecords | 'absent',
  apiKey: string | undefined,
  clientIp: string,
  now: Date,
): Promise<LightVerdict | undefined> {
  // A refused credential counts against the client's address.
  const refused = (error: ApiError): LightVerdict => ({ error, limit: ANONYMOUS_LIMIT });
  let record: ApiKeyRecord;
  try {
    checkPresented(apiKey);
    const found = records === 'absent' ? undefined : records.findFirst(API_KEYS, 'keyHash', lightHashKey(apiKey));
    record = usableKey(found as ApiKeyRecord | undefined, now);
  } catch (err) {
    if (err instanceof ApiError) return refused(err);
    throw err;
  }
  // (A key found means there are records; a key from before accounts existed is migrated by the service first.)
  if (records === 'absent' || typeof record.ownerId !== 'string') return undefined;
  if (!ipAllowed(record.ipWhitelist, clientIp)) {
    return refused(ipNotAllowed());
  }
  const account = records.get(ACCOUNTS, record.ownerId) as AccountRecord | undefined;
  const problem = accountProblem(account);
  if (problem) return refused(problem);
  const budget = keyBudget(record, account);
  const limit = Math.min(RATE_LIMITS[budget.accountTier].all, budget.keyLimits?.all ?? Number.POSITIVE_INFINITY);
  return { principal: keyPrincipal(record), limit };
}
