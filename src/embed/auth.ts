/**
 * Who may use the wizard: a partner or internal key with
 * the `embed` scope and allowed origins, or an embed token made by such a key.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import { API_KEYS, type ApiKeyRecord } from '../keys/keys.js';
import { hasScope } from '../accounts/scopes.js';
import type { Store } from '../store/port.js';
import { findEmbedSession, sessionExpired, type EmbedSessionRecord } from './store.js';

export const EMBED_TIERS = ['partner', 'internal'] as const;

/** Why a key cannot serve the wizard (tier, scope), or undefined. Allowed origins are checked by the caller, which explains them. */
export function embedKeyProblem(key: Pick<ApiKeyRecord, 'tier' | 'scopes'>): ApiError | undefined {
  if (!(EMBED_TIERS as readonly string[]).includes(key.tier)) {
    return new ApiError(
      'TIER_NOT_ALLOWED',
      `The embeddable wizard needs a partner or internal key; this key is ${key.tier}.`,
    );
  }
  if (!hasScope(key.scopes, 'embed'))
    return new ApiError('INSUFFICIENT_SCOPE', 'The embeddable wizard needs a key with the "embed" scope.');
  return undefined;
}

/** The origins a session may be framed by: its own origin, if it is still one of the key's allowed origins. */
export function sessionOrigins(session: EmbedSessionRecord, key: ApiKeyRecord): string[] {
  const allowed = key.allowedOrigins ?? [];
  if (session.origin === null) return [...allowed];
  return allowed.includes(session.origin) ? [session.origin] : [];
}

/** The principal of a wizard call made with an embed token: the key's account, tier and rate limits, and nothing but the wizard's tools. */
export function embedPrincipal(session: EmbedSessionRecord, key: ApiKeyRecord): Principal {
  return {
    kind: 'embed',
    ownerId: key.ownerId,
    tier: key.tier,
    scopes: ['embed'],
    keyId: key.id,
    expiresAt: session.expiresAt,
    ipWhitelist: [],
    embedSessionId: session.id,
  };
}

export interface EmbedAuth {
  principal: Principal;
  session: EmbedSessionRecord;
  key: ApiKeyRecord;
}

/**
 * Resolves an embed token, or throws API_KEY_INVALID (unknown, expired, revoked
 * because its origin left the key's list, or its key revoked or expired) or the key's tier/scope error. `allowExpired` is for
 * the page, which explains an expired token to its parent instead of failing.
 */
export async function authenticateEmbedToken(
  store: Store,
  token: string,
  clock: Clock,
  opts: { allowExpired?: boolean } = {},
): Promise<EmbedAuth & { expired: boolean }> {
  const session = await findEmbedSession(store, token);
  if (!session) throw new ApiError('API_KEY_INVALID', 'The embed token is invalid.');
  if (session.revokedAt) {
    throw new ApiError(
      'API_KEY_INVALID',
      "The embed token was revoked: its origin was removed from the key's allowed origins. The embedding site must ask for a new one (POST /api/v1/embed/sessions).",
    );
  }
  const expired = sessionExpired(session, clock);
  if (expired && !opts.allowExpired) {
    throw new ApiError(
      'API_KEY_INVALID',
      'The embed token has expired: the embedding site must ask for a new one (POST /api/v1/embed/sessions).',
    );
  }
  const key = await store.get<ApiKeyRecord>(API_KEYS, session.keyId);
  if (!key || key.revokedAt || (key.expiresAt && Date.parse(key.expiresAt) <= clock.now().getTime())) {
    throw new ApiError('API_KEY_INVALID', 'The API key behind this embed token is revoked or expired.');
  }
  const problem = embedKeyProblem(key);
  if (problem) throw problem;
  if (sessionOrigins(session, key).length === 0) {
    throw new ApiError('API_KEY_INVALID', "The embed token's origin is no longer among the key's allowed origins.");
  }
  return { principal: embedPrincipal(session, key), session, key, expired };
}
