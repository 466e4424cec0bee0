import { storeFiles } from '../support/store-files.js';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { USERS, type UserRecord } from '../../src/accounts/sessions.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { linkApi, mailedLink, sessionCookie, uniqueEmail } from '../support/session.js';

// The whole session flow over real HTTP with cookies, as a browser does it.

const clock = new FakeClock();
const logLines: string[] = [];
let server: TestServer;
const PASSWORD = 'a long enough passphrase';

beforeAll(async () => {
  const sink = new Writable({
    write: (chunk, _e, cb) => {
      logLines.push(String(chunk));
      cb();
    },
  });
  server = await startTestServer({ clock, log: createLogger('trace', sink) });
});
afterAll(async () => {
  await server?.close();
});

/** The data of a session's answer, as these tests read it; other answers' data are only compared whole. */
interface SessionData {
  csrfToken?: string;
  user: { email: string };
  account: { id: string };
}

/** A tiny cookie-keeping client over fetch. */
class Browser {
  cookie: string | undefined;
  csrf: string | undefined;
  lastSetCookie: string[] = [];

  async request(
    method: string,
    route: string,
    body?: unknown,
    opts: { csrf?: string | false; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const csrf = opts.csrf === false ? undefined : (opts.csrf ?? this.csrf);
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(server.url + route, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.lastSetCookie = res.headers.getSetCookie();
    const set = sessionCookie(this.lastSetCookie);
    if (set !== undefined) this.cookie = set === 'svc_session=' ? undefined : set;
    const json = (await res.json()) as {
      success: boolean;
      data?: SessionData;
      error?: { code: string; message: string; details?: Array<{ field: string; reason: string }> };
    };
    if (json.success && json.data?.csrfToken) this.csrf = json.data.csrfToken;
    return { status: res.status, json, headers: res.headers };
  }

  /** Registers (202, no session: the answer is the same for a taken address), then signs in as a browser would. */
  async signUp(body: { email: string; password: string; name?: string }) {
    const reg = await this.request('POST', '/api/auth/register', body);
    expect(reg.status).toBe(202);
    expect(sessionCookie(this.lastSetCookie)).toBeUndefined();
    return this.request('POST', '/api/auth/login', { email: body.email, password: body.password });
  }
}

describe('user sessions over real HTTP', () => {
  it('register, CSRF on a POST, logout revokes, the old cookie is refused afterwards', async () => {
    const browser = new Browser();
    const email = uniqueEmail('flow');
    const reg = await browser.signUp({ email: `  ${email.toUpperCase()} `, password: PASSWORD, name: 'Flow' });
    expect(reg.status).toBe(200);
    expect(reg.json.data!.user).toMatchObject({ email, name: 'Flow' });
    expect(reg.json.data!.account).toMatchObject({ tier: 'public', kind: 'personal', status: 'active' });
    expect(reg.json.data).not.toHaveProperty('user.passwordHash');
    const setCookie = browser.lastSetCookie.find((c) => c.startsWith('svc_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i); // the public URL is plain HTTP here

    // GET /session (also under /api/v1/auth) answers with the same CSRF token.
    const session = await browser.request('GET', '/api/v1/auth/session');
    expect(session.status).toBe(200);
    expect(session.json.data!.user.email).toBe(email);
    expect(session.json.data!.csrfToken).toBe(reg.json.data!.csrfToken);

    // A POST with the cookie but without the token: 403, nothing created.
    const refused = await browser.request(
      'POST',
      '/api/v1/api-keys',
      { name: 'from the browser', scopes: ['contracts'] },
      { csrf: false },
    );
    expect(refused.status).toBe(403);
    expect(refused.json.error!.code).toBe('CSRF_FAILED');
    const wrong = await browser.request(
      'POST',
      '/api/v1/api-keys',
      { name: 'from the browser', scopes: ['contracts'] },
      { csrf: 'x'.repeat(43) },
    );
    expect(wrong.json.error!.code).toBe('CSRF_FAILED');
    expect((await browser.request('GET', '/api/v1/api-keys')).json.data).toEqual([]);

    // With the token but an address not confirmed yet: 403, nothing created (see test/accounts/email-flows.test.ts).
    const unconfirmed = await browser.request('POST', '/api/v1/api-keys', { name: 'too early', scopes: ['contracts'] });
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.json.error!.code).toBe('EMAIL_NOT_VERIFIED');
    const confirmed = await fetch(server.url + linkApi(await mailedLink(server.app, email, 'verify-email')));
    expect(confirmed.status).toBe(200);

    // With the token, once confirmed: a public key of the user's own account.
    const made = await browser.request('POST', '/api/v1/api-keys', { name: 'from the browser', scopes: ['contracts'] });
    expect(made.status).toBe(201);
    expect(made.json.data).toMatchObject({ tier: 'public', ownerId: reg.json.data!.account.id });
    // A session cannot make a partner key, nor grant a scope it lacks.
    const partner = await browser.request('POST', '/api/v1/api-keys', {
      name: 'x',
      scopes: ['contracts'],
      tier: 'partner',
    });
    expect(partner.json.error!.details).toEqual([
      { field: 'tier', reason: 'a user session can create public keys only' },
    ]);
    const webhooks = await browser.request('POST', '/api/v1/api-keys', { name: 'x', scopes: ['webhooks'] });
    expect(webhooks.json.error!.details).toEqual([
      { field: 'scopes.0', reason: 'a user session does not hold "webhooks", so it cannot grant it' },
    ]);

    // Logout needs the token too, then the cookie is cleared and refused.
    const oldCookie = browser.cookie!;
    expect((await browser.request('POST', '/api/auth/logout', {}, { csrf: false })).json.error!.code).toBe(
      'CSRF_FAILED',
    );
    const out = await browser.request('POST', '/api/auth/logout', {});
    expect(out.json.data).toEqual({ loggedOut: true });
    expect(browser.lastSetCookie.some((c) => /^svc_session=;/.test(c))).toBe(true);
    const replay = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: oldCookie } });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');

    // Login again.
    const login = await browser.request('POST', '/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.json.data!.csrfToken).not.toBe(reg.json.data!.csrfToken);
    expect((await browser.request('GET', '/api/auth/session')).status).toBe(200);

    // Events of the account: user.created (through the outbox like the others).
    const events = await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', reg.json.data!.account.id);
    expect(events.map((e) => e.type)).toContain('user.created');

    // The password is never stored or logged in clear; the hash is argon2id with OWASP's parameters.
    const [user] = await server.services.store.findBy<UserRecord>(USERS, 'email', email);
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await server.services.store.flush();
    const data = await storeFiles(server.dataDir); // the snapshot and the journal
    expect(data).not.toContain(PASSWORD);
    expect(logLines.join('')).not.toContain(PASSWORD);
  });

  it('a password change ends every session of the user at once and starts a new one', async () => {
    const first = new Browser();
    const second = new Browser();
    const email = uniqueEmail('pw');
    await first.signUp({ email, password: PASSWORD });
    await second.request('POST', '/api/auth/login', { email, password: PASSWORD });
    expect((await second.request('GET', '/api/auth/session')).status).toBe(200);
    const bad = await first.request('POST', '/api/auth/password', {
      currentPassword: 'not the password',
      newPassword: 'another long passphrase',
    });
    expect(bad.json.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'currentPassword', reason: 'does not match' }],
    });
    const changed = await first.request('POST', '/api/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
    });
    expect(changed.status).toBe(200);
    expect((await second.request('GET', '/api/auth/session')).status).toBe(401);
    expect((await first.request('GET', '/api/auth/session')).status).toBe(200);
    expect((await new Browser().request('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect(
      (await new Browser().request('POST', '/api/auth/login', { email, password: 'another long passphrase' })).status,
    ).toBe(200);
    const events = await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', changed.json.data!.account.id);
    expect(events.map((e) => e.type)).toContain('user.updated');
  });

  it('refuses tampered, expired, foreign-secret and garbage session tokens with 401, and expires sessions server-side', async () => {
    const browser = new Browser();
    await browser.signUp({ email: uniqueEmail('jwt'), password: PASSWORD });
    const token = browser.cookie!.slice('svc_session='.length);
    const [h, p, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_01AAAAAAAAAAAAAAAAAAAAAAAA' })).toString(
      'base64url',
    );
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not the server secret at all, 32+ bytes'));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    for (const bad of [`${h}.${tamperedPayload}.${sig}`, foreign, none, 'garbage', 'a.b.c', 'x'.repeat(5000)]) {
      const res = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: `svc_session=${bad}` } });
      expect(res.status, bad.slice(0, 40)).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
    // Past its lifetime (7 days unused by default), the session is over.
    clock.advance(8 * 24 * 3600 * 1000);
    const expired = await browser.request('GET', '/api/auth/session');
    expect(expired.status).toBe(401);
    expect(expired.json.error!.message).toMatch(/expired/);
  });

  it('renews a session used past half its lifetime, up to its maximum age', async () => {
    const browser = new Browser();
    await browser.signUp({ email: uniqueEmail('renew'), password: PASSWORD });
    const before = browser.cookie;
    clock.advance(4 * 24 * 3600 * 1000); // more than half of 7 days
    const used = await browser.request('GET', '/api/auth/session');
    expect(used.status).toBe(200);
    expect(browser.cookie).not.toBe(before);
    clock.advance(6 * 24 * 3600 * 1000); // 10 days since login: alive only because it was renewed
    expect((await browser.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it('refuses bad sign-up input in the envelope and stores nothing', async () => {
    const before = (await server.services.store.all(USERS)).length;
    const cases: Array<[unknown, string, number]> = [
      [{ email: 'not-an-email', password: PASSWORD }, 'email', 400],
      [{ email: uniqueEmail(), password: 'short' }, 'password', 400],
      [{ email: uniqueEmail(), password: 'x'.repeat(257) }, 'password', 400],
      [{ email: uniqueEmail(), password: PASSWORD, role: 'admin' }, 'role', 400],
      [{ email: 'e'.repeat(250) + '@example.com', password: PASSWORD }, 'email', 400],
    ];
    for (const [body, field, status] of cases) {
      const res = await new Browser().request('POST', '/api/v1/auth/register', body);
      expect(res.status).toBe(status);
      expect(res.json.error!.code).toBe('VALIDATION_ERROR');
      expect(res.json.error!.details!.map((d) => d.field)).toContain(field);
    }
    const email = uniqueEmail('dup');
    expect((await new Browser().request('POST', '/api/auth/register', { email, password: PASSWORD })).status).toBe(202);
    // A taken address is not an error the caller sees (that would tell who has an account): nothing is stored.
    const dup = await new Browser().request('POST', '/api/auth/register', {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(dup.status).toBe(202);
    const huge = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD, name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect((await server.services.store.all(USERS)).length).toBe(before + 1);
  });

  it('answers an unknown email and a wrong password alike, and limits failed sign-ins per email and address and per address', async () => {
    const email = uniqueEmail('brute');
    await new Browser().request('POST', '/api/auth/register', { email, password: PASSWORD });
    clock.advance(15 * 60 * 1000);
    const unknown = await new Browser().request('POST', '/api/auth/login', {
      email: uniqueEmail('nobody'),
      password: PASSWORD,
    });
    const wrong = await new Browser().request('POST', '/api/auth/login', { email, password: 'not the password!' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json.error).toEqual(wrong.json.error);
    // 10 failures per email from one address per window; the 11th attempt is refused even with the right password
    // (other addresses, and the per-email ceiling across them, are in signin-limits.test.ts).
    for (let i = 0; i < 9; i++)
      expect(
        (await new Browser().request('POST', '/api/auth/login', { email, password: `wrong ${i} password` })).status,
      ).toBe(401);
    const limited = await new Browser().request('POST', '/api/auth/login', { email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.json.error!.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per address: other emails from the same address are limited once 30 failures are reached.
    for (let i = 0; i < 20; i++)
      await new Browser().request('POST', '/api/auth/login', {
        email: uniqueEmail('spray'),
        password: 'wrong password!',
      });
    const sprayed = await new Browser().request('POST', '/api/auth/login', {
      email: uniqueEmail('spray'),
      password: 'wrong password!',
    });
    expect(sprayed.status).toBe(429);
    expect(sprayed.json.error!.message).toMatch(/failed password attempts for this address:/);
    // A new window lets the owner in.
    clock.advance(15 * 60 * 1000);
    expect((await new Browser().request('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
  });

  it('an API key needs no CSRF token, and a key request carrying a stale cookie still works', async () => {
    const res = await fetch(`${server.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.adminKey}`,
        'content-type': 'application/json',
        cookie: 'svc_session=stale',
      },
      body: JSON.stringify({ name: 'no csrf needed', scopes: ['contracts'] }),
    });
    expect(res.status).toBe(201);
  });
});
