/**
 * Test harness for mail: a self-signed certificate made with openssl in a temp dir (for tests only), a real
 * smtp-server on 127.0.0.1 that records what it receives and can answer with scripted SMTP errors, and a sender
 * over a lowdb store with a clock the test moves.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { enqueueMail, type MailRecord, type MailRequest, MAIL, MAIL_INDEXES } from '../../src/events/mail.js';
import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { MailSender, type MailSenderOptions } from '../../src/mail/sender.js';
import { openTransportSync } from '../../src/mail/transport.js';
import { openLowdbStore, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';

export interface TestCert {
  key: string;
  cert: string;
  dir: string;
}

/** A throwaway self-signed certificate for 127.0.0.1 (tests only). */
export function makeCert(): TestCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-mail-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return {
    dir,
    key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
  };
}

export interface Received {
  raw: Buffer;
  secure: boolean;
  user: string | undefined;
}

export interface TestSmtp {
  port: number;
  received: Received[];
  /** Answers for the next messages, in order: an SMTP code (4xx/5xx) to refuse with, or 'ok'. */
  script: Array<number | 'ok'>;
  /** Waits this long before answering each message (ms). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startSmtp(
  opts: Partial<SMTPServerOptions> & { users?: Record<string, string> },
): Promise<TestSmtp> {
  const state: TestSmtp = { port: 0, received: [], script: [], delayMs: 0, close: async () => {} };
  const users = opts.users;
  const server = new SMTPServer({
    logger: false,
    authOptional: users === undefined,
    onAuth(auth, _session, cb) {
      if (users && users[auth.username ?? ''] === auth.password) return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const answer = state.script.shift() ?? 'ok';
        setTimeout(() => {
          if (answer !== 'ok') {
            // As real servers do, a refusal names the recipient it refuses.
            const to = session.envelope.rcptTo[0]?.address ?? '';
            const err = Object.assign(new Error(answer >= 500 ? `<${to}>: Mailbox unavailable` : 'Try again later'), {
              responseCode: answer,
            });
            return cb(err);
          }
          state.received.push({ raw: Buffer.concat(chunks), secure: session.secure, user: session.user as string });
          cb();
        }, state.delayMs);
      });
    },
    ...opts,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

export const parse = (r: Received): Promise<ParsedMail> => simpleParser(r.raw);

export interface Rig {
  store: Store;
  sender: MailSender;
  clock: { now: () => Date; advance(ms: number): void };
  dir: string;
  queue(req: Partial<MailRequest> & Pick<MailRequest, 'template' | 'data'>): Promise<MailRecord>;
  get(id: string): Promise<MailRecord>;
  close(): Promise<void>;
}

export type Engine = 'lowdb' | 'postgres';

/**
 * A sender over a fresh store (lowdb in a temp dir, or PostgreSQL in a schema of its own, dropped on close);
 * `smtpUrl` undefined writes .eml files under the rig's data dir.
 */
export async function rig(
  smtpUrl: string | undefined,
  ca: string | undefined,
  extra: Partial<MailSenderOptions> = {},
  engine: Engine = 'lowdb',
): Promise<Rig> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-mail-'));
  const url = engine === 'postgres' ? await testDatabaseUrl() : undefined;
  const schema = url ? randomSchema('svc_mail') : undefined;
  const store: Store = url
    ? await openPostgresStore({ url, schema, indexes: MAIL_INDEXES })
    : await openLowdbStore({ dataDir: dir, indexes: MAIL_INDEXES });
  let t = Date.parse('2026-03-01T10:00:00Z');
  const clock = { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
  const transport = openTransportSync({ smtpUrl, ca, dataDir: dir, timeoutMs: 5000 });
  const sender = new MailSender({
    store,
    clock,
    transport,
    limiter: new MemoryRateLimiter(3_600_000),
    from: 'svc <no-reply@svc.test>',
    secret: 'test-secret',
    unsubscribeUrl: 'http://127.0.0.1:1/api/v1/mail/unsubscribe',
    ...extra,
  });
  return {
    store,
    sender,
    clock,
    dir,
    queue: (req) =>
      store.transact((tx) =>
        enqueueMail(
          tx,
          { ownerId: 'acc_1', to: 'heir@example.test', locale: 'en', essential: true, ...req } as MailRequest,
          clock,
        ),
      ),
    get: async (id) => (await store.get<MailRecord>(MAIL, id))!,
    close: async () => {
      await sender.stop();
      await store.close();
      if (url && schema) await dropSchemas(url, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
