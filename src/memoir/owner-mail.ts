/**
 * Mail about a linked plan: to its owner (a verification started, failed or completed; a check-in reminder) and to
 * its heirs (an invitation with their own claim code; a share that opened). Every message is queued in the mail
 * outbox (src/events/mail.ts) inside the transaction of the change it reports, so it is sent at least once for a
 * change that was kept and never for one that was rolled back.
 *
 * The owner is mailed at the addresses of the account's users that are confirmed: an address nobody has shown to be
 * theirs gets no notice, no reminder and no check-in link (a stranger holding it could otherwise act for the owner).
 * Links are queued as paths; the sender makes them absolute with the service's public URL.
 */
import { USERS } from '../accounts/records.js';
import type { Clock } from '../core/clock.js';
import { headerText } from '../core/names.js';
import type { Store, Tx } from '../store/port.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import { isEmailVerified, type MailUser } from '../accounts/email-flows.js';
import { issueEmailToken } from '../accounts/email-tokens.js';
import {
  enqueueMail,
  type MailLocale,
  type MailRecord,
  type MailTemplate,
  type MailTemplates,
} from '../events/mail.js';
import type { HeirPlanRecord } from './heir-plans.js';

/** The page a mailed check-in link opens (GET asks to confirm, POST checks in). */
export const CHECK_IN_PATH = '/api/v1/mail/check-in';
/** Where an heir's mail points: a page saying how to register, confirm the address and claim a share with the code. */
export const HEIR_GUIDE_PATH = '/heir';

/** What an heir's message was about, so the page explains that message first. */
export type HeirGuideTopic = 'invitation' | 'new-code' | 'share-opened';

/** The link an heir's message carries: the guide page in the message's language. Never a code or an address. */
export const heirGuideLink = (about: HeirGuideTopic, locale: MailLocale): string =>
  `${HEIR_GUIDE_PATH}?about=${about}&lang=${locale}`;

/**
 * A name as it goes into a header and a subject: on one line, without bidirectional controls. Names are refused with
 * such characters where they are entered (src/core/names.ts); one stored before that rule must neither reorder what
 * the reader sees nor make the change that mails it fail (the outbox refuses a recipient name with a line break).
 */
const oneLine = headerText;

/** The account's users whose address is confirmed, oldest first. */
export async function confirmedOwners(tx: Pick<Tx, 'findBy'>, ownerId: string): Promise<MailUser[]> {
  const users = await tx.findBy<MailUser & { createdAt?: string }>(USERS, 'ownerId', ownerId);
  return users
    .filter((u) => u.ownerId === ownerId && isEmailVerified(u))
    .sort((a, b) => String(a.createdAt ?? a.id).localeCompare(String(b.createdAt ?? b.id)));
}

/** How heirs' mail names the owner and which language it uses: the account's first user. */
export async function ownerVoice(
  tx: Pick<Tx, 'findBy'>,
  ownerId: string,
): Promise<{ name: string; locale: MailLocale }> {
  const users = await tx.findBy<MailUser & { createdAt?: string }>(USERS, 'ownerId', ownerId);
  const first = users
    .filter((u) => u.ownerId === ownerId)
    .sort((a, b) => String(a.createdAt ?? a.id).localeCompare(String(b.createdAt ?? b.id)))[0];
  return { name: oneLine(first?.name ?? first?.email ?? 'The owner of the plan'), locale: first?.locale ?? 'en' };
}

/** A single-use check-in link for `plan`, sent to `user`, working until `expiresAt` (epoch ms). */
export async function checkInLink(
  tx: Tx,
  user: MailUser,
  plan: Pick<HeirPlanRecord, 'id'>,
  expiresAt: number,
  clock: Clock,
): Promise<string> {
  const token = await issueEmailToken(
    tx,
    { ownerId: user.ownerId, userId: user.id, purpose: 'check-in', email: user.email, subject: plan.id, expiresAt },
    clock,
  );
  return `${CHECK_IN_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Queues `template` to every confirmed user of the plan's account, with data made per user (a check-in link is
 * each user's own). Answers how many messages were queued.
 */
export async function mailOwners<T extends MailTemplate>(
  tx: Tx,
  plan: Pick<HeirPlanRecord, 'ownerId' | 'id'>,
  template: T,
  essential: boolean,
  dataFor: (user: MailUser) => Promise<MailTemplates[T]>,
  clock: Clock,
): Promise<number> {
  let queued = 0;
  for (const user of await confirmedOwners(tx, plan.ownerId)) {
    await enqueueMail(
      tx,
      {
        ownerId: plan.ownerId,
        to: user.email,
        toName: user.name ? oneLine(user.name) : undefined,
        template,
        locale: user.locale ?? 'en',
        essential,
        userId: user.id,
        data: await dataFor(user),
      },
      clock,
    );
    queued += 1;
  }
  return queued;
}

/** Queues a message to an heir's address (not a user of the account: no preferences, no unsubscribe link). */
export function mailHeir<T extends 'heir-invitation' | 'heir-new-code' | 'share-opened' | 'share-opened-chain'>(
  tx: Tx,
  ownerId: string,
  heir: { email: string; name: string },
  template: T,
  data: MailTemplates[T],
  locale: MailLocale,
  clock: Clock,
): Promise<MailRecord> {
  return enqueueMail(
    tx,
    { ownerId, to: heir.email, toName: oneLine(heir.name), template, locale, essential: true, data },
    clock,
  );
}

/**
 * Mail sent once per key (a reminder per plan, deadline and lead time; a share's "opened" message): a record written in
 * the same transaction as the message, and read again inside it, so two sweeps or a watcher and a sweep at once send
 * one message. `until` is the moment after which the key can no longer let a message through (a reminder's
 * deadline, an open share's end); the record is pruned ONCE_MARGIN_DAYS after it.
 */
export const MAIL_ONCE = 'mail_once';
declareTenantCollection(MAIL_ONCE);

/** Days a once-key is kept past its `until`: reminders stop at the deadline, so this only absorbs clock skew. */
export const ONCE_MARGIN_DAYS = 30;

export interface OnceRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  planId: string;
  createdAt: string;
  /** After this (ISO 8601), the key can no longer matter. Absent on older records (read from a reminder's key). */
  until?: string;
}

/** Takes a once-key in the caller's transaction: true the first time, false ever after (while it is kept). */
export async function takeOnce(
  tx: Tx,
  key: string,
  owner: { ownerId: string; planId: string; until: string },
  clock: Clock,
): Promise<boolean> {
  if (await tx.get(MAIL_ONCE, key)) return false;
  await tx.put<OnceRecord>(MAIL_ONCE, { id: key, ...owner, createdAt: clock.now().toISOString() });
  return true;
}

/** When a once-key stops mattering: its `until`, or the deadline in a reminder key written before `until` existed. */
function untilOf(r: OnceRecord): number {
  if (r.until) return Date.parse(r.until);
  const deadline = /^rmd_mhp_[0-9A-Z]+_(\d+)_\d+$/.exec(r.id)?.[1];
  return deadline ? Number(deadline) : Number.POSITIVE_INFINITY;
}

/** Deletes, across accounts, the once-keys whose `until` passed more than ONCE_MARGIN_DAYS ago; answers how many. */
export async function pruneMailOnce(store: Store, clock: Clock, batch = 200): Promise<number> {
  const cutoff = clock.now().getTime() - ONCE_MARGIN_DAYS * 86_400_000;
  const stale = (await store.all<OnceRecord>(MAIL_ONCE)).filter((r) => untilOf(r) < cutoff).map((r) => r.id);
  let pruned = 0;
  for (let i = 0; i < stale.length; i += batch) {
    const ids = stale.slice(i, i + batch);
    pruned += await store.transact(async (tx) => {
      let n = 0;
      for (const id of ids) if (await tx.delete(MAIL_ONCE, id)) n += 1;
      return n;
    });
  }
  return pruned;
}
