/**
 * SIGKILL during sending: a sender process is killed while 50 messages go to an SMTP server that answers slowly; a
 * new process finishes. Every message arrives at least once, and only messages in flight at the kill (at most the
 * sender's concurrency) may arrive twice. On lowdb and on PostgreSQL (where the sender claims with row locks).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { enqueueMail, MAIL, MAIL_INDEXES, type MailRecord } from '../../src/events/mail.js';
import { openLowdbStore, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { makeCert, parse, startSmtp } from './smtp-harness.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sender-child.ts');
const MESSAGES = 50;
/** The child's concurrency: messages on the wire, or sent and not yet recorded, at any moment. */
const MAX_IN_FLIGHT = 4;

function startChild(args: string[]): { child: ChildProcess; ready: Promise<void>; closed: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${err}`)));
  });
  ready.catch(() => undefined);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, ready, closed };
}

const until = async (cond: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(['lowdb', 'postgres'] as const)('mail survives SIGKILL (%s)', (engine) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-mail-crash-'));
  const schema = engine === 'postgres' ? randomSchema('svc_mailcrash') : undefined;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  it('delivers every message at least once; duplicates only for those in flight', { timeout: 120_000 }, async () => {
    const cert = makeCert();
    const caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, cert.cert);
    const smtp = await startSmtp({ key: cert.key, cert: cert.cert });
    smtp.delayMs = 100;
    const dataDir = path.join(dir, 'data');
    const pg = schema ? [await testDatabaseUrl(), schema] : [];
    const open = async (): Promise<Store> =>
      schema
        ? openPostgresStore({ url: pg[0]!, schema, indexes: MAIL_INDEXES, poolSize: 2 })
        : openLowdbStore({ dataDir, indexes: MAIL_INDEXES });
    try {
      const store = await open();
      await store.transact(async (tx) => {
        for (let i = 0; i < MESSAGES; i++)
          await enqueueMail(
            tx,
            {
              ownerId: 'acc_1',
              to: `r${i}@example.test`,
              template: 'verify-email',
              locale: 'en',
              essential: true,
              data: { link: `https://svc.test/v/${i}` },
            },
            systemClock,
          );
      });
      await store.close();
      const url = `smtp://127.0.0.1:${smtp.port}`;

      const first = startChild([dataDir, url, caFile, ...pg]);
      await first.ready;
      await until(() => smtp.received.length >= 15, 60_000, 'the first process to send some');
      first.child.kill('SIGKILL');
      await first.closed;
      const beforeKill = smtp.received.length;
      expect(beforeKill).toBeLessThan(MESSAGES);

      const second = startChild([dataDir, url, caFile, ...pg]);
      await second.ready;
      const ids = async () => new Set(await Promise.all(smtp.received.map(async (r) => (await parse(r)).messageId)));
      let unique = 0;
      for (let i = 0; i < 600 && unique < MESSAGES; i++) {
        unique = (await ids()).size;
        if (unique < MESSAGES) await new Promise((r) => setTimeout(r, 100));
      }
      second.child.kill('SIGTERM');
      await second.closed;

      expect(unique).toBe(MESSAGES);
      const duplicates = smtp.received.length - MESSAGES;
      console.log(
        `mail crash (${engine}): ${beforeKill} received before SIGKILL, ${duplicates} duplicate(s) after restart`,
      );
      expect(duplicates).toBeGreaterThanOrEqual(0);
      expect(duplicates).toBeLessThanOrEqual(MAX_IN_FLIGHT);

      const after = await open();
      const recs = await after.all<MailRecord>(MAIL);
      await after.close();
      expect(recs.filter((m) => m.state === 'sent')).toHaveLength(MESSAGES);
      expect(recs.every((m) => m.data === null)).toBe(true);
    } finally {
      await smtp.close();
      rmSync(cert.dir, { recursive: true, force: true });
    }
  });
});
