import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import { hasScope, type Scope, type Tier } from '../accounts/scopes.js';
import { KEY_ONLY, type AccessRule } from './rule.js';

/** The tier or scope error that keeps the principal from an operation, if any. */
function accessProblem(principal: Principal, scope: Scope | null, tiers?: readonly Tier[]): ApiError | undefined {
  // An embed token was admitted only because the tool accepts it: that acceptance is its grant.
  if (principal.kind === 'embed') return undefined;
  if (tiers && !tiers.includes(principal.tier) && principal.kind === 'key') {
    return new ApiError(
      'TIER_NOT_ALLOWED',
      `This operation needs a ${tiers.join(' or ')} tier key; this key is ${principal.tier}.`,
    );
  }
  if (scope !== null && !hasScope(principal.scopes, scope)) {
    const who = principal.kind === 'key' ? 'this API key does' : 'a user session does';
    return new ApiError('INSUFFICIENT_SCOPE', `This operation needs the "${scope}" scope, which ${who} not have.`);
  }
  return undefined;
}

/** Throws TIER_NOT_ALLOWED or INSUFFICIENT_SCOPE when the principal may not use an operation. */
export function requireAccess(principal: Principal, scope: Scope | null, tiers?: readonly Tier[]): void {
  const problem = accessProblem(principal, scope, tiers);
  if (problem) throw problem;
}

/** Throws unless the principal is an operator: an internal-tier API key with scope `all`. */
export function requireOperator(principal: Principal): void {
  if (principal.kind !== 'key' || principal.tier !== 'internal') {
    throw new ApiError(
      'TIER_NOT_ALLOWED',
      'Only an operator (an internal-tier key with scope "all") may ask for every account.',
    );
  }
  if (!principal.scopes.includes('all'))
    throw new ApiError('INSUFFICIENT_SCOPE', 'Asking for every account needs the "all" scope.');
}

/** Whether a principal passes an operation's credential kind, tier and scope requirements (used to filter tools/list too). */
export function mayCall(rule: AccessRule, principal: Principal): boolean {
  if (!(rule.principals ?? KEY_ONLY).includes(principal.kind)) return false;
  return accessProblem(principal, rule.scope, rule.tiers) === undefined;
}
