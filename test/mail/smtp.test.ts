/**
 * The sender against a real smtp-server on 127.0.0.1: STARTTLS and implicit TLS with a test certificate the client
 * trusts as its only CA, AUTH PLAIN and LOGIN, a 451 retried and a 550 failed, and messages parsed back.
 */
import { rmSync } from 'node:fs';
import { createLogger } from '../../src/core/log.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Engine,
  makeCert,
  parse,
  rig,
  startSmtp,
  type Rig,
  type TestCert,
  type TestSmtp,
} from './smtp-harness.js';

let cert: TestCert;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  cert = makeCert();
});
afterAll(() => rmSync(cert.dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function starttls(users?: Record<string, string>, methods = ['PLAIN', 'LOGIN']): Promise<TestSmtp> {
  const s = await startSmtp({ key: cert.key, cert: cert.cert, users, authMethods: methods });
  open.push(s);
  return s;
}

async function withRig(url: string, ca: string | undefined = cert.cert, engine: Engine = 'lowdb'): Promise<Rig> {
  const r = await rig(url, ca, {}, engine);
  open.push(r);
  return r;
}

describe('SMTP with STARTTLS and implicit TLS', () => {
  it('sends over STARTTLS with AUTH PLAIN, with every header and both parts', async () => {
    const smtp = await starttls({ alice: 's3cret' }, ['PLAIN']);
    const r = await withRig(`smtp://alice:s3cret@127.0.0.1:${smtp.port}`);
    const queued = await r.queue({
      template: 'verify-email',
      data: { link: 'https://svc.test/verify?t=abc' },
      toName: 'Ana Pérez',
    });
    expect(await r.sender.drain()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.secure).toBe(true);
    expect(smtp.received[0]!.user).toBe('alice');
    const mail = await parse(smtp.received[0]!);
    expect(mail.from?.value[0]).toEqual({ name: 'svc', address: 'no-reply@svc.test' });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0] : undefined).toEqual({
      name: 'Ana Pérez',
      address: 'heir@example.test',
    });
    expect(mail.subject).toBe('Please confirm your email address');
    expect(mail.messageId).toBe(`<${queued.id}@svc.test>`);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    // Essential mail: no unsubscribe.
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(mail.text).toContain('https://svc.test/verify?t=abc');
    expect(mail.html).toContain('href="https://svc.test/verify?t=abc"');
    expect(mail.html).toContain('lang="en" dir="ltr"');

    const rec = await r.get(queued.id);
    expect(rec.state).toBe('sent');
    expect(rec.data).toBeNull();
    expect(rec.attempts).toBe(1);
    expect(rec.sentAt).not.toBeNull();
  });

  it('sends over implicit TLS (smtps) with AUTH LOGIN; Arabic is right to left, with unsubscribe headers', async () => {
    const smtp = await startSmtp({
      secure: true,
      key: cert.key,
      cert: cert.cert,
      users: { bob: 'pa:ss w' },
      authMethods: ['LOGIN'],
    });
    open.push(smtp);
    const r = await withRig(`smtps://bob:${encodeURIComponent('pa:ss w')}@127.0.0.1:${smtp.port}`);
    await r.queue({
      template: 'checkin-reminder',
      locale: 'ar',
      essential: false,
      userId: 'usr_1',
      data: { deadline: '2026-03-10T12:00:00Z', planLabel: 'خطتي', checkInLink: 'https://svc.test/c?t=1' },
    });
    await r.sender.drain();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.secure).toBe(true);
    expect(smtp.received[0]!.user).toBe('bob');
    const mail = await parse(smtp.received[0]!);
    expect(mail.subject).toContain('تذكير');
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain('lang="ar"');
    expect(mail.html).toMatch(/[\u0600-\u06FF]{4,}/);
    expect(mail.text).toContain('خطتي');
    const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '');
    const unsub = String(header('list-unsubscribe')).replace(/^<|>$/g, '');
    expect(unsub).toMatch(/^http:\/\/127\.0\.0\.1:1\/api\/v1\/mail\/unsubscribe\?token=[\w.-]+$/);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(unsub);
  });

  it('chooses Spanish by the locale and escapes every value in the HTML part', async () => {
    const smtp = await starttls();
    const r = await withRig(`smtp://127.0.0.1:${smtp.port}`);
    await r.queue({
      template: 'share-opened',
      locale: 'es',
      data: { ownerName: 'María <script>alert(1)</script>', link: 'https://svc.test/s?a=1&b=2' },
    });
    await r.sender.drain();
    const mail = await parse(smtp.received[0]!);
    expect(mail.subject).toBe('Un mensaje sobre el plan de María <script>alert(1)</script>');
    expect(mail.text).toContain('Lamentamos profundamente su pérdida');
    expect(mail.html).toContain('lang="es"');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('María &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('href="https://svc.test/s?a=1&amp;b=2"');
  });

  it('chooses French by the locale: dates in French, no-break spaces, the unsubscribe line in French', async () => {
    const smtp = await starttls();
    const r = await withRig(`smtp://127.0.0.1:${smtp.port}`);
    await r.queue({
      template: 'checkin-reminder',
      locale: 'fr',
      essential: false,
      userId: 'usr_1',
      data: { deadline: '2026-03-10T12:00:00Z', planLabel: 'Maison', checkInLink: 'https://svc.test/c?t=1' },
    });
    await r.sender.drain();
    const mail = await parse(smtp.received[0]!);
    expect(mail.subject).toBe('Rappel pour signaler votre présence\u00a0: Maison');
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
    expect(mail.text).toContain(
      'Votre plan «\u00a0Maison\u00a0» attend que vous signaliez votre présence avant le 10 mars 2026 à 12:00 UTC.',
    );
    expect(mail.text).toContain('Signaler ma présence maintenant\u00a0:\nhttps://svc.test/c?t=1\n');
    expect(mail.html).toContain('<a href="https://svc.test/c?t=1">Signaler ma présence maintenant</a>');
    expect(mail.text).toMatch(
      /Vous pouvez cesser de recevoir les messages de ce type\u00a0: http:\/\/127\.0\.0\.1:1\/api\/v1\/mail\/unsubscribe\?token=/,
    );
  });

  it('refuses a wrong password: retried later, not sent', async () => {
    const smtp = await starttls({ alice: 'right' });
    const r = await withRig(`smtp://alice:wrong@127.0.0.1:${smtp.port}`);
    const q = await r.queue({ template: 'verify-email', data: { link: 'https://svc.test/v' } });
    await r.sender.drain();
    expect(smtp.received).toHaveLength(0);
    const rec = await r.get(q.id);
    // A refused login is the configuration's fault, not the message's: retried, so it goes once that is fixed.
    expect(rec.state).toBe('pending');
    expect(rec.lastError).toMatch(/535/);
  });

  it('never sends in plain text: a server without STARTTLS is refused, a certificate from another CA too', async () => {
    const plain = await startSmtp({ disabledCommands: ['STARTTLS'] });
    open.push(plain);
    const r1 = await withRig(`smtp://127.0.0.1:${plain.port}`);
    const q1 = await r1.queue({ template: 'verify-email', data: { link: 'https://svc.test/v' } });
    await r1.sender.drain();
    expect(plain.received).toHaveLength(0);
    expect((await r1.get(q1.id)).state).toBe('pending');
    expect((await r1.get(q1.id)).lastError).toMatch(/^5\d\d /);

    const smtp = await starttls();
    const other = makeCert();
    rmSync(other.dir, { recursive: true, force: true });
    const r2 = await withRig(`smtp://127.0.0.1:${smtp.port}`, other.cert);
    const q2 = await r2.queue({ template: 'verify-email', data: { link: 'https://svc.test/v' } });
    await r2.sender.drain();
    expect(smtp.received).toHaveLength(0);
    expect((await r2.get(q2.id)).state).toBe('pending');
  });
});

// The outbox records are the sender's whole state: the same replies on both store engines.
describe.each(['lowdb', 'postgres'] as const)('SMTP replies (%s)', (engine) => {
  it('retries after a 451 and sends once', async () => {
    const smtp = await starttls();
    smtp.script.push(451);
    const r = await withRig(`smtp://127.0.0.1:${smtp.port}`, cert.cert, engine);
    const q = await r.queue({ template: 'password-reset', data: { link: 'https://svc.test/r' } });
    await r.sender.drain();
    let rec = await r.get(q.id);
    expect(rec.state).toBe('pending');
    expect(rec.attempts).toBe(1);
    expect(rec.lastError).toMatch(/451/);
    expect(rec.nextAttemptAt).toBe(r.clock.now().getTime() + 60_000);
    expect(rec.data).not.toBeNull();
    // Not due yet.
    expect(await r.sender.drain()).toBe(0);
    r.clock.advance(60_000);
    await r.sender.drain();
    rec = await r.get(q.id);
    expect(rec.state).toBe('sent');
    expect(rec.attempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
  });

  it('fails for good on a 550, with the reply recorded, and does not retry', async () => {
    const smtp = await starttls();
    smtp.script.push(550);
    let logged = '';
    const log = createLogger('trace', { write: (line: string) => void (logged += line) });
    const r = await rig(`smtp://127.0.0.1:${smtp.port}`, cert.cert, { log }, engine);
    open.push(r);
    const q = await r.queue({ template: 'password-reset', data: { link: 'https://svc.test/r' } });
    await r.sender.drain();
    const rec = await r.get(q.id);
    expect(rec.state).toBe('failed');
    expect(rec.lastError).toMatch(/550/);
    expect(rec.data).toBeNull();
    // The failure is logged with the server's code, never the address it names (an heir's, say).
    expect(logged).toContain('mail failed for good');
    expect(logged).toMatch(/550/);
    expect(logged).not.toContain('heir@example.test');
    r.clock.advance(24 * 3_600_000);
    expect(await r.sender.drain()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect(r.sender.stats.attempts).toBe(1);
  });

  it('gives up after the last backoff step when the server keeps answering 4xx', async () => {
    const smtp = await starttls();
    smtp.script.push(421, 450, 451, 452, 451, 451, 451);
    const r = await withRig(`smtp://127.0.0.1:${smtp.port}`, cert.cert, engine);
    const q = await r.queue({ template: 'password-reset', data: { link: 'https://svc.test/r' } });
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await r.sender.drain();
      const rec = await r.get(q.id);
      if (rec.state !== 'pending') break;
      waits.push((rec.nextAttemptAt - r.clock.now().getTime()) / 60_000);
      r.clock.advance(rec.nextAttemptAt - r.clock.now().getTime());
    }
    expect(waits).toEqual([1, 5, 15, 60, 180]);
    const rec = await r.get(q.id);
    expect(rec.state).toBe('failed');
    expect(rec.attempts).toBe(6);
    expect(smtp.received).toHaveLength(0);
  });
});
