/**
 * Users and their sessions.
 *
 * - Passwords: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane),
 *   through @node-rs/argon2. An unknown email is verified against a dummy hash,
 *   so it costs the same time as a wrong password. A new password must pass the
 *   strength estimator (./password-strength.ts). Inputs and outputs: ./session-schemas.ts.
 * - Guessing: every password check (sign-in, the current password of a password
 *   change) first takes an attempt from three counters at once, atomically, and
 *   gives it back when the password was right; so however many requests arrive
 *   together, no more passwords are checked than the counters allow. Counters:
 *   the email from one address (10 per 15 minutes), the email from everywhere
 *   (100, a ceiling against guessing from many addresses that stays far above
 *   what one address can spend), and the address for every email (30). A user
 *   whose address is not the attacker's signs in while the attacker is refused.
 * - Sessions: a JWT (HS256, jose) in an HttpOnly cookie, naming a session record.
 *   The record is checked on every request, so logout and a password change end
 *   a session at once, before the token's own expiry. Sessions slide: past half
 *   their lifetime a request renews them, up to a maximum age.
 * - CSRF: the token is an HMAC of the session id under the server's secret;
 *   every non-GET request authenticated by the cookie must carry it.
 */
import { signOfLife } from './liveness.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { addressGroup } from './address-group.js';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Store, Tx } from '../store/port.js';
import { recordEvent } from '../events/events.js';
import type { Logger } from '../core/log.js';
import type { Scope } from './scopes.js';
import { counterIdOf, type RateLimiter } from '../core/limiter-port.js';
import { accountProblem, accountView, newAccount, type AccountRecord } from './accounts.js';
import { passwordWeakness } from './password-strength.js';
import {
  ARGON2_OPTIONS,
  argonHash,
  argonVerifier,
  type PasswordHasher,
  type PasswordVerifier,
} from './password-work.js';

export { ARGON2_OPTIONS, type PasswordHasher, type PasswordVerifier };
import type { ChangePasswordInput, LoginInput, RegisterInput, UserView } from './session-schemas.js';
import { ACCOUNTS, SESSIONS, USERS } from './records.js';
import type { Principal } from './principal.js';
import type { MailLocale } from '../events/mail.js';
import {
  afterPasswordChange,
  EmailFlows,
  isEmailVerified,
  localeFromAcceptLanguage,
  queueReset,
  queueVerification,
} from './email-flows.js';

export { SESSIONS, USERS };
export const USER_INDEXES = ['email', 'ownerId'];
export const SESSION_INDEXES = ['userId'];

export const SESSION_COOKIE = 'svc_session';
export const CSRF_HEADER = 'x-csrf-token';

/** What a user session may do: its own account's keys (public ones), memoir, credits; never `all` or `users`. */
export const SESSION_SCOPES: Scope[] = ['contracts', 'chat', 'payments', 'vaults', 'legal'];

/**
 * Failed password checks allowed in one 15-minute window: for one email from one client address; for one email
 * from all addresses together (a ceiling against guessing spread over many addresses); for one address whatever
 * the email. An IPv6 address counts by its /64 network (one host is usually given a whole /64).
 */
export const LOGIN_FAILURES_PER_EMAIL_AND_ADDRESS = 10;
export const LOGIN_FAILURES_PER_EMAIL = 100;
export const LOGIN_FAILURES_PER_ADDRESS = 30;

interface AttemptCounter {
  key: string;
  limit: number;
  /** Whose failures it counts, for the 429's message. */
  what: string;
}

export interface UserRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  email: string;
  name: string | null;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
  passwordChangedAt: string;
  /** Language of the mail sent to the user; missing: English. */
  locale?: MailLocale | undefined;
  /** False until the user opens the link mailed at registration; missing: verified (see isEmailVerified). */
  emailVerified?: boolean | undefined;
}

export interface SessionRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  userId: string;
  createdAt: string;
  /** Server-side expiry (unix ms); renewed by use, never past maxUntil. */
  expiresAt: number;
  maxUntil: number;
  revokedAt: string | null;
}

/** A user as the API shows them (never the password hash). */
export function userView(u: UserRecord): UserView {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    accountId: u.ownerId,
    createdAt: u.createdAt,
    emailVerified: isEmailVerified(u),
    locale: u.locale ?? 'en',
  };
}

export interface SessionConfig {
  /** Lifetime of an unused session, seconds. */
  ttlSeconds: number;
  /** Maximum age of a session however often it is used, seconds. */
  maxSeconds: number;
}

export const DEFAULT_SESSION_CONFIG: SessionConfig = { ttlSeconds: 7 * 24 * 3600, maxSeconds: 30 * 24 * 3600 };

/** A session that a request presented and that is valid now. */
export interface ActiveSession {
  session: SessionRecord;
  user: UserRecord;
  account: AccountRecord;
  principal: Principal;
  /** A renewed token to send back as the cookie, when the session was extended. */
  renewed?: { token: string; expiresAt: Date } | undefined;
}

/** Verified tokens remembered (oldest dropped first). */
const VERIFIED_CACHE = 10_000;

const unauthorized = (message = 'Sign in first: this operation needs a user session (the session cookie).') =>
  new ApiError('UNAUTHORIZED', message);
const WRONG_CREDENTIALS = 'The email or password is wrong.';

export class SessionAuthority {
  readonly #key: Uint8Array;
  readonly #csrfKey: Buffer;
  readonly #verified = new Map<string, { claims: { sid?: unknown; sub?: unknown }; expMs: number }>();
  #dummyHash: Promise<string> | undefined;
  readonly #hash: PasswordHasher;
  /** Confirming addresses, resetting passwords and changing addresses by mailed links (./email-flows.ts). */
  readonly email: EmailFlows;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    secret: string,
    readonly config: SessionConfig = DEFAULT_SESSION_CONFIG,
    private readonly verifyPassword: PasswordVerifier = argonVerifier,
    options: { hashPassword?: PasswordHasher; linkBase?: string; log?: Pick<Logger, 'warn'> } = {},
  ) {
    this.#hash = options.hashPassword ?? ((password) => argonHash(password, ARGON2_OPTIONS));
    this.email = new EmailFlows(
      store,
      clock,
      limiter,
      {
        hashPassword: (password) => this.#hash(password),
        requireStrong: (password, field, email, name) => this.#requireStrong(password, field, email, name),
        checkPassword: (email, clientIp, hash, password) =>
          this.#guardedCheck(this.#attemptCounters(email, clientIp), this.clock.now(), () =>
            this.verifyPassword(hash, password),
          ),
      },
      options.linkBase ?? 'http://127.0.0.1',
      options.log,
    );
    // Separate keys for signing tokens and for CSRF tokens, both derived from the one stored secret.
    this.#key = createHmac('sha256', secret).update('svc session jwt').digest();
    this.#csrfKey = createHmac('sha256', secret).update('svc csrf').digest();
  }

  /** The hash an unknown email is checked against, so it takes as long as a known one. */
  #dummy(): Promise<string> {
    this.#dummyHash ??= argonHash(randomBytes(24).toString('base64url'), ARGON2_OPTIONS);
    return this.#dummyHash;
  }

  csrfToken(sessionId: string): string {
    return createHmac('sha256', this.#csrfKey).update(sessionId).digest('base64url');
  }

  csrfValid(sessionId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.csrfToken(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async #sign(session: SessionRecord): Promise<string> {
    const { SignJWT } = await import('jose');
    return new SignJWT({ sid: session.id, acct: session.ownerId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('svc')
      .setSubject(session.userId)
      .setIssuedAt(Math.floor(this.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(session.expiresAt / 1000))
      .sign(this.#key);
  }

  async #newSession(tx: Tx, user: UserRecord): Promise<SessionRecord> {
    const now = this.clock.now().getTime();
    const session: SessionRecord = {
      id: newId('session'),
      ownerId: user.ownerId,
      userId: user.id,
      createdAt: new Date(now).toISOString(),
      expiresAt: now + this.config.ttlSeconds * 1000,
      maxUntil: now + this.config.maxSeconds * 1000,
      revokedAt: null,
    };
    await tx.put(SESSIONS, session);
    return session;
  }

  async #answer(session: SessionRecord, user: UserRecord, account: AccountRecord) {
    return {
      output: {
        user: userView(user),
        account: accountView(account),
        csrfToken: this.csrfToken(session.id),
        expiresAt: new Date(session.expiresAt).toISOString(),
      },
      token: await this.#sign(session),
      expiresAt: new Date(session.expiresAt),
    };
  }

  /**
   * Registers a user, or does nothing visible when the address is taken: both answer the same (no session; the
   * user signs in next), both hash the password, and only the owner of the address learns anything, by mail: a new
   * user gets the link confirming the address, an existing one a password-reset link (someone, maybe they, tried
   * to register with it). So the answer, its timing and its cookies never tell whether an address has an account.
   */
  async register(input: z.infer<typeof RegisterInput>, clientIp?: string): Promise<void> {
    await this.#requireStrong(input.password, 'password', input.email, input.name);
    const passwordHash = await this.#hash(input.password);
    const mayMailReset = await this.email.registrationMayMailReset(input.email, clientIp);
    const now = this.clock.now().toISOString();
    const locale = input.locale ?? localeFromAcceptLanguage(input.acceptLanguage);
    await this.store.transact(async (tx) => {
      const [existing] = await tx.findBy<UserRecord>(USERS, 'email', input.email);
      if (existing) return mayMailReset ? queueReset(tx, existing, this.email.linkBase, this.clock) : undefined;
      const account = newAccount(
        { name: input.name ?? input.email, tier: 'public', kind: 'personal', email: input.email },
        this.clock,
      );
      await tx.put(ACCOUNTS, account);
      const user: UserRecord = {
        id: newId('user'),
        ownerId: account.id,
        email: input.email,
        name: input.name ?? null,
        passwordHash,
        createdAt: now,
        updatedAt: now,
        passwordChangedAt: now,
        locale,
        emailVerified: false,
      };
      await tx.put(USERS, user);
      await recordEvent(
        tx,
        { type: 'user.created', ownerId: account.id, data: { id: user.id, accountId: account.id } },
        this.clock,
      );
      await queueVerification(tx, user, this.email.linkBase, this.clock);
    });
  }

  /** Refuses a password the strength estimator finds too easy to guess: 400 naming the field and the reason. */
  async #requireStrong(password: string, field: string, email: string, name?: string | null): Promise<void> {
    const weakness = await passwordWeakness(password, { email, name });
    if (weakness) throw ApiError.validation(`The password is too weak: ${weakness}`, [{ field, reason: weakness }]);
  }

  /** The failed-attempt counters of a password check for `email` from `clientIp`. */
  #attemptCounters(email: string, clientIp: string | undefined): AttemptCounter[] {
    const emailId = counterIdOf(email);
    const address = addressGroup(clientIp);
    return [
      {
        key: `login:email-ip:${emailId}:${address}`,
        limit: LOGIN_FAILURES_PER_EMAIL_AND_ADDRESS,
        what: 'this email from this address',
      },
      { key: `login:ip:${address}`, limit: LOGIN_FAILURES_PER_ADDRESS, what: 'this address' },
      {
        key: `login:email:${emailId}`,
        limit: LOGIN_FAILURES_PER_EMAIL,
        what: 'this email from all addresses together',
      },
    ];
  }

  /**
   * Runs a password check (`check` answers whether the password was right) under the failed-attempt counters: an
   * attempt is taken from every counter before the check, all or nothing (429 naming the full counter when one
   * is), and given back unless the password was wrong. A check that never finished (the store failed first)
   * gives its attempt back as well.
   */
  async #guardedCheck(counters: AttemptCounter[], now: Date, check: () => Promise<boolean>): Promise<boolean> {
    const states = await this.limiter.hitAll(counters, now);
    if (!states[0]!.allowed) {
      // Nothing was counted; name the counter that is full.
      const full = Math.max(
        0,
        states.findIndex((s) => s.remaining === 0),
      );
      const { limit, what } = counters[full]!;
      const resetAt = states[full]!.resetAt.toISOString();
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        `Too many failed password attempts for ${what}: at most ${limit} per 15 minutes. Retry after ${resetAt}.`,
        undefined,
        resetAt,
      );
    }
    let ok = false;
    let checked = false;
    try {
      ok = await check();
      checked = true;
      return ok;
    } finally {
      if (ok || !checked) {
        // Losing a refund (limiter unreachable) only leaves one extra count; it must not fail a right password.
        await this.limiter.refund(counters, now).catch(() => undefined);
      }
    }
  }

  async login(input: z.infer<typeof LoginInput>, clientIp: string | undefined) {
    const now = this.clock.now();
    let user: UserRecord | undefined;
    const ok = await this.#guardedCheck(this.#attemptCounters(input.email, clientIp), now, async () => {
      [user] = await this.store.findBy<UserRecord>(USERS, 'email', input.email);
      // The same work and the same answer whether or not the email is known.
      const matches = await this.verifyPassword(user?.passwordHash ?? (await this.#dummy()), input.password);
      return matches && user !== undefined;
    });
    if (!ok || !user) throw new ApiError('UNAUTHORIZED', WRONG_CREDENTIALS);
    const account = await this.store.get<AccountRecord>(ACCOUNTS, user.ownerId);
    const problem = accountProblem(account);
    if (problem) throw problem;
    const session = await this.store.transact(async (tx) => {
      // The password may have been reset or changed while it was being checked: that change ended every session of
      // the user, and the password checked is no longer theirs, so it opens none.
      const fresh = await tx.get<UserRecord>(USERS, user!.id);
      if (fresh?.passwordHash !== user!.passwordHash) throw new ApiError('UNAUTHORIZED', WRONG_CREDENTIALS);
      return this.#newSession(tx, fresh);
    });
    // A credential of its own: the password proven afresh is a sign of life even when this user's session reported
    // the trigger (src/accounts/liveness.ts), where the calls of that session are not.
    await signOfLife(this.store, {
      accountId: user.ownerId,
      credential: `sign-in:${user.id}`,
      kind: 'sign-in',
      at: now,
    });
    return this.#answer(session, user, account!);
  }

  /** The session a token names, valid now (not revoked, not expired, account active), renewed when due. */
  async authenticate(token: string): Promise<ActiveSession> {
    if (token.length > 4096) throw unauthorized('The session cookie is not valid; sign in again.');
    const claims = await this.#verify(token);
    if (typeof claims.sid !== 'string' || typeof claims.sub !== 'string')
      throw unauthorized('The session cookie is not valid; sign in again.');
    const session = await this.store.get<SessionRecord>(SESSIONS, claims.sid);
    const now = this.clock.now().getTime();
    if (!session || session.userId !== claims.sub || session.revokedAt)
      throw unauthorized('The session has ended; sign in again.');
    if (session.expiresAt <= now) throw unauthorized('The session has expired; sign in again.');
    const user = await this.store.get<UserRecord>(USERS, session.userId);
    if (!user) throw unauthorized('The session has ended; sign in again.');
    const account = await this.store.get<AccountRecord>(ACCOUNTS, session.ownerId);
    const problem = accountProblem(account);
    if (problem) throw problem;
    let renewed: ActiveSession['renewed'];
    const ttl = this.config.ttlSeconds * 1000;
    if (session.expiresAt - now < ttl / 2 && session.expiresAt < session.maxUntil) {
      const next = await this.store.transact(async (tx) => {
        const fresh = await tx.get<SessionRecord>(SESSIONS, session.id);
        if (!fresh || fresh.revokedAt) return undefined;
        const updated = { ...fresh, expiresAt: Math.min(now + ttl, fresh.maxUntil) };
        await tx.put(SESSIONS, updated);
        return updated;
      });
      if (next) renewed = { token: await this.#sign(next), expiresAt: new Date(next.expiresAt) };
    }
    return {
      session,
      user,
      account: account!,
      renewed,
      principal: {
        kind: 'session',
        ownerId: account!.id,
        tier: account!.tier,
        scopes: SESSION_SCOPES,
        keyId: session.id,
        userId: user.id,
        expiresAt: null,
        ipWhitelist: [],
      },
    };
  }

  /**
   * The token's claims once its signature and expiry are checked. A token that
   * verified once is remembered until it expires (jose's WebCrypto HMAC costs
   * more than the rest of the session check); the session record is still read
   * on every request, so logout and password changes take effect at once.
   */
  async #verify(token: string): Promise<{ sid?: unknown; sub?: unknown }> {
    const nowMs = this.clock.now().getTime();
    const known = this.#verified.get(token);
    if (known && known.expMs > nowMs) return known.claims;
    const { jwtVerify, errors: joseErrors } = await import('jose');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        issuer: 'svc',
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      }));
    } catch (err) {
      const expired = err instanceof joseErrors.JWTExpired;
      throw unauthorized(
        expired ? 'The session has expired; sign in again.' : 'The session cookie is not valid; sign in again.',
      );
    }
    const claims = { sid: payload.sid, sub: payload.sub };
    if (this.#verified.size >= VERIFIED_CACHE) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, { claims, expMs: (payload.exp ?? 0) * 1000 });
    return claims;
  }

  async describe(principal: Principal) {
    const session = await this.store.get<SessionRecord>(SESSIONS, principal.keyId);
    const user = session && (await this.store.get<UserRecord>(USERS, session.userId));
    const account = await this.store.get<AccountRecord>(ACCOUNTS, principal.ownerId);
    if (!session || !user || !account) throw unauthorized();
    return (await this.#answer(session, user, account)).output;
  }

  async logout(principal: Principal): Promise<void> {
    await this.store.transact(async (tx) => {
      const s = await tx.get<SessionRecord>(SESSIONS, principal.keyId);
      if (s && !s.revokedAt) await tx.put(SESSIONS, { ...s, revokedAt: this.clock.now().toISOString() });
    });
  }

  /** Changes the password after checking the current one; every session of the user ends and a new one starts. */
  async changePassword(principal: Principal, input: z.infer<typeof ChangePasswordInput>, clientIp: string | undefined) {
    const user = principal.userId ? await this.store.get<UserRecord>(USERS, principal.userId) : undefined;
    if (!user) throw unauthorized();
    await this.#requireStrong(input.newPassword, 'newPassword', user.email, user.name);
    // A wrong current password counts like a failed sign-in (a stolen session must not become a guessing oracle).
    const counters = this.#attemptCounters(user.email, clientIp);
    if (
      !(await this.#guardedCheck(counters, this.clock.now(), () =>
        this.verifyPassword(user.passwordHash, input.currentPassword),
      ))
    ) {
      throw ApiError.validation('The current password is wrong.', [
        { field: 'currentPassword', reason: 'does not match' },
      ]);
    }
    const passwordHash = await this.#hash(input.newPassword);
    const nowIso = this.clock.now().toISOString();
    const { session, fresh } = await this.store.transact(async (tx) => {
      const fresh = await tx.get<UserRecord>(USERS, user.id);
      if (!fresh) throw unauthorized();
      // A reset (or another change) stored while the current password was being checked ended this session: the
      // password checked is no longer the user's, and the new one must not be written over.
      if (fresh.passwordHash !== user.passwordHash) throw unauthorized('The session has ended; sign in again.');
      const updated = { ...fresh, passwordHash, updatedAt: nowIso, passwordChangedAt: nowIso };
      await tx.put(USERS, updated);
      await afterPasswordChange(tx, updated, this.clock);
      return { session: await this.#newSession(tx, updated), fresh: updated };
    });
    const account = await this.store.get<AccountRecord>(ACCOUNTS, fresh.ownerId);
    if (!account) throw unauthorized();
    return this.#answer(session, fresh, account);
  }
}
