/**
 * Secrets at rest, on the embedded store and on PostgreSQL: webhook and embed signing secrets are stored sealed
 * under the master key (nothing in the data files or table rows shows them), deliveries are still signed with them,
 * `svc secrets rotate-master` (the real program) moves everything to a new key that the old one no longer opens, a
 * wrong key refuses to start, a rotated secret is erased by the sweeper when its grace ends, and operator
 * subscriptions (`accounts: "*"`) receive every account's events while ordinary ones see only their own.
 */
import { createDecipheriv } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountTx } from '../../src/accounts/tenancy.js';
import { systemClock } from '../../src/core/clock.js';
import type { Config } from '../../src/core/config.js';
import { generateMasterKey, keyIdOf, recordAad } from '../../src/core/keyring.js';
import { recordEvent } from '../../src/events/events.js';
import { Dispatcher, verifyWebhookSignature, type WebhookRecord } from '../../src/webhooks/index.js';
import { SecretSweeper } from '../../src/webhooks/secrets.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';
import { runSvc } from '../support/cli.js';
import { FakeTime, hasOpenssl, makeCert, startReceiver, type Tls } from './helpers.js';

const KNOWN = 'shape-b-known-secret-0123456789';
const SEALED = /svcenc1\.([0-9a-f]{16})\.([A-Za-z0-9_-]+)/g;

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Engine {
  config: Partial<Config>;
  /** Environment of the `svc` program for this store. */
  env: Record<string, string>;
  /** Extra arguments naming the store for `svc` (the data directory). */
  args: string[];
  /** Everything the store holds, as text: every file of the data directory, or every row of every table. */
  dump(): Promise<string>;
  /** The key file in use. */
  keyFile: string;
  cleanup(): Promise<void>;
}

async function filesUnder(dir: string): Promise<string> {
  let out = '';
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += await readFile(path.join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

async function lowdbEngine(): Promise<Engine> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-at-rest-'));
  return {
    config: { dataDir: dir },
    env: {},
    args: ['--data-dir', dir],
    dump: () => filesUnder(dir),
    keyFile: path.join(dir, 'master.key'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresEngine(): Promise<Engine> {
  const url = await testDatabaseUrl();
  const schema = randomSchema('svc_at_rest');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-at-rest-pg-'));
  const keyFile = path.join(dir, 'master.key');
  await writeFile(keyFile, generateMasterKey().toString('base64') + '\n', { mode: 0o600 });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  return {
    config: { dataDir: path.join(dir, 'data'), databaseUrl: url, databaseSchema: schema, masterKey: { file: keyFile } },
    env: { SVC_DATABASE_URL: url, SVC_DATABASE_SCHEMA: schema, SVC_MASTER_KEY_FILE: keyFile },
    args: ['--data-dir', path.join(dir, 'data')],
    async dump() {
      const tables = await admin.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
        [schema],
      );
      expect(tables.rows.length).toBeGreaterThan(0);
      let out = '';
      for (const { table_name } of tables.rows) {
        const rows = await admin.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`);
        for (const r of rows.rows) out += r.row + '\n';
      }
      return out;
    },
    keyFile,
    async cleanup() {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether AES-256-GCM with `key` opens `sealed` for any of the AADs (tried directly, not through the keyring). */
function opensWith(key: Buffer, sealed: string, aads: string[]): boolean {
  const raw = Buffer.from(sealed.split('.')[2]!, 'base64url');
  for (const aad of aads) {
    try {
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12), { authTagLength: 16 });
      d.setAAD(Buffer.from(aad));
      d.setAuthTag(raw.subarray(raw.length - 16));
      d.update(raw.subarray(12, raw.length - 16));
      d.final();
      return true;
    } catch {
      // not this one
    }
  }
  return false;
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await vi.waitFor(async () => expect(await check(), what).toBe(true), { timeout: 20_000, interval: 25 });
}

// The rotation test runs the `svc` program three times (each loads the sources through tsx): minutes on a busy machine.
describe.skipIf(!hasOpenssl()).each(['lowdb', 'postgres'] as const)(
  'secrets at rest (%s)',
  { timeout: 300_000 },
  (kind) => {
    let engine: Engine;
    let tls: Tls;
    let receiver: Receiver;
    let server: TestServer | undefined;
    let dispatcher: Dispatcher | undefined;
    const s: {
      account: string;
      partnerKey: string;
      webhookId: string;
      fresh: string;
      embed: string;
      embedKeyId: string;
    } = {
      account: '',
      partnerKey: '',
      webhookId: '',
      fresh: '',
      embed: '',
      embedKeyId: '',
    };

    async function start(): Promise<TestServer> {
      server = await startTestServer({ config: { ...engine.config, webhookAllow: '127.0.0.1' }, listen: false });
      return server;
    }

    async function stop(): Promise<void> {
      await dispatcher?.stop();
      dispatcher = undefined;
      await server?.close();
      server = undefined;
    }

    function startDispatcher(srv: TestServer): Dispatcher {
      dispatcher = new Dispatcher({
        store: srv.services.store,
        clock: systemClock,
        keyring: srv.services.keyring,
        ca: tls.cert,
        allow: '127.0.0.1',
        jitterMs: 0,
        timeoutMs: 5000,
        pollMs: 50,
      });
      dispatcher.start();
      return dispatcher;
    }

    async function call(srv: TestServer, key: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
      const res = await srv.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}` },
        ...(payload ? { payload: payload as object } : {}),
      });
      return {
        status: res.statusCode,
        body: res.json() as {
          success: boolean;
          data: Record<string, unknown>;
          meta: Record<string, unknown>;
          error?: { code: string };
        },
      };
    }

    async function event(srv: TestServer, ownerId: string, n: number): Promise<void> {
      await srv.services.store.transact((tx) =>
        recordEvent(accountTx(tx, ownerId), { type: 'contract.generated', ownerId, data: { n } }, systemClock),
      );
    }

    beforeAll(async () => {
      engine = kind === 'lowdb' ? await lowdbEngine() : await postgresEngine();
      tls = makeCert();
      receiver = await startReceiver(tls);
    });

    afterAll(async () => {
      await stop();
      await receiver?.close();
      await engine?.cleanup();
    });

    it('stores no signing secret in plain text; deliveries are signed with them', async () => {
      const srv = await start();
      s.account = await srv.account({ tier: 'partner' });
      s.partnerKey = await srv.key({ ownerId: s.account, tier: 'partner', scopes: ['webhooks', 'embed'] });
      const created = await call(srv, s.partnerKey, 'POST', '/webhooks/subscriptions', {
        event: 'contract.generated',
        url: receiver.url('/own'),
        secret: KNOWN,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      s.webhookId = created.body.data.id as string;
      // A rotation with a grace: the known secret stays as the predecessor, the new one is generated.
      const rotated = await call(
        srv,
        s.partnerKey,
        'POST',
        `/webhooks/subscriptions/${s.webhookId}/regenerate-secret`,
        { graceSeconds: 3600 },
      );
      expect(rotated.status).toBe(200);
      s.fresh = rotated.body.meta.secret as string;
      const embed = await call(srv, s.partnerKey, 'POST', '/embed/secret', { graceSeconds: 0 });
      expect(embed.status, JSON.stringify(embed.body)).toBe(200);
      s.embed = embed.body.meta.secret as string;
      s.embedKeyId = embed.body.data.keyId as string;
      expect(s.fresh).toMatch(/^whsec_/);
      expect(s.embed).toMatch(/^whsec_/);

      await srv.services.store.flush();
      const dump = await engine.dump();
      expect(dump).toContain(s.webhookId); // the right place is searched
      expect(dump.match(SEALED)?.length ?? 0).toBeGreaterThanOrEqual(4); // secret, predecessor, embed secret, key check
      for (const secret of [KNOWN, s.fresh, s.embed]) expect(dump).not.toContain(secret);

      startDispatcher(srv);
      await event(srv, s.account, 1);
      await eventually(() => receiver.received.some((r) => r.path === '/own'), 'the delivery arrives');
      const got = receiver.received.find((r) => r.path === '/own')!;
      const header = String(got.headers['x-webhook-signature']);
      expect(verifyWebhookSignature(got.body, header, KNOWN)).toBe(true);
      expect(verifyWebhookSignature(got.body, header, s.fresh)).toBe(true);
      expect(verifyWebhookSignature(got.body, header, 'whsec_some-other-secret-entirely')).toBe(false);
      expect(JSON.parse(got.body)).toMatchObject({ accountId: s.account, webhookId: s.webhookId });
      if (kind === 'lowdb') {
        // While a process holds the data directory, the rotation refuses and changes nothing.
        const keyBefore = await readFile(engine.keyFile, 'utf8');
        const busy = await runSvc(['secrets', 'rotate-master', ...engine.args], engine.env);
        expect(busy.code).toBe(2);
        expect(busy.stderr).toMatch(/stop the service before rotating the master key/);
        expect(await readFile(engine.keyFile, 'utf8')).toBe(keyBefore);
      }
      await stop();
    });

    it('svc secrets rotate-master re-seals everything under a new key; the old key opens nothing and is refused at start', async () => {
      const oldKey = Buffer.from((await readFile(engine.keyFile, 'utf8')).trim(), 'base64');
      const before = (await engine.dump()).match(SEALED)!;
      expect(new Set(before.map((v) => v.split('.')[1]))).toEqual(new Set([keyIdOf(oldKey)]));

      const run = await runSvc(['secrets', 'rotate-master', ...engine.args], engine.env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Re-sealed [1-9]\d* record\(s\) from master key [0-9a-f]{16} to [0-9a-f]{16}/);
      const newKey = Buffer.from((await readFile(engine.keyFile, 'utf8')).trim(), 'base64');
      expect(newKey.equals(oldKey)).toBe(false);

      const dump = await engine.dump();
      for (const secret of [KNOWN, s.fresh, s.embed]) expect(dump).not.toContain(secret);
      const after = dump.match(SEALED)!;
      expect(after.length).toBe(before.length);
      const aads = [
        recordAad('webhooks', s.webhookId),
        recordAad('embed_secrets', s.embedKeyId),
        recordAad('system', 'keyring'),
      ];
      for (const value of after) {
        expect(value.split('.')[1]).toBe(keyIdOf(newKey));
        expect(opensWith(newKey, value, aads), 'the new key opens it').toBe(true);
        expect(opensWith(oldKey, value, aads), 'the old key opens nothing').toBe(false);
      }

      // The old key is refused at start with one clear line, no stack trace.
      const env = { ...engine.env, SVC_MASTER_KEY: oldKey.toString('base64') };
      delete (env as Record<string, string>).SVC_MASTER_KEY_FILE;
      const wrong = await runSvc(['serve', '--port', '0', ...engine.args], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/not the one this data's secrets are sealed with/);
      expect(wrong.stderr).not.toMatch(/\n\s+at /);
      expect(wrong.stderr).not.toContain(oldKey.toString('base64'));

      // Everything still works with the new key: deliveries signed with the same secrets.
      const srv = await start();
      startDispatcher(srv);
      const seen = receiver.received.length;
      await event(srv, s.account, 2);
      await eventually(
        () => receiver.received.slice(seen).some((r) => r.path === '/own'),
        'the delivery arrives after the rotation',
      );
      const got = receiver.received.slice(seen).find((r) => r.path === '/own')!;
      expect(verifyWebhookSignature(got.body, String(got.headers['x-webhook-signature']), KNOWN)).toBe(true);
      expect(verifyWebhookSignature(got.body, String(got.headers['x-webhook-signature']), s.fresh)).toBe(true);
      const embedRecord = (await srv.services.store.get<{ id: string; secret: string }>(
        'embed_secrets',
        s.embedKeyId,
      ))!;
      expect(srv.services.keyring.openString(embedRecord.secret, recordAad('embed_secrets', s.embedKeyId))).toBe(
        s.embed,
      );
    });

    it('erases a rotated secret when its grace ends, by the sweeper, with nothing reading the record', async () => {
      const srv = server!;
      await dispatcher?.stop(); // nothing else touches the subscription
      dispatcher = undefined;
      const rotated = await call(
        srv,
        s.partnerKey,
        'POST',
        `/webhooks/subscriptions/${s.webhookId}/regenerate-secret`,
        { graceSeconds: 60 },
      );
      expect(rotated.status).toBe(200);
      const embed = await call(srv, s.partnerKey, 'POST', '/embed/secret', { graceSeconds: 60 });
      expect(embed.status).toBe(200);
      const webhookBefore = (await srv.services.store.get<WebhookRecord>('webhooks', s.webhookId))!;
      const embedBefore = (await srv.services.store.get<{ id: string; previousSecret: string | null }>(
        'embed_secrets',
        s.embedKeyId,
      ))!;
      expect(webhookBefore.previousSecret).toMatch(/^svcenc1\./);
      expect(embedBefore.previousSecret).toMatch(/^svcenc1\./);

      const time = new FakeTime();
      time.now = Date.now();
      const sweeper = new SecretSweeper({ store: srv.services.store, clock: time.clock, scheduler: time });
      sweeper.start();
      try {
        await eventually(() => time.nextTimer() !== null, 'the first sweep ran and set its timer');
        // Set for the grace end (60 s after the rotation), not later.
        expect(time.nextTimer()!).toBeLessThanOrEqual(webhookBefore.previousSecretExpiresAt!);
        time.advance(Math.max(0, webhookBefore.previousSecretExpiresAt! - time.now - 2_000));
        await eventually(() => time.nextTimer() !== null, 'no sweep in flight');
        expect((await srv.services.store.get<WebhookRecord>('webhooks', s.webhookId))!.previousSecret).toBe(
          webhookBefore.previousSecret,
        );
        time.advance(3_000);
        await eventually(
          async () =>
            // A timer the sweeper sets once the grace ends (for the next grace end, already past) fires at the next tick.
            time.advance(0) === undefined &&
            (await srv.services.store.get<WebhookRecord>('webhooks', s.webhookId))!.previousSecret === null &&
            (await srv.services.store.get<{ id: string; previousSecret: string | null }>(
              'embed_secrets',
              s.embedKeyId,
            ))!.previousSecret === null,
          'the sweeper erased both predecessors',
        );
      } finally {
        await sweeper.stop();
      }
      await srv.services.store.flush();
      const dump = await engine.dump();
      expect(dump).not.toContain(webhookBefore.previousSecret!);
      expect(dump).not.toContain(embedBefore.previousSecret!);
    });

    it('an operator subscription with accounts "*" receives other accounts\' events, naming the account; others cannot ask for it', async () => {
      const srv = server!;
      const op = await call(srv, srv.adminKey, 'POST', '/webhooks/subscriptions', {
        url: receiver.url('/operator'),
        events: ['*'],
        accounts: '*',
      });
      expect(op.status, JSON.stringify(op.body)).toBe(201);
      expect(op.body.data.accounts).toBe('*');
      const opId = op.body.data.id as string;
      const opSecret = op.body.meta.secret as string;

      // Refused to a partner key and to an internal key without scope "all".
      const partner = await call(srv, s.partnerKey, 'POST', '/webhooks/subscriptions', {
        url: receiver.url('/x'),
        events: ['*'],
        accounts: '*',
      });
      expect(partner.status).toBe(403);
      const narrowKey = await srv.key({ tier: 'internal', scopes: ['webhooks'] });
      const narrow = await call(srv, narrowKey, 'POST', '/webhooks/subscriptions', {
        url: receiver.url('/x'),
        events: ['*'],
        accounts: '*',
      });
      expect(narrow.status).toBe(403);

      // A third account's ordinary subscription.
      const other = await srv.account({ tier: 'partner' });
      const otherKey = await srv.key({ ownerId: other, tier: 'partner', scopes: ['webhooks'] });
      expect(
        (await call(srv, otherKey, 'POST', '/webhooks/subscriptions', { url: receiver.url('/other'), events: ['*'] }))
          .status,
      ).toBe(201);

      startDispatcher(srv);
      const seen = receiver.received.length;
      await event(srv, s.account, 3);
      await eventually(
        () => receiver.received.slice(seen).filter((r) => r.path === '/operator' || r.path === '/own').length === 2,
        'both deliveries arrive',
      );
      await dispatcher!.idle();
      const fresh = receiver.received.slice(seen);
      expect(fresh.filter((r) => r.path === '/other')).toHaveLength(0);
      const toOp = fresh.find((r) => r.path === '/operator')!;
      expect(JSON.parse(toOp.body)).toMatchObject({ accountId: s.account, webhookId: opId, data: { n: 3 } });
      expect(verifyWebhookSignature(toOp.body, String(toOp.headers['x-webhook-signature']), opSecret)).toBe(true);

      // The account's event log shows its own delivery only, not the operator's.
      const log = await call(srv, s.partnerKey, 'GET', '/webhooks/events?limit=5');
      const item = (
        log.body.data as unknown as Array<{ data: { n: number }; deliveries: Array<{ webhookId: string }> }>
      ).find((e) => e.data.n === 3)!;
      expect(item.deliveries.map((d) => d.webhookId)).toEqual([s.webhookId]);

      // The other account's event reaches it and the operator; the first account sees nothing of it.
      const seen2 = receiver.received.length;
      await event(srv, other, 4);
      await eventually(
        () => receiver.received.slice(seen2).filter((r) => r.path === '/operator' || r.path === '/other').length === 2,
        'both deliveries arrive',
      );
      await dispatcher!.idle();
      expect(receiver.received.slice(seen2).filter((r) => r.path === '/own')).toHaveLength(0);
      expect(JSON.parse(receiver.received.slice(seen2).find((r) => r.path === '/operator')!.body)).toMatchObject({
        accountId: other,
      });

      // The operator's own event: one delivery, not two.
      const seen3 = receiver.received.length;
      const operatorAccount = (await srv.services.store.get<WebhookRecord>('webhooks', opId))!.ownerId;
      await event(srv, operatorAccount, 5);
      await eventually(
        () => receiver.received.slice(seen3).some((r) => r.path === '/operator'),
        'the delivery arrives',
      );
      await dispatcher!.idle();
      expect(receiver.received.slice(seen3).filter((r) => r.path === '/operator')).toHaveLength(1);
    });
  },
);
