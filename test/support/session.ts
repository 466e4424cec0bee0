import type { FastifyInstance } from 'fastify';

/** A signed-in user, as a browser would hold it: the session cookie and the CSRF token. */
export interface TestSession {
  email: string;
  password: string;
  userId: string;
  accountId: string;
  /** `svc_session=<token>`, ready for a Cookie header. */
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
  const found = all.find((c) => c.startsWith('svc_session='));
  return found?.split(';')[0];
}

/** Registers a new user over REST (in-process) and returns their session. */
export async function registerUser(
  app: FastifyInstance,
  opts: { email?: string; password?: string; name?: string } = {},
): Promise<TestSession> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'correct horse battery staple';
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password, ...(opts.name ? { name: opts.name } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const cookie = sessionCookie(res.headers['set-cookie']);
  if (!cookie) throw new Error('register set no session cookie');
  return {
    email,
    password,
    userId: body.data.user.id,
    accountId: body.data.account.id,
    cookie,
    csrf: body.data.csrfToken,
  };
}

/** Headers of a request made with a session (and its CSRF token unless `csrf: false`). */
export function sessionHeaders(session: TestSession, opts: { csrf?: boolean } = {}): Record<string, string> {
  return { cookie: session.cookie, ...(opts.csrf === false ? {} : { 'x-csrf-token': session.csrf }) };
}
