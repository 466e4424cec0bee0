/**
 * The pages the account mails link to (GET /account/verify, /account/reset, /account/confirm): in each language
 * (Arabic right to left), the link's language or the browser's; under the heirs' page's strict policy; the same HTML
 * whatever the token, which never appears in it; and opening one changes nothing: the token is still unused after the
 * GET, and works afterwards with the API the page's button calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_PATHS } from '../../src/accounts/email-flows.js';
import { ACCOUNT_PAGE_CSP } from '../../src/http/account-page.js';
import { HEIR_PAGE_CSP } from '../../src/http/heir-page.js';
import { ACCOUNT_PAGE_KINDS, ACCOUNT_TEXTS, PAGE_LOCALES } from '../../src/mail/pages.js';
import { startTestServer, type TestServer } from '../helpers.js';
import {
  linkApi,
  linkToken,
  mailedLink,
  registerUser,
  sessionHeaders,
  signIn,
  uniqueEmail,
} from '../support/session.js';

const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const PASSWORD = 'correct horse battery staple';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

describe('the account pages', () => {
  it('are mailed instead of the API routes, in the language of the message', async () => {
    const email = uniqueEmail('links');
    await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': 'es' },
      payload: { email, password: PASSWORD },
    });
    const link = new URL(await mailedLink(server.app, email, 'verify-email'));
    expect(link.pathname).toBe(LINK_PATHS.verify);
    expect(link.searchParams.get('lang')).toBe('es');
    expect(LINK_PATHS).toEqual({ verify: '/account/verify', reset: '/account/reset', confirm: '/account/confirm' });
  });

  it('say what each link is for in each language, right to left in Arabic, under the strict policy', async () => {
    expect(ACCOUNT_PAGE_CSP).toBe(HEIR_PAGE_CSP);
    for (const kind of ACCOUNT_PAGE_KINDS) {
      for (const locale of PAGE_LOCALES) {
        const res = await get(`${LINK_PATHS[kind]}?token=emt_${'A'.repeat(43)}&lang=${locale}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.headers['content-language']).toBe(locale);
        expect(res.headers['content-security-policy']).toBe(HEIR_PAGE_CSP);
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['cache-control']).toBe('no-store');
        const t = ACCOUNT_TEXTS[locale];
        expect(res.body).toContain(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`);
        expect(res.body).toContain(`<main id="account-page" data-page="${kind}">`);
        expect(res.body).toContain(escaped(t.pages[kind].title));
        expect(res.body).toContain(escaped(t.pages[kind].intro));
        expect(res.body).toContain(escaped(t.pages[kind].button));
        expect(res.body).toContain('<form id="account-form" method="post" novalidate hidden>');
        expect(res.body.includes('id="new-password"')).toBe(kind === 'reset');
        const data = /<script type="application\/json" id="account-texts">(.*?)<\/script>/.exec(res.body);
        expect(JSON.parse(data![1]!)).toEqual(t.script);
        // Nothing but data and the pages' own script; no inline code or style, no outside address, no API route.
        const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
        expect(scripts).toEqual([
          ' type="application/json" id="account-texts"',
          expect.stringMatching(/^ src="\/account\/account\.js\?v=[A-Za-z0-9_-]{16}"$/),
        ]);
        expect(res.body).toMatch(/<link rel="stylesheet" href="\/heir\/heir\.css\?v=[A-Za-z0-9_-]{16}">/);
        expect(res.body).not.toMatch(/\son[a-z]+=|style=|https?:\/\/|action=|\/api\/|<input[^>]* value=/);
      }
    }
    // Without `lang`, the browser's language; an unknown one, English.
    const fr = await get(LINK_PATHS.reset, { 'accept-language': 'fr-CA, en;q=0.5' });
    expect(fr.body).toContain(escaped(ACCOUNT_TEXTS.fr.pages.reset.title));
    const xx = await get(`${LINK_PATHS.confirm}?lang=%3Cscript%3E`);
    expect(xx.body).toContain('<html lang="en"');
    expect(xx.body).not.toContain('%3Cscript');
  });

  it('serve their script and stylesheet, versioned, with the same headers', async () => {
    const page = await get(LINK_PATHS.verify);
    // The stylesheet is the heirs' page's (one plain look, one file).
    for (const [name, type, base] of [
      ['account.js', 'text/javascript', 'account'],
      ['heir.css', 'text/css', 'heir'],
    ] as const) {
      const url = new RegExp(`/${base}/${name.replace('.', '\\.')}\\?v=[A-Za-z0-9_-]+`).exec(page.body)![0];
      const file = await get(url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain(type);
      expect(file.headers['cache-control']).toContain('immutable');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toBe(HEIR_PAGE_CSP);
      expect((await get(url, { 'if-none-match': String(file.headers.etag) })).statusCode).toBe(304);
      if (name === 'account.js') {
        // The token is never logged or stored, nothing is written as HTML, no cookie goes with the calls.
        expect(file.body).not.toMatch(
          /console\.|localStorage|sessionStorage|innerHTML|outerHTML|insertAdjacentHTML|eval\(|document\.cookie/,
        );
        expect(file.body).toContain("credentials: 'omit'");
        for (const route of ['/api/v1/auth/email/verify', '/api/v1/auth/password/reset', '/api/v1/auth/email/confirm'])
          expect(file.body).toContain(route);
      }
    }
  });

  it('take no action on GET: the token is unused after opening the page, and not in its HTML', async () => {
    // Confirming an address.
    const email = uniqueEmail('verify');
    const user = await registerUser(server.app, { email, password: PASSWORD, verify: false });
    const verify = await mailedLink(server.app, email, 'verify-email');
    const token = linkToken(verify);
    const url = new URL(verify);
    const opened = await get(url.pathname + url.search);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).not.toContain(token);
    expect(opened.body).not.toContain(token.slice(4));
    // The same HTML for every token: nothing in it comes from the link but its language.
    expect(opened.body).toBe((await get(`${LINK_PATHS.verify}?token=emt_other&lang=en`)).body);
    const session = async () =>
      (await server.app.inject({ method: 'GET', url: '/api/auth/session', headers: sessionHeaders(user) })).json().data
        .user.emailVerified;
    expect(await session()).toBe(false);
    expect((await get(linkApi(verify))).statusCode).toBe(200);
    expect(await session()).toBe(true);

    // Resetting the password: opening the page keeps the old password and the link.
    await server.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } });
    await server.services.sessions.email.settled();
    const reset = await mailedLink(server.app, email, 'password-reset');
    const resetUrl = new URL(reset);
    expect(resetUrl.pathname).toBe(LINK_PATHS.reset);
    const resetPage = await get(resetUrl.pathname + resetUrl.search);
    expect(resetPage.statusCode).toBe(200);
    expect(resetPage.body).not.toContain(linkToken(reset).slice(4));
    await signIn(server.app, email, PASSWORD);
    const done = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/reset',
      payload: { token: linkToken(reset), newPassword: 'a brand new passphrase' },
    });
    expect(done.statusCode, done.body).toBe(200);

    // Confirming a change of address.
    const moved = await signIn(server.app, email, 'a brand new passphrase');
    const newEmail = uniqueEmail('moved');
    const change = await server.app.inject({
      method: 'POST',
      url: '/api/auth/email/change',
      headers: sessionHeaders(moved),
      payload: { newEmail, currentPassword: 'a brand new passphrase' },
    });
    expect(change.statusCode, change.body).toBe(202);
    const confirm = await mailedLink(server.app, newEmail, 'email-change-confirm');
    const confirmUrl = new URL(confirm);
    expect(confirmUrl.pathname).toBe(LINK_PATHS.confirm);
    const confirmPage = await get(confirmUrl.pathname + confirmUrl.search);
    expect(confirmPage.body).not.toContain(linkToken(confirm).slice(4));
    await signIn(server.app, email, 'a brand new passphrase');
    expect((await get(linkApi(confirm))).statusCode).toBe(200);
    await signIn(server.app, newEmail, 'a brand new passphrase');
  });
});
