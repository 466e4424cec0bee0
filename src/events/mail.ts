/**
 * The mail outbox: every message the service sends by email is first written here, inside the transaction of the
 * change that causes it (a registration, a reported trigger, a share opening), so it is never lost and never sent
 * for a change that was rolled back. The mail domain (src/mail/) renders each record from its template and sends it
 * over SMTP (or writes it as an .eml file), at least once, and records the outcome on the record.
 *
 * A record holds the template's data, which may include a single-use link: that data is kept only until the message
 * is sent (the sender clears it), and it never holds passwords, API keys or another person's claim code.
 */
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { Tx } from '../store/port.js';
import { declareTenantCollection } from '../accounts/tenancy.js';

/** Outgoing messages, one record per message. */
export const MAIL = 'mail';
/** Indexed fields: the account (listing, limits) and the state (the sender takes pending messages). */
export const MAIL_INDEXES: Record<string, string[]> = { [MAIL]: ['ownerId', 'state'] };
declareTenantCollection(MAIL);

/** Every template the service sends, with the data each one needs (all values are strings). */
export interface MailTemplates {
  /** Confirms a new address at registration: `link` (single use, 24 h). */
  'verify-email': { link: string };
  /** A password reset: `link` (single use, 30 minutes). */
  'password-reset': { link: string };
  /** Sent to the new address of an email change: `link` to confirm it. */
  'email-change-confirm': { link: string; newEmail: string };
  /** Sent to the old address when the change is confirmed. */
  'email-change-notice': { newEmail: string };
  /**
   * When the password was changed (reset or changed with the current one): `workingKeys`, how many of the account's
   * API keys keep working (a count, as text; '0': nothing said of keys; left out where the keys domain is not loaded).
   */
  'password-changed': { workingKeys?: string };
  /** Before a switch deadline: `deadline` (ISO 8601), `planLabel`, and `checkInLink` (signed, single use) if any. */
  'checkin-reminder': { deadline: string; planLabel: string; checkInLink?: string };
  /**
   * Before the deadline of a contract the watcher follows: `deadline` (ISO 8601), `network`, `contractAddress`. The
   * check-in is a transaction from the owner's wallet, so there is no link.
   */
  'contract-checkin-reminder': { deadline: string; network: string; contractAddress: string };
  /** At once when a trigger is reported and a waiting period starts: `endsAt`, `planLabel`, how to cancel. */
  'verification-started': { endsAt: string; planLabel: string; cancelLink?: string };
  /** When a waiting period ends early because the owner showed a sign of life: `planLabel`. */
  'verification-failed': { planLabel: string };
  /** When a waiting period ends with no sign of life: `planLabel`, `sharesOpened` (a count, as text). */
  'verification-complete': { planLabel: string; sharesOpened: string };
  /**
   * When the chain released a watched contract (no check-in before its deadline) and the plan's shares opened at
   * once, with no waiting period: `planLabel`, `sharesOpened` (a count, as text), `network`, `contractAddress`.
   */
  'chain-released': { planLabel: string; sharesOpened: string; network: string; contractAddress: string };
  /** To an heir the owner added: `ownerName`, `claimCode` (that heir's own code), `claimLink`. */
  'heir-invitation': { ownerName: string; claimCode: string; claimLink: string };
  /**
   * To the heir of a share already open when the owner gives it a new code: the earlier code no longer works and
   * reading resumes once they claim with this one. `ownerName`, `claimCode` (that heir's own), `claimLink`.
   */
  'heir-new-code': { ownerName: string; claimCode: string; claimLink: string };
  /** To an heir when their share opens after a waiting period: `ownerName`, `link` to read it. */
  'share-opened': { ownerName: string; link: string };
  /** To an heir when the owner's contract released on chain and their share opened at once: `ownerName`, `link`. */
  'share-opened-chain': { ownerName: string; link: string };
}

export type MailTemplate = keyof MailTemplates;

/**
 * The languages mail is written in (src/mail/templates/), the one list the profile's and registration's schemas and
 * Accept-Language negotiation read. The heirs' page script keeps a copy (src/http/heir-client/heir.js, checked equal
 * in test/mail/pages.test.ts).
 */
export const MAIL_LOCALES = ['en', 'ar', 'es', 'fr'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];
/** Each mail language's name, for schema descriptions. */
export const MAIL_LOCALE_NAMES: Record<MailLocale, string> = {
  en: 'English',
  ar: 'Arabic',
  es: 'Spanish',
  fr: 'French',
};
export const mailLocaleList = (): string => MAIL_LOCALES.map((l) => `${l} (${MAIL_LOCALE_NAMES[l]})`).join(', ');

export type MailState = 'pending' | 'sending' | 'sent' | 'failed' | 'suppressed';

/** What a domain asks to send. */
export interface MailRequest<T extends MailTemplate = MailTemplate> {
  /** The account the message is sent for (limits, records, tenancy). */
  ownerId: string;
  /** Recipient address; refused when it holds CR or LF. */
  to: string;
  /** Recipient display name, if any; refused when it holds CR or LF. */
  toName?: string | undefined;
  template: T;
  locale: MailLocale;
  /** Essential mail (verification, reset, security notices) ignores the user's preferences and has no unsubscribe. */
  essential: boolean;
  data: MailTemplates[T];
  /** The user the message is about, when there is one (preferences, unsubscribe). */
  userId?: string | undefined;
}

/** A message as stored. */
export interface MailRecord {
  [field: string]: unknown;
  /** `mail_<id>`; ids sort by creation time. */
  id: string;
  ownerId: string;
  to: string;
  toName: string | null;
  template: MailTemplate;
  locale: MailLocale;
  essential: boolean;
  userId: string | null;
  /** The template's data until sent; null afterwards. */
  data: Record<string, string> | null;
  state: MailState;
  /** Attempts so far. */
  attempts: number;
  /** Epoch ms before which the sender does not try again. */
  nextAttemptAt: number;
  /** The last error (an SMTP reply or a connection error), never the message body. */
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

/** Listeners told when a message is queued, so a running sender takes it without waiting for its next scan. */
type Listener = (id: string) => void;
const listeners = new Set<Listener>();

export function onMailQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const HEADER_BREAK = /[\r\n]/;

/**
 * Queues one message in the caller's transaction. Refuses an address or a name with a line break (no header can be
 * injected). A message queued in a transaction that fails is simply never there.
 */
export async function enqueueMail<T extends MailTemplate>(
  tx: Tx,
  request: MailRequest<T>,
  clock: Clock,
): Promise<MailRecord> {
  if (HEADER_BREAK.test(request.to) || HEADER_BREAK.test(request.toName ?? ''))
    throw new Error('a mail address or name holds a line break');
  const at = clock.now();
  const record: MailRecord = {
    id: newId('mail'),
    ownerId: request.ownerId,
    to: request.to,
    toName: request.toName ?? null,
    template: request.template,
    locale: request.locale,
    essential: request.essential,
    userId: request.userId ?? null,
    data: { ...(request.data as Record<string, string>) },
    state: 'pending',
    attempts: 0,
    nextAttemptAt: at.getTime(),
    lastError: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    sentAt: null,
  };
  await tx.put(MAIL, record);
  // Told before the transaction commits: a sender that does not find the record yet finds it on its next scan.
  for (const l of listeners) l(record.id);
  return record;
}
