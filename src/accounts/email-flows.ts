/**
 * The account flows that run by email: confirming an address, resetting a forgotten password, changing the address.
 * Each queues its message in the mail outbox (src/events/mail.ts) inside the transaction of its change, so a
 * message is never sent for a change that was rolled back, and never lost for one that was kept.
 *
 * None of these answers tells a caller whether an address has an account: asking for a reset, or changing to an
 * address that is taken, answers exactly as for a free one, and the owner of the address is the only one told.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { counterIdOf, type RateLimiter } from '../core/limiter-port.js';
import type { Logger } from '../core/log.js';
import { rankedLanguages } from '../core/messages/index.js';
import { enqueueMail, MAIL_LOCALES, type MailLocale, type MailTemplate, type MailTemplates } from '../events/mail.js';
import { recordEvent } from '../events/events.js';
import type { Store, Tx } from '../store/port.js';
import { addressGroup } from './address-group.js';
import {
  dropEmailTokens,
  type EmailTokenPurpose,
  issueEmailToken,
  peekEmailToken,
  takeEmailToken,
} from './email-tokens.js';
import { countWorkingKeys, endWithReset } from './password-hooks.js';
import { ACCOUNTS, type AccountRecord, SESSIONS, USERS } from './records.js';

export { MAIL_LOCALES };

/**
 * The first of our locales the client prefers by its Accept-Language header (weights honoured, a region ignored:
 * `es-MX` is Spanish, `fr-CA` French), English when none matches.
 */
export function localeFromAcceptLanguage(header: string | undefined): MailLocale {
  return rankedLanguages(header).find((l): l is MailLocale => MAIL_LOCALES.includes(l as MailLocale)) ?? 'en';
}

/** The parts of a user these flows read and write (the record itself is in ./sessions.ts). */
export interface MailUser {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  email: string;
  name: string | null;
  locale?: MailLocale | undefined;
  emailVerified?: boolean | undefined;
  passwordHash: string;
  updatedAt: string;
}

/**
 * Whether the user has shown they read mail at their address. Users made before addresses were confirmed have no
 * flag: they are treated as confirmed, because they registered when no confirmation existed and have used the
 * account since; asking them now would lock them out of shares they already hold.
 */
export function isEmailVerified(user: { emailVerified?: unknown }): boolean {
  return user.emailVerified !== false;
}

/**
 * Refuses a user session whose address is not confirmed yet (403 EMAIL_NOT_VERIFIED, with `message`): the shared
 * wrapper's check for tools declaring `confirmedAddress` (src/tools/invoke.ts). Anyone may register an address without
 * reading its mail and sign in; what such a session takes or makes (a share bound to the address, an API key that
 * would outlive the owner of the address taking the account back) must wait for the confirmation. Keys pass.
 */
export async function requireConfirmedAddress(
  store: Pick<Store, 'get'>,
  principal: { kind: string; userId?: string | undefined },
  message: string,
): Promise<void> {
  if (principal.kind !== 'session') return;
  const user = principal.userId ? await store.get<MailUser>(USERS, principal.userId) : undefined;
  if (!user || !isEmailVerified(user)) throw new ApiError('EMAIL_NOT_VERIFIED', message);
}

/**
 * Where mailed links point: the service's public URL (SVC_PUBLIC_URL) or its own address; `lang`, the language of
 * the message, is the language of the page it opens.
 */
export function mailLink(base: string, path: string, token: string, lang?: string): string {
  const query = `token=${encodeURIComponent(token)}${lang ? `&lang=${encodeURIComponent(lang)}` : ''}`;
  return `${base.replace(/\/+$/, '')}${path}?${query}`;
}

/**
 * The pages mailed links open (src/http/account-page.ts), not the API routes: a person opens the link in a browser,
 * and the page's button calls the API (GET /api/v1/auth/email/verify, POST /api/v1/auth/password/reset, GET
 * /api/v1/auth/email/confirm) with the token it reads from its own address. Opening a page changes nothing, so a mail
 * scanner that fetches the link does not spend it.
 */
export const LINK_PATHS = {
  verify: '/account/verify',
  reset: '/account/reset',
  confirm: '/account/confirm',
} as const;

/**
 * Queues one essential message to a user, in their language, to their address unless `to` says another. The user's
 * name goes in the To header only on mail to the address they confirmed: a name is typed by whoever registered or
 * asked for the change, and an address nobody confirmed (registered by someone else, or a new one being confirmed)
 * may belong to a stranger, who must not be mailed a display name of a caller's choosing ("Claim your prize at ...").
 */
async function mailUser<T extends MailTemplate>(
  tx: Tx,
  user: MailUser,
  template: T,
  data: MailTemplates[T],
  clock: Clock,
  to: string = user.email,
): Promise<void> {
  const toName = to === user.email && isEmailVerified(user) ? (user.name ?? undefined) : undefined;
  const request = { ownerId: user.ownerId, to, toName, template, data, userId: user.id };
  await enqueueMail(tx, { ...request, locale: user.locale ?? 'en', essential: true }, clock);
}

/** The link template of each token purpose, with the route it opens. */
const LINK_MAIL = {
  verify: { template: 'verify-email', path: LINK_PATHS.verify },
  reset: { template: 'password-reset', path: LINK_PATHS.reset },
  'email-change': { template: 'email-change-confirm', path: LINK_PATHS.confirm },
} as const;

/**
 * Issues a single-use token of `purpose` for `email` (the user's own address unless a new one is being confirmed)
 * and queues the message carrying its link to that address.
 */
async function mailLinkTo(
  tx: Tx,
  user: MailUser,
  purpose: Exclude<EmailTokenPurpose, 'check-in'>,
  linkBase: string,
  clock: Clock,
  email: string = user.email,
): Promise<void> {
  const token = await issueEmailToken(tx, { ownerId: user.ownerId, userId: user.id, purpose, email }, clock);
  const { template, path } = LINK_MAIL[purpose];
  const link = mailLink(linkBase, path, token, user.locale ?? 'en');
  if (template === 'email-change-confirm') await mailUser(tx, user, template, { link, newEmail: email }, clock, email);
  else await mailUser(tx, user, template, { link }, clock);
}

/** Queues the confirmation of a new user's address (the register path). */
export function queueVerification(tx: Tx, user: MailUser, linkBase: string, clock: Clock): Promise<void> {
  return mailLinkTo(tx, user, 'verify', linkBase, clock);
}

/**
 * Queues a password-reset link to an existing user. Used by the forgot path and when someone registers with an
 * address that already has an account: its owner then learns of it by mail and can get back in, while the
 * registering caller is told nothing.
 */
export function queueReset(tx: Tx, user: MailUser, linkBase: string, clock: Clock): Promise<void> {
  return mailLinkTo(tx, user, 'reset', linkBase, clock);
}

/**
 * What every change of a user's password does besides storing the new hash, in the transaction that stores it (a
 * reset from a mailed link, or a change with the current password): every session of the user ends, links to move the
 * account to another address and reset links not used yet stop working, `user.updated` (password) is recorded, and the user is told by mail. API
 * keys belong to the account and keep working, so the notice says how many do: someone who changed the password
 * without being the user may have made one, and the user who gets back in learns to look.
 */
export async function afterPasswordChange(tx: Tx, user: MailUser, clock: Clock): Promise<void> {
  const now = clock.now();
  const nowIso = now.toISOString();
  for (const s of await tx.findBy<{ id: string; revokedAt: string | null }>(SESSIONS, 'userId', user.id)) {
    if (!s.revokedAt) await tx.put(SESSIONS, { ...s, revokedAt: nowIso });
  }
  await dropEmailTokens(tx, user.id, 'email-change');
  // A reset link mailed before the change would otherwise still set a password over the new one for half an hour.
  await dropEmailTokens(tx, user.id, 'reset');
  await recordEvent(
    tx,
    { type: 'user.updated', ownerId: user.ownerId, data: { id: user.id, changed: ['password'] } },
    clock,
  );
  const keys = await countWorkingKeys(tx, user.ownerId, now);
  await mailUser(tx, user, 'password-changed', keys === undefined ? {} : { workingKeys: String(keys) }, clock);
}

/** What the flows need of the session authority: password hashing, strength and the guessing counters. */
export interface PasswordDesk {
  hashPassword(password: string): Promise<string>;
  requireStrong(password: string, field: string, email: string, name?: string | null): Promise<void>;
  checkPassword(email: string, clientIp: string | undefined, hash: string, password: string): Promise<boolean>;
}

/**
 * Reset requests counted per 15 minutes, like sign-in attempts: per email and address, per address, and per email from
 * all addresses together (a ceiling against one mailbox flooded from many addresses: an IPv6 /48 holds 65 536 /64s;
 * the mail outbox delays essential mail past its per-recipient limit but never drops it).
 */
export const RESET_REQUESTS_PER_EMAIL_AND_ADDRESS = 5;
export const RESET_REQUESTS_PER_ADDRESS = 30;
export const RESET_REQUESTS_PER_EMAIL = 10;

/**
 * Address change requests counted per 15 minutes: per user, and per new address whoever asks (each one mails that
 * address, and mail that must arrive is never dropped by the outbox's limits, only delayed).
 */
export const EMAIL_CHANGE_REQUESTS_PER_USER = 5;
export const EMAIL_CHANGE_REQUESTS_PER_NEW_EMAIL = 5;

/** The counter of reset links requested for one email from one address (forgot, and registering a taken address). */
function resetPerEmailAndAddress(email: string, address: string): { key: string; limit: number } {
  return { key: `reset:email-ip:${counterIdOf(email)}:${address}`, limit: RESET_REQUESTS_PER_EMAIL_AND_ADDRESS };
}

/**
 * The counter of reset links requested for one email from every address together: `forgot`'s, and a counter of its
 * own for registrations of the email (were they counted in forgot's, its 429 would tell that someone registered the
 * address lately).
 */
function resetPerEmail(email: string, path: 'reset' | 'register-reset'): { key: string; limit: number } {
  return { key: `${path}:email:${counterIdOf(email)}`, limit: RESET_REQUESTS_PER_EMAIL };
}

/** Counts one request of `what` in every counter, all or nothing: 429 until the last full one resets. */
async function countRequest(
  limiter: RateLimiter,
  counters: ReadonlyArray<{ key: string; limit: number }>,
  now: Date,
  what: string,
): Promise<void> {
  const states = await limiter.hitAll(counters, now);
  if (states[0]!.allowed) return;
  const resetAt = states
    .map((s) => s.resetAt)
    .sort((a, b) => b.getTime() - a.getTime())[0]!
    .toISOString();
  throw new ApiError('RATE_LIMIT_EXCEEDED', `Too many ${what}: retry after ${resetAt}.`, undefined, resetAt);
}

export class EmailFlows {
  /** Requests whose lookup and queueing run after the answer (see `forgot` and `requestChange`). */
  readonly #background = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    private readonly passwords: PasswordDesk,
    /** Base of mailed links; set by the service from its public URL. */
    public linkBase: string,
    private readonly log?: Pick<Logger, 'warn'> | undefined,
  ) {}

  /** Resolves when every request answered so far has been looked up and its message, if any, queued. */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  /**
   * Runs `fn` in a store transaction after the answer, so that neither the answer nor its timing depends on what it
   * finds (whether an address has an account). A request counted and answered is not refused afterwards: a failure
   * is logged (its name, never the address) and the user may ask again.
   */
  #afterAnswer(fn: (tx: Tx) => Promise<void>, failure: string): void {
    const work = this.store
      .transact(fn)
      .catch((err: unknown) => this.log?.warn({ err: (err as Error).name }, failure))
      .finally(() => this.#background.delete(work));
    this.#background.add(work);
  }

  /** Marks the address of the token's user confirmed (`user.updated`, changed: emailVerified). */
  async verify(token: string): Promise<void> {
    await this.store.transact(async (tx) => {
      const used = await takeEmailToken(tx, token, 'verify', this.clock);
      const user = await tx.get<MailUser>(USERS, used.userId);
      // A link for an address the user has since changed confirms nothing.
      if (!user || user.email !== used.email) throw goneUser();
      if (user.emailVerified === false) {
        await tx.put(USERS, { ...user, emailVerified: true, updatedAt: this.clock.now().toISOString() });
        await recordEvent(
          tx,
          { type: 'user.updated', ownerId: user.ownerId, data: { id: user.id, changed: ['emailVerified'] } },
          this.clock,
        );
      }
    });
  }

  /**
   * Mails a reset link when the address has a user; answers the same either way, before the address is looked up. Counted per client address and
   * email like sign-in attempts (429 past the limit), so the path cannot be used to flood a mailbox.
   */
  async forgot(email: string, clientIp: string | undefined): Promise<void> {
    const address = addressGroup(clientIp);
    const counters = [
      resetPerEmailAndAddress(email, address),
      { key: `reset:ip:${address}`, limit: RESET_REQUESTS_PER_ADDRESS },
      resetPerEmail(email, 'reset'),
    ];
    await countRequest(this.limiter, counters, this.clock.now(), 'password reset requests for this email');
    // The answer goes before the address is even looked up: the lookup, and the token and message for a known
    // address, run after it.
    this.#afterAnswer(async (tx) => {
      const [user] = await tx.findBy<MailUser>(USERS, 'email', email);
      if (user) await queueReset(tx, user, this.linkBase, this.clock);
    }, 'a password reset could not be queued');
  }

  /**
   * Whether registering `email` from `clientIp` may mail a reset link, should the address be taken: registering
   * counts in forgot's counter of the email from the address and in a counter of the email from all addresses, for
   * every registration alike (taken address or not, so neither the answer nor its timing tells them apart), and past
   * either limit a taken address is mailed nothing. Otherwise registering again and again (from one address or many)
   * would flood the owner's mailbox that forgot guards.
   */
  async registrationMayMailReset(email: string, clientIp: string | undefined): Promise<boolean> {
    const [state] = await this.limiter.hitAll(
      [resetPerEmailAndAddress(email, addressGroup(clientIp)), resetPerEmail(email, 'register-reset')],
      this.clock.now(),
    );
    return state!.allowed;
  }

  /**
   * Sets a new password from a reset link: every session of the user ends, and what its sessions made that would
   * outlive them (their API keys, `onPasswordReset`) with them (`user.updated`, changed: password).
   */
  async reset(token: string, newPassword: string): Promise<void> {
    // The link is checked (not used) first, so a weak password is refused without spending the link.
    const peeked = await peekEmailToken(this.store, token, 'reset', this.clock);
    const user = await this.store.get<MailUser>(USERS, peeked.userId);
    // A link mailed to an address the user has since left resets nothing: whoever reads that mailbox now may not be
    // the user (the old address may be why they moved), as a confirmation link for it confirms nothing (verify).
    if (!user || user.email !== peeked.email) throw goneUser();
    await this.passwords.requireStrong(newPassword, 'newPassword', user.email, user.name);
    const passwordHash = await this.passwords.hashPassword(newPassword);
    const nowIso = this.clock.now().toISOString();
    await this.store.transact(async (tx) => {
      const used = await takeEmailToken(tx, token, 'reset', this.clock);
      const fresh = await tx.get<MailUser>(USERS, used.userId);
      if (!fresh || fresh.email !== used.email) throw goneUser();
      // Reading the link proves control of the address as well as a confirmation link would.
      await tx.put(USERS, {
        ...fresh,
        passwordHash,
        emailVerified: true,
        updatedAt: nowIso,
        passwordChangedAt: nowIso,
      });
      // The keys the user's sessions made go first, so that the notice counts only those that keep working.
      await endWithReset(tx, { id: fresh.id, ownerId: fresh.ownerId }, this.clock);
      await afterPasswordChange(tx, fresh, this.clock);
    });
  }

  /**
   * Asks to move the user to `newEmail`: after the current password is checked (counted like a sign-in), a
   * confirmation link goes to the new address. An address taken by another user gets nothing and the answer is
   * the same, so the path cannot tell who has an account. Requests are counted per user and per new address, taken
   * or not (429 past a limit), so no one can have the service mail an address again and again.
   */
  async requestChange(userId: string, newEmail: string, currentPassword: string, clientIp: string | undefined) {
    const user = await this.store.get<MailUser>(USERS, userId);
    if (!user) throw new ApiError('UNAUTHORIZED', 'The session has ended; sign in again.');
    if (!(await this.passwords.checkPassword(user.email, clientIp, user.passwordHash, currentPassword)))
      throw ApiError.validation('The current password is wrong.', [
        { field: 'currentPassword', reason: 'does not match' },
      ]);
    if (newEmail === user.email)
      throw ApiError.validation('This is already your address.', [{ field: 'newEmail', reason: 'unchanged' }]);
    const counters = [
      { key: `email-change:user:${user.id}`, limit: EMAIL_CHANGE_REQUESTS_PER_USER },
      { key: `email-change:to:${counterIdOf(newEmail)}`, limit: EMAIL_CHANGE_REQUESTS_PER_NEW_EMAIL },
    ];
    await countRequest(this.limiter, counters, this.clock.now(), 'address change requests');
    // As in forgot, the answer goes before the new address is looked up: a free address costs a token and a message,
    // a taken one nothing, and the answer's timing must not tell them apart.
    this.#afterAnswer(async (tx) => {
      // A new password stored since the check (a reset taking the account back) ended what the old one allowed.
      const fresh = await tx.get<MailUser>(USERS, user.id);
      if (fresh?.passwordHash !== user.passwordHash) return;
      if ((await tx.findBy(USERS, 'email', newEmail)).length > 0) return;
      await mailLinkTo(tx, fresh, 'email-change', this.linkBase, this.clock, newEmail);
    }, 'an address change could not be queued');
  }

  /** Switches the user to the address the link was sent to; the old address is told (`user.updated`, email). */
  async confirmChange(token: string): Promise<void> {
    await this.store.transact(async (tx) => {
      const used = await takeEmailToken(tx, token, 'email-change', this.clock);
      const user = await tx.get<MailUser>(USERS, used.userId);
      if (!user) throw goneUser();
      if ((await tx.findBy(USERS, 'email', used.email)).length > 0)
        throw new ApiError('CONFLICT', 'This address has been taken since the link was sent; ask for a new change.', [
          { field: 'token', reason: 'address taken' },
        ]);
      const nowIso = this.clock.now().toISOString();
      await tx.put(USERS, { ...user, email: used.email, emailVerified: true, updatedAt: nowIso });
      const account = await tx.get<AccountRecord>(ACCOUNTS, user.ownerId);
      // A personal account's contact address follows its user's, and so does its name when it was the address (a user
      // registered without a name): no copy of the address left behind stays on the account.
      if (account && account.email === user.email) {
        const name = account.name === user.email ? used.email : account.name;
        await tx.put(ACCOUNTS, { ...account, email: used.email, name, updatedAt: nowIso });
      }
      await mailUser(tx, user, 'email-change-notice', { newEmail: used.email }, this.clock);
      await recordEvent(
        tx,
        { type: 'user.updated', ownerId: user.ownerId, data: { id: user.id, changed: ['email'] } },
        this.clock,
      );
    });
  }
}

const goneUser = () =>
  new ApiError('GONE', 'This link has been used already or has expired. Ask for a new one.', [
    { field: 'token', reason: 'used, expired or unknown' },
  ]);
