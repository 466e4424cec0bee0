import Fastify, { type FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../../src/http/session-cookie.js';

describe('reading the session cookie', () => {
  it('finds it among other cookies, quoted or percent-encoded, the first one when sent twice', () => {
    expect(sessionToken({ cookie: 'a=1; svc_session=tok_1; b=2' })).toBe('tok_1');
    expect(sessionToken({ cookie: 'svc_session="tok_2"' })).toBe('tok_2');
    expect(sessionToken({ cookie: 'svc_session=a%2Fb' })).toBe('a/b');
    expect(sessionToken({ cookie: 'svc_session=%E0%A4%A' })).toBe('%E0%A4%A'); // not decodable: as sent
    expect(sessionToken({ cookie: 'svc_session=first;svc_session=second' })).toBe('first');
  });

  it('answers undefined without it, empty, or under a longer name', () => {
    expect(sessionToken({})).toBeUndefined();
    expect(sessionToken({ cookie: 'other=1' })).toBeUndefined();
    expect(sessionToken({ cookie: 'svc_session=' })).toBeUndefined();
    expect(sessionToken({ cookie: 'xsvc_session=tok' })).toBeUndefined();
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
    expect(await headerOf((r) => setSessionCookie(r, 't', expires, { secure: true }))).toMatch(
      /; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('clears it with a past expiry and no value', async () => {
    expect(await headerOf((r) => clearSessionCookie(r, { secure: false }))).toBe(
      'svc_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    );
  });
});
