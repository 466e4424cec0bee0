import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import type { Bucket } from '../keys/limits.js';
import { countPrincipal, rememberBudget } from './budget.js';
import type { CallInfo } from './call.js';
import { admitAnonymous } from './counters.js';
import { requireCsrf } from './csrf.js';
import type { PrincipalKind } from './rule.js';
import type { AccessServices } from './services.js';

/**
 * Who is calling with a user session cookie: the session is authenticated (its account must be active), the call
 * counted in the account's budget, and non-GET requests must carry the CSRF token bound to the session. A renewed
 * session's cookie is left on the call for the transport.
 */
export async function admitSession(
  services: AccessServices,
  call: CallInfo,
  token: string,
  bucket: Bucket,
  accepts: readonly PrincipalKind[],
): Promise<Principal> {
  let active;
  try {
    active = await services.sessions.authenticate(token);
  } catch (err) {
    if (err instanceof ApiError) await admitAnonymous(services, call);
    throw err;
  }
  rememberBudget(active.principal, { accountTier: active.account.tier, keyLimits: undefined });
  await countPrincipal(services, active.principal, call, bucket);
  requireCsrf(services.sessions, call, active.session.id);
  if (!accepts.includes('session')) {
    throw new ApiError(
      'API_KEY_MISSING',
      'This operation needs an API key (Authorization: Bearer <key>); a user session cannot call it.',
    );
  }
  if (active.renewed) call.cookie = active.renewed;
  return active.principal;
}
