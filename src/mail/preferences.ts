/**
 * What a user asked not to receive. Non-essential mail (reminders, notices that can be turned off) carries a
 * one-click unsubscribe link; essential mail (address verification, password reset, security notices) ignores
 * these preferences, since the user needs it to use or protect the account.
 *
 * The link holds a signed token (HMAC-SHA256 with a server secret) naming the account, the user and the template:
 * it needs no sign-in (a mail client posts it on its own, RFC 8058) and cannot be forged for another user.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { MailTemplate } from '../events/mail.js';
import type { Tx } from '../store/port.js';
import { declareTenantCollection } from '../accounts/tenancy.js';

/** One record per user who opted out of anything: `{id: userId, ownerId, optOut}`. */
export const MAIL_PREFERENCES = 'mail_preferences';
declareTenantCollection(MAIL_PREFERENCES);

export interface MailPreferences {
  [field: string]: unknown;
  /** The user's id. */
  id: string;
  ownerId: string;
  /** Templates the user will not receive, or 'all' for every non-essential message. */
  optOut: Array<MailTemplate | 'all'>;
  updatedAt: string;
}

/** Whether a non-essential message of `template` must not be sent to this user. */
export async function isOptedOut(tx: Tx, userId: string, template: MailTemplate): Promise<boolean> {
  const prefs = await tx.get<MailPreferences>(MAIL_PREFERENCES, userId);
  return prefs !== undefined && (prefs.optOut.includes('all') || prefs.optOut.includes(template));
}

/** Records that the user no longer wants `template` (or anything non-essential, with 'all'). Idempotent. */
export async function optOut(
  tx: Tx,
  ownerId: string,
  userId: string,
  template: MailTemplate | 'all',
  clock: Clock,
): Promise<void> {
  const prefs = await tx.get<MailPreferences>(MAIL_PREFERENCES, userId);
  if (prefs && prefs.ownerId !== ownerId) throw new Error('mail preferences belong to another account');
  const list = prefs?.optOut ?? [];
  if (list.includes(template)) return;
  await tx.put<MailPreferences>(MAIL_PREFERENCES, {
    id: userId,
    ownerId,
    optOut: [...list, template],
    updatedAt: clock.now().toISOString(),
  });
}

/** The messages a user may turn off (every other template is essential). */
export const OPTIONAL_TEMPLATES = ['checkin-reminder'] as const satisfies readonly MailTemplate[];

/** The user's current opt-outs (empty when they never opted out of anything). */
export async function optOutsOf(tx: Pick<Tx, 'get'>, userId: string): Promise<Array<MailTemplate | 'all'>> {
  return (await tx.get<MailPreferences>(MAIL_PREFERENCES, userId))?.optOut ?? [];
}

/** Replaces the user's opt-outs with `list` (deduplicated); an empty list turns everything back on. */
export async function setOptOuts(
  tx: Tx,
  ownerId: string,
  userId: string,
  list: ReadonlyArray<MailTemplate | 'all'>,
  clock: Clock,
): Promise<Array<MailTemplate | 'all'>> {
  const prefs = await tx.get<MailPreferences>(MAIL_PREFERENCES, userId);
  if (prefs && prefs.ownerId !== ownerId) throw new Error('mail preferences belong to another account');
  const optOut = [...new Set(list)];
  await tx.put<MailPreferences>(MAIL_PREFERENCES, {
    id: userId,
    ownerId,
    optOut,
    updatedAt: clock.now().toISOString(),
  });
  return optOut;
}

/** What an unsubscribe token says. */
export interface UnsubscribeClaim {
  ownerId: string;
  userId: string;
  template: MailTemplate | 'all';
}

const SEP = '~';

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`mail-unsubscribe:${payload}`).digest();
}

export function signUnsubscribe(secret: string, claim: UnsubscribeClaim): string {
  const payload = [claim.ownerId, claim.userId, claim.template].join(SEP);
  return `${Buffer.from(payload).toString('base64url')}.${mac(secret, payload).toString('base64url')}`;
}

/** The claim of a valid token, or null for a malformed or forged one. */
export function verifyUnsubscribe(secret: string, token: string): UnsubscribeClaim | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined || token.length > 512) return null;
  const payload = Buffer.from(body, 'base64url').toString();
  const expected = mac(secret, payload);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [ownerId, userId, template, rest] = payload.split(SEP);
  if (!ownerId || !userId || !template || rest !== undefined) return null;
  return { ownerId, userId, template: template as MailTemplate | 'all' };
}
