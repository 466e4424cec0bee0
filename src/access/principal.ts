import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import { isEmbedToken } from '../embed/store.js';
import type { Bucket } from '../keys/limits.js';
import type { CallInfo } from './call.js';
import { admitAnonymous } from './counters.js';
import { admitEmbed } from './embed.js';
import { admit } from './key.js';
import { KEY_ONLY, type PrincipalKind } from './rule.js';
import { admitSession } from './session.js';
import type { AccessServices } from './services.js';

/**
 * Who is calling, from whichever credential the operation accepts: an embed
 * token; else an API key, which wins when present (no CSRF needed); otherwise
 * a session cookie, whose non-GET requests must carry the CSRF token bound to it.
 * Without a promise when an API key is admitted at once (./key.ts).
 */
export function admitPrincipal(
  services: AccessServices,
  call: CallInfo,
  bucket: Bucket,
  accepts: readonly PrincipalKind[] = KEY_ONLY,
): Principal | Promise<Principal> {
  if (isEmbedToken(call.apiKey)) return admitEmbed(services, call, call.apiKey, bucket, accepts);
  const hasKey = call.apiKey !== undefined && call.apiKey !== '';
  if (!hasKey && call.sessionToken) return admitSession(services, call, call.sessionToken, bucket, accepts);
  if (!hasKey && !accepts.includes('key')) return refuseKeyless(services, call);
  const admitted = admit(services, call, bucket);
  if (admitted instanceof Promise) return admitted.then((a) => keyAccepted(a.principal, accepts));
  return keyAccepted(admitted.principal, accepts);
}

/** An operation for user sessions only, called with no credential: counted against the address, then refused. */
async function refuseKeyless(services: AccessServices, call: CallInfo): Promise<never> {
  await admitAnonymous(services, call);
  throw new ApiError(
    'UNAUTHORIZED',
    'Sign in first: this operation needs a user session (the session cookie from POST /api/auth/login).',
  );
}

function keyAccepted(principal: Principal, accepts: readonly PrincipalKind[]): Principal {
  if (!accepts.includes('key'))
    throw new ApiError(
      'UNAUTHORIZED',
      'This operation needs a user session, not an API key: sign in with POST /api/auth/login.',
    );
  return principal;
}
