/**
 * The pages mail links open, in the reader's language (English, Arabic right to left, Spanish, French): the owner's
 * check-in page (the profile's language, else Accept-Language) whose POST still checks in, and the heirs' guide
 * (GET /heir), which names no plan and no person with or without a session and takes no code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LOCALES } from '../../src/events/mail.js';
import { HEIR_PAGE_CSP } from '../../src/http/heir-page.js';
import { ACCOUNT_TEXTS } from '../../src/mail/account-texts.js';
import { CHECK_IN_TEXTS, HEIR_TEXTS, PAGE_LOCALES, pageLocale } from '../../src/mail/pages.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { mailTo, registerUser, sessionHeaders, uniqueEmail, type TestSession } from '../support/session.js';

const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

let server: TestServer;
let owner: TestSession;
let watcher: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  owner = await registerUser(server.app, { name: 'Rose' });
  watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
});
afterAll(async () => server?.close());

const setProfileLocale = async (locale: string | undefined) => {
  const user = (await server.services.store.get<Record<string, unknown> & { id: string }>('users', owner.userId))!;
  const { locale: _old, ...rest } = user;
  await server.services.store.put('users', locale ? { ...rest, locale } : rest);
};

/**
 * Links a plan named `label` (heirs' access on unless `heirAccess` is false), reports its trigger, and answers the
 * check-in path mailed to the owner.
 */
async function checkInPath(label: string, heirAccess = true): Promise<{ path: string; planId: string }> {
  const linked = await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/heirs/plans',
    headers: sessionHeaders(owner),
    payload: {
      label,
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [{ name: 'Ana', address: EVM(2), percentage: 100 }],
        deadMansSwitch: { enabled: true, intervalDays: 90 },
      },
      heirAccess: { enabled: heirAccess },
    },
  });
  expect(linked.statusCode).toBe(201);
  const planId = linked.json().data.plan.id as string;
  const fired = await server.app.inject({
    method: 'POST',
    url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
    headers: { authorization: `Bearer ${watcher}` },
    payload: { type: 'deadman.triggered' },
  });
  expect(fired.statusCode).toBe(200);
  const path = (await mailTo(server.app, owner.email, 'verification-started')).at(-1)!.data!.cancelLink!;
  expect(path).toMatch(/^\/api\/v1\/mail\/check-in\?token=/);
  return { path, planId };
}

describe('page language', () => {
  it('takes the preferred locale when it is ours, else the best of Accept-Language, else English', () => {
    expect(pageLocale('ar', 'fr')).toBe('ar');
    expect(pageLocale(undefined, 'de-DE, fr-CA;q=0.8, es;q=0.9')).toBe('es');
    expect(pageLocale('xx', 'fr-FR;q=0.5, de')).toBe('fr');
    expect(pageLocale(undefined, 'de, ja')).toBe('en');
    expect(pageLocale(undefined, undefined)).toBe('en');
  });
});

describe('the check-in page', () => {
  it("is in the profile's language, else the browser's, and its POST checks in", async () => {
    const { path, planId } = await checkInPath('Casa "Sol" <b>');
    for (const locale of ['en', 'ar', 'es', 'fr'] as const) {
      await setProfileLocale(locale);
      // The profile wins over the browser.
      const browser = locale === 'fr' ? 'es' : 'fr';
      const res = await server.app.inject({ method: 'GET', url: path, headers: { 'accept-language': browser } });
      expect(res.statusCode).toBe(200);
      const t = CHECK_IN_TEXTS[locale];
      expect(res.body).toContain(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`);
      expect(res.body).toContain(`<title>${escaped(t.askTitle)}</title>`);
      expect(res.body).toContain(t.ask('Casa &quot;Sol&quot; &lt;b&gt;'));
      expect(res.body).toContain(`<button type="submit">${escaped(t.button)}</button>`);
      expect(res.body).not.toContain('<b>');
      expect(res.headers['content-language']).toBe(locale);
    }
    // A user record without a language (older accounts): the browser's, French included.
    await setProfileLocale(undefined);
    const fr = await server.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(fr.body).toContain('<html lang="fr" dir="ltr">');
    expect(fr.body).toContain(CHECK_IN_TEXTS.fr.ask('Casa &quot;Sol&quot; &lt;b&gt;'));
    // Nothing changed by looking.
    expect((await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!.state).toBe('verifying');

    // The POST, in Arabic: checked in, the verification failed, the page right to left.
    await setProfileLocale('ar');
    const post = await server.app.inject({ method: 'POST', url: path });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('<html lang="ar" dir="rtl">');
    expect(post.body).toContain(CHECK_IN_TEXTS.ar.done('Casa &quot;Sol&quot; &lt;b&gt;'));
    expect(await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId)).toMatchObject({
      state: 'armed',
      verification: { state: 'failed', failedBy: 'check-in' },
    });
    expect((await server.app.inject({ method: 'POST', url: path })).statusCode).toBe(410);
    await setProfileLocale('en');
  });

  it('says that a plan watched on chain needs a check-in on its contract: this one does not move its deadline', async () => {
    // The link was mailed before the plan's deployment was registered; since then the chain decides.
    const { path, planId } = await checkInPath('Chain');
    const plan = (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    await server.services.store.put(MEMOIR_HEIR_PLANS, {
      ...plan,
      watched: true,
      state: 'armed',
      verification: { ...plan.verification!, state: 'failed', failedBy: 'watched' },
    });
    for (const locale of ['en', 'fr'] as const) {
      const again = locale === 'en' ? path : (await checkInPath('Chain')).path;
      if (locale === 'fr') {
        const other = (
          await server.services.store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', owner.accountId)
        )
          .filter((p) => p.label === 'Chain' && p.id !== planId)
          .at(-1)!;
        await server.services.store.put(MEMOIR_HEIR_PLANS, { ...other, watched: true });
      }
      await setProfileLocale(locale);
      const post = await server.app.inject({ method: 'POST', url: again });
      expect(post.statusCode).toBe(200);
      expect(post.body).toContain(CHECK_IN_TEXTS[locale].watched('Chain'));
      expect(post.body).not.toContain(CHECK_IN_TEXTS[locale].done('Chain'));
    }
    await setProfileLocale('en');
  });

  it('checked in after the waiting period with nothing released, arms the plan again: turning access on opens nothing', async () => {
    const { path, planId } = await checkInPath('Quiet', false);
    // The waiting period ends before the owner opens the link.
    const plan = (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    const past = new Date(Date.now() - 60_000).toISOString();
    await server.services.store.put(MEMOIR_HEIR_PLANS, {
      ...plan,
      verification: { ...plan.verification!, endsAt: past },
    });
    const post = await server.app.inject({ method: 'POST', url: path });
    expect(post.statusCode).toBe(200);
    // Nothing reached an heir: the owner is told the check-in is recorded, not that shares are open.
    expect(post.body).toContain(CHECK_IN_TEXTS.en.done('Quiet'));
    expect(post.body).not.toContain(CHECK_IN_TEXTS.en.late);
    const after = (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    expect({ state: after.state, triggeredAt: after.triggeredAt, last: after.lastEvent?.type }).toEqual({
      state: 'armed',
      triggeredAt: null,
      last: 'deadman.reset',
    });
    // Turning heirs' access on now opens nothing: the plan waits for its next trigger.
    const on = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/svcloom/heirs/plans/${planId}`,
      headers: sessionHeaders(owner),
      payload: { heirAccess: { enabled: true } },
    });
    expect(on.statusCode).toBe(200);
    const shares = (
      await server.app.inject({
        method: 'GET',
        url: `/api/v1/svcloom/heirs/shares?planId=${planId}`,
        headers: sessionHeaders(owner),
      })
    ).json().data as Array<{ state: string }>;
    expect(shares.length).toBeGreaterThan(0);
    expect(shares.every((s) => s.state === 'pending')).toBe(true);
  });

  it('POST in Spanish and French (from the browser) checks in too', async () => {
    await setProfileLocale('es');
    const es = await checkInPath('Campo');
    const esPost = await server.app.inject({ method: 'POST', url: es.path });
    expect(esPost.body).toContain(`<title>${CHECK_IN_TEXTS.es.doneTitle}</title>`);
    expect(esPost.body).toContain(CHECK_IN_TEXTS.es.done('Campo'));
    await setProfileLocale(undefined);
    const fr = await checkInPath('Maison');
    const frPost = await server.app.inject({ method: 'POST', url: fr.path, headers: { 'accept-language': 'fr' } });
    expect(frPost.body).toContain(CHECK_IN_TEXTS.fr.done('Maison'));
    for (const { planId } of [es, fr])
      expect((await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!.state).toBe('armed');
    await setProfileLocale('en');
  });
});

describe("the heirs' page", () => {
  it('explains each message in each language, right to left in Arabic', async () => {
    for (const locale of PAGE_LOCALES) {
      for (const about of ['invitation', 'new-code', 'share-opened'] as const) {
        const res = await server.app.inject({ method: 'GET', url: `/heir?about=${about}&lang=${locale}` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/html');
        const t = HEIR_TEXTS[locale];
        expect(res.body).toContain(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`);
        expect(res.body).toContain(escaped(t.title));
        expect(res.body).toContain(escaped(t.about[about]));
        for (const step of t.steps) expect(res.body).toContain(escaped(step));
        // The steps are forms now, in plain words: no API route, method, JSON or tool name is left for the heir.
        expect(res.body).not.toMatch(/POST |GET \/api|\/api\/auth|svcloom|\{"code"|claim_memoir_share/);
        for (const form of ['register-form', 'login-form', 'claim-form'])
          expect(res.body).toContain(`<form id="${form}" method="post"`);
        expect(res.body).toContain(escaped(t.form.registerButton));
        expect(res.body).toContain(escaped(t.form.claimButton));
        expect(res.body).toContain(`<button type="button" id="forgot-button">${escaped(t.form.forgotButton)}</button>`);
        // The words the script shows are the page's language, as data it reads (never run).
        const data = /<script type="application\/json" id="heir-texts">(.*?)<\/script>/.exec(res.body);
        expect(JSON.parse(data![1]!)).toEqual(t.script);
        expect(res.headers['content-security-policy']).toBe(HEIR_PAGE_CSP);
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['x-frame-options']).toBe('DENY');
        for (const other of (['invitation', 'new-code', 'share-opened'] as const).filter((o) => o !== about))
          expect(res.body).not.toContain(escaped(t.about[other]));
      }
    }
    // Without `lang`, the browser's language; an unknown one, English.
    const es = await server.app.inject({ method: 'GET', url: '/heir', headers: { 'accept-language': 'es-MX' } });
    expect(es.body).toContain(escaped(HEIR_TEXTS.es.about.none));
    const unknown = await server.app.inject({ method: 'GET', url: '/heir?lang=xx&about=%3Cscript%3E' });
    expect(unknown.body).toContain('<html lang="en"');
    expect(unknown.body).not.toContain('<script>');
    expect(unknown.body).not.toContain('%3Cscript');
  });

  it('runs only its own script and stylesheet, under a strict policy', async () => {
    expect(HEIR_PAGE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const res = await server.app.inject({ method: 'GET', url: '/heir?about=invitation&lang=fr' });
    // Every script is either data or the page's own file; no inline code, handler, style or outside address.
    const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toBe(' type="application/json" id="heir-texts"');
    expect(scripts[1]).toMatch(/^ src="\/heir\/heir\.js\?v=[A-Za-z0-9_-]{16}"$/);
    expect(res.body).toMatch(/<link rel="stylesheet" href="\/heir\/heir\.css\?v=[A-Za-z0-9_-]{16}">/);
    expect(res.body).not.toMatch(/\son[a-z]+=|style=|https?:\/\//);
    for (const [name, type] of [
      ['heir.js', 'text/javascript'],
      ['heir.css', 'text/css'],
    ] as const) {
      const url = new RegExp(`/heir/${name.replace('.', '\\.')}\\?v=[A-Za-z0-9_-]+`).exec(res.body)![0];
      const file = await server.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain(type);
      expect(file.headers['cache-control']).toContain('immutable');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      const again = await server.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': String(file.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      if (name === 'heir.js') {
        // The code is never logged or stored, and nothing is written into the page as HTML.
        expect(file.body).not.toMatch(
          /console\.|localStorage|sessionStorage|innerHTML|outerHTML|insertAdjacentHTML|eval\(/,
        );
        expect(file.body).toContain("'x-csrf-token'");
        // Its copy of the mail languages (a browser script imports nothing) is the service's list.
        const copy = /const MAIL_LOCALES = (\[[^\]]*\]);/.exec(file.body)?.[1];
        expect(JSON.parse(String(copy).replaceAll("'", '"'))).toEqual([...MAIL_LOCALES]);
      }
    }
  });

  it('is the same page with or without a session: it names no plan, person or code, and takes none', async () => {
    const heirEmail = uniqueEmail('ana');
    const linked = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/heirs/plans',
      headers: sessionHeaders(owner),
      payload: {
        label: 'Secret estate',
        plan: {
          blockchain: 'evm',
          ownerAddress: EVM(1),
          beneficiaries: [{ name: 'Ana', address: EVM(2), percentage: 100, email: heirEmail }],
          deadMansSwitch: { enabled: true, intervalDays: 90 },
        },
        heirAccess: { enabled: true },
      },
    });
    expect(linked.statusCode).toBe(201);
    const [invite] = await mailTo(server.app, heirEmail, 'heir-invitation');
    expect(invite!.data!.claimLink).toBe('/heir?about=invitation&lang=en');
    const code = invite!.data!.claimCode!;
    const heir = await registerUser(server.app, { email: heirEmail });
    const url = invite!.data!.claimLink!;
    const anonymous = await server.app.inject({ method: 'GET', url });
    const signedIn = await server.app.inject({ method: 'GET', url, headers: sessionHeaders(heir) });
    const asOwner = await server.app.inject({ method: 'GET', url, headers: sessionHeaders(owner) });
    expect(signedIn.body).toBe(anonymous.body);
    expect(asOwner.body).toBe(anonymous.body);
    for (const secret of ['Secret estate', 'Rose', 'Ana', heirEmail, code, EVM(2)])
      expect(anonymous.body).not.toContain(secret);
    // A code put in the link is neither echoed nor used: the page has no field for it.
    const withCode = await server.app.inject({ method: 'GET', url: `${url}&code=${code}` });
    expect(withCode.body).toBe(anonymous.body);
    // The code field is empty and the forms post nowhere: a code only ever leaves the page in a claim's JSON body.
    expect(anonymous.body).toContain('<input id="claim-code" name="code" autocomplete="off"');
    expect(anonymous.body).not.toMatch(/<input[^>]* value=|action=/);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/v1/svcloom/shared', headers: sessionHeaders(heir) })).json()
        .data,
    ).toEqual([]);
  });
});

describe('French typography of the pages', () => {
  /** Every sentence of a page's texts, functions called with a sample value. */
  const sentences = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : typeof v === 'function'
        ? sentences((v as (x: string) => unknown)('Plan'))
        : v && typeof v === 'object'
          ? Object.values(v).flatMap(sentences)
          : [];

  it('puts a no-break space before : ; ? ! and », and after «, as the French mail does', () => {
    const french = [...sentences(HEIR_TEXTS.fr), ...sentences(ACCOUNT_TEXTS.fr), ...sentences(CHECK_IN_TEXTS.fr)];
    expect(french.length).toBeGreaterThan(40);
    const plain = french.filter((s) => / [:;?!»]|« /.test(s));
    expect(plain).toEqual([]);
    expect(french.filter((s) => /\u00a0[:;?!»]/.test(s)).length).toBeGreaterThan(10);
  });
});
