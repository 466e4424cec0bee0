/**
 * Single-use tokens carried by the links the service mails: confirming an address, resetting a password, confirming
 * an email change. A token is 256 random bits; only its SHA-256 is stored, so a copy of the store (a backup, a
 * replica) holds nothing that opens a link. A token is used once: taking it marks it used in the same transaction
 * as the effect it causes. A used, expired or unknown token answers the same 410 GONE, so the answer never tells
 * a guesser whether a token ever existed.
 *
 * A check-in token is mailed to a plan's owner (a reminder before the deadline, a notice that a verification
 * started): opening it is a sign of life for that plan. It names the plan as its `subject`, so one plan's new link
 * does not spoil another plan's.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Tx } from '../store/port.js';
import { declareTenantCollection } from './tenancy.js';

export const EMAIL_TOKENS = 'email_tokens';
declareTenantCollection(EMAIL_TOKENS);
/** Looked up by hash (opening a link) and by user (a new link of a purpose replaces the older ones). */
export const EMAIL_TOKEN_INDEXES: Record<string, string[]> = { [EMAIL_TOKENS]: ['hash', 'userId'] };

export type EmailTokenPurpose = 'verify' | 'reset' | 'email-change' | 'check-in';

/**
 * How long each link works: a day to confirm an address (mail can be read late), half an hour for a password
 * reset (the link alone takes over the account, so its window is kept short).
 */
export const TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 3600_000,
  reset: 30 * 60_000,
  'email-change': 24 * 3600_000,
  'check-in': 7 * 24 * 3600_000,
};

export interface EmailTokenRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  userId: string;
  purpose: EmailTokenPurpose;
  /** SHA-256 (hex) of the token; the token itself is only in the mail. */
  hash: string;
  /** The address the link was sent to; for an email change, the new address it confirms. */
  email: string;
  /** What the token acts on besides its user (a check-in token's plan), or absent. */
  subject?: string | undefined;
  createdAt: string;
  /** Epoch ms. */
  expiresAt: number;
  usedAt: string | null;
}

const TOKEN_PREFIX = 'emt_';
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Creates a token for `purpose` in the caller's transaction and returns it (to be put in the mailed link). Earlier
 * unused tokens of the same user, purpose and subject stop working: only the newest link mailed works. `expiresAt`
 * (epoch ms) shortens or lengthens the purpose's usual lifetime, e.g. to a deadline.
 */
export async function issueEmailToken(
  tx: Tx,
  input: {
    ownerId: string;
    userId: string;
    purpose: EmailTokenPurpose;
    email: string;
    subject?: string | undefined;
    expiresAt?: number | undefined;
  },
  clock: Clock,
): Promise<string> {
  const now = clock.now();
  for (const old of await tx.findBy<EmailTokenRecord>(EMAIL_TOKENS, 'userId', input.userId)) {
    if (old.purpose === input.purpose && old.subject === input.subject && !old.usedAt)
      await tx.delete(EMAIL_TOKENS, old.id);
  }
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const { expiresAt, subject, ...rest } = input;
  const record: EmailTokenRecord = {
    id: newId('emailToken'),
    ...rest,
    ...(subject !== undefined ? { subject } : {}),
    hash: hashToken(token),
    createdAt: now.toISOString(),
    expiresAt: expiresAt ?? now.getTime() + TOKEN_TTL_MS[input.purpose],
    usedAt: null,
  };
  await tx.put(EMAIL_TOKENS, record);
  return token;
}

/**
 * Drops the user's unused tokens of `purpose` in the caller's transaction: their links stop working (410 GONE). A
 * password set anew ends what the old one authorised, like the sessions: an address change asked for with the old
 * password (perhaps by whoever had taken the account) must not be confirmable after the owner took it back.
 */
export async function dropEmailTokens(tx: Tx, userId: string, purpose: EmailTokenPurpose): Promise<void> {
  for (const old of await tx.findBy<EmailTokenRecord>(EMAIL_TOKENS, 'userId', userId)) {
    if (old.purpose === purpose && !old.usedAt) await tx.delete(EMAIL_TOKENS, old.id);
  }
}

const gone = () =>
  new ApiError('GONE', 'This link has been used already or has expired. Ask for a new one.', [
    { field: 'token', reason: 'used, expired or unknown' },
  ]);

/** The token's record when it is valid now for `purpose`, without using it (410 GONE otherwise). */
export async function peekEmailToken(
  tx: Pick<Tx, 'findBy'>,
  token: string,
  purpose: EmailTokenPurpose,
  clock: Clock,
): Promise<EmailTokenRecord> {
  const [record] = await tx.findBy<EmailTokenRecord>(EMAIL_TOKENS, 'hash', hashToken(token));
  if (!record || record.purpose !== purpose || record.usedAt || record.expiresAt <= clock.now().getTime()) throw gone();
  return record;
}

/** Uses the token in the caller's transaction: valid now for `purpose`, then marked used (410 GONE otherwise). */
export async function takeEmailToken(
  tx: Tx,
  token: string,
  purpose: EmailTokenPurpose,
  clock: Clock,
): Promise<EmailTokenRecord> {
  const record = await peekEmailToken(tx, token, purpose, clock);
  const used = { ...record, usedAt: clock.now().toISOString() };
  await tx.put(EMAIL_TOKENS, used);
  return used;
}
