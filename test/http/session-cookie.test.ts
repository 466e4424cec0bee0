import Fastify, { type FastifyReply } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { registerUser } from '../support/session.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../../src/http/session-cookie.js';

const HTTP = { secure: false };
const HTTPS = { secure: true };

describe('reading the session cookie', () => {
  it('finds it among other cookies, quoted or percent-encoded, the first one when sent twice', () => {
    expect(sessionToken({ cookie: 'a=1; svc_session=tok_1; b=2' }, HTTP)).toBe('tok_1');
    expect(sessionToken({ cookie: 'svc_session="tok_2"' }, HTTP)).toBe('tok_2');
    expect(sessionToken({ cookie: 'svc_session=a%2Fb' }, HTTP)).toBe('a/b');
    expect(sessionToken({ cookie: 'svc_session=%E0%A4%A' }, HTTP)).toBe('%E0%A4%A'); // not decodable: as sent
    expect(sessionToken({ cookie: 'svc_session=first;svc_session=second' }, HTTP)).toBe('first');
  });

  it('answers undefined without it, empty, or under a longer name', () => {
    expect(sessionToken({}, HTTP)).toBeUndefined();
    expect(sessionToken({ cookie: 'other=1' }, HTTP)).toBeUndefined();
    expect(sessionToken({ cookie: 'svc_session=' }, HTTP)).toBeUndefined();
    expect(sessionToken({ cookie: 'xsvc_session=tok' }, HTTP)).toBeUndefined();
  });

  it('over HTTPS reads only the __Host- cookie, which no other host of the domain can set', () => {
    expect(sessionToken({ cookie: 'a=1; __Host-svc_session=tok_1' }, HTTPS)).toBe('tok_1');
    expect(sessionToken({ cookie: 'svc_session=planted; __Host-svc_session=tok_2' }, HTTPS)).toBe('tok_2');
    expect(sessionToken({ cookie: 'svc_session=planted' }, HTTPS)).toBeUndefined();
    // And over plain HTTP the plain name alone.
    expect(sessionToken({ cookie: '__Host-svc_session=tok_3' }, HTTP)).toBeUndefined();
  });
});

describe('writing it', () => {
  async function headerOf(write: (reply: FastifyReply) => void) {
    const app = Fastify();
    app.get('/', async (_req, reply) => {
      write(reply);
      return {};
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    return res.headers['set-cookie'];
  }

  it('sets it HttpOnly, SameSite=Lax, for the whole site, until it expires; Secure only when asked', async () => {
    const expires = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    expect(await headerOf((r) => setSessionCookie(r, 'tok/1', expires, { secure: false }))).toBe(
      'svc_session=tok%2F1; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; SameSite=Lax',
    );
    // Over HTTPS: the __Host- name, which browsers accept only Secure, for Path=/ and without a Domain.
    expect(await headerOf((r) => setSessionCookie(r, 't', expires, { secure: true }))).toBe(
      '__Host-svc_session=t; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('clears it with a past expiry and no value', async () => {
    expect(await headerOf((r) => clearSessionCookie(r, { secure: false }))).toBe(
      'svc_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    );
    expect(await headerOf((r) => clearSessionCookie(r, { secure: true }))).toBe(
      '__Host-svc_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
  });
});

describe('a service whose public URL is HTTPS', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('signs in with the __Host- cookie and ignores a plain one another host of the domain could plant', async () => {
    server = await startTestServer({ listen: false, config: { publicUrl: 'https://svc.example' } });
    const user = await registerUser(server.app);
    expect(user.cookie).toMatch(/^__Host-svc_session=./);
    const token = user.cookie.slice('__Host-svc_session='.length);
    const session = (cookie: string) =>
      server!.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect((await session(`__Host-svc_session=${token}`)).statusCode).toBe(200);
    expect((await session(`svc_session=${token}`)).statusCode).toBe(401);
    // A planted plain cookie beside the real one changes nothing: the session is the __Host- cookie's.
    const both = await session(`svc_session=planted; __Host-svc_session=${token}`);
    expect(both.statusCode).toBe(200);
    expect(both.json().data.user.email).toBe(user.email);
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.headers['set-cookie']).toMatch(
      /^__Host-svc_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});
