import { ApiError } from '../core/errors.js';
import { ipAllowed } from '../core/ip.js';
import type { RateState } from '../core/limiter-port.js';
import type { Principal } from '../accounts/principal.js';
import { accountProblem } from '../accounts/accounts.js';
import { checkPresented, TOUCH_INTERVAL_MS, touchKey, usableKey, type ApiKeyRecord } from '../keys/keys.js';
import type { Bucket } from '../keys/limits.js';
import { ALL_ONLY, countPrincipal, hitBudget } from './budget.js';
import type { CallInfo } from './call.js';
import { admitAnonymous, countAddress } from './counters.js';
import { ipNotAllowed } from './ip.js';
import { lookupKey, type KeyLookup } from './key-cache.js';
import type { AccessServices } from './services.js';
import { unavailableError } from './unavailable.js';

/** What the key cache knows of a presented key (./key-cache.ts); throws API_KEY_MISSING / API_KEY_INVALID. */
function usable(
  found: KeyLookup,
  clock: AccessServices['clock'],
): KeyLookup & { record: ApiKeyRecord; principal: Principal } {
  usableKey(found.record, clock);
  return found as KeyLookup & { record: ApiKeyRecord; principal: Principal };
}

/** The presented key with its account (without a promise when the key cache holds it); throws as `usable`. */
function keyAndAccount(
  services: AccessServices,
  presented: string | undefined,
): ReturnType<typeof usable> | Promise<ReturnType<typeof usable>> {
  checkPresented(presented);
  const looked = lookupKey(services.store, presented);
  return looked instanceof Promise ? looked.then((f) => usable(f, services.clock)) : usable(looked, services.clock);
}

/**
 * Who is calling with an API key and whether they may make one more request:
 * the key is authenticated, its IP whitelist and its account's status checked,
 * and the all-requests bucket (plus the tool's own bucket) counted. Requests
 * without a valid key count against the client's address instead, so guessing
 * keys is rate limited too. The key and its account come from the key cache:
 * for a key in use, the one store read is the access revision.
 */
export async function admit(
  services: AccessServices,
  call: Pick<CallInfo, 'apiKey' | 'clientIp' | 'rate'>,
  bucket: Bucket = 'all',
): Promise<{ principal: Principal; record: ApiKeyRecord }> {
  try {
    let found: KeyLookup & { record: ApiKeyRecord; principal: Principal };
    try {
      const looked = keyAndAccount(services, call.apiKey);
      found = looked instanceof Promise ? await looked : looked;
    } catch (err) {
      if (err instanceof ApiError) await admitAnonymous(services, call);
      throw err;
    }
    const { record, account, principal } = found;
    // An address outside the key's whitelist, or an account that refuses (none, or suspended): counted against the
    // client's address, not the key.
    const problem = ipAllowed(record.ipWhitelist, call.clientIp) ? accountProblem(account) : ipNotAllowed();
    if (problem) {
      await admitAnonymous(services, call);
      throw problem;
    }
    await countPrincipal(services, principal, call, bucket);
    if (services.clock.now().getTime() - found.lastUsedMs >= TOUCH_INTERVAL_MS) {
      touchKey(services.store, record, services.clock)?.catch((err: unknown) =>
        services.log.warn({ err, keyId: principal.keyId }, 'could not record lastUsedAt'),
      );
    }
    return { principal, record };
  } catch (err) {
    // The store or the limiter cannot be reached: 503 (for every caller of admit, REST, /mcp and MCP alike).
    throw unavailableError(err, services.clock.now()) ?? err;
  }
}

/**
 * Counts a request that reached no tool (unknown route, unreadable body) in the
 * all-requests bucket of its key's budget, or of its address when it has no valid key.
 * Never refuses: the request is answered with its own error anyway.
 */
export async function countRequest(
  services: AccessServices,
  call: Pick<CallInfo, 'apiKey' | 'clientIp'>,
): Promise<RateState> {
  const found = call.apiKey
    ? await Promise.resolve()
        .then(() => keyAndAccount(services, call.apiKey))
        .catch(() => undefined)
    : undefined;
  if (found && ipAllowed(found.record.ipWhitelist, call.clientIp))
    return (await hitBudget(services, found.principal, ALL_ONLY)).rate;
  return countAddress(services, call.clientIp);
}
