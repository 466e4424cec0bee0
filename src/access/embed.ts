import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import { authenticateEmbedToken } from '../embed/auth.js';
import type { Bucket } from '../keys/limits.js';
import { activeAccount } from './account-status.js';
import { countPrincipal, keyBudget, rememberBudget } from './budget.js';
import type { CallInfo } from './call.js';
import { admitAnonymous } from './counters.js';
import type { PrincipalKind } from './rule.js';
import type { AccessServices } from './services.js';

/**
 * A wizard call made with an embed token: the token and the key behind it are
 * checked, the call counts against that key's limits, and only tools accepting
 * the `embed` principal (the wizard's own calls) may run.
 */
export async function admitEmbed(
  services: AccessServices,
  call: CallInfo,
  token: string,
  bucket: Bucket,
  accepts: readonly PrincipalKind[],
): Promise<Principal> {
  let principal: Principal;
  try {
    const auth = await authenticateEmbedToken(services.store, token, services.clock);
    principal = auth.principal;
    const account = await activeAccount(services, principal.ownerId);
    // The token counts against the budget of the key that made it.
    rememberBudget(principal, keyBudget(auth.key, account));
  } catch (err) {
    if (err instanceof ApiError) await admitAnonymous(services, call);
    throw err;
  }
  await countPrincipal(services, principal, call, bucket);
  if (!accepts.includes('embed')) {
    throw new ApiError(
      'INSUFFICIENT_SCOPE',
      "An embed token is accepted only by the contract wizard's own operations; use an API key for this one.",
    );
  }
  return principal;
}
