import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LINK_PATHS } from '../../src/accounts/email-flows.js';
import { MAIL, type MailRecord } from '../../src/events/mail.js';
import type { Store } from '../../src/store/port.js';

/** A signed-in user, as a browser would hold it: the session cookie and the CSRF token. */
export interface TestSession {
  email: string;
  password: string;
  userId: string;
  accountId: string;
  /** `svc_session=<token>` (`__Host-svc_session=<token>` when the service's public URL is HTTPS), for a Cookie header. */
  cookie: string;
  csrf: string;
}

let counter = 0;

/** A fresh, unique email address for a test user. */
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** The `name=value` part of the session cookie a response sets, or undefined. */
export function sessionCookie(setCookie: string | string[] | undefined): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => /^(?:__Host-)?svc_session=/.test(c));
  return found?.split(';')[0];
}

/**
 * A client address of its own (198.18.0.0/15, the benchmarking range), as a separate person's: its unauthenticated
 * requests (register, confirm, sign in) spend no other test's allowance of them.
 */
export function freshAddress(): string {
  return `198.18.${randomInt(256)}.${1 + randomInt(254)}`;
}

/**
 * Registers a new user over REST (in-process) and signs them in, returning their session. Registering answers 202
 * without a session (the same answer whether or not the address was taken), so the sign-in is a second request,
 * as in a browser. `verify` (default true) also opens the link mailed to confirm the address, as most tests want a
 * user who may claim shares; pass false for a user who has not confirmed it yet.
 */
export async function registerUser(
  app: FastifyInstance,
  opts: { email?: string; password?: string; name?: string; verify?: boolean } = {},
): Promise<TestSession> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'correct horse battery staple';
  // Each new user comes from an address of its own (198.18.0.0/15, the benchmarking range), as separate people do:
  // registering, confirming and signing in are three unauthenticated requests, and a test that registers many users
  // must not spend one address's allowance of them.
  const remoteAddress = freshAddress();
  const res = await app.inject({
    method: 'POST',
    remoteAddress,
    url: '/api/auth/register',
    payload: { email, password, ...(opts.name ? { name: opts.name } : {}) },
  });
  if (res.statusCode !== 202) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  if (opts.verify !== false) {
    const link = await mailedLink(app, email, 'verify-email');
    const opened = await app.inject({ method: 'GET', remoteAddress, url: linkApi(link) });
    if (opened.statusCode !== 200) throw new Error(`verify failed: ${opened.statusCode} ${opened.body}`);
  }
  return signIn(app, email, password, remoteAddress);
}

/** Signs an existing user in over REST (in-process) and returns their session. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress?: string,
): Promise<TestSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const cookie = sessionCookie(res.headers['set-cookie']);
  if (!cookie) throw new Error('login set no session cookie');
  return {
    email,
    password,
    userId: body.data.user.id,
    accountId: body.data.account.id,
    cookie,
    csrf: body.data.csrfToken,
  };
}

/**
 * The store behind each test app (set by startTestServer), so helpers can read the mail it queued, and how to wait
 * for the requests whose mail is queued after their answer (a reset, an address change).
 */
const STORES = new WeakMap<FastifyInstance, { store: Store; settled: () => Promise<void> }>();

export function rememberStore(app: FastifyInstance, store: Store, settled: () => Promise<void>): void {
  STORES.set(app, { store, settled });
}

/** The queued mail records sent to `to` (oldest first), optionally of one template, read from the app's store. */
export async function mailTo(app: FastifyInstance, to: string, template?: string): Promise<MailRecord[]> {
  const known = STORES.get(app);
  if (!known) throw new Error('this app was not started by startTestServer: its queued mail cannot be read');
  await known.settled();
  const all = await known.store.all<MailRecord>(MAIL);
  return all
    .filter((m) => m.to === to && (template === undefined || m.template === template))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The link of the newest queued mail of `template` sent to `to`. */
export async function mailedLink(app: FastifyInstance, to: string, template: string): Promise<string> {
  const mails = await mailTo(app, to, template);
  const link = mails.at(-1)?.data?.link;
  if (!link) throw new Error(`no ${template} mail with a link was queued for ${to}`);
  return link;
}

/** The API route each mailed account link's page calls with its token (GET; the reset page POSTs its token). */
const LINK_APIS: Record<string, string> = {
  [LINK_PATHS.verify]: '/api/v1/auth/email/verify',
  [LINK_PATHS.confirm]: '/api/v1/auth/email/confirm',
};

/**
 * The API call a mailed confirmation link's page makes when its button is pressed: the route with the link's token,
 * ready for `inject` (the link itself opens a page, which changes nothing).
 */
export function linkApi(link: string): string {
  const url = new URL(link, 'http://localhost');
  const api = LINK_APIS[url.pathname];
  if (!api) throw new Error(`${url.pathname} is not a mailed confirmation link`);
  return `${api}?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`;
}

/** The token a mailed account link carries. */
export const linkToken = (link: string): string => new URL(link, 'http://localhost').searchParams.get('token') ?? '';

/** Headers of a request made with a session (and its CSRF token unless `csrf: false`). */
export function sessionHeaders(session: TestSession, opts: { csrf?: boolean } = {}): Record<string, string> {
  return { cookie: session.cookie, ...(opts.csrf === false ? {} : { 'x-csrf-token': session.csrf }) };
}
