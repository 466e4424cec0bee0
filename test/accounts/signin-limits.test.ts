/**
 * Failed-password limits that hold under concurrency, on both limiter engines (in process and Redis, the latter
 * under a key prefix of its own), over the REST routes. Every password check goes through a counting verifier
 * (the SessionAuthority's verifier seam, delegating to the real argon2 check), so the tests count checks, not time.
 * Different client addresses come from `inject`'s remoteAddress.
 */
import { randomBytes } from 'node:crypto';
import { verify as argonVerify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_FAILURES_PER_EMAIL_AND_ADDRESS,
  SessionAuthority,
  USERS,
  type UserRecord,
} from '../../src/accounts/sessions.js';
import { LimiterUnavailableError, MemoryRateLimiter } from '../../src/keys/limiter.js';
import { FakeClock, startTestServer } from '../helpers.js';
import { testRedisUrl } from '../support/engines.js';
import { sessionCookie, uniqueEmail } from '../support/session.js';

const PASSWORD = 'correct horse battery staple';
const WINDOW_MS = 15 * 60 * 1000;

/** The data of a session's answer, as these tests read it. */
interface SessionData {
  csrfToken?: string;
  user: { email: string };
}

interface Answer {
  status: number;
  body: {
    success: boolean;
    data?: SessionData;
    error?: { code: string; message: string; details?: Array<{ field: string; reason: string }> };
  };
  headers: Record<string, unknown>;
}

let addressCounter = 0;
/** A client address no other test uses (each test file runs in its own process; the server is per describe). */
function freshAddress(): string {
  addressCounter++;
  return `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** A server whose session authority counts its password checks. */
async function openServer(engine: 'in process' | 'Redis', clock: FakeClock) {
  const config =
    engine === 'Redis'
      ? { redisUrl: await testRedisUrl(), redisPrefix: `svc-signin-test:${randomBytes(6).toString('hex')}:` }
      : {};
  const server = await startTestServer({ listen: false, clock, config });
  const counter = { checks: 0 };
  const { store, limiter } = server.services;
  server.services.sessions = new SessionAuthority(
    store,
    clock,
    limiter,
    randomBytes(32).toString('base64url'),
    server.services.config.sessions,
    async (hash, password) => {
      counter.checks++;
      return argonVerify(hash, password).catch(() => false);
    },
  );
  const call = async (
    url: string,
    payload: unknown,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await server.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress, headers });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  // Registering answers 202 without a session: the user signs in next (from an address of its own, so the
  // counters a test watches start empty), and that answer carries the session.
  const register = async (email: string, password = PASSWORD, address = freshAddress()) => {
    const res = await call('/api/auth/register', { email, password }, address);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const signedIn = await call('/api/auth/login', { email, password }, freshAddress());
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    return signedIn;
  };
  const login = (email: string, password: string, address: string) =>
    call('/api/auth/login', { email, password }, address);
  return { server, counter, call, register, login };
}

const statuses = (answers: Answer[]) =>
  answers
    .map((a) => a.status)
    .sort()
    .join(',');
const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

for (const engine of ['in process', 'Redis'] as const) {
  describe(`sign-in and password limits (${engine} limiter)`, () => {
    const clock = new FakeClock();
    let t: Awaited<ReturnType<typeof openServer>>;

    beforeAll(async () => {
      t = await openServer(engine, clock);
    });
    afterAll(async () => {
      await t?.server.close();
    });

    it('40 simultaneous sign-ins for one email from one address: at most 10 passwords are checked', async () => {
      const email = uniqueEmail('burst');
      await t.register(email);
      const attacker = freshAddress();
      const before = t.counter.checks;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => t.login(email, `wrong guess number ${i}`, attacker)),
      );
      expect(count(answers, 401)).toBe(10);
      expect(count(answers, 429)).toBe(30);
      expect(t.counter.checks - before).toBe(LOGIN_FAILURES_PER_EMAIL_AND_ADDRESS);
      const refused = answers.find((a) => a.status === 429)!;
      expect(refused.body.error!.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(refused.body.error!.message).toMatch(/this email from this address: at most 10 per 15 minutes/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password is refused from there now, unchecked.
      const right = await t.login(email, PASSWORD, attacker);
      expect(right.status).toBe(429);
      expect(t.counter.checks - before).toBe(10);
    });

    it('while one address is limited, the user signs in from another address', async () => {
      const email = uniqueEmail('elsewhere');
      await t.register(email);
      const attacker = freshAddress();
      await Promise.all(Array.from({ length: 15 }, (_, i) => t.login(email, `wrong guess number ${i}`, attacker)));
      expect((await t.login(email, PASSWORD, attacker)).status).toBe(429);
      const owner = await t.login(email, PASSWORD, freshAddress());
      expect(owner.status).toBe(200);
      expect(sessionCookie(owner.headers['set-cookie'] as string[])).toMatch(/^svc_session=./);
      expect(owner.body.data!.user.email).toBe(email);
    });

    it('an IPv6 client counts by its /64 network, so rotating addresses inside it does not add attempts', async () => {
      const email = uniqueEmail('v6');
      await t.register(email);
      const net = `2001:db8:${(addressCounter++ % 0xffff).toString(16)}:1`;
      const answers = [];
      for (let i = 1; i <= 11; i++)
        answers.push(await t.login(email, `wrong guess number ${i}`, `${net}::${i.toString(16)}`));
      expect(statuses(answers)).toBe(`${'401,'.repeat(10)}429`);
      expect((await t.login(email, PASSWORD, `${net}:ffff:ffff:ffff:ffff`)).status).toBe(429);
      expect((await t.login(email, PASSWORD, `2001:db8:${(addressCounter++ % 0xffff).toString(16)}:2::1`)).status).toBe(
        200,
      );
    });

    it('a right password gives its attempt back: sign-ins that succeed never use up the limit', async () => {
      const email = uniqueEmail('refund');
      await t.register(email);
      const address = freshAddress();
      const together = await Promise.all(Array.from({ length: 8 }, () => t.login(email, PASSWORD, address)));
      expect(statuses(together)).toBe('200,200,200,200,200,200,200,200');
      for (let i = 0; i < 9; i++) expect((await t.login(email, `wrong guess number ${i}`, address)).status).toBe(401);
      // Eight right sign-ins, then nine failures, then more right sign-ins than the limit: all succeed. (While a
      // check runs it holds its attempt, so with one attempt left, right sign-ins from here pass one at a time.)
      for (let i = 0; i < 12; i++) expect((await t.login(email, PASSWORD, address)).status).toBe(200);
      // One failure is left of the ten, then the limit holds.
      expect((await t.login(email, 'wrong guess number ten', address)).status).toBe(401);
      expect((await t.login(email, PASSWORD, address)).status).toBe(429);
    });

    it('per email, a ceiling across all addresses: 100 failures from many addresses stop further checks for that email', async () => {
      clock.advance(WINDOW_MS); // a fresh window for every counter
      const email = uniqueEmail('ceiling');
      await t.register(email);
      const before = t.counter.checks;
      const perAddress = LOGIN_FAILURES_PER_EMAIL_AND_ADDRESS;
      const addresses = Array.from({ length: LOGIN_FAILURES_PER_EMAIL / perAddress }, () => freshAddress());
      const answers = await Promise.all(
        addresses.flatMap((address) =>
          Array.from({ length: perAddress }, (_, i) => t.login(email, `guess ${i} from ${address}`, address)),
        ),
      );
      expect(count(answers, 401)).toBe(LOGIN_FAILURES_PER_EMAIL);
      expect(t.counter.checks - before).toBe(LOGIN_FAILURES_PER_EMAIL);
      // A new address is refused for this email without a check; other emails from it are not affected.
      const next = freshAddress();
      const refused = await t.login(email, 'one more guess for it', next);
      expect(refused.status).toBe(429);
      expect(refused.body.error!.message).toMatch(/this email from all addresses together: at most 100 per 15 minutes/);
      expect(t.counter.checks - before).toBe(LOGIN_FAILURES_PER_EMAIL);
      const other = uniqueEmail('ceiling-other');
      await t.register(other);
      expect((await t.login(other, PASSWORD, next)).status).toBe(200);
      // The next window lets the owner in again.
      clock.advance(WINDOW_MS);
      expect((await t.login(email, PASSWORD, next)).status).toBe(200);
    });

    it('per address, every email together: 30 failures', async () => {
      const address = freshAddress();
      const answers = [];
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++)
        answers.push(await t.login(uniqueEmail('spray'), 'a wrong password', address));
      expect(count(answers, 401)).toBe(LOGIN_FAILURES_PER_ADDRESS);
      const refused = await t.login(uniqueEmail('spray'), 'a wrong password', address);
      expect(refused.status).toBe(429);
      expect(refused.body.error!.message).toMatch(/failed password attempts for this address: at most 30/);
    });

    it('a wrong currentPassword on POST /api/auth/password counts in the same limiter', async () => {
      const email = uniqueEmail('change');
      const reg = await t.register(email);
      const cookie = sessionCookie(reg.headers['set-cookie'] as string[])!;
      const headers = { cookie, 'x-csrf-token': reg.body.data!.csrfToken as string };
      const address = freshAddress();
      const change = (currentPassword: string) =>
        t.call('/api/auth/password', { currentPassword, newPassword: 'an even longer passphrase' }, address, headers);
      const before = t.counter.checks;
      const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => change(`not my password ${i}`)));
      expect(count(answers, 400)).toBe(10);
      expect(count(answers, 429)).toBe(4);
      expect(answers.find((a) => a.status === 400)!.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'currentPassword', reason: 'does not match' }],
      });
      expect(t.counter.checks - before).toBe(10);
      // The same counters as sign-in: the right current password, and a sign-in, from that address are refused now.
      expect((await change(PASSWORD)).status).toBe(429);
      expect((await t.login(email, PASSWORD, address)).status).toBe(429);
      // The password was not changed; from another address the user signs in.
      expect((await t.login(email, PASSWORD, freshAddress())).status).toBe(200);
      // Failed sign-ins count against a password change too.
      const other = uniqueEmail('change2');
      const reg2 = await t.register(other);
      const from = freshAddress();
      for (let i = 0; i < 10; i++) expect((await t.login(other, `wrong guess number ${i}`, from)).status).toBe(401);
      const headers2 = {
        cookie: sessionCookie(reg2.headers['set-cookie'] as string[])!,
        'x-csrf-token': reg2.body.data!.csrfToken as string,
      };
      expect(
        (
          await t.call(
            '/api/auth/password',
            { currentPassword: PASSWORD, newPassword: 'an even longer passphrase' },
            from,
            headers2,
          )
        ).status,
      ).toBe(429);
      // A right current password gives its attempt back.
      const third = uniqueEmail('change3');
      const reg3 = await t.register(third);
      const headers3 = {
        cookie: sessionCookie(reg3.headers['set-cookie'] as string[])!,
        'x-csrf-token': reg3.body.data!.csrfToken as string,
      };
      const at = freshAddress();
      for (let i = 0; i < 9; i++) expect((await t.login(third, `wrong guess number ${i}`, at)).status).toBe(401);
      const changed = await t.call(
        '/api/auth/password',
        { currentPassword: PASSWORD, newPassword: 'an even longer passphrase' },
        at,
        headers3,
      );
      expect(changed.status).toBe(200);
      expect((await t.login(third, 'an even longer passphrase', at)).status).toBe(200);
    });
  });
}

describe('sign-in when the limiter cannot be reached', () => {
  it('answers 503 without checking the password, even with SVC_RATE_LIMIT_FAIL_OPEN', async () => {
    const clock = new FakeClock();
    const server = await startTestServer({ listen: false, clock, config: { rateLimitFailOpen: true } });
    try {
      const { store } = server.services;
      const email = uniqueEmail('down');
      const reg = await server.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: PASSWORD },
      });
      expect(reg.statusCode).toBe(202);
      class DownLimiter extends MemoryRateLimiter {
        override hitAll(): Promise<never> {
          return Promise.reject(new LimiterUnavailableError('connection refused'));
        }
      }
      let checks = 0;
      server.services.sessions = new SessionAuthority(
        store,
        clock,
        new DownLimiter(),
        randomBytes(32).toString('base64url'),
        server.services.config.sessions,
        async () => {
          checks++;
          return true;
        },
      );
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: PASSWORD },
        remoteAddress: freshAddress(),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
      expect(checks).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('password strength', () => {
  const clock = new FakeClock();
  let t: Awaited<ReturnType<typeof openServer>>;

  beforeAll(async () => {
    t = await openServer('in process', clock);
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it('refuses common, repeated, keyboard and email passwords with a 400 that says why, storing nothing', async () => {
    const email = uniqueEmail('weak');
    const cases: Array<[string, RegExp]> = [
      ['password12', /too easy to guess\. This is a commonly used password\./],
      ['1234567890', /too easy to guess\. This is a frequently used password\./],
      ['aaaaaaaaaa', /too easy to guess\. Repeated characters like "aaa" are easy to guess\./],
      ['qwertyuiop', /too easy to guess\. This is a frequently used password\./],
      [email, /your email address/],
      [email.toUpperCase(), /your email address/],
    ];
    const users = (await t.server.services.store.all(USERS)).length;
    for (const [password, why] of cases) {
      const res = await t.call('/api/v1/auth/register', { email, password }, freshAddress());
      expect(res.status, password).toBe(400);
      expect(res.body.error!.code).toBe('VALIDATION_ERROR');
      expect(res.body.error!.message).toMatch(/^The password is too weak: /);
      expect(res.body.error!.details).toEqual([{ field: 'password', reason: expect.stringMatching(why) }]);
    }
    expect((await t.server.services.store.all(USERS)).length).toBe(users);
    // The user's own name is no password either.
    const named = await t.call(
      '/api/auth/register',
      { email: uniqueEmail('named'), password: 'Wilhelmina Oppenheimer', name: 'Wilhelmina Oppenheimer' },
      freshAddress(),
    );
    expect(named.status).toBe(400);
    expect(named.body.error!.details![0]!.field).toBe('password');
    // A strong one is accepted.
    const ok = await t.call('/api/auth/register', { email, password: PASSWORD }, freshAddress());
    expect(ok.status).toBe(202);
    const [user] = await t.server.services.store.findBy<UserRecord>(USERS, 'email', email);
    expect(user).toBeDefined();
  });

  it('refuses a weak new password on a password change, keeping the old one', async () => {
    const email = uniqueEmail('weak-change');
    const reg = await t.register(email);
    const headers = {
      cookie: sessionCookie(reg.headers['set-cookie'] as string[])!,
      'x-csrf-token': reg.body.data!.csrfToken as string,
    };
    const address = freshAddress();
    for (const weak of ['password12', '1234567890', 'aaaaaaaaaa', 'qwertyuiop', email]) {
      const res = await t.call(
        '/api/auth/password',
        { currentPassword: PASSWORD, newPassword: weak },
        address,
        headers,
      );
      expect(res.status, weak).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'newPassword', reason: expect.stringMatching(/too easy to guess|email address/) }],
      });
    }
    expect((await t.login(email, PASSWORD, freshAddress())).status).toBe(200);
    const strong = await t.call(
      '/api/auth/password',
      { currentPassword: PASSWORD, newPassword: 'violet lantern under quiet harbour' },
      address,
      headers,
    );
    expect(strong.status).toBe(200);
    expect((await t.login(email, 'violet lantern under quiet harbour', freshAddress())).status).toBe(200);
  });

  it('judges a long password by its first 64 characters', async () => {
    const email = uniqueEmail('long');
    // Weak at the start, however it continues: refused.
    const weakStart = await t.call(
      '/api/auth/register',
      { email, password: 'password'.repeat(8) + randomBytes(48).toString('base64') },
      freshAddress(),
    );
    expect(weakStart.status).toBe(400);
    // 256 random characters (the maximum): accepted.
    const strong = await t.call(
      '/api/auth/register',
      { email, password: randomBytes(192).toString('base64') },
      freshAddress(),
    );
    expect(strong.status).toBe(202);
  });
});
