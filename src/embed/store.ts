/**
 * Embed sessions: the short-lived tokens the wizard works with.
 *
 * A token is `svc_et_<id>.<secret>`: the id finds the record, only the
 * secret's SHA-256 is stored. A session belongs to the key that made it (and
 * its account), is bound to one allowed origin (or, when minted for a `?key=`
 * page, to the key's allowed origins), and expires after minutes. Expired
 * records are kept a day, so a page loaded with an expired token can still
 * tell its parent why, then they are erased. A session whose origin leaves the
 * key's allowed origins is revoked for good (revokeSessionsOutside), in the
 * transaction that changes the key.
 *
 * All store access of the embed feature is in this file.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { newestFirst, ulid } from '../core/ids.js';
import { accountTx, declareTenantCollection } from '../accounts/tenancy.js';
import type { Doc, Store, Tx } from '../store/port.js';

export const EMBED_SESSIONS = 'embed_sessions';
/** Indexed fields (the account views find records by owner). */
export const EMBED_SESSION_INDEXES = ['ownerId'];
declareTenantCollection(EMBED_SESSIONS);

export const EMBED_TOKEN_PREFIX = 'svc_et_';
/** How long an expired session is kept, so its page can still explain itself. */
export const EXPIRED_KEEP_MS = 24 * 3600 * 1000;

export interface EmbedSessionRecord extends Doc {
  id: string;
  ownerId: string;
  /** The API key that made the session; the session dies with it. */
  keyId: string;
  /** The one origin that may frame the wizard, or null: any of the key's allowed origins (sessions minted for `?key=` pages). */
  origin: string | null;
  secretHash: string;
  /** Where the result is POSTed (HTTPS, checked), if the partner asked. */
  callback: string | null;
  createdAt: string;
  expiresAt: string;
  /**
   * Set when the session was ended before its time because an origin it may be framed by left the key's
   * allowedOrigins. For good: putting the origin back does not revive it.
   */
  revokedAt?: string;
}

export interface NewEmbedSession {
  ownerId: string;
  keyId: string;
  origin: string | null;
  callback?: string | null | undefined;
  ttlSeconds: number;
}

/** Whether a presented credential is an embed token (rather than an API key). */
export function isEmbedToken(presented: string | undefined): presented is string {
  return presented?.startsWith(EMBED_TOKEN_PREFIX) === true;
}

const secretHash = (secret: string) => hash('sha256', secret, 'hex');

/** How many of an account's oldest sessions a new session looks at, erasing those expired a day ago. */
export const ERASE_PER_SESSION = 4;

/** Stores a new session and returns it with its token (shown once); erases the account's oldest long-expired sessions on the way. */
export async function createEmbedSession(
  store: Store,
  input: NewEmbedSession,
  clock: Clock,
): Promise<{ token: string; record: EmbedSessionRecord }> {
  const now = clock.now();
  const id = `emb_${ulid(now.getTime())}`;
  const secret = randomBytes(32).toString('base64url');
  const record: EmbedSessionRecord = {
    id,
    ownerId: input.ownerId,
    keyId: input.keyId,
    origin: input.origin,
    secretHash: secretHash(secret),
    callback: input.callback ?? null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000).toISOString(),
  };
  await store.transact(async (raw) => {
    const tx = accountTx(raw, input.ownerId);
    // The account's oldest sessions, a few at a time: each new session erases up to ERASE_PER_SESSION long-expired
    // ones, so they never pile up, and making one reads neither the account's other sessions nor other accounts'
    // (a `?key=` page mints one per visit: scanning every session at each visit cost the square of their number, and
    // on PostgreSQL made every visit conflict with every other).
    const oldest = newestFirst(await tx.idsBy(EMBED_SESSIONS, 'ownerId', input.ownerId)).reverse();
    for (const oldId of oldest.slice(0, ERASE_PER_SESSION)) {
      const old = await tx.get<EmbedSessionRecord>(EMBED_SESSIONS, oldId);
      if (old && Date.parse(old.expiresAt) + EXPIRED_KEEP_MS < now.getTime()) await tx.delete(EMBED_SESSIONS, old.id);
    }
    await tx.put(EMBED_SESSIONS, record);
  });
  return { token: `${EMBED_TOKEN_PREFIX}${id}.${secret}`, record };
}

/**
 * The session a token names, whether or not it has expired (the caller
 * decides), or undefined for a malformed or unknown token or a wrong secret.
 * `store` is the raw store: the token is what says whose session it is.
 */
export async function findEmbedSession(store: Store, token: string): Promise<EmbedSessionRecord | undefined> {
  const m = /^svc_et_(emb_[0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const record = await store.get<EmbedSessionRecord>(EMBED_SESSIONS, m[1]!);
  if (!record) return undefined;
  const given = Buffer.from(secretHash(m[2]!), 'hex');
  const stored = Buffer.from(record.secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) ? record : undefined;
}

export function sessionExpired(record: EmbedSessionRecord, clock: Clock): boolean {
  return Date.parse(record.expiresAt) <= clock.now().getTime();
}

/**
 * Revokes, inside the transaction that changes a key's allowed origins, the key's live sessions that a removed
 * origin could use: those bound to an origin no longer in `remaining`, and, when any origin was removed, those
 * bound to the key's whole list (minted for `?key=` pages, which a removed origin may be framing). The records
 * stay, marked, so a page loaded with such a token says why; re-adding the origin does not revive them.
 * Returns how many were revoked.
 */
export async function revokeSessionsOutside(
  tx: Tx,
  key: { id: string; ownerId: string; allowedOrigins?: readonly string[] | undefined },
  remaining: readonly string[],
  now: Date,
): Promise<number> {
  const removed = (key.allowedOrigins ?? []).some((o) => !remaining.includes(o));
  let revoked = 0;
  for (const session of await tx.findBy<EmbedSessionRecord>(EMBED_SESSIONS, 'ownerId', key.ownerId)) {
    if (session.keyId !== key.id || session.revokedAt || Date.parse(session.expiresAt) <= now.getTime()) continue;
    const dead = session.origin === null ? removed : !remaining.includes(session.origin);
    if (!dead) continue;
    await tx.put(EMBED_SESSIONS, { ...session, revokedAt: now.toISOString() });
    revoked++;
  }
  return revoked;
}
