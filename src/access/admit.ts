/**
 * Admission of one operation call, the same for every transport: who is calling (API key, user session or embed
 * token; src/access/principal.ts), whether their account and address may call, whether their rate budget allows
 * one more request, and whether they hold the tier and scope the operation needs.
 */
import { ApiError } from '../core/errors.js';
import { credentialOf, signOfLife, signOfLifeDue } from '../accounts/liveness.js';
import type { Principal } from '../accounts/principal.js';
import type { Bucket } from '../keys/limits.js';
import { countBucket } from './budget.js';
import type { CallInfo } from './call.js';
import { admitAnonymous } from './counters.js';
import { requireAccess } from './permissions.js';
import { admitPrincipal } from './principal.js';
import { KEY_ONLY, type AccessRule } from './rule.js';
import type { AccessServices } from './services.js';

/** The principal of a sign-up or sign-in call, before anyone is known: it owns nothing and may do nothing. */
const NOBODY: Principal = Object.freeze({
  kind: 'key',
  ownerId: '',
  tier: 'public',
  scopes: [],
  keyId: '',
  expiresAt: null,
  ipWhitelist: [],
}) as Principal;

/**
 * Admits one call of an operation and returns its principal, or throws the ApiError that refuses it (401, 403,
 * 429, 503). An unreachable store or limiter may also surface as its own error; the caller maps it to the 503
 * with unavailableError (src/access/unavailable.ts), as invokeTool does. Without a promise when nothing needs
 * waiting for (./key.ts); a refusal is then thrown rather than rejected, so callers await it either way.
 */
export function admitCall(rule: AccessRule, services: AccessServices, call: CallInfo): Principal | Promise<Principal> {
  const bucket: Bucket = rule.bucket === 'default' ? 'all' : rule.bucket;
  if (rule.auth === 'none') return admitAnonymous(services, call).then(() => NOBODY);
  if (call.admitted) return admitAdmitted(rule, services, call.admitted, bucket);
  const principal = admitPrincipal(services, call, bucket, rule.principals);
  if (principal instanceof Promise) return principal.then((p) => allowed(rule, services, p));
  return allowed(rule, services, principal);
}

/** A call whose transport admitted the caller already: the operation's own checks and bucket only. */
async function admitAdmitted(
  rule: AccessRule,
  services: AccessServices,
  principal: Principal,
  bucket: Bucket,
): Promise<Principal> {
  if (!(rule.principals ?? KEY_ONLY).includes(principal.kind))
    throw new ApiError('UNAUTHORIZED', 'This operation needs a user session.');
  requireAccess(principal, rule.scope, rule.tiers);
  if (bucket !== 'all') await countBucket(services, principal, bucket);
  await showsLife(services, principal);
  return principal;
}

/** The operation's tier and scope, then the sign of life. */
function allowed(rule: AccessRule, services: AccessServices, principal: Principal): Principal | Promise<Principal> {
  requireAccess(principal, rule.scope, rule.tiers);
  const shown = showsLife(services, principal);
  return shown ? shown.then(() => principal) : principal;
}

/**
 * An admitted call with one of the account's keys or sessions is a sign of life of its owner (accounts/liveness):
 * a promise only when it is passed on (at most once per credential and interval).
 */
function showsLife(services: AccessServices, principal: Principal): Promise<void> | undefined {
  const credential = credentialOf(principal);
  if (!credential) return undefined;
  const at = services.clock.now();
  if (!signOfLifeDue(principal.ownerId, credential, at.getTime())) return undefined;
  const kind = principal.kind === 'key' ? 'key' : 'session';
  return signOfLife(services.store, { accountId: principal.ownerId, credential, kind, at }, services.log);
}
