/**
 * Mail about linked plans, end to end over HTTP with cookies and a real SMTP server on 127.0.0.1 (STARTTLS, a test
 * certificate), each message parsed back: a verification started is mailed to the owner with a one-click check-in
 * link that works once (then 410) and cancels it; its end is mailed too; heirs are invited with their own claim code
 * and told when their share opens; reminders go before the deadline once per lead time, only to confirmed
 * addresses, and not to a user who opted out. On lowdb and PostgreSQL.
 */
import { LINK_ERROR_TEXTS } from '../../src/mail/pages.js';
import { FORM_PAGE_CSP } from '../../src/http/heir-page.js';
import { rmSync } from 'node:fs';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, WEBHOOKS, type EventRecord } from '../../src/events/events.js';
import { MAIL, type MailRecord } from '../../src/events/mail.js';
import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { mailSecret } from '../../src/mail/index.js';
import { MailSender } from '../../src/mail/sender.js';
import { openTransportSync } from '../../src/mail/transport.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { sendDueReminders } from '../../src/memoir/reminders.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { linkApi, registerUser, sessionHeaders, signIn, uniqueEmail, type TestSession } from '../support/session.js';
import { makeCert, parse, startSmtp, type TestCert, type TestSmtp } from './smtp-harness.js';

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.parse('2026-06-01T09:00:00Z') + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const BASE = 'https://svc.example';

let cert: TestCert;
beforeAll(() => {
  cert = makeCert();
});
afterAll(() => rmSync(cert.dir, { recursive: true, force: true }));

const unsubscribable = (m: ParsedMail) => m.headerLines.some((h) => h.key === 'list-unsubscribe');

interface Delivered {
  record: MailRecord;
  mail: ParsedMail;
}

describe.each(['lowdb', 'postgres'] as const)('mail about plans (%s)', (engine) => {
  let schema: string | undefined;
  let server: TestServer;
  let smtp: TestSmtp;
  let sender: MailSender;
  let owner: TestSession;
  let watcher: string;
  let seen = 0;

  beforeAll(async () => {
    offset = 0;
    schema = engine === 'postgres' ? randomSchema('svc_mailflows') : undefined;
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    const base = { sessions, publicUrl: BASE };
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, ...base } : base;
    server = await startTestServer({ clock, config, listen: false });
    smtp = await startSmtp({ key: cert.key, cert: cert.cert, users: { svc: 'pw' }, authMethods: ['PLAIN'] });
    sender = new MailSender({
      store: server.services.store,
      clock,
      limiter: new MemoryRateLimiter(3_600_000),
      transport: openTransportSync({
        smtpUrl: `smtp://svc:pw@127.0.0.1:${smtp.port}`,
        ca: cert.cert,
        dataDir: server.dataDir,
        timeoutMs: 5000,
      }),
      from: 'svc <no-reply@svc.example>',
      secret: await mailSecret(server.services.store),
      unsubscribeUrl: `${BASE}/api/v1/mail/unsubscribe`,
      linkBase: BASE,
    });
    owner = await registerUser(server.app, { name: 'Rose' });
    watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
  });
  afterAll(async () => {
    await sender?.stop();
    await smtp?.close();
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  /** Sends what is queued and answers the messages that arrived since the last call, with their outbox records. */
  async function delivered(): Promise<Delivered[]> {
    await sender.drain();
    const fresh = smtp.received.slice(seen);
    seen = smtp.received.length;
    const out: Delivered[] = [];
    for (const r of fresh) {
      const mail = await parse(r);
      const id = /^<(mail_[^@]+)@/.exec(mail.messageId ?? '')![1]!;
      out.push({ mail, record: (await server.services.store.get<MailRecord>(MAIL, id))! });
    }
    return out;
  }
  const to = (d: Delivered[], address: string, template?: string) =>
    d.filter((x) => x.record.to === address && (template === undefined || x.record.template === template));
  const linkIn = (m: ParsedMail, path: string): string => {
    const found = (m.text ?? '').match(new RegExp(`${BASE}${path}\\?token=[A-Za-z0-9_%-]+`));
    expect(found, `a ${path} link in the text part`).not.toBeNull();
    return found![0];
  };
  const local = (link: string) => new URL(link).pathname + new URL(link).search;

  async function call(who: TestSession | string, method: string, url: string, payload?: unknown) {
    const headers = typeof who === 'string' ? { authorization: `Bearer ${who}` } : sessionHeaders(who);
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  async function linkPlan(
    heirs: Array<{ name: string; n: number; email?: string }>,
    label = 'Family estate',
    intervalDays = 90,
  ) {
    const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      label,
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: heirs.map((h, i) => ({
          name: h.name,
          address: EVM(h.n),
          percentage: ([[100], [60, 40], [50, 30, 20]][heirs.length - 1] ?? [])[i],
          ...(h.email ? { email: h.email } : {}),
        })),
        deadMansSwitch: { enabled: true, intervalDays },
      },
      heirAccess: { enabled: true },
    });
    expect(res.status).toBe(201);
    return res.body.data as {
      plan: { id: string };
      codes: Array<{ heir: string; code: string | null; shareId: string; delivery: string; mailedAt: string | null }>;
    };
  }
  const planOf = async (id: string) => (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, id))!;
  const events = async (planId: string) =>
    (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter(
      (e) => e.type.startsWith('verification.') && e.data.planId === planId,
    );

  it('invites each heir with an address with their own code only; a claim needs that confirmed address', async () => {
    await delivered();
    const anaEmail = uniqueEmail('ana');
    const luzEmail = uniqueEmail('luz');
    const linked = await linkPlan([
      { name: 'Ana', n: 2, email: anaEmail },
      { name: 'Luz', n: 3, email: luzEmail },
      { name: 'Rui', n: 4 },
    ]);
    const entry = (heir: string) => linked.codes.find((c) => c.heir === heir)!;
    // The owner sees that the codes of heirs with an address were mailed, and when; only Rui's code is theirs.
    const now = clock.now().toISOString();
    expect(entry('Ana')).toMatchObject({ delivery: 'email', code: null, mailedAt: now });
    expect(entry('Luz')).toMatchObject({ delivery: 'email', code: null, mailedAt: now });
    expect(entry('Rui')).toMatchObject({ delivery: 'owner', mailedAt: null });
    expect(entry('Rui').code).toMatch(/^shc_[A-Za-z0-9_-]{43}$/);
    const got = await delivered();
    expect(got.map((d) => d.record.template).sort()).toEqual(['heir-invitation', 'heir-invitation']);
    const [ana] = to(got, anaEmail, 'heir-invitation');
    const [luz] = to(got, luzEmail, 'heir-invitation');
    const mailedCode = (m: ParsedMail) => /shc_[A-Za-z0-9_-]{43}/.exec(m.text ?? '')![0];
    const codes: Record<string, string> = {
      Ana: mailedCode(ana!.mail),
      Luz: mailedCode(luz!.mail),
      Rui: entry('Rui').code!,
    };
    const code = (heir: string) => codes[heir]!;
    expect(new Set(Object.values(codes)).size).toBe(3);
    expect(ana!.mail.subject).toBe('Rose has named you in their plan');
    expect(ana!.mail.html).toContain(code('Ana'));
    // Never another heir's code.
    for (const other of [code('Luz'), code('Rui')])
      expect(`${ana!.mail.text ?? ''}${ana!.mail.html || ''}`).not.toContain(other);
    expect(luz!.mail.text).not.toContain(code('Ana'));
    expect(ana!.mail.text).toContain(`${BASE}/heir?about=invitation&lang=en`);
    // Sent, the outbox keeps no copy of the code.
    expect(JSON.stringify(await server.services.store.all(MAIL))).not.toContain(code('Ana'));

    // No owner-facing answer shows a mailed code: the shares say it was mailed, when, and that it was sent.
    const shares = await call(owner, 'GET', `/api/v1/svcloom/heirs/shares?planId=${linked.plan.id}`);
    const plans = await call(owner, 'GET', '/api/v1/svcloom/heirs/plans');
    for (const text of [JSON.stringify(linked), JSON.stringify(shares.body), JSON.stringify(plans.body)]) {
      expect(text).not.toContain(code('Ana'));
      expect(text).not.toContain(code('Luz'));
    }
    const shareOf = (heir: string) => shares.body.data.find((s: { heir: string }) => s.heir === heir);
    expect(shareOf('Ana')).toMatchObject({
      codeDelivery: 'email',
      codeMail: { queuedAt: now, state: 'sent', sentAt: expect.any(String) },
    });
    expect(shareOf('Rui')).toMatchObject({ codeDelivery: 'owner', codeMail: null });

    // Ana registers without confirming her address: 403; confirmed: the share is hers.
    const heir = await registerUser(server.app, { email: anaEmail, verify: false });
    const refused = await call(heir, 'POST', '/api/v1/svcloom/shared/claim', { code: code('Ana') });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({
      status: 403,
      code: 'EMAIL_NOT_VERIFIED',
    });
    const verify = to(await delivered(), anaEmail, 'verify-email')[0]!;
    expect(
      (await server.app.inject({ method: 'GET', url: linkApi(linkIn(verify.mail, '/account/verify')) })).statusCode,
    ).toBe(200);
    expect((await call(heir, 'POST', '/api/v1/svcloom/shared/claim', { code: code('Ana') })).status).toBe(200);

    // A new code for Luz's share is mailed to Luz alone, not shown to the owner; the old one stops working.
    offset += 60_000;
    const reissued = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${entry('Luz').shareId}/code`);
    expect(reissued.status).toBe(200);
    expect(reissued.body.data).toMatchObject({
      delivery: 'email',
      code: null,
      mailedAt: clock.now().toISOString(),
      share: { codeDelivery: 'email', codeMail: { queuedAt: clock.now().toISOString(), state: 'pending' } },
    });
    const again = await delivered();
    expect(again.map((d) => [d.record.to, d.record.template])).toEqual([[luzEmail, 'heir-invitation']]);
    const newLuz = mailedCode(again[0]!.mail);
    expect(newLuz).not.toBe(code('Luz'));
    expect(JSON.stringify(reissued.body)).not.toContain(newLuz);
    const luzUser = await registerUser(server.app, { email: luzEmail });
    expect((await call(luzUser, 'POST', '/api/v1/svcloom/shared/claim', { code: code('Luz') })).status).toBe(404);
    expect((await call(luzUser, 'POST', '/api/v1/svcloom/shared/claim', { code: newLuz })).status).toBe(200);

    // Rui has no address: his new code is the owner's to hand over, and nothing is mailed.
    const ruiNew = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${entry('Rui').shareId}/code`);
    expect(ruiNew.body.data).toMatchObject({ delivery: 'owner', mailedAt: null, share: { codeMail: null } });
    expect(ruiNew.body.data.code).toMatch(/^shc_[A-Za-z0-9_-]{43}$/);
    expect(ruiNew.body.data.code).not.toBe(code('Rui'));
    expect((await delivered()).filter((d) => d.record.template === 'heir-invitation')).toEqual([]);
  });

  it('an heir named with a line break or a bidirectional control is refused; names stored before are mailed clean', async () => {
    const email = uniqueEmail('eve');
    for (const name of ['Eve\nSmith', 'Eve\r\nBcc: x@example.org', 'Eve \u202eRTL', 'Eve\u2066x\u2069', 'Eve\u200f']) {
      const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
        plan: {
          blockchain: 'evm',
          ownerAddress: EVM(1),
          beneficiaries: [{ name, address: EVM(5), percentage: 100, email }],
          deadMansSwitch: { enabled: true, intervalDays: 90 },
        },
        heirAccess: { enabled: true },
      });
      expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.error.details).toEqual([
        { field: 'plan.beneficiaries.0.name', reason: expect.stringMatching(/line breaks, control characters/) },
      ]);
    }
    expect(to(await delivered(), email)).toEqual([]);

    // The owner's name and the heir's as records kept from before the check may hold them: no header carries them.
    const { codes } = await linkPlan([{ name: 'Eve Smith', n: 5, email }], 'Lines');
    await delivered();
    const users = await server.services.store.findBy<{ id: string; name?: string }>(
      'users',
      'ownerId',
      owner.accountId,
    );
    const user = users.find((u) => u.id === owner.userId)!;
    await server.services.store.put('users', { ...user, name: 'Evil <b>Bold</b> \u202eRTL' });
    const share = (await server.services.store.get<{ id: string; label: string }>('grants', codes[0]!.shareId))!;
    await server.services.store.put('grants', { ...share, label: 'Eve\nSmith\u202e' });
    expect((await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${share.id}/code`)).status).toBe(200);
    const [invite] = to(await delivered(), email, 'heir-invitation');
    expect(invite!.mail.subject).toBe('Evil <b>Bold</b> RTL has named you in their plan');
    const recipient = invite!.mail.to && !Array.isArray(invite!.mail.to) ? invite!.mail.to.value[0] : undefined;
    expect(recipient).toEqual({ name: 'Eve Smith', address: email });
    expect(invite!.mail.text).not.toContain('\u202e');
    await server.services.store.put('users', user);
  });

  it('a started verification is mailed with a check-in link that cancels it once, then answers 410', async () => {
    offset = 5 * DAY;
    await delivered();
    const { plan } = await linkPlan([{ name: 'Ana', n: 2 }], 'Casa');
    await delivered();
    const fired = await call(watcher, 'POST', `/api/v1/svcloom/heirs/plans/${plan.id}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.status).toBe(200);
    expect(fired.body.data.plan.verification).toMatchObject({ state: 'waiting', channels: ['email'] });
    const [started] = to(await delivered(), owner.email, 'verification-started');
    expect(started!.mail.subject).toBe('Someone reported a change for your plan: Casa');
    expect(started!.record.essential).toBe(true);
    expect(unsubscribable(started!.mail)).toBe(false);
    const link = linkIn(started!.mail, '/api/v1/mail/check-in');
    expect(started!.mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    // Only the token's hash is kept.
    const token = new URL(link).searchParams.get('token')!;
    expect(JSON.stringify(await server.services.store.all('email_tokens'))).not.toContain(token);

    // A GET (a mail scanner, or the owner's first click) shows the button and changes nothing.
    const page = await server.app.inject({ method: 'GET', url: local(link) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect(page.headers).toMatchObject({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'content-security-policy': FORM_PAGE_CSP,
    });
    expect((await planOf(plan.id)).state).toBe('verifying');

    offset = 7 * DAY;
    const post = await server.app.inject({ method: 'POST', url: local(link) });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('Casa');
    expect(await planOf(plan.id)).toMatchObject({
      state: 'armed',
      checkedInAt: clock.now().toISOString(),
      verification: { state: 'failed', failedBy: 'check-in' },
    });
    const again = await server.app.inject({ method: 'POST', url: local(link) });
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('GONE');
    expect((await server.app.inject({ method: 'GET', url: local(link) })).statusCode).toBe(410);
    // A browser (the owner clicking the old mail again) is told so on a page, in its language.
    const browser = await server.app.inject({
      method: 'GET',
      url: local(link),
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'accept-language': 'fr' },
    });
    expect(browser.statusCode).toBe(410);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.body).toContain(LINK_ERROR_TEXTS.fr.checkIn.gone);
    expect(browser.headers['cache-control']).toBe('no-store');
    expect((await events(plan.id)).map((e) => [e.type, e.data.channels, e.data.reason])).toEqual([
      ['verification.started', ['email'], undefined],
      ['verification.failed', ['email'], 'check-in'],
    ]);
    const [failed] = to(await delivered(), owner.email, 'verification-failed');
    expect(failed!.mail.subject).toBe('The report about your plan was cancelled: Casa');
  });

  it('with a webhook, both channels are named; the end is mailed to the owner and to each heir', async () => {
    offset = 20 * DAY;
    // A subscription of the account's own (no dispatcher runs here: nothing is delivered, only queued).
    const hookId = `whk_${engine}_mailflows`;
    await server.services.store.put(WEBHOOKS, {
      id: hookId,
      ownerId: owner.accountId,
      url: 'https://hooks.example/svc',
      events: ['verification.started', 'verification.complete'],
      status: 'active',
    });
    const heirEmail = uniqueEmail('heir');
    const { plan } = await linkPlan(
      [
        { name: 'Ana', n: 2, email: heirEmail },
        { name: 'Rui', n: 3 },
      ],
      'Campo',
    );
    await delivered();
    const fired = await call(watcher, 'POST', `/api/v1/svcloom/heirs/plans/${plan.id}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.body.data.plan.verification.channels).toEqual(['webhook', 'email']);
    await delivered();
    offset = 28 * DAY;
    expect(await completeDueVerifications(server.services.store, clock)).toBe(1);
    const got = await delivered();
    const [done] = to(got, owner.email, 'verification-complete');
    expect(done!.mail.text).toContain('Shares opened for your heirs: 2');
    const [opened] = to(got, heirEmail, 'share-opened');
    expect(opened!.mail.subject).toBe('A message about the plan of Rose');
    expect(opened!.mail.text).toContain(`${BASE}/heir?about=share-opened&lang=en`);
    expect(got.filter((d) => d.record.template === 'share-opened')).toHaveLength(1);
    expect((await events(plan.id)).map((e) => [e.type, e.data.channels])).toEqual([
      ['verification.started', ['webhook', 'email']],
      ['verification.complete', ['webhook', 'email']],
    ]);
    // Nothing is mailed twice.
    expect(await completeDueVerifications(server.services.store, clock)).toBe(0);
    expect(await delivered()).toEqual([]);
    await server.services.store.delete(WEBHOOKS, hookId);
  });

  it('reminds before the deadline once per lead time, in the owner language, with a working check-in link', async () => {
    offset = 40 * DAY;
    const me = await call(owner, 'PATCH', '/api/auth/me', { locale: 'ar' });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ user: { locale: 'ar' }, mailOptOut: [] });
    const { plan } = await linkPlan([{ name: 'Ana', n: 2 }], 'بيت');
    await delivered();
    const deadline = Date.parse((await planOf(plan.id)).createdAt) + 90 * DAY;
    // Reminders of the other plans linked above are not this test's: count only this plan's.
    const mine = (d: Delivered[]) => to(d, owner.email, 'checkin-reminder').filter((x) => x.mail.text?.includes('بيت'));

    offset = 40 * DAY + 59 * DAY; // 31 days before the deadline: nothing yet
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);
    offset = 40 * DAY + 61 * DAY; // 29 days before
    await Promise.all([sendDueReminders(server.services.store, clock), sendDueReminders(server.services.store, clock)]);
    await sendDueReminders(server.services.store, clock);
    const first = mine(await delivered());
    expect(first).toHaveLength(1);
    expect(first[0]!.mail.html).toContain('dir="rtl"');
    expect(first[0]!.mail.html).toContain('lang="ar"');
    expect(first[0]!.record.essential).toBe(false);
    expect(unsubscribable(first[0]!.mail)).toBe(true);

    offset = deadline - Date.parse('2026-06-01T09:00:00Z') - 6 * DAY; // 6 days before: the 7-day reminder
    await sendDueReminders(server.services.store, clock);
    await sendDueReminders(server.services.store, clock);
    const second = mine(await delivered());
    expect(second).toHaveLength(1);
    const link = linkIn(second[0]!.mail, '/api/v1/mail/check-in');
    // The check-in moves the deadline: 90 days from now, so nothing is due any more.
    expect((await server.app.inject({ method: 'POST', url: local(link) })).statusCode).toBe(200);
    expect(Date.parse((await planOf(plan.id)).checkedInAt!)).toBe(clock.now().getTime());
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);

    // 30 days before the new deadline, a user who opted out gets nothing.
    owner = await signIn(server.app, owner.email, owner.password);
    expect(
      (await call(owner, 'PATCH', '/api/auth/me', { mailOptOut: ['checkin-reminder'] })).body.data.mailOptOut,
    ).toEqual(['checkin-reminder']);
    offset += 61 * DAY;
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);
    const suppressed = (await server.services.store.findBy<MailRecord>(MAIL, 'ownerId', owner.accountId)).filter(
      (m) => m.template === 'checkin-reminder' && m.state === 'suppressed',
    );
    expect(suppressed.length).toBeGreaterThan(0);
    // Put the profile back for the tests below (a new session: the one above is 61 days old).
    owner = await signIn(server.app, owner.email, owner.password);
    expect((await call(owner, 'PATCH', '/api/auth/me', { mailOptOut: [], locale: 'en' })).status).toBe(200);
  });

  it('a lead time as long as the interval is never mailed right after linking or a check-in', async () => {
    offset = 300 * DAY;
    owner = await signIn(server.app, owner.email, owner.password);
    const { plan } = await linkPlan([{ name: 'Ana', n: 2 }], 'Short interval', 30);
    await delivered();
    const mine = (d: Delivered[]) =>
      to(d, owner.email, 'checkin-reminder').filter((x) => x.mail.text?.includes('Short interval'));
    // Linked with a 30-day interval: the 30-day lead time fell at the linking itself, so nothing is due.
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);
    offset += 22 * DAY; // 8 days before the deadline: still nothing
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);
    offset += 2 * DAY; // 6 days before: the 7-day reminder, alone
    await sendDueReminders(server.services.store, clock);
    const reminded = mine(await delivered());
    expect(reminded).toHaveLength(1);
    const link = linkIn(reminded[0]!.mail, '/api/v1/mail/check-in');
    expect((await server.app.inject({ method: 'POST', url: local(link) })).statusCode).toBe(200);
    expect(Date.parse((await planOf(plan.id)).checkedInAt!)).toBe(clock.now().getTime());
    // The check-in starts a new period of 30 days: its 30-day lead time is not due at once either.
    await sendDueReminders(server.services.store, clock);
    expect(mine(await delivered())).toEqual([]);
  });

  it('an owner whose address is not confirmed gets no reminder and no notice', async () => {
    const unconfirmed = await registerUser(server.app, { verify: false });
    const key = await server.key({ ownerId: unconfirmed.accountId, tier: 'public', scopes: ['contracts', 'chat'] });
    await delivered();
    // Linked by the account's key: the unconfirmed session may not (it could mail heirs).
    const res = await call(key, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [{ name: 'Ana', address: EVM(2), percentage: 100 }],
        deadMansSwitch: { enabled: true, intervalDays: 10 },
      },
      heirAccess: { enabled: true },
    });
    expect(res.status).toBe(201);
    await sendDueReminders(server.services.store, clock);
    const fired = await call(key, 'POST', `/api/v1/svcloom/heirs/plans/${res.body.data.plan.id}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.body.data.plan.verification.channels).toEqual([]);
    expect(to(await delivered(), unconfirmed.email)).toEqual([]);
  });
});
