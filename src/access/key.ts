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
function usable(found: KeyLookup, now: Date): KeyLookup & { record: ApiKeyRecord; principal: Principal } {
  usableKey(found.record, now);
  return found as KeyLookup & { record: ApiKeyRecord; principal: Principal };
}

/** The presented key with its account (without a promise when the key cache holds it); throws as `usable`. */
function keyAndAccount(
  services: AccessServices,
  presented: string | undefined,
  connection: object | undefined,
  now: Date,
): ReturnType<typeof usable> | Promise<ReturnType<typeof usable>> {
  checkPresented(presented);
  const looked = lookupKey(services.store, presented, connection);
  return looked instanceof Promise ? looked.then((f) => usable(f, now)) : usable(looked, now);
}

/** A key's admission: who is calling, and the key's record. */
export interface KeyAdmission {
  principal: Principal;
  record: ApiKeyRecord;
}

/**
 * Who is calling with an API key and whether they may make one more request:
 * the key is authenticated, its IP whitelist and its account's status checked,
 * and the all-requests bucket (plus the tool's own bucket) counted. Requests
 * without a valid key count against the client's address instead, so guessing
 * keys is rate limited too. The key and its account come from the key cache:
 * for a key in use, the one store read is the access revision.
 *
 * Answers without a promise when nothing needs waiting for (a cached key on the embedded store, the in-process
 * limiter): the usual request. A refusal then is thrown, else the promise rejects; callers await either way.
 */
export function admit(
  services: AccessServices,
  call: Pick<CallInfo, 'apiKey' | 'clientIp' | 'rate' | 'connection'>,
  bucket: Bucket = 'all',
): KeyAdmission | Promise<KeyAdmission> {
  try {
    // One reading of the clock for an admission answered at once: the key's expiry, the counters' window and the key's
    // last use. One that waited for the store counts when it counts (below): a time read before the wait could put the
    // count in a window the limiter has already left.
    const now = services.clock.now();
    let looked: ReturnType<typeof keyAndAccount>;
    try {
      looked = keyAndAccount(services, call.apiKey, call.connection, now);
    } catch (err) {
      return orUnavailable(services, refuseAnonymously(services, call, err));
    }
    if (looked instanceof Promise) {
      return orUnavailable(
        services,
        looked.then(
          (found) => admitFound(services, call, bucket, found, services.clock.now()),
          (err: unknown) => refuseAnonymously(services, call, err),
        ),
      );
    }
    const admitted = admitFound(services, call, bucket, looked, now);
    return admitted instanceof Promise ? orUnavailable(services, admitted) : admitted;
  } catch (err) {
    throw unavailable(services, err);
  }
}

function orUnavailable<T>(services: AccessServices, pending: Promise<T>): Promise<T> {
  return pending.catch((err: unknown) => {
    throw unavailable(services, err);
  });
}

/** The store or the limiter cannot be reached: 503 (for every caller of admit, REST, /mcp and MCP alike). */
function unavailable(services: AccessServices, err: unknown): unknown {
  return unavailableError(err, services.clock.now()) ?? err;
}

/** A key refused (missing, unknown, revoked, expired): counted against the client's address, then the refusal. */
async function refuseAnonymously(
  services: AccessServices,
  call: Pick<CallInfo, 'clientIp' | 'rate'>,
  err: unknown,
): Promise<never> {
  if (err instanceof ApiError) await admitAnonymous(services, call);
  throw err;
}

/** The rest of admit, once the key and its account are known. */
function admitFound(
  services: AccessServices,
  call: Pick<CallInfo, 'clientIp' | 'rate'>,
  bucket: Bucket,
  found: ReturnType<typeof usable>,
  now: Date,
): KeyAdmission | Promise<KeyAdmission> {
  const { record, principal } = found;
  // An address outside the key's whitelist, or an account that refuses (none, or suspended): counted against the
  // client's address, not the key.
  const problem = ipAllowed(record.ipWhitelist, call.clientIp) ? accountProblem(found.account) : ipNotAllowed();
  if (problem) return refuseAnonymously(services, call, problem);
  const counted = countPrincipal(services, principal, call, bucket, now);
  if (counted instanceof Promise) return counted.then(() => used(services, found, now));
  return used(services, found, now);
}

/**
 * Notes the key's use (at most once a minute, not waited for) and gives the admission: the cache's entry itself, which
 * holds the key's record and principal (read only, as every admission is).
 */
function used(services: AccessServices, found: ReturnType<typeof usable>, now: Date): KeyAdmission {
  if (now.getTime() - found.lastUsedMs >= TOUCH_INTERVAL_MS) {
    touchKey(services.store, found.record, services.clock)?.catch((err: unknown) =>
      services.log.warn({ err, keyId: found.principal.keyId }, 'could not record lastUsedAt'),
    );
  }
  return found;
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
        .then(() => keyAndAccount(services, call.apiKey, undefined, services.clock.now()))
        .catch(() => undefined)
    : undefined;
  if (found && ipAllowed(found.record.ipWhitelist, call.clientIp))
    return (await hitBudget(services, found.principal, ALL_ONLY)).rate;
  return countAddress(services, call.clientIp);
}
