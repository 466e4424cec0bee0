import { gateTransactions } from '../support/store-gate.js';
import { randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTS, type GrantRecord, newClaimCode } from '../../src/accounts/grants.js';
import { ARGON2_OPTIONS, SessionAuthority, USERS, type UserRecord } from '../../src/accounts/sessions.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { API_KEYS, type ApiKeyRecord } from '../../src/keys/keys.js';
import { newId } from '../../src/core/ids.js';
import { renderMail } from '../../src/mail/templates/index.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import {
  mailTo,
  linkApi,
  linkToken,
  mailedLink,
  registerUser,
  sessionCookie,
  sessionHeaders,
  signIn,
  uniqueEmail,
} from '../support/session.js';

// The mailed-link flows over HTTP with cookies: the queued mail records stand in for an inbox.

const clock = new FakeClock();
const PASSWORD = 'correct horse battery staple';
let server: TestServer;
const hashes = { count: 0 };
/** The next password check waits here: `entered` when it starts, then until `release` settles. */
let held: { entered: () => void; release: Promise<void> } | undefined;

/** Holds the next password check: `checking` settles once it started, and it goes on when `release` is called. */
function holdNextCheck(): { checking: Promise<void>; release: () => void } {
  let release!: () => void;
  const checking = new Promise<void>((entered) => {
    held = { entered, release: new Promise<void>((r) => (release = r)) };
  });
  return { checking, release: () => release() };
}

/** Asks for a password reset for `email` and reads its token from the mailed link. */
async function resetToken(email: string): Promise<string> {
  await send('POST', '/api/auth/password/forgot', { email });
  return linkToken(await mailedLink(server.app, email, 'password-reset'));
}

beforeAll(async () => {
  server = await startTestServer({ listen: false, clock, config: { publicUrl: 'https://svc.example' } });
  const { store, limiter, config } = server.services;
  // The same authority the service builds, with its password hashing counted.
  server.services.sessions = new SessionAuthority(
    store,
    clock,
    limiter,
    randomBytes(32).toString('base64url'),
    config.sessions,
    async (hash, password) => {
      // A test may hold one password check half-way (see "a sign-in checked against the old password").
      const hold = held;
      held = undefined;
      if (hold) {
        hold.entered();
        await hold.release;
      }
      return argonVerify(hash, password).catch(() => false);
    },
    {
      hashPassword: (password) => {
        hashes.count++;
        return argonHash(password, ARGON2_OPTIONS);
      },
      linkBase: 'https://svc.example',
    },
  );
});
afterAll(async () => {
  await server?.close();
});

async function send(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) {
  const res = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  // A reset request is looked up and queued after its answer; wait for that before reading the queued mail.
  await server.services.sessions.email.settled();
  return { status: res.statusCode, body: res.json(), setCookie: res.headers['set-cookie'], raw: res.body };
}
/** The API call the page of a mailed link makes with its token (the link itself opens a page, which changes nothing). */
const pathOf = (link: string) => linkApi(link);
/** An answer's body without its request id, to compare two answers byte for byte. */
const withoutIds = (raw: string) => raw.replace(/"requestId":"[^"]*"/g, '"requestId":"-"');
const userEvents = async (accountId: string) =>
  (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', accountId)).filter(
    (e) => e.type === 'user.updated',
  );

describe('confirming an address', () => {
  it('register answers 202 without a session and mails a single-use link in the language asked', async () => {
    const email = uniqueEmail('ar');
    const reg = await send(
      'POST',
      '/api/auth/register',
      { email, password: PASSWORD },
      { 'accept-language': 'ar-EG,en;q=0.5' },
    );
    expect(reg.status).toBe(202);
    expect(reg.body.data).toEqual({ accepted: true, message: expect.stringContaining('Check your email') });
    expect(sessionCookie(reg.setCookie)).toBeUndefined();
    const [mail] = await mailTo(server.app, email);
    expect(mail).toMatchObject({ template: 'verify-email', locale: 'ar', essential: true, state: 'pending' });
    expect(mail!.data!.link).toMatch(/^https:\/\/svc\.example\/account\/verify\?token=emt_[A-Za-z0-9_-]{43}&lang=ar$/);
    expect(JSON.stringify(mail)).not.toContain(PASSWORD);

    // Signing in works before the address is confirmed.
    const session = await signIn(server.app, email, PASSWORD);
    const before = await send('GET', '/api/auth/session', undefined, sessionHeaders(session));
    expect(before.body.data.user).toMatchObject({ emailVerified: false, locale: 'ar' });

    const opened = await send('GET', pathOf(mail!.data!.link!));
    expect(opened.status).toBe(200);
    expect(
      (await send('GET', '/api/auth/session', undefined, sessionHeaders(session))).body.data.user.emailVerified,
    ).toBe(true);
    const again = await send('GET', pathOf(mail!.data!.link!));
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe('GONE');
    expect((await userEvents(session.accountId)).map((e) => e.data)).toEqual([
      { id: session.userId, changed: ['emailVerified'] },
    ]);
    // Only the token's hash is stored.
    const token = new URL(mail!.data!.link!).searchParams.get('token')!;
    expect(JSON.stringify(await server.services.store.all('email_tokens'))).not.toContain(token);
  });

  it('takes Spanish or French from Accept-Language, an explicit locale over it, English otherwise', async () => {
    const es = uniqueEmail('es');
    await send(
      'POST',
      '/api/auth/register',
      { email: es, password: PASSWORD },
      { 'accept-language': 'de;q=0.9, es-MX;q=0.8, fr;q=0.7' },
    );
    expect((await mailTo(server.app, es))[0]!.locale).toBe('es');
    const fr = uniqueEmail('fr');
    await send(
      'POST',
      '/api/auth/register',
      { email: fr, password: PASSWORD },
      { 'accept-language': 'de-DE, fr-CA;q=0.9, es;q=0.8' },
    );
    const [frMail] = await mailTo(server.app, fr);
    expect(frMail!.locale).toBe('fr');
    // The link opens its page in French too.
    expect(new URL(frMail!.data!.link!).searchParams.get('lang')).toBe('fr');
    const chosen = uniqueEmail('chosen');
    await send(
      'POST',
      '/api/auth/register',
      { email: chosen, password: PASSWORD, locale: 'ar' },
      { 'accept-language': 'es' },
    );
    expect((await mailTo(server.app, chosen))[0]!.locale).toBe('ar');
    const plain = uniqueEmail('plain');
    await send('POST', '/api/auth/register', { email: plain, password: PASSWORD }, { 'accept-language': 'de-DE' });
    expect((await mailTo(server.app, plain))[0]!.locale).toBe('en');
  });

  it('refuses a name with a line break or another control character, and creates nothing', async () => {
    for (const name of ['Ana\r\nBcc: x@example.com', 'Ana\nLopez', 'Ana\u0007']) {
      const email = uniqueEmail('crlf');
      const res = await send('POST', '/api/auth/register', { email, password: PASSWORD, name });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
      expect(await mailTo(server.app, email)).toEqual([]);
      expect(await server.services.store.findBy(USERS, 'email', email)).toEqual([]);
    }
  });

  it('an expired link and an unknown token answer 410', async () => {
    const email = uniqueEmail('late');
    await send('POST', '/api/auth/register', { email, password: PASSWORD });
    const link = await mailedLink(server.app, email, 'verify-email');
    clock.ms += 24 * 3600_000 + 1;
    expect((await send('GET', pathOf(link))).status).toBe(410);
    expect((await send('GET', `/api/auth/email/verify?token=emt_${'A'.repeat(43)}`)).status).toBe(410);
  });

  it('register answers a taken address exactly as a free one, hashes in both, and mails only its owner', async () => {
    const taken = await registerUser(server.app);
    const usersBefore = (await server.services.store.all(USERS)).length;
    const before = hashes.count;
    const dup = await send('POST', '/api/auth/register', { email: taken.email, password: 'another long passphrase' });
    expect(hashes.count - before).toBe(1);
    const fresh = await send('POST', '/api/auth/register', {
      email: uniqueEmail('fresh'),
      password: 'another long passphrase',
    });
    expect(hashes.count - before).toBe(2);
    expect(dup.status).toBe(fresh.status);
    expect(withoutIds(dup.raw)).toBe(withoutIds(fresh.raw));
    expect(dup.setCookie).toEqual(fresh.setCookie);
    expect((await server.services.store.all(USERS)).length).toBe(usersBefore + 1);
    // The owner of the taken address hears of it, with a way back in; nothing is made for the caller.
    expect((await mailTo(server.app, taken.email)).map((m) => m.template)).toEqual(['verify-email', 'password-reset']);
  });

  it('registering a taken address again and again mails its owner no more than forgot would', async () => {
    // The reset links registration sends count with forgot's: otherwise registering is a way to flood a mailbox.
    const taken = await registerUser(server.app);
    const register = (email: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: 'another long passphrase' },
        remoteAddress: '198.51.100.91',
      });
    const dups = [];
    for (let i = 0; i < 7; i++) dups.push(await register(taken.email));
    const fresh = await register(uniqueEmail('after'));
    await server.services.sessions.email.settled();
    // Every answer is the same 202, so the limit tells nobody whether the address is taken.
    expect(dups.map((r) => r.statusCode)).toEqual([202, 202, 202, 202, 202, 202, 202]);
    expect(withoutIds(dups.at(-1)!.body)).toBe(withoutIds(fresh.body));
    expect(await mailTo(server.app, taken.email, 'password-reset')).toHaveLength(5);
    const forgot = await server.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: taken.email },
      remoteAddress: '198.51.100.91',
    });
    expect(forgot.statusCode).toBe(429);
  });
});

describe('password reset', () => {
  it('forgot answers a known and an unknown address alike, and mails only the known one', async () => {
    const user = await registerUser(server.app);
    const unknown = uniqueEmail('nobody');
    const known = await send('POST', '/api/auth/password/forgot', { email: user.email });
    const nobody = await send('POST', '/api/auth/password/forgot', { email: unknown });
    expect(known.status).toBe(202);
    expect(nobody.status).toBe(202);
    expect(withoutIds(known.raw)).toBe(withoutIds(nobody.raw));
    expect((await mailTo(server.app, user.email, 'password-reset')).length).toBe(1);
    expect(await mailTo(server.app, unknown)).toEqual([]);
  });

  it('forgot answers before the address is looked up: same status, body and headers, known or not', async () => {
    const user = await registerUser(server.app);
    // Every store transaction waits at the gate: an answer that needed the lookup could not come back.
    const gate = gateTransactions(server.services.store);
    try {
      const ask = (email: string) =>
        server.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } });
      const known = await ask(user.email);
      const unknown = await ask(uniqueEmail('ghost'));
      expect(gate.held()).toBe(2);
      expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
      expect(withoutIds(known.body)).toBe(withoutIds(unknown.body));
      const shape = (h: Record<string, unknown>) =>
        Object.fromEntries(
          // The shared rate budget counts down by one per request, whatever the address.
          Object.entries(h).filter(
            ([k]) => !['date', 'x-request-id', 'content-length', 'x-ratelimit-remaining'].includes(k),
          ),
        );
      expect(shape(known.headers)).toEqual(shape(unknown.headers));
      expect(known.headers['content-length']).toBe(unknown.headers['content-length']);
    } finally {
      gate.open();
    }
    await server.services.sessions.email.settled();
    expect((await mailTo(server.app, user.email, 'password-reset')).length).toBe(1);
  });

  it('a reset link sets the password once, ends every session, and refuses a weak password without being spent', async () => {
    const user = await registerUser(server.app);
    const other = await signIn(server.app, user.email, user.password);
    await send('POST', '/api/auth/password/forgot', { email: user.email });
    const link = await mailedLink(server.app, user.email, 'password-reset');
    expect(new URL(link).pathname).toBe('/account/reset');
    const token = new URL(link).searchParams.get('token')!;

    const weak = await send('POST', '/api/auth/password/reset', { token, newPassword: 'password123' });
    expect(weak.status).toBe(400);
    const done = await send('POST', '/api/auth/password/reset', { token, newPassword: 'a brand new passphrase' });
    expect(done.status).toBe(200);
    for (const s of [user, other])
      expect((await send('GET', '/api/auth/session', undefined, sessionHeaders(s))).status).toBe(401);
    expect((await send('POST', '/api/auth/login', { email: user.email, password: user.password })).status).toBe(401);
    await signIn(server.app, user.email, 'a brand new passphrase');
    const reused = await send('POST', '/api/auth/password/reset', { token, newPassword: 'yet another passphrase' });
    expect(reused.status).toBe(410);
    expect((await userEvents(user.accountId)).at(-1)!.data).toEqual({ id: user.userId, changed: ['password'] });
  });

  it('a reset link expires after 30 minutes', async () => {
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    clock.ms += 30 * 60_000 + 1;
    expect(
      (await send('POST', '/api/auth/password/reset', { token, newPassword: 'a brand new passphrase' })).status,
    ).toBe(410);
  });

  it('a reset link mailed to an address the user has since left resets nothing', async () => {
    // The old address may be the reason for the move (a lost mailbox, a job left): its links must die with it.
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    const newEmail = uniqueEmail('left');
    await send('POST', '/api/auth/email/change', { newEmail, currentPassword: PASSWORD }, sessionHeaders(user));
    expect((await send('GET', pathOf(await mailedLink(server.app, newEmail, 'email-change-confirm')))).status).toBe(
      200,
    );

    const late = await send('POST', '/api/auth/password/reset', { token, newPassword: 'someone else took over' });
    expect(late.status).toBe(410);
    expect(late.body.error.code).toBe('GONE');
    expect(
      (await send('POST', '/api/auth/login', { email: newEmail, password: 'someone else took over' })).status,
    ).toBe(401);
    await signIn(server.app, newEmail, PASSWORD);
  });

  it('forgot is limited per address like sign-in', async () => {
    const email = uniqueEmail('flood');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email },
        remoteAddress: '198.51.100.77',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe('email change', () => {
  it('is confirmed from the new address, with a notice to the old one; a taken address gets the same answer', async () => {
    const user = await registerUser(server.app);
    const other = await registerUser(server.app);
    const headers = sessionHeaders(user);
    const wrong = await send(
      'POST',
      '/api/auth/email/change',
      { newEmail: uniqueEmail('x'), currentPassword: 'not it at all' },
      headers,
    );
    expect(wrong.status).toBe(400);

    const taken = await send(
      'POST',
      '/api/auth/email/change',
      { newEmail: other.email, currentPassword: PASSWORD },
      headers,
    );
    const newEmail = uniqueEmail('moved');
    const free = await send('POST', '/api/auth/email/change', { newEmail, currentPassword: PASSWORD }, headers);
    expect(taken.status).toBe(202);
    expect(withoutIds(taken.raw)).toBe(withoutIds(free.raw));
    expect(await mailTo(server.app, other.email, 'email-change-confirm')).toEqual([]);

    const link = await mailedLink(server.app, newEmail, 'email-change-confirm');
    expect((await mailTo(server.app, newEmail))[0]!.data).toMatchObject({ newEmail });
    expect((await send('GET', pathOf(link))).status).toBe(200);
    expect((await send('GET', pathOf(link))).status).toBe(410);
    const [notice] = await mailTo(server.app, user.email, 'email-change-notice');
    expect(notice!.data).toEqual({ newEmail });
    expect((await send('POST', '/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(401);
    const moved = await signIn(server.app, newEmail, PASSWORD);
    expect(moved.userId).toBe(user.userId);
    expect((await userEvents(user.accountId)).at(-1)!.data).toEqual({ id: user.userId, changed: ['email'] });
  });

  it('leaves no copy of the old address on the personal account, named after it at registration', async () => {
    // Registered without a name, the personal account is named by its address: the address left must not stay.
    const user = await registerUser(server.app);
    const newEmail = uniqueEmail('renamed');
    await send('POST', '/api/auth/email/change', { newEmail, currentPassword: PASSWORD }, sessionHeaders(user));
    expect((await send('GET', pathOf(await mailedLink(server.app, newEmail, 'email-change-confirm')))).status).toBe(
      200,
    );
    const moved = await signIn(server.app, newEmail, PASSWORD);
    const session = await send('GET', '/api/auth/session', undefined, sessionHeaders(moved));
    expect(session.body.data.account).toMatchObject({ name: newEmail, email: newEmail });
    expect(session.raw).not.toContain(user.email);
    // A name the user chose is theirs: it stays.
    const named = await registerUser(server.app, { name: 'Ada Lovelace' });
    const other = uniqueEmail('named');
    await send('POST', '/api/auth/email/change', { newEmail: other, currentPassword: PASSWORD }, sessionHeaders(named));
    await send('GET', pathOf(await mailedLink(server.app, other, 'email-change-confirm')));
    const again = await signIn(server.app, other, PASSWORD);
    expect((await send('GET', '/api/auth/session', undefined, sessionHeaders(again))).body.data.account).toMatchObject({
      name: 'Ada Lovelace',
      email: other,
    });
  });
});

/** The signed-in user's password changed with the current one (the suite's PASSWORD). */
const changePassword = (user: Parameters<typeof sessionHeaders>[0], newPassword: string) =>
  send('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword }, sessionHeaders(user));

describe('a new password ends pending address changes', () => {
  // Whoever asked for the change (maybe someone holding the account and its password) must not complete it after
  // the owner took the account back with a new password.
  it('a reset link ends them: the change link answers 410 and the address stays', async () => {
    const user = await registerUser(server.app);
    const taker = uniqueEmail('taker');
    await send('POST', '/api/auth/email/change', { newEmail: taker, currentPassword: PASSWORD }, sessionHeaders(user));
    const change = await mailedLink(server.app, taker, 'email-change-confirm');
    const token = await resetToken(user.email);
    expect(
      (await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner is back again' })).status,
    ).toBe(200);

    expect((await send('GET', pathOf(change))).status).toBe(410);
    await signIn(server.app, user.email, 'the owner is back again');
  });

  it('a password change ends them too', async () => {
    const user = await registerUser(server.app);
    const taker = uniqueEmail('taker');
    await send('POST', '/api/auth/email/change', { newEmail: taker, currentPassword: PASSWORD }, sessionHeaders(user));
    const change = await mailedLink(server.app, taker, 'email-change-confirm');
    expect((await changePassword(user, 'the owner is back again')).status).toBe(200);

    expect((await send('GET', pathOf(change))).status).toBe(410);
    await signIn(server.app, user.email, 'the owner is back again');
  });
});

describe('a new password ends pending reset links', () => {
  // A reset link left in a mailbox (read by someone else, or asked for and then not needed) must not set a password
  // over the one the user has just chosen.
  it('a password change makes an earlier reset link answer 410', async () => {
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    expect((await changePassword(user, 'the owner is back again')).status).toBe(200);

    const late = await send('POST', '/api/auth/password/reset', { token, newPassword: 'someone else took over' });
    expect({ status: late.status, code: late.body.error?.code }).toEqual({ status: 410, code: 'GONE' });
    await signIn(server.app, user.email, 'the owner is back again');
  });
});

describe('a sign-in checked against the old password', () => {
  // A password check takes a while (argon2): a sign-in whose password was right when checked, but whose session
  // would be made after a reset took the account back, must not open a session the new password has ended.
  it('opens no session when a reset set a new password during the check', async () => {
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    const { checking, release } = holdNextCheck();
    const login = server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    await checking;
    const reset = await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner took it back' });
    expect(reset.status).toBe(200);
    release();
    const res = await login;
    expect({ status: res.statusCode, code: res.json().error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(sessionCookie(res.headers['set-cookie'])).toBeUndefined();
    await signIn(server.app, user.email, 'the owner took it back');
  });

  it('a password change checked before a reset neither overwrites it nor opens a session', async () => {
    // Someone holding a session and the old password changes it while the owner resets it from the mailed link.
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    const { checking, release } = holdNextCheck();
    const change = server.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      payload: { currentPassword: PASSWORD, newPassword: 'the intruder keeps it' },
      headers: sessionHeaders(user),
    });
    await checking;
    const reset = await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner took it back' });
    expect(reset.status).toBe(200);
    release();
    const res = await change;
    expect({ status: res.statusCode, code: res.json().error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(sessionCookie(res.headers['set-cookie'])).toBeUndefined();
    expect(
      (await send('POST', '/api/auth/login', { email: user.email, password: 'the intruder keeps it' })).status,
    ).toBe(401);
    await signIn(server.app, user.email, 'the owner took it back');
  });

  it('an address change checked before a reset mails no link that would move the account', async () => {
    const user = await registerUser(server.app);
    const token = await resetToken(user.email);
    const taker = uniqueEmail('taker');
    const { checking, release } = holdNextCheck();
    const change = server.app.inject({
      method: 'POST',
      url: '/api/auth/email/change',
      payload: { newEmail: taker, currentPassword: PASSWORD },
      headers: sessionHeaders(user),
    });
    await checking;
    const reset = await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner took it back' });
    expect(reset.status).toBe(200);
    release();
    await change;
    await server.services.sessions.email.settled();
    expect(await mailTo(server.app, taker, 'email-change-confirm')).toEqual([]);
  });

  it('an API key its session asks for while a reset is stored does not outlive the reset', async () => {
    const user = await registerUser(server.app);
    // The session's sign of life is passed once per interval: this request passes it, so the next one writes nothing
    // before the key itself.
    await send('GET', '/api/auth/session', undefined, sessionHeaders(user));
    const token = await resetToken(user.email);
    const store = server.services.store;
    const transact = store.transact.bind(store);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let hold = true;
    const reached = new Promise<void>((entered) => {
      // The key's transaction waits (the session was admitted already) while the reset is stored.
      store.transact = (async (fn: Parameters<typeof transact>[0], opts?: Parameters<typeof transact>[1]) => {
        if (hold) {
          hold = false;
          entered();
          await gate;
        }
        return transact(fn, opts);
      }) as typeof store.transact;
    });
    try {
      const create = server.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        payload: { name: 'made meanwhile', scopes: ['contracts'] },
        headers: sessionHeaders(user),
      });
      await reached;
      const reset = await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner took it back' });
      expect(reset.status).toBe(200);
      release();
      const res = await create;
      expect({ status: res.statusCode, code: res.json().error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    } finally {
      store.transact = transact;
      release();
    }
    const keys = await store.findBy<ApiKeyRecord>(API_KEYS, 'ownerId', user.accountId);
    expect(keys.filter((k) => !k.revokedAt)).toEqual([]);
  });
});

describe('the notice of a new password', () => {
  // API keys belong to the account and outlive a new password; whoever changed it without being the user may have
  // made one. The user is told of every change, in their language, with the number of keys that keep working.
  /**
   * Keys of the user's account: two made by the operator that keep working, one that has expired by then, and one made
   * by the user's session (a reset revokes it with the sessions).
   */
  async function keysOf(user: Awaited<ReturnType<typeof registerUser>>) {
    const byOperator = (extra: object = {}) =>
      server.key({ ownerId: user.accountId, tier: 'public', scopes: ['contracts'], ...extra });
    await byOperator();
    await byOperator();
    await byOperator({ expiresAt: new Date(clock.ms + 60_000).toISOString() });
    const res = await send('POST', '/api/v1/api-keys', { name: 'made', scopes: ['contracts'] }, sessionHeaders(user));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  it('a reset mails it after the change, counting the keys that still work', async () => {
    const user = await registerUser(server.app);
    await keysOf(user);
    clock.ms += 120_000;
    const token = await resetToken(user.email);
    expect((await mailTo(server.app, user.email, 'password-changed')).length).toBe(0);
    const weak = await send('POST', '/api/auth/password/reset', { token, newPassword: 'password123' });
    expect(weak.status).toBe(400);
    expect((await mailTo(server.app, user.email, 'password-changed')).length).toBe(0);
    await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner is back again' });
    const [notice, ...more] = await mailTo(server.app, user.email, 'password-changed');
    expect(more).toEqual([]);
    expect(notice!.data).toEqual({ workingKeys: '2' });
    expect(notice!.essential).toBe(true);
    expect(renderMail('password-changed', 'en', notice!.data!).text).toContain('keep working: 2.');
  });

  it("a change with the current password mails it too, in the user's language, and a refused one does not", async () => {
    const user = await registerUser(server.app);
    await send('PATCH', '/api/auth/me', { locale: 'fr' }, sessionHeaders(user));
    const change = (newPassword: string) =>
      send('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword }, sessionHeaders(user));
    expect((await change('password123')).status).toBe(400);
    expect(await mailTo(server.app, user.email, 'password-changed')).toEqual([]);
    expect((await change('the owner is back again')).status).toBe(200);
    const [notice] = await mailTo(server.app, user.email, 'password-changed');
    expect(notice).toMatchObject({ locale: 'fr', data: { workingKeys: '0' } });
    const french = renderMail('password-changed', 'fr', notice!.data!);
    expect(french.subject).toBe('Le mot de passe de votre compte a été modifié');
    // No key to tell of: no sentence about keys that keep working.
    expect(french.text).not.toContain('continuent de fonctionner');
  });
});

describe('an address registered by someone who does not read its mail', () => {
  it('gets no API key until confirmed, so the owner taking the account back by a reset link leaves them nothing', async () => {
    const email = uniqueEmail('squatted');
    const squatter = await registerUser(server.app, { email, password: PASSWORD, verify: false });
    const made = await send(
      'POST',
      '/api/v1/api-keys',
      { name: 'kept for later', scopes: ['chat'] },
      sessionHeaders(squatter),
    );
    expect(made.status).toBe(403);
    expect(made.body.error.code).toBe('EMAIL_NOT_VERIFIED');
    expect((await send('GET', '/api/v1/api-keys', undefined, sessionHeaders(squatter))).body.data).toEqual([]);

    // The owner of the address registers too, is mailed a reset link, and takes the account.
    await send('POST', '/api/auth/register', { email, password: 'the owner of the mailbox' });
    const token = new URL(await mailedLink(server.app, email, 'password-reset')).searchParams.get('token')!;
    expect(
      (await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner of the mailbox' })).status,
    ).toBe(200);
    expect((await send('GET', '/api/auth/session', undefined, sessionHeaders(squatter))).status).toBe(401);

    // Confirmed now, the owner's own session makes keys as before.
    const owner = await signIn(server.app, email, 'the owner of the mailbox');
    const own = await send('POST', '/api/v1/api-keys', { name: 'mine', scopes: ['chat'] }, sessionHeaders(owner));
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({ tier: 'public', ownerId: owner.accountId });
  });

  it('keeps no key it made once the owner confirmed the address, when the owner takes the account back', async () => {
    const email = uniqueEmail('squatted');
    const squatter = await registerUser(server.app, { email, password: PASSWORD, verify: false });
    // The owner of the address opens the confirmation link they find in their mailbox (the squatter's registration
    // sent it): the squatter's session, confirmed now, makes a key at once.
    expect((await send('GET', pathOf(await mailedLink(server.app, email, 'verify-email')))).status).toBe(200);
    const made = await send(
      'POST',
      '/api/v1/api-keys',
      { name: 'kept for later', scopes: ['chat'] },
      sessionHeaders(squatter),
    );
    expect(made.status).toBe(201);
    const squatterKey = made.body.data.key as string;
    const operatorKey = await server.key({ ownerId: squatter.accountId, tier: 'public', scopes: ['chat'] });

    // Not knowing the password, the owner resets it from a mailed link.
    await send('POST', '/api/auth/password/forgot', { email });
    const token = new URL(await mailedLink(server.app, email, 'password-reset')).searchParams.get('token')!;
    expect(
      (await send('POST', '/api/auth/password/reset', { token, newPassword: 'the owner of the mailbox' })).status,
    ).toBe(200);
    // The squatter's session and key end with the old password: nothing of what the owner then claims reaches them.
    expect(
      (await send('GET', '/api/v1/svcloom/shared', undefined, { authorization: `Bearer ${squatterKey}` })).status,
    ).toBe(401);
    const revoked = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', squatter.accountId)).filter(
      (e) => e.type === 'api_key.revoked',
    );
    expect(revoked.map((e) => e.data)).toEqual([
      { id: made.body.data.id, name: 'kept for later', revokedBy: null, reason: 'password-reset' },
    ]);
    // A key the session did not make (the operator's) stays, and the owner's own session makes keys again.
    expect(
      (await send('GET', '/api/v1/svcloom/shared', undefined, { authorization: `Bearer ${operatorKey}` })).status,
    ).toBe(200);
    const owner = await signIn(server.app, email, 'the owner of the mailbox');
    const own = await send('POST', '/api/v1/api-keys', { name: 'mine', scopes: ['chat'] }, sessionHeaders(owner));
    expect(own.status).toBe(201);
    expect(own.body.data).not.toHaveProperty('madeBy');
    expect(
      (await send('GET', '/api/v1/svcloom/shared', undefined, { authorization: `Bearer ${own.body.data.key}` })).status,
    ).toBe(200);
  });
});

describe('claiming a share needs a confirmed address', () => {
  it('refuses an unconfirmed user with 403, then lets them claim once confirmed', async () => {
    const owner = await server.account({ name: 'grantor' });
    const heirEmail = uniqueEmail('heir');
    const heir = await registerUser(server.app, { email: heirEmail, verify: false });
    const { code, hash } = newClaimCode();
    const now = clock.now().toISOString();
    const grant: GrantRecord = {
      id: `shr_${newId('user').slice(4)}`,
      ownerId: owner,
      kind: 'memoir',
      collections: [],
      permissions: ['read'],
      title: 'Memoir',
      label: 'Heir',
      sourceId: null,
      claimHash: hash,
      claimEmail: heirEmail,
      granteeId: null,
      claimedAt: null,
      opensAt: null,
      expiresAt: null,
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await server.services.store.put(GRANTS, grant);
    const refused = await send('POST', '/api/v1/svcloom/shared/claim', { code }, sessionHeaders(heir));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('EMAIL_NOT_VERIFIED');
    expect(await server.services.store.get<GrantRecord>(GRANTS, grant.id)).toMatchObject({ granteeId: null });

    expect((await send('GET', pathOf(await mailedLink(server.app, heirEmail, 'verify-email')))).status).toBe(200);
    expect((await send('POST', '/api/v1/svcloom/shared/claim', { code }, sessionHeaders(heir))).status).toBe(200);
  });

  it('treats users made before confirmation existed as confirmed', async () => {
    const user = await registerUser(server.app);
    const [record] = await server.services.store.findBy<UserRecord>(USERS, 'email', user.email);
    const { emailVerified: _, ...legacy } = record!;
    await server.services.store.put(USERS, legacy);
    const seen = await send('GET', '/api/auth/session', undefined, sessionHeaders(user));
    expect(seen.body.data.user.emailVerified).toBe(true);
  });
});

describe('update_profile', () => {
  it('changes the name and mail language (user.updated), replaces the opt-outs, and refuses bad input whole', async () => {
    const user = await registerUser(server.app, { name: 'Ana' });
    const headers = sessionHeaders(user);
    const changed = await send('PATCH', '/api/auth/me', { locale: 'es', name: 'Ana María' }, headers);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({
      user: expect.objectContaining({ id: user.userId, name: 'Ana María', locale: 'es', emailVerified: true }),
      mailOptOut: [],
    });
    expect((await userEvents(user.accountId)).at(-1)!.data).toEqual({ id: user.userId, changed: ['name', 'locale'] });
    // The next mail to the user is in the new language.
    await send('POST', '/api/auth/password/forgot', { email: user.email });
    expect((await mailTo(server.app, user.email, 'password-reset')).at(-1)!.locale).toBe('es');
    // French too: the mail is written in it, its link opens the page in it.
    expect((await send('PATCH', '/api/auth/me', { locale: 'fr' }, headers)).body.data.user.locale).toBe('fr');
    await send('POST', '/api/auth/password/forgot', { email: user.email });
    const reset = (await mailTo(server.app, user.email, 'password-reset')).at(-1)!;
    expect(reset.locale).toBe('fr');
    expect(new URL(reset.data!.link!).searchParams.get('lang')).toBe('fr');
    const written = renderMail(reset.template, reset.locale, reset.data!);
    expect(written.subject).toBe('Réinitialisation de votre mot de passe');
    expect(written.html).toContain('<html lang="fr" dir="ltr">');
    await send('PATCH', '/api/auth/me', { locale: 'es' }, headers);

    const events = (await userEvents(user.accountId)).length;
    const optOut = await send('PATCH', '/api/auth/me', { mailOptOut: ['all', 'checkin-reminder', 'all'] }, headers);
    expect(optOut.body.data.mailOptOut).toEqual(['all', 'checkin-reminder']);
    // The same values again change nothing and record no event.
    expect((await send('PATCH', '/api/auth/me', { locale: 'es' }, headers)).body.data.mailOptOut).toEqual([
      'all',
      'checkin-reminder',
    ]);
    expect((await userEvents(user.accountId)).length).toBe(events);

    for (const [payload, field] of [
      [{ name: 'two\nlines' }, 'name'],
      [{ locale: 'de' }, 'locale'],
      [{ mailOptOut: ['password-reset'] }, 'mailOptOut.0'],
      [{ email: 'x@example.com' }, 'email'],
    ] as const) {
      const bad = await send('PATCH', '/api/auth/me', { locale: 'ar', ...payload }, headers);
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // A name goes into other people's mail headers: no bidirectional controls (a right-to-left override would show
    // "Evil\u202eRTL" as "EvilLTR") and no control characters, refused with a reason that says so.
    for (const name of [
      'Evil <b>Bold</b> \u202eRTL',
      'Ana\u202aX',
      'Ana\u2067X\u2069',
      'Ana\u200eX',
      'Ana\u200fX',
      'Ana\u061cX',
      'Ana\u0085X',
      'Ana\u2028X',
      'Ana\tX',
    ]) {
      const bad = await send('PATCH', '/api/auth/me', { name }, headers);
      expect({ status: bad.status, code: bad.body.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(bad.body.error.details).toEqual([
        { field: 'name', reason: expect.stringMatching(/control characters or bidirectional controls/) },
      ]);
    }
    // Joiners, which some scripts and emoji need, are kept; markup is only text (escaped wherever it is shown).
    const joined = await send('PATCH', '/api/auth/me', { name: 'می\u200cخواهم 👩\u200d👧' }, headers);
    expect(joined.status).toBe(200);
    await send('PATCH', '/api/auth/me', { name: 'Ana María' }, headers);
    const refusedAtRegistration = await send('POST', '/api/auth/register', {
      email: uniqueEmail('rtl'),
      password: 'correct horse battery staple',
      name: 'Evil \u202eRTL',
    });
    expect(refusedAtRegistration.status).toBe(400);
    expect(refusedAtRegistration.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);
    const session = await send('GET', '/api/auth/session', undefined, headers);
    expect(session.body.data.user).toMatchObject({ name: 'Ana María', locale: 'es' });
    // Without the CSRF token, or without a session, nothing changes.
    expect((await send('PATCH', '/api/auth/me', { locale: 'ar' }, sessionHeaders(user, { csrf: false }))).status).toBe(
      403,
    );
    expect((await send('PATCH', '/api/auth/me', { locale: 'ar' })).status).toBe(401);
    expect((await send('PATCH', '/api/auth/me', { mailOptOut: [] }, headers)).body.data.mailOptOut).toEqual([]);
  });
});
