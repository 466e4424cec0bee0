/**
 * The heirs' page (GET /heir) in Chromium, as an heir meets it: the invitation's link opens it; they create an account
 * with the invited address, confirm it with the mailed link, sign in, claim the code their invitation carried and see
 * the share listed as waiting, then see when it opens once the owner's switch fires, and read it once it has opened.
 * A code that is not one is answered in words; a user who has not confirmed their address is told so in their
 * language (Arabic, right to left). The code never appears in a web address, storage or the console, and the page's
 * policy is never broken. The address is confirmed on the page the mailed link opens (/account/verify), by its button;
 * and a person who forgot their password chooses a new one on the reset link's page (/account/reset), in Spanish.
 * Registering from the page asks for mail in the page's language (French).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { ACCOUNT_TEXTS, HEIR_TEXTS } from '../../src/mail/pages.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../embed/support.js';
import { startTestServer, type TestServer } from '../helpers.js';
import {
  linkApi,
  mailedLink,
  mailTo,
  registerUser,
  sessionHeaders,
  uniqueEmail,
  type TestSession,
} from '../support/session.js';

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const PASSWORD = 'violet lantern under quiet harbour';

let server: TestServer;
let browser: Browser;
let owner: TestSession;
let watcher: string;

beforeAll(async () => {
  requireChromium();
  server = await startTestServer({
    clock,
    config: { sessions: { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 } },
  });
  owner = await registerUser(server.app, { name: 'Rose' });
  watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Links a plan naming one heir with `email`, and answers the plan and the invitation's code and link. */
async function invite(email: string): Promise<{ planId: string; code: string; link: string }> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/heirs/plans',
    headers: sessionHeaders(owner),
    payload: {
      label: 'Family estate',
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [{ name: 'Ana', address: EVM(2), percentage: 100, email }],
        deadMansSwitch: { enabled: true, intervalDays: 90 },
      },
      heirAccess: { enabled: true },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const [mail] = await mailTo(server.app, email, 'heir-invitation');
  return { planId: res.json().data.plan.id, code: mail!.data!.claimCode!, link: mail!.data!.claimLink! };
}

/** A fresh page that records what would betray a code or break the policy. */
async function openPage(): Promise<{ page: Page; urls: string[]; console: string[] }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  const page = await context.newPage();
  const urls: string[] = [];
  const console: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('console', (m) => console.push(m.text()));
  page.on('pageerror', (e) => console.push(`pageerror: ${e.message}`));
  return { page, urls, console };
}

/** Whether the user of `email` has confirmed their address, read from the store. */
async function isConfirmed(email: string): Promise<boolean> {
  const users = await server.services.store.all<{ id: string; email: string; emailVerified?: boolean }>('users');
  return users.find((u) => u.email === email)?.emailVerified !== false;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent()) ?? '';

describe("the heirs' page in a browser", () => {
  it('takes an heir from the invitation to their share: register, confirm, sign in, claim, wait, read', async () => {
    const en = HEIR_TEXTS.en;
    const heirEmail = uniqueEmail('ana');
    const { planId, code, link } = await invite(heirEmail);
    expect(link).toBe('/heir?about=invitation&lang=en');
    const { page, urls, console } = await openPage();
    await page.goto(`${server.url}${link}`);
    expect(await page.locator('h1').textContent()).toBe(en.title);
    await page.locator('#account').waitFor({ state: 'visible' });
    expect(await page.locator('#signed-in').isVisible()).toBe(false);
    expect(await axeViolations(page.mainFrame())).toEqual([]);

    // A weak password is refused in words, with the reason.
    await page.fill('#register-name', 'Ana');
    await page.fill('#register-email', heirEmail);
    await page.fill('#register-password', 'password12');
    await page.click('#register-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('register-message')?.classList.contains('error'));
    expect(await text(page, '#register-message')).toMatch(/^Please check what you typed: Password: too easy to guess/);

    await page.fill('#register-password', PASSWORD);
    await page.click('#register-form button[type=submit]');
    const registered = en.script.registered.replace('{email}', heirEmail);
    await page.waitForFunction((t) => document.getElementById('register-message')?.textContent === t, registered);
    expect(await page.locator('#register-message').getAttribute('class')).toBe('message');
    expect(await page.inputValue('#login-email')).toBe(heirEmail);
    // The mail asks for English (the page's language).
    const [verifyMail] = await mailTo(server.app, heirEmail, 'verify-email');
    expect(verifyMail!.locale).toBe('en');

    // The heir opens the link mailed to them: a page in the message's language, whose button confirms the address.
    const verify = new URL(await mailedLink(server.app, heirEmail, 'verify-email'));
    expect(verify.pathname).toBe('/account/verify');
    const confirm = await browser.newPage();
    const confirmUrls: string[] = [];
    const confirmConsole: string[] = [];
    confirm.on('request', (r) => confirmUrls.push(r.url()));
    confirm.on('console', (m) => confirmConsole.push(m.text()));
    confirm.on('pageerror', (e) => confirmConsole.push(`pageerror: ${e.message}`));
    const opened = await confirm.goto(`${server.url}${verify.pathname}${verify.search}`);
    expect(opened!.status()).toBe(200);
    expect(await confirm.locator('h1').textContent()).toBe(ACCOUNT_TEXTS.en.pages.verify.title);
    await confirm.locator('#account-form').waitFor({ state: 'visible' });
    expect(await axeViolations(confirm.mainFrame())).toEqual([]);
    // Opening the page confirmed nothing: the address waits for the button.
    expect(await isConfirmed(heirEmail)).toBe(false);
    await confirm.click('#account-form button[type=submit]');
    await confirm.waitForFunction(
      (t) => document.getElementById('account-message')?.textContent === t,
      ACCOUNT_TEXTS.en.script.done.verify,
    );
    expect(await confirm.locator('#account-form').isVisible()).toBe(false);
    expect(await isConfirmed(heirEmail)).toBe(true);
    // The link is spent: opened again, the page says so and how to get a new one.
    await confirm.reload();
    await confirm.click('#account-form button[type=submit]');
    await confirm.waitForFunction(
      (t) => document.getElementById('account-message')?.textContent === t,
      ACCOUNT_TEXTS.en.script.gone.verify,
    );
    expect(await confirm.locator('#account-message').getAttribute('role')).toBe('alert');
    const token = verify.searchParams.get('token')!;
    expect(confirmUrls.filter((u) => u.includes(token.slice(4))).map((u) => new URL(u).pathname)).toEqual([
      '/account/verify',
      '/api/v1/auth/email/verify',
      '/account/verify',
      '/api/v1/auth/email/verify',
    ]);
    expect(confirmConsole.join('\n')).not.toContain(token.slice(4));
    expect(confirmConsole.filter((m) => /Content Security Policy|pageerror/i.test(m))).toEqual([]);
    expect(
      await confirm.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
    ).toBe('{}{}');
    await confirm.close();

    await page.fill('#login-password', 'not the password at all');
    await page.click('#login-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('login-message')?.classList.contains('error'));
    expect(await text(page, '#login-message')).toBe(en.script.errors.login);
    await page.fill('#login-password', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.locator('#signed-in').waitFor({ state: 'visible' });
    expect(await page.locator('#account').isVisible()).toBe(false);
    expect(await text(page, '#who')).toBe(en.script.signedInAs.replace('{email}', heirEmail));
    expect(await page.locator('#verify').isVisible()).toBe(false);
    await page.waitForFunction((t) => document.getElementById('shares-message')?.textContent === t, en.script.noShares);

    // Codes that are not one, in words.
    const claim = async (value: string) => {
      await page.evaluate(() => {
        document.getElementById('claim-message')!.textContent = '';
      });
      await page.fill('#claim-code', value);
      await page.click('#claim-form button[type=submit]');
      await page.waitForFunction(() => {
        const t = document.getElementById('claim-message')?.textContent ?? '';
        return t !== '' && !t.endsWith('…');
      });
      return text(page, '#claim-message');
    };
    expect(await claim('shc_not-a-code')).toBe(en.script.errors.badCode);
    expect(await page.locator('#claim-message').getAttribute('role')).toBe('alert');
    expect(await claim(`shc_${'A'.repeat(43)}`)).toBe(en.script.errors.unknownCode);
    expect(await claim('   ')).toBe(en.script.errors.emptyCode);

    // The real code, pasted with a line break in it as a mail reader may copy it.
    const done = await claim(`${code.slice(0, 20)}\n${code.slice(20)} `);
    const [before, after] = en.script.claimed.split('{title}') as [string, string];
    expect(done.startsWith(before) && done.endsWith(after)).toBe(true);
    // The share's title is its memoir's name, written as text.
    const title = done.slice(before.length, done.length - after.length);
    expect(title.length).toBeGreaterThan(0);
    expect(await page.inputValue('#claim-code')).toBe('');
    await page.waitForFunction(() => document.querySelectorAll('#shares > li').length === 1);
    expect(await page.locator('#shares > li').getAttribute('data-state')).toBe('pending');
    expect(await text(page, '#shares > li .state')).toBe(en.script.states.pending);
    expect(await text(page, '#shares > li .title')).toBe(title);
    expect(await page.locator('#shares a').count()).toBe(0);

    // The owner leaves a letter for Ana in a vault linked to the plan.
    const ownerCall = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await server.app.inject({ method, url, headers: sessionHeaders(owner), payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data;
    };
    const vault = await ownerCall('POST', '/api/v1/vaults', { name: 'Papers' });
    await ownerCall('POST', `/api/v1/vaults/${vault.id}/items`, {
      title: 'A letter <for> Ana',
      text: 'Dear Ana, the keys are with Marta.',
      heirs: [EVM(2)],
    });
    await ownerCall('PUT', `/api/v1/vaults/${vault.id}/plan`, { planId });

    // The owner's switch fires: the share waits, and the page says when it opens.
    const fired = await server.app.inject({
      method: 'POST',
      url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
      headers: { authorization: `Bearer ${watcher}` },
      payload: { type: 'deadman.triggered' },
    });
    expect(fired.statusCode, fired.body).toBe(200);
    await page.click('#refresh');
    await page.waitForFunction(() => document.querySelector('#shares > li')?.getAttribute('data-state') === 'waiting');
    const waiting = await text(page, '#shares > li .state');
    expect(waiting).toMatch(/^Waiting: it opens on .+\d.+\.$/);
    expect(waiting).not.toContain('{date}');

    // The waiting period passes with no sign of life: the share opens, with the links to read it.
    offset += 8 * DAY;
    expect(await completeDueVerifications(server.services.store, clock)).toBe(1);
    await page.click('#refresh');
    // The list is busy until each open share's links are in (the vault's items come in a second request).
    await page.waitForFunction(
      () =>
        document.querySelector('#shares > li')?.getAttribute('data-state') === 'open' &&
        document.getElementById('shares')?.getAttribute('aria-busy') === 'false',
    );
    expect(await text(page, '#shares > li .state')).toMatch(/^Open until .+: you can read it now\.$/);
    const links = await page.$$eval('#shares a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(await page.locator('#shares .error').count()).toBe(0);
    expect(await axeViolations(page.mainFrame())).toEqual([]);
    expect(links.map((l) => l[0])).toEqual([en.script.bookPdf, en.script.bookText, 'A letter <for> Ana']);
    expect(await text(page, '#shares > li')).toContain(en.script.itemsTitle);
    const shareId = /\/shared\/(shr_[0-9A-Z]+)\/export/.exec(links[0]![1]!)![1]!;
    expect(links.map((l) => l[1])).toEqual([
      `/api/v1/svcloom/shared/${shareId}/export?format=pdf`,
      `/api/v1/svcloom/shared/${shareId}/export?format=md`,
      expect.stringMatching(new RegExp(`^/api/v1/vaults/shared/${shareId}/items/vit_[0-9A-Z]+/download$`)),
    ]);
    // The links read the book and the letter with the heir's session.
    const [book] = await Promise.all([page.waitForEvent('download'), page.click('#shares a >> nth=1')]);
    expect(book.suggestedFilename()).toMatch(/^memoir-\d{4}-\d{2}-\d{2}\.md$/);
    const letter = await page.evaluate(
      async (href) => (await fetch(href!, { credentials: 'same-origin' })).text(),
      links[2]![1],
    );
    expect(letter).toBe('Dear Ana, the keys are with Marta.');

    // The code never left the page but in the claim's body.
    expect(page.url()).toBe(`${server.url}${link}`);
    for (const u of urls) expect(u).not.toContain(code.slice(4));
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe(
      '{}{}',
    );
    expect(console.join('\n')).not.toContain(code.slice(4));
    expect(console.filter((m) => /Content Security Policy|pageerror/i.test(m))).toEqual([]);
    expect(urls.every((u) => u.startsWith(server.url))).toBe(true);

    // Signing out shows the forms again.
    await page.click('#sign-out');
    await page.locator('#account').waitFor({ state: 'visible' });
    await page.context().close();
  });

  it('tells an heir who has not confirmed their address, in Arabic, right to left', async () => {
    const ar = HEIR_TEXTS.ar;
    const heirEmail = uniqueEmail('luz');
    const { code } = await invite(heirEmail);
    await registerUser(server.app, { email: heirEmail, password: PASSWORD, verify: false });
    const { page, console } = await openPage();
    await page.goto(`${server.url}/heir?about=invitation&lang=ar`);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.locator('#account').waitFor({ state: 'visible' });
    await page.fill('#login-email', heirEmail);
    await page.fill('#login-password', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.locator('#signed-in').waitFor({ state: 'visible' });
    expect(await page.locator('#verify').isVisible()).toBe(true);
    expect(await text(page, '#verify-text')).toBe(ar.script.notVerified.replace('{email}', heirEmail));
    await page.fill('#claim-code', code);
    await page.click('#claim-form button[type=submit]');
    await page.waitForFunction(
      (t) => document.getElementById('claim-message')?.textContent === t,
      ar.script.errors.notVerified,
    );
    await page.click('#check-again');
    await page.waitForFunction(
      (t) => document.getElementById('verify-message')?.textContent === t,
      ar.script.stillNotVerified,
    );
    // Confirmed, the same page lets the claim through.
    const verify = new URL(await mailedLink(server.app, heirEmail, 'verify-email'));
    expect((await server.app.inject({ method: 'GET', url: linkApi(verify.href) })).statusCode).toBe(200);
    await page.click('#check-again');
    await page.locator('#verify').waitFor({ state: 'hidden' });
    await page.fill('#claim-code', code);
    await page.click('#claim-form button[type=submit]');
    const [before, after] = ar.script.claimed.split('{title}') as [string, string];
    await page.waitForFunction(
      ([b, a]) => {
        const t = document.getElementById('claim-message')?.textContent ?? '';
        return t.startsWith(b!) && t.endsWith(a!);
      },
      [before, after],
    );
    await page.waitForFunction(() => document.querySelectorAll('#shares > li').length === 1);
    expect(await text(page, '#shares > li .state')).toBe(ar.script.states.pending);
    expect(await axeViolations(page.mainFrame())).toEqual([]);
    expect(console.filter((m) => /Content Security Policy|pageerror/i.test(m))).toEqual([]);
    await page.context().close();
  });
  it('asks for mail in the language of the page it registers from, French included', async () => {
    const fr = HEIR_TEXTS.fr.script;
    const heirEmail = uniqueEmail('lea');
    await invite(heirEmail);
    const { page, console } = await openPage();
    await page.goto(`${server.url}/heir?about=invitation&lang=fr`);
    await page.locator('#account').waitFor({ state: 'visible' });
    await page.fill('#register-email', heirEmail);
    await page.fill('#register-password', PASSWORD);
    await page.click('#register-form button[type=submit]');
    await page.waitForFunction(
      (t) => document.getElementById('register-message')?.textContent === t,
      fr.registered.replace('{email}', heirEmail),
    );
    const [verifyMail] = await mailTo(server.app, heirEmail, 'verify-email');
    expect(verifyMail!.locale).toBe('fr');
    expect(new URL(verifyMail!.data!.link!).searchParams.get('lang')).toBe('fr');
    expect(console.filter((m) => /Content Security Policy|pageerror/i.test(m))).toEqual([]);
    await page.context().close();
  });

  it('lets a person who forgot their password choose a new one from the mailed link, in Spanish', async () => {
    const es = ACCOUNT_TEXTS.es;
    const user = await registerUser(server.app, { password: PASSWORD });
    const { page, urls, console } = await openPage();
    // "Forgot your password?" on the heirs' page, where one signs in: first with no address, then with it.
    await page.goto(`${server.url}/heir?lang=es`);
    await page.locator('#account').waitFor({ state: 'visible' });
    const heirEs = HEIR_TEXTS.es.script;
    await page.click('#forgot-button');
    await page.waitForFunction(() => (document.getElementById('login-message')?.textContent ?? '') !== '');
    expect(await text(page, '#login-message')).toBe(heirEs.forgotEmail);
    await page.fill('#login-email', user.email);
    await page.click('#forgot-button');
    await page.waitForFunction(
      (sent) => document.getElementById('login-message')?.textContent === sent,
      heirEs.forgotSent,
    );
    await server.services.sessions.email.settled();
    const link = new URL(await mailedLink(server.app, user.email, 'password-reset'));
    expect(link.pathname).toBe('/account/reset');
    const token = link.searchParams.get('token')!;
    link.searchParams.set('lang', 'es');
    await page.goto(`${server.url}${link.pathname}${link.search}`);
    expect(await page.locator('h1').textContent()).toBe(es.pages.reset.title);
    await page.locator('#account-form').waitFor({ state: 'visible' });
    expect(await axeViolations(page.mainFrame())).toEqual([]);
    const submit = async () => {
      await page.evaluate(() => {
        document.getElementById('account-message')!.textContent = '';
      });
      await page.click('#account-form button[type=submit]');
      await page.waitForFunction(() => {
        const t = document.getElementById('account-message')?.textContent ?? '';
        return t !== '' && !t.endsWith('…');
      });
      return text(page, '#account-message');
    };
    expect(await submit()).toBe(es.script.emptyPassword);
    await page.fill('#new-password', 'a brand new passphrase');
    await page.fill('#repeat-password', 'a brand new passphrase!');
    expect(await submit()).toBe(es.script.mismatch);
    // A weak password is refused with its reason; the link still works.
    await page.fill('#new-password', 'password123');
    await page.fill('#repeat-password', 'password123');
    const weak = await submit();
    expect(weak.startsWith(`${es.script.errors.check} ${es.script.errors.fields.newPassword}: `)).toBe(true);
    expect(weak.length).toBeGreaterThan(`${es.script.errors.check} ${es.script.errors.fields.newPassword}: `.length);
    expect(await page.locator('#account-message').getAttribute('role')).toBe('alert');
    await page.fill('#new-password', 'a brand new passphrase');
    await page.fill('#repeat-password', 'a brand new passphrase');
    expect(await submit()).toBe(es.script.done.reset);
    expect(await page.locator('#account-form').isVisible()).toBe(false);
    expect(await axeViolations(page.mainFrame())).toEqual([]);
    const login = (password: string) =>
      server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect((await login(PASSWORD)).statusCode).toBe(401);
    expect((await login('a brand new passphrase')).statusCode).toBe(200);
    // Used once, the link is refused in words, with how to get a new one.
    await page.reload();
    await page.fill('#new-password', 'yet another passphrase');
    await page.fill('#repeat-password', 'yet another passphrase');
    expect(await submit()).toBe(es.script.gone.reset);
    // The token went only to the page's address and the reset's body; never to storage or the console.
    expect(urls.filter((u) => u.includes(token.slice(4))).map((u) => new URL(u).pathname)).toEqual([
      '/account/reset',
      '/account/reset',
    ]);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe(
      '{}{}',
    );
    expect(console.join('\n')).not.toContain(token.slice(4));
    expect(console.filter((m) => /Content Security Policy|pageerror/i.test(m))).toEqual([]);
    await page.context().close();
  });
});
