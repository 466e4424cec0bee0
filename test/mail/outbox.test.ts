/**
 * The outbox without SMTP (.eml files), the rendering guard, the limits, and unsubscribe end to end over HTTP.
 */
import { LINK_ERROR_TEXTS } from '../../src/mail/pages.js';
import { USERS } from '../../src/accounts/records.js';
import { accountStore } from '../../src/accounts/tenancy.js';
import { FORM_PAGE_CSP } from '../../src/http/heir-page.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIL_LOCALES } from '../../src/accounts/email-flows.js';
import { inTurns } from '../../src/core/turns.js';
import { enqueueMail, MAIL, type MailRecord, type MailRequest } from '../../src/events/mail.js';
import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { mailSecret } from '../../src/mail/index.js';
import { verifyUnsubscribe } from '../../src/mail/preferences.js';
import { MailSender } from '../../src/mail/sender.js';
import { MailRenderError, renderMail } from '../../src/mail/templates/index.js';
import { openTransportSync } from '../../src/mail/transport.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { type Engine, rig, type Rig } from './smtp-harness.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function emlRig(extra: Parameters<typeof rig>[2] = {}, engine: Engine = 'lowdb'): Promise<Rig> {
  const r = await rig(undefined, undefined, extra, engine);
  open.push(r);
  return r;
}

describe('without SMTP: .eml files', () => {
  it('writes one 0600 file per message, readable by a mail parser', async () => {
    const r = await emlRig();
    const a = await r.queue({ template: 'verify-email', data: { link: 'https://svc.test/v?t=1' } });
    const b = await r.queue({
      template: 'heir-invitation',
      locale: 'ar',
      essential: false,
      userId: 'usr_9',
      data: { ownerName: 'سارة', claimCode: 'ABCD-1234', claimLink: 'https://svc.test/claim' },
    });
    expect(await r.sender.drain()).toBe(2);
    const dir = path.join(r.dir, 'mail');
    expect((await readdir(dir)).sort()).toEqual([`${a.id}.eml`, `${b.id}.eml`].sort());
    expect((await stat(path.join(dir, `${a.id}.eml`))).mode & 0o777).toBe(0o600);
    const parsed = await simpleParser(await readFile(path.join(dir, `${b.id}.eml`)));
    expect(parsed.messageId).toBe(`<${b.id}@svc.test>`);
    expect(parsed.html).toContain('dir="rtl"');
    expect(parsed.text).toContain('ABCD-1234');
    expect(parsed.headerLines.some((h) => h.key === 'list-unsubscribe')).toBe(true);
    expect((await r.get(a.id)).state).toBe('sent');
    expect((await r.get(b.id)).data).toBeNull();
  });
});

describe('headers', () => {
  it('a name or subject stored with bidirectional or control characters reaches no header with them', async () => {
    const r = await emlRig();
    // As a record queued before names were checked where they are entered could hold them.
    const q = await r.queue({
      template: 'heir-invitation',
      toName: 'Eve \u202eSmith\u2066\u200f',
      data: { ownerName: 'Evil <b>Bold</b> \u202eRTL\u0085', claimCode: 'ABCD-1234', claimLink: 'https://svc.test/c' },
    });
    await r.sender.drain();
    const raw = await readFile(path.join(r.dir, 'mail', `${q.id}.eml`));
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Evil <b>Bold</b> RTL has named you in their plan');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0] : undefined).toEqual({
      name: 'Eve Smith',
      address: 'heir@example.test',
    });
    for (const [key, value] of parsed.headers)
      expect(`${key}: ${JSON.stringify(value)}`).not.toMatch(/[\u202e\u2066\u200f\u0085]/);
  });
});

describe('rendering', () => {
  it('refuses data that looks like an API key, and the sender fails such a message without sending it', async () => {
    expect(() =>
      renderMail('share-opened', 'en', { ownerName: 'x', link: 'https://a/?k=svc_abcdefgh12345678' }),
    ).toThrow(MailRenderError);
    const r = await emlRig();
    const q = await r.queue({ template: 'share-opened', data: { ownerName: 'svc_live_0123456789abcdef', link: 'x' } });
    await r.sender.drain();
    const rec = await r.get(q.id);
    expect(rec.state).toBe('failed');
    expect(rec.lastError).toMatch(/API key/);
    expect(rec.data).toBeNull();
    await expect(readdir(path.join(r.dir, 'mail'))).rejects.toThrow();
  });

  it('has every template in every language with a subject, text and HTML, and the values the English shows', () => {
    // Values that cannot be mistaken for words, so each one is found in a message only if the template shows it.
    const data: Record<string, string> = {
      link: 'https://svc.test/link',
      newEmail: 'new@example.test',
      deadline: '2026-01-01T00:00:00Z',
      planLabel: 'Plan-Label',
      endsAt: '2026-01-02T00:00:00Z',
      ownerName: 'Owner-Name',
      claimCode: 'shc_claim-code',
      claimLink: 'https://svc.test/claim',
      checkInLink: 'https://svc.test/check-in',
      cancelLink: 'https://svc.test/cancel',
      sharesOpened: '417',
      workingKeys: '3071',
      network: '31337',
      contractAddress: '0x00000000000000000000000000000000000000aa',
    };
    const templates = [
      'verify-email',
      'password-reset',
      'email-change-confirm',
      'email-change-notice',
      'password-changed',
      'checkin-reminder',
      'contract-checkin-reminder',
      'verification-started',
      'verification-failed',
      'verification-complete',
      'chain-released',
      'heir-invitation',
      'heir-new-code',
      'share-opened',
      'share-opened-chain',
    ] as const;
    // Dates are written in each language's words; every other value as it is.
    const verbatim = Object.keys(data).filter((k) => k !== 'deadline' && k !== 'endsAt');
    const shown = (text: string) => verbatim.filter((k) => text.includes(data[k]!));
    expect(MAIL_LOCALES).toEqual(['en', 'ar', 'es', 'fr']);
    const subjects = new Set<string>();
    for (const t of templates) {
      const english = renderMail(t, 'en', data);
      expect(shown(english.text).length, t).toBeGreaterThan(0);
      for (const l of MAIL_LOCALES) {
        const m = renderMail(t, l, data);
        expect(m.subject.length).toBeGreaterThan(5);
        expect(m.text.length).toBeGreaterThan(40);
        expect(m.html).toContain(`lang="${l}"`);
        // The same facts, links and values as the English: none left out, none added.
        expect(shown(m.text), `${t} in ${l}`).toEqual(shown(english.text));
        expect(shown(m.html), `${t} in ${l}`).toEqual(shown(english.html));
        // The dates too (Arabic may write the year in its own digits), and none left in its ISO form.
        expect(/2026|٢٠٢٦/.test(m.text), `${t} in ${l}`).toBe(english.text.includes('2026'));
        expect(`${m.subject}\n${m.text}\n${m.html}`, `${t} in ${l}`).not.toMatch(/undefined|null|2026-01-0\dT/);
        subjects.add(m.subject);
      }
      // French puts a no-break space before : ; ! ? and » and after « (web addresses and times aside).
      const french = renderMail(t, 'fr', data, 'https://svc.test/unsubscribe');
      const prose = `${french.subject}\n${french.text}`.replace(/https?:\/\/\S+|\d\d:\d\d/g, '');
      expect(prose, t).not.toMatch(/[^\u00a0][:;!?»]|«[^\u00a0]/);
    }
    expect(subjects.size).toBe(templates.length * MAIL_LOCALES.length);
  });
});

describe.each(['lowdb', 'postgres'] as const)('limits (%s)', (engine) => {
  it('delays the 11th essential message to one recipient, and suppresses an 11th non-essential one', async () => {
    const r = await emlRig({}, engine);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push((await r.queue({ template: 'verify-email', data: { link: `l${i}` } })).id);
    await r.sender.drain();
    const recs = await Promise.all(ids.map((id) => r.get(id)));
    expect(recs.filter((m) => m.state === 'sent')).toHaveLength(10);
    const delayed = recs.filter((m) => m.state === 'pending');
    expect(delayed).toHaveLength(1);
    expect(delayed[0]!.lastError).toMatch(/delayed: over the recipient limit/);
    expect(delayed[0]!.attempts).toBe(0);
    expect(delayed[0]!.nextAttemptAt).toBeGreaterThan(r.clock.now().getTime());

    const other = await r.queue({ template: 'share-opened', essential: false, data: { ownerName: 'o', link: 'l' } });
    await r.sender.drain();
    const rec = await r.get(other.id);
    expect(rec.state).toBe('suppressed');
    expect(rec.lastError).toMatch(/recipient limit/);

    // Once the window has passed, the delayed one goes.
    r.clock.advance(3_600_000);
    await r.sender.drain();
    expect((await r.get(delayed[0]!.id)).state).toBe('sent');
  });

  it('keeps no address in its counter keys (a shared limiter may be a Redis anyone operating it reads)', async () => {
    const limiter = new MemoryRateLimiter(3_600_000);
    const keys: string[] = [];
    const hitAll = limiter.hitAll.bind(limiter);
    limiter.hitAll = (entries, now) => {
      keys.push(...entries.map((e) => e.key));
      return hitAll(entries, now);
    };
    const r = await emlRig({ limiter }, engine);
    await r.queue({ template: 'verify-email', to: 'Ana.Heir@Example.test', data: { link: 'l' } });
    await r.sender.drain();
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key.toLowerCase()).not.toMatch(/ana\.heir|example\.test/);
  });

  it('counts per account too', async () => {
    const r = await emlRig({ perAccount: 3 }, engine);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await r.queue({ template: 'verify-email', to: `p${i}@example.test`, data: { link: 'l' } })).id);
    await r.sender.drain();
    const last = await r.get(ids[3]!);
    expect(last.state).toBe('pending');
    expect(last.lastError).toMatch(/account limit/);
  });
});

describe.each(['lowdb', 'postgres'] as const)('accounts in turn (%s)', (engine) => {
  it("sends another account's message in the first round, not after the backlog queued before it", async () => {
    // One message on the wire at a time, four claimed per round.
    const r = await emlRig({ concurrency: 1 }, engine);
    for (let i = 0; i < 12; i++)
      await r.queue({
        ownerId: 'acc_busy',
        to: `heir${i}@example.test`,
        template: 'verify-email',
        data: { link: 'l' },
      });
    const quiet = await r.queue({ ownerId: 'acc_quiet', template: 'password-reset', data: { link: 'l' } });
    expect(await r.sender.tick()).toBe(4);
    expect((await r.get(quiet.id)).state).toBe('sent');
    // The next round starts after the account served last (the busy one): the new message goes first.
    const later = await r.queue({ ownerId: 'acc_quiet', template: 'password-reset', data: { link: 'm' } });
    expect(await r.sender.tick()).toBe(4);
    expect((await r.get(later.id)).state).toBe('sent');
    const all = await r.store.all<MailRecord>(MAIL);
    expect(all.filter((m) => m.ownerId === 'acc_busy' && m.state === 'sent')).toHaveLength(6);
  });

  it("sends an account's new message behind eight of its own waiting for a retry", async () => {
    const r = await emlRig({}, engine);
    // Eight messages to an address whose server keeps refusing, each waiting an hour for its next try (a claim in
    // turns lists eight messages of one account before it moves on).
    for (let i = 0; i < 8; i++) {
      const m = await r.queue({
        ownerId: 'acc_a',
        to: `gone${i}@example.test`,
        template: 'verify-email',
        data: { link: 'l' },
      });
      await r.store.transact((tx) =>
        tx.put<MailRecord>(MAIL, { ...m, attempts: 1, nextAttemptAt: r.clock.now().getTime() + 3_600_000 }),
      );
    }
    const reset = await r.queue({ ownerId: 'acc_a', template: 'password-reset', data: { link: 'l' } });
    expect(await r.sender.tick()).toBe(1);
    expect((await r.get(reset.id)).state).toBe('sent');
  });

  it('sends a message behind a thousand accounts whose messages all wait for a retry', async () => {
    // Four claimed per round: a claim in turns looks at 872 messages at most.
    const r = await emlRig({ concurrency: 1 }, engine);
    const later = r.clock.now().getTime() + 3_600_000;
    await r.store.transact(async (tx) => {
      for (let i = 0; i < 1000; i++) {
        const request = {
          ownerId: `acc_a${String(i).padStart(4, '0')}`,
          to: `gone${i}@example.test`,
          locale: 'en',
          essential: true,
          template: 'verify-email',
          data: { link: 'l' },
        } as MailRequest;
        const m = await enqueueMail(tx, request, r.clock);
        await tx.put<MailRecord>(MAIL, { ...m, attempts: 1, nextAttemptAt: later });
      }
    });
    const reset = await r.queue({ ownerId: 'acc_zz', template: 'password-reset', data: { link: 'l' } });
    // Each round starts where the one before stopped looking (it used to start after the account served last,
    // where an empty round left it: every round looked at the same messages).
    let sent = 0;
    for (let round = 0; round < 3 && sent === 0; round++) sent = await r.sender.tick();
    expect(sent).toBe(1);
    expect((await r.get(reset.id)).state).toBe('sent');
  });
});

describe('inTurns', () => {
  it('interleaves groups in the order of their first item, starting after the one served last', () => {
    const items = ['a1', 'a2', 'a3', 'b1', 'c1', 'c2'];
    const group = (s: string) => s[0]!;
    expect(inTurns(items, group)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(inTurns(items, group, 'a')).toEqual(['b1', 'c1', 'a1', 'c2', 'a2', 'a3']);
    expect(inTurns(items, group, 'c')).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(inTurns(items, group, 'z')).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(inTurns([], group)).toEqual([]);
  });
});

describe('unsubscribe over HTTP', () => {
  async function setup(): Promise<{
    server: TestServer;
    sender: MailSender;
    queue: (r: Partial<MailRequest>) => Promise<MailRecord>;
  }> {
    const server = await startTestServer({ listen: false });
    open.push(server);
    const { services } = server;
    const sender = new MailSender({
      store: services.store,
      clock: services.clock,
      limiter: new MemoryRateLimiter(3_600_000),
      transport: openTransportSync({ smtpUrl: undefined, dataDir: server.dataDir }),
      from: 'svc <no-reply@svc.test>',
      secret: await mailSecret(services.store),
      unsubscribeUrl: 'http://127.0.0.1/api/v1/mail/unsubscribe',
    });
    const queue = (req: Partial<MailRequest>) =>
      services.store.transact((tx) =>
        enqueueMail(
          tx,
          {
            ownerId: 'acc_u',
            to: 'owner@example.test',
            userId: 'usr_u',
            locale: 'en',
            essential: false,
            template: 'checkin-reminder',
            data: { deadline: '2026-05-01T00:00:00Z', planLabel: 'Plan' },
            ...req,
          } as MailRequest,
          services.clock,
        ),
      );
    return { server, sender, queue };
  }

  it('one-click POST unsubscribes: later non-essential mail is suppressed, essential mail still goes', async () => {
    const { server, sender, queue } = await setup();
    const first = await queue({});
    await sender.drain();
    const eml = await simpleParser(await readFile(path.join(server.dataDir, 'mail', `${first.id}.eml`)));
    const link = eml.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.match(/<([^>]+)>/)![1]!;
    const url = new URL(link);
    const target = url.pathname + url.search;

    const page = await server.app.inject({ method: 'GET', url: target });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    // Its address holds the token: nothing keeps the page, no other site frames its button, it runs nothing.
    expect(page.headers).toMatchObject({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'content-security-policy': FORM_PAGE_CSP,
    });
    expect(FORM_PAGE_CSP).toMatch(/form-action 'self'/);
    expect(FORM_PAGE_CSP).toMatch(/frame-ancestors 'none'/);
    // A GET changes nothing (scanners follow links).
    const before = await queue({});
    await sender.drain();
    expect((await server.services.store.get<MailRecord>(MAIL, before.id))!.state).toBe('sent');

    const post = await server.app.inject({
      method: 'POST',
      url: target,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);

    const later = await queue({});
    const essential = await queue({
      essential: true,
      template: 'password-reset',
      data: { link: 'https://svc.test/r' },
    });
    await sender.drain();
    const laterRec = (await server.services.store.get<MailRecord>(MAIL, later.id))!;
    expect(laterRec.state).toBe('suppressed');
    expect(laterRec.lastError).toMatch(/opted out/);
    expect(laterRec.data).toBeNull();
    expect((await server.services.store.get<MailRecord>(MAIL, essential.id))!.state).toBe('sent');
    await sender.stop();
  });

  it("speaks the language of the user the message went to, else the browser's", async () => {
    const { server, sender, queue } = await setup();
    const first = await queue({});
    await sender.drain();
    const eml = await simpleParser(await readFile(path.join(server.dataDir, 'mail', `${first.id}.eml`)));
    const url = new URL(eml.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.match(/<([^>]+)>/)![1]!);
    const target = url.pathname + url.search;
    // No such user in the account: the browser's language.
    const french = await server.app.inject({ method: 'GET', url: target, headers: { 'accept-language': 'fr-FR' } });
    expect(french.headers['content-language']).toBe('fr');
    expect(french.body).toContain('<html lang="fr"');
    expect(french.body).toContain('Se désabonner');
    // The user's profile language wins over the browser's.
    await accountStore(server.services.store, 'acc_u').put(USERS, {
      id: 'usr_u',
      ownerId: 'acc_u',
      email: 'owner@example.test',
      locale: 'es',
    });
    const spanish = await server.app.inject({ method: 'GET', url: target, headers: { 'accept-language': 'fr-FR' } });
    expect(spanish.body).toContain('Darse de baja');
    const done = await server.app.inject({
      method: 'POST',
      url: target,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ar' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Se ha dado de baja');
    await sender.stop();
  });

  it('refuses a forged or malformed token with 400 and records nothing', async () => {
    const { server } = await setup();
    const secret = await mailSecret(server.services.store);
    const forged = `${Buffer.from('acc_u~usr_u~all').toString('base64url')}.${Buffer.alloc(32).toString('base64url')}`;
    expect(verifyUnsubscribe(secret, forged)).toBeNull();
    for (const token of [forged, 'nonsense', '']) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/v1/mail/unsubscribe?token=${encodeURIComponent(token)}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const get = await server.app.inject({ method: 'GET', url: `/api/v1/mail/unsubscribe?token=${forged}` });
    expect(get.statusCode).toBe(400);
    expect(get.headers['cache-control']).toBe('no-store');
    const browser = await server.app.inject({
      method: 'GET',
      url: `/api/v1/mail/unsubscribe?token=${forged}`,
      headers: { accept: 'text/html', 'accept-language': 'es-ES' },
    });
    expect(browser.statusCode).toBe(400);
    expect(browser.body).toContain(LINK_ERROR_TEXTS.es.unsubscribe.invalid);
    expect(await server.services.store.get('mail_preferences', 'usr_u')).toBeUndefined();
  });
});

describe('started with the service', () => {
  it('startDispatcher starts the sender: a queued message lands in <data-dir>/mail/ without SMTP', async () => {
    const { startDispatcher } = await import('../../src/app.js');
    const server = await startTestServer({ listen: false });
    open.push(server);
    const dispatcher = startDispatcher(server.services);
    try {
      const q = await server.services.store.transact((tx) =>
        enqueueMail(
          tx,
          {
            ownerId: 'acc_s',
            to: 'a@example.test',
            template: 'verify-email',
            locale: 'es',
            essential: true,
            data: { link: 'https://svc.test/v' },
          },
          server.services.clock,
        ),
      );
      const file = path.join(server.dataDir, 'mail', `${q.id}.eml`);
      const end = Date.now() + 10_000;
      while (!(await stat(file).catch(() => undefined)) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 50));
      const parsed = await simpleParser(await readFile(file));
      expect(parsed.subject).toBe('Confirme su dirección de correo electrónico');
    } finally {
      await dispatcher.stop();
    }
  });
});
