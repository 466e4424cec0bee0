/**
 * Mail to an address the caller chooses: no one can have the service mail an address they do not hold again and
 * again (each path is counted, and past its limit answers 429 and queues nothing, or needs a confirmed address), and
 * no answer, nor its timing, tells whether the address has an account.
 */
import { gateTransactions } from '../support/store-gate.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { mailTo, registerUser, sessionHeaders, type TestSession, uniqueEmail } from '../support/session.js';

const clock = new FakeClock();
const PASSWORD = 'correct horse battery staple';
let server: TestServer;
/** Address change requests allowed per 15 minutes, per user and per new address (src/accounts/email-flows.ts). */
const PER_USER = 5;
const PER_NEW_EMAIL = 5;
/** Password reset requests allowed per 15 minutes for one email from all addresses together. */
const RESET_REQUESTS_PER_EMAIL = 10;

beforeAll(async () => {
  server = await startTestServer({ listen: false, clock, config: { publicUrl: 'https://svc.example' } });
});
afterAll(async () => {
  await server?.close();
});

const changeTo = async (user: TestSession, newEmail: string) => {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/email/change',
    headers: sessionHeaders(user),
    payload: { newEmail, currentPassword: PASSWORD },
  });
  return { status: res.statusCode, code: res.json().error?.code as string | undefined };
};

describe('asking for a password reset', () => {
  it('is counted per email from all addresses together: past the limit, 429 and nothing more mailed', async () => {
    // One address per request, as from the many /64 networks of one IPv6 allocation.
    const victim = await registerUser(server.app, { password: PASSWORD });
    const before = (await mailTo(server.app, victim.email, 'password-reset')).length;
    const ask = async (i: number) =>
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/auth/password/forgot',
          payload: { email: victim.email },
          remoteAddress: `2001:db8:${i.toString(16)}::1`,
        })
      ).statusCode;
    const answers = [];
    for (let i = 0; i <= RESET_REQUESTS_PER_EMAIL; i++) answers.push(await ask(i));
    expect(answers).toEqual([...Array(RESET_REQUESTS_PER_EMAIL).fill(202), 429]);
    await server.services.sessions.email.settled();
    expect((await mailTo(server.app, victim.email, 'password-reset')).length - before).toBe(RESET_REQUESTS_PER_EMAIL);
    // An address nobody registered is counted alike: the 429 tells nothing.
    const nobody = uniqueEmail('nobody');
    const free = [];
    for (let i = 0; i <= RESET_REQUESTS_PER_EMAIL; i++)
      free.push(
        (
          await server.app.inject({
            method: 'POST',
            url: '/api/auth/password/forgot',
            payload: { email: nobody },
            remoteAddress: `2001:db8:1${i.toString(16)}::1`,
          })
        ).statusCode,
      );
    expect(free).toEqual(answers);
  });
});

describe('asking to change the address', () => {
  it('is counted per user and per new address: past either limit, 429 and nothing mailed', async () => {
    const attacker = await registerUser(server.app, { password: PASSWORD });
    const victim = uniqueEmail('victim');
    const answers = [];
    for (let i = 0; i <= PER_USER; i++) answers.push((await changeTo(attacker, victim)).status);
    expect(answers).toEqual([...Array(PER_USER).fill(202), 429]);
    expect(await mailTo(server.app, victim, 'email-change-confirm')).toHaveLength(PER_USER);
    // The same user, to another address: refused too.
    expect(await changeTo(attacker, uniqueEmail('other'))).toEqual({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });

    // Another account, to the same address: refused while the window lasts.
    const second = await registerUser(server.app, { password: PASSWORD });
    expect(await changeTo(second, victim)).toEqual({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(await mailTo(server.app, victim, 'email-change-confirm')).toHaveLength(PER_USER);

    // The next window: a request goes again.
    clock.ms += 15 * 60_000;
    expect(await changeTo(second, victim)).toEqual({ status: 202, code: undefined });
  });

  it('answers before the new address is looked up: the same answer, taken or free', async () => {
    const user = await registerUser(server.app, { password: PASSWORD });
    const owner = await registerUser(server.app, { password: PASSWORD });
    const free = uniqueEmail('free');
    // Every store transaction waits at the gate: an answer that needed the lookup could not come back.
    const gate = gateTransactions(server.services.store);
    const ask = (newEmail: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/auth/email/change',
        headers: sessionHeaders(user),
        payload: { newEmail, currentPassword: PASSWORD },
      });
    try {
      const [taken, untaken] = [await ask(owner.email), await ask(free)];
      expect(gate.held()).toBe(2);
      expect([taken.statusCode, untaken.statusCode]).toEqual([202, 202]);
      const body = (raw: string) => raw.replace(/"requestId":"[^"]*"/g, '');
      expect(body(taken.body)).toBe(body(untaken.body));
    } finally {
      gate.open();
    }
    expect(await mailTo(server.app, owner.email, 'email-change-confirm')).toEqual([]);
    expect(await mailTo(server.app, free, 'email-change-confirm')).toHaveLength(1);
  });

  it('counts an address taken by another user like a free one, so a 429 tells nothing', async () => {
    const user = await registerUser(server.app, { password: PASSWORD });
    const owner = await registerUser(server.app, { password: PASSWORD });
    const answers = [];
    for (let i = 0; i <= PER_NEW_EMAIL; i++) answers.push((await changeTo(user, owner.email)).status);
    expect(answers).toEqual([...Array(PER_NEW_EMAIL).fill(202), 429]);
    expect(await mailTo(server.app, owner.email, 'email-change-confirm')).toEqual([]);
  });
});

describe('mailing heirs from a session whose address is not confirmed', () => {
  const plan = (email: string) => ({
    plan: {
      blockchain: 'evm',
      ownerAddress: `0x${'1'.repeat(40)}`,
      beneficiaries: [{ name: 'Ana', address: `0x${'2'.repeat(40)}`, percentage: 100, email }],
      deadMansSwitch: { enabled: true, intervalDays: 365 },
    },
  });
  const call = async (headers: Record<string, string>, method: 'POST', url: string, payload?: object) => {
    const res = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  it('is refused (403) until the address is confirmed: no invitation, no new code, nothing mailed', async () => {
    const squatter = await registerUser(server.app, { password: PASSWORD, verify: false });
    const stranger = uniqueEmail('stranger');
    const linked = await call(sessionHeaders(squatter), 'POST', '/api/v1/svcloom/heirs/plans', plan(stranger));
    expect({ status: linked.status, code: linked.body.error?.code }).toEqual({
      status: 403,
      code: 'EMAIL_NOT_VERIFIED',
    });

    // A plan the account's key linked: the session cannot have its code mailed again either.
    const key = await server.key({ ownerId: squatter.accountId, tier: 'public', scopes: ['chat'] });
    const byKey = await call({ authorization: `Bearer ${key}` }, 'POST', '/api/v1/svcloom/heirs/plans', plan(stranger));
    expect(byKey.status).toBe(201);
    expect(await mailTo(server.app, stranger, 'heir-invitation')).toHaveLength(1);
    const shareId = byKey.body.data.codes[0].shareId as string;
    const url = `/api/v1/svcloom/heirs/shares/${shareId}/code`;
    const again = await call(sessionHeaders(squatter), 'POST', url);
    expect({ status: again.status, code: again.body.error?.code }).toEqual({ status: 403, code: 'EMAIL_NOT_VERIFIED' });
    expect(await mailTo(server.app, stranger, 'heir-invitation')).toHaveLength(1);

    // A confirmed owner's session mails them.
    const owner = await registerUser(server.app, { password: PASSWORD });
    const heir = uniqueEmail('heir');
    expect((await call(sessionHeaders(owner), 'POST', '/api/v1/svcloom/heirs/plans', plan(heir))).status).toBe(201);
    expect(await mailTo(server.app, heir, 'heir-invitation')).toHaveLength(1);
  });
});

describe('the name in the To header', () => {
  it('is left out of mail to an address nobody has confirmed, and kept once it is confirmed', async () => {
    const spam = 'Claim your prize at spam.example';
    const stranger = uniqueEmail('stranger');
    const user = await registerUser(server.app, { email: stranger, password: PASSWORD, name: spam, verify: false });
    const [verify] = await mailTo(server.app, stranger, 'verify-email');
    expect(verify!.toName).toBeNull();

    // Registering the address again mails its holder a reset link: no name either while it is unconfirmed.
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: stranger, password: 'another fine passphrase', name: spam },
    });
    const [reset] = await mailTo(server.app, stranger, 'password-reset');
    expect(reset!.toName).toBeNull();

    // A new address being confirmed: no name.
    const next = uniqueEmail('next');
    await changeTo(user, next);
    expect((await mailTo(server.app, next, 'email-change-confirm'))[0]!.toName).toBeNull();

    // The confirmed user's own address: the name.
    const confirmed = await registerUser(server.app, { password: PASSWORD, name: 'Rose' });
    const changed = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: sessionHeaders(confirmed),
      payload: { currentPassword: PASSWORD, newPassword: 'the owner is back again' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await mailTo(server.app, confirmed.email, 'password-changed'))[0]!.toName).toBe('Rose');
  });
});
