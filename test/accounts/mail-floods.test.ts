/**
 * No one can have the service mail an address they do not hold again and again: each path that mails a chosen
 * address is counted, and past its limit answers 429 and queues nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { mailTo, registerUser, sessionHeaders, type TestSession, uniqueEmail } from '../support/session.js';

const clock = new FakeClock();
const PASSWORD = 'correct horse battery staple';
let server: TestServer;
/** Address change requests allowed per 15 minutes, per user and per new address (src/accounts/email-flows.ts). */
const PER_USER = 5;
const PER_NEW_EMAIL = 5;

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

  it('counts an address taken by another user like a free one, so a 429 tells nothing', async () => {
    const user = await registerUser(server.app, { password: PASSWORD });
    const owner = await registerUser(server.app, { password: PASSWORD });
    const answers = [];
    for (let i = 0; i <= PER_NEW_EMAIL; i++) answers.push((await changeTo(user, owner.email)).status);
    expect(answers).toEqual([...Array(PER_NEW_EMAIL).fill(202), 429]);
    expect(await mailTo(server.app, owner.email, 'email-change-confirm')).toEqual([]);
  });
});
