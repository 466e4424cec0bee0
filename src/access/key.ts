import { ApiError } from '../core/errors.js';
import { ipAllowed } from '../core/ip.js';
import type { RateState } from '../core/limiter-port.js';
import type { Principal } from '../accounts/principal.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import { authenticate, touchKey, type ApiKeyRecord } from '../keys/keys.js';
import type { Bucket } from '../keys/limits.js';
import { activeAccount } from './account-status.js';
import { ALL_ONLY, countPrincipal, hitBudget, keyBudget, rememberBudget } from './budget.js';
import type { CallInfo } from './call.js';
import { admitAnonymous, countAddress } from './counters.js';
import { requireAllowedAddress } from './ip.js';
import type { AccessServices } from './services.js';
import { unavailableError } from './unavailable.js';

/** The account of a key, counting the refusal against the client's address when the account refuses. */
async function keyAccount(
  services: AccessServices,
  call: Pick<CallInfo, 'clientIp' | 'rate'>,
  ownerId: string,
): Promise<AccountRecord> {
  try {
    return await activeAccount(services, ownerId);
  } catch (err) {
    if (err instanceof ApiError) await admitAnonymous(services, call);
    throw err;
  }
}

/**
 * Who is calling with an API key and whether they may make one more request:
 * the key is authenticated, its IP whitelist and its account's status checked,
 * and the all-requests bucket (plus the tool's own bucket) counted. Requests
 * without a valid key count against the client's address instead, so guessing
 * keys is rate limited too.
 */
export async function admit(
  services: AccessServices,
  call: Pick<CallInfo, 'apiKey' | 'clientIp' | 'rate'>,
  bucket: Bucket = 'all',
): Promise<{ principal: Principal; record: ApiKeyRecord }> {
  try {
    let auth: { principal: Principal; record: ApiKeyRecord };
    try {
      auth = await authenticate(services.store, call.apiKey, services.clock);
    } catch (err) {
      if (err instanceof ApiError) await admitAnonymous(services, call);
      throw err;
    }
    await requireAllowedAddress(services, call, auth.record);
    const account = await keyAccount(services, call, auth.record.ownerId);
    rememberBudget(auth.principal, keyBudget(auth.record, account));
    await countPrincipal(services, auth.principal, call, bucket);
    touchKey(services.store, auth.record, services.clock)?.catch((err: unknown) =>
      services.log.warn({ err, keyId: auth.principal.keyId }, 'could not record lastUsedAt'),
    );
    return auth;
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
  const auth = call.apiKey
    ? await authenticate(services.store, call.apiKey, services.clock).catch(() => undefined)
    : undefined;
  if (auth && ipAllowed(auth.record.ipWhitelist, call.clientIp)) {
    rememberBudget(
      auth.principal,
      keyBudget(auth.record, await services.store.get<AccountRecord>(ACCOUNTS, auth.record.ownerId)),
    );
    return (await hitBudget(services, auth.principal, ALL_ONLY)).rate;
  }
  return countAddress(services, call.clientIp);
}
