import type { Scope, Tier } from './scopes.js';

/**
 * Who is calling, resolved once per request by the shared wrapper from an API
 * key or a user session, and handed to handlers in ctx. Handlers never see a
 * credential, only this.
 */
export interface Principal {
  /** `embed`: a short-lived wizard token (src/embed/), acting for the key that made it, for the wizard's tools only. */
  kind: 'key' | 'session' | 'embed';
  /** The account (`acct_<id>`) every record the call reads or writes belongs to. */
  ownerId: string;
  /** The key's tier, or for a session the account's tier. */
  tier: Tier;
  scopes: Scope[];
  /** The key's id (kind `key`) or the session's id (kind `session`): what rate limits count and events name. */
  keyId: string;
  /** The user of a session; undefined for keys. */
  userId?: string | undefined;
  /** Limits a key passes on to the keys it creates: no later expiry, no wider IP whitelist (src/keys/manage.ts). */
  expiresAt: string | null;
  ipWhitelist: string[];
  /** The embed session of an `embed` principal (its token's record). */
  embedSessionId?: string | undefined;
}
