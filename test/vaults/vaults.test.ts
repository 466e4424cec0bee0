/**
 * Vaults over HTTP, on the embedded store and on PostgreSQL: an owner writes a letter and a file for one heir and a
 * letter and a sealed file for another; nothing shows before the trigger, a reported trigger alone opens nothing;
 * once the verification completes each heir reads exactly their items (each read a `vault.accessed` in the owner's
 * account, and the owner's access log); a sealed item comes back byte for byte and opens with gpg; another account
 * gets 404 everywhere; no plaintext sits in the data directory or the PostgreSQL rows; a master-key rotation re-wraps
 * the data keys, leaves the items as they were stored, and keeps every item readable.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMasterKey, Keyring, sealedKeyId } from '../../src/core/keyring.js';
import { createLogger } from '../../src/core/log.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { rotateStoreKey } from '../../src/store/master-key.js';
import { VAULT_ITEMS, VAULTS, type VaultItemRecord, type VaultRecord } from '../../src/vaults/records.js';
import { startTestServer, TEST_MASTER_KEY, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const ANA = EVM(2);
const RUI = EVM(3);

// Known plaintext: none of it may appear at rest.
const VAULT_NAME = 'Quillfeather family vault';
const LETTER_ANA = 'Dear Ana, the deeds to the Marrowgate house are in the blue folder.';
const TITLE_ANA = 'Zephyrine letter for Ana';
const FILE_ANA = Buffer.from('%PDF-1.4 Obsidianwick deed scan, page one of one\n%%EOF\n');
const FILE_NAME = 'obsidianwick-deed.pdf';
const LETTER_RUI = 'Rui, the router password is Thistledown-4471 and the bank is Calderbright.';
const SEALED_TEXT = 'Nightjar seed phrase: the lantern keeps the ninth word.';
const PASSPHRASE = 'correct horse battery staple for Rui';
const PLAINTEXTS = [VAULT_NAME, LETTER_ANA, TITLE_ANA, FILE_ANA.toString('latin1'), FILE_NAME, LETTER_RUI, SEALED_TEXT];

let server: TestServer;
let owner: TestSession;
let ana: TestSession;
let rui: TestSession;
let stranger: TestSession;
let watcher: string;
let strangerKey: string;
let ownerReadKey: string;
let planId: string;
let vaultId: string;
const items: Record<string, string> = {};
let shares: Record<string, { shareId: string; code: string }> = {};
let sealedBytes: Buffer;
let gnupgHome: string;
/** Everything the service logged, at the most detailed level. */
let logged = '';

interface Answer {
  status: number;
  body: ReturnType<typeof JSON.parse>;
  raw: Buffer;
  headers: Record<string, unknown>;
}

async function call(who: TestSession | string, method: string, url: string, payload?: unknown): Promise<Answer> {
  const headers = typeof who === 'string' ? { authorization: `Bearer ${who}` } : sessionHeaders(who);
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: headers as Record<string, string>,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, raw: res.rawPayload, headers: res.headers };
}

function gpg(args: string[], input?: Buffer): Buffer {
  const run = spawnSync('gpg', ['--batch', '--yes', '--pinentry-mode', 'loopback', ...args], {
    env: { ...process.env, GNUPGHOME: gnupgHome },
    input,
  });
  if (run.error)
    throw new Error(`gpg is needed for the sealed-item test (apt-get install gnupg): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`gpg failed: ${run.stderr.toString()}`);
  return run.stdout;
}

async function filesUnder(dir: string): Promise<string> {
  let out = '';
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += (await readFile(path.join(e.parentPath, e.name))).toString('latin1');
  }
  return out;
}

const accessed = async () =>
  (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter(
    (e) => e.type === 'vault.accessed',
  );

describe.each(['lowdb', 'postgres'] as const)('vaults over HTTP (%s)', (engine) => {
  let schema: string | undefined;
  beforeAll(async () => {
    offset = 0;
    gnupgHome = await mkdtemp(path.join(os.tmpdir(), 'svc-gnupg-'));
    schema = engine === 'postgres' ? randomSchema('svc_vaults') : undefined;
    // Sessions outlive the 7-day waiting period, so the people of the story stay signed in across it.
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    const masterKey = { value: TEST_MASTER_KEY };
    const config = schema
      ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, sessions, masterKey }
      : { sessions, masterKey };
    logged = '';
    const log = createLogger('trace', {
      write: (line: string) => {
        logged += line;
      },
    });
    server = await startTestServer({ clock, config, log });
    owner = await registerUser(server.app, { name: 'Rose' });
    ana = await registerUser(server.app);
    rui = await registerUser(server.app);
    stranger = await registerUser(server.app);
    watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
    ownerReadKey = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['vaults:read'] });
    strangerKey = await server.key({ ownerId: stranger.accountId, tier: 'public', scopes: ['vaults'] });
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
    await rm(gnupgHome, { recursive: true, force: true });
  });

  it('the owner writes a letter and a file for Ana, a letter and a sealed file for Rui, and links the plan', async () => {
    const linked = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [
          { name: 'Ana', address: ANA, percentage: 60 },
          { name: 'Rui', address: RUI, percentage: 40 },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 30 },
    });
    expect(linked.status).toBe(201);
    planId = linked.body.data.plan.id;
    shares = Object.fromEntries(
      linked.body.data.codes.map((c: { heir: string; shareId: string; code: string }) => [c.heir, c]),
    );

    const created = await call(owner, 'POST', '/api/v1/vaults', { name: VAULT_NAME });
    expect(created.status).toBe(201);
    vaultId = created.body.data.id;
    expect(created.body.data).toMatchObject({ name: VAULT_NAME, planId: null, released: false, items: [] });

    const add = (body: Record<string, unknown>) => call(owner, 'POST', `/api/v1/vaults/${vaultId}/items`, body);
    const letterAna = await add({ title: TITLE_ANA, text: LETTER_ANA, heirs: [ANA] });
    expect(letterAna.status).toBe(201);
    expect(letterAna.body.data).toMatchObject({
      kind: 'text',
      title: TITLE_ANA,
      heirs: [ANA],
      size: LETTER_ANA.length,
    });
    items.letterAna = letterAna.body.data.id;
    const fileAna = await add({
      title: 'Deed',
      heirs: [ANA.toUpperCase().replace('0X', '0x')],
      file: { contentBase64: FILE_ANA.toString('base64'), contentType: 'application/pdf', fileName: FILE_NAME },
    });
    expect(fileAna.status).toBe(201);
    items.fileAna = fileAna.body.data.id;
    items.letterRui = (await add({ title: 'For Rui', text: LETTER_RUI, heirs: [RUI] })).body.data.id;
    // Sealed by the owner with gpg and a passphrase svc never sees.
    sealedBytes = gpg(
      ['--symmetric', '--cipher-algo', 'AES256', '--passphrase', PASSPHRASE, '-o', '-'],
      Buffer.from(SEALED_TEXT),
    );
    const sealed = await add({
      title: 'Sealed for Rui',
      heirs: [RUI],
      sealed: { contentBase64: sealedBytes.toString('base64'), format: 'openpgp', fileName: 'seed.gpg' },
    });
    expect(sealed.status).toBe(201);
    expect(sealed.body.data).toMatchObject({
      kind: 'sealed',
      format: 'openpgp',
      contentType: 'application/pgp-encrypted',
    });
    items.sealedRui = sealed.body.data.id;

    // Bad inputs are refused, naming the field, and store nothing.
    const both = await add({
      title: 'x',
      heirs: [ANA],
      text: 'a',
      file: { contentBase64: 'AA==', contentType: 'text/plain', fileName: 'a' },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details[0].field).toBe('file');
    const badB64 = await add({
      title: 'x',
      heirs: [ANA],
      file: { contentBase64: '!!!', contentType: 'text/plain', fileName: 'a' },
    });
    expect(badB64.body.error.details[0].field).toBe('file.contentBase64');
    const twice = await add({ title: 'x', heirs: [ANA, ANA], text: 'a' });
    expect(twice.body.error.details[0].field).toBe('heirs.1');

    // The owner reads the letter back.
    const back = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${items.letterAna}`);
    expect(back.body.data).toMatchObject({ text: LETTER_ANA, contentBase64: null });
    const fileBack = await call(ownerReadKey, 'GET', `/api/v1/vaults/${vaultId}/items/${items.fileAna}`);
    expect(Buffer.from(fileBack.body.data.contentBase64, 'base64')).toEqual(FILE_ANA);

    // Linking checks each item's heirs against the plan; a stranger's address in an item is refused.
    const wrong = await add({ title: 'For someone else', text: 'hello', heirs: [EVM(9)] });
    expect(wrong.status).toBe(201);
    const refused = await call(owner, 'PUT', `/api/v1/vaults/${vaultId}/plan`, { planId });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe(`items.${wrong.body.data.id}.heirs.0`);
    expect((await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}/items/${wrong.body.data.id}`)).status).toBe(200);
    const link = await call(owner, 'PUT', `/api/v1/vaults/${vaultId}/plan`, { planId });
    expect(link.status).toBe(200);
    expect(link.body.data).toMatchObject({
      planId,
      planState: 'armed',
      released: false,
      itemCount: 4,
      accessLog: null,
    });
    // Once linked, a new item must name heirs of the plan.
    expect((await add({ title: 'x', text: 'y', heirs: [EVM(9)] })).body.error.details[0]).toMatchObject({
      field: 'heirs.0',
    });

    for (const [who, heir] of [
      [ana, 'Ana'],
      [rui, 'Rui'],
    ] as const) {
      expect((await call(who, 'POST', '/api/v1/svcloom/shared/claim', { code: shares[heir]!.code })).status).toBe(200);
    }
    const kinds = (await accessed()).length;
    expect(kinds).toBe(0);
    const types = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId))
      .map((e) => e.type)
      .filter((t) => t.startsWith('vault.'));
    expect(types).toEqual(['vault.created', ...Array(7).fill('vault.updated')]);
  });

  it('before the trigger, and after a reported trigger alone, heirs see nothing', async () => {
    const look = async () => {
      for (const [who, heir] of [
        [ana, 'Ana'],
        [rui, 'Rui'],
      ] as const) {
        const list = await call(who, 'GET', `/api/v1/vaults/shared/${shares[heir]!.shareId}/items`);
        expect(list.status).toBe(403);
        expect(list.body.error.code).toBe('SHARE_NOT_AVAILABLE');
        expect(JSON.stringify(list.body)).not.toContain(vaultId);
        const one = await call(who, 'GET', `/api/v1/vaults/shared/${shares[heir]!.shareId}/items/${items.letterAna}`);
        expect(one.status).toBe(403);
      }
    };
    await look();
    expect((await call(ownerReadKey, 'GET', `/api/v1/vaults/${vaultId}`)).body.data).toMatchObject({
      released: false,
      accessLog: null,
    });
    // (The owner's own calls after the trigger would be a sign of life and stop the verification.)
    const fired = await call(watcher, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.body.data.plan.state).toBe('verifying');
    await look();
    offset = 3 * DAY;
    await look();
    expect(await accessed()).toEqual([]);
  });

  it('after the verification completes, each heir reads exactly their items, each read recorded', async () => {
    offset = 8 * DAY;
    await completeDueVerifications(server.services.store, clock);
    const listOf = async (who: TestSession, heir: string) =>
      (await call(who, 'GET', `/api/v1/vaults/shared/${shares[heir]!.shareId}/items`)).body.data.map(
        (i: { id: string; title: string; vaultName: string }) => [i.id, i.title, i.vaultName],
      );
    expect(await listOf(ana, 'Ana')).toEqual([
      [items.letterAna, TITLE_ANA, VAULT_NAME],
      [items.fileAna, 'Deed', VAULT_NAME],
    ]);
    expect(await listOf(rui, 'Rui')).toEqual([
      [items.letterRui, 'For Rui', VAULT_NAME],
      [items.sealedRui, 'Sealed for Rui', VAULT_NAME],
    ]);

    const anaBase = `/api/v1/vaults/shared/${shares.Ana!.shareId}/items`;
    const letter = await call(ana, 'GET', `${anaBase}/${items.letterAna}`);
    expect(letter.body.data).toMatchObject({ kind: 'text', text: LETTER_ANA, contentBase64: null });
    // A HEAD delivers nothing, so it is no download: the route takes GET only (405), the tool does not run and nothing
    // is recorded (the events below).
    expect((await call(ana, 'HEAD', `${anaBase}/${items.fileAna}/download`)).status).toBe(405);
    const file = await call(ana, 'GET', `${anaBase}/${items.fileAna}/download`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain(FILE_NAME);
    expect(file.raw).toEqual(FILE_ANA);
    // Rui's items do not exist for Ana, whichever way she asks.
    for (const id of [items.letterRui, items.sealedRui]) {
      expect((await call(ana, 'GET', `${anaBase}/${id}`)).status).toBe(404);
      expect((await call(ana, 'GET', `${anaBase}/${id}/download`)).status).toBe(404);
    }
    // Ana cannot read through Rui's share.
    expect((await call(ana, 'GET', `/api/v1/vaults/shared/${shares.Rui!.shareId}/items`)).status).toBe(404);

    // The sealed item comes back byte for byte, and opens with gpg and the passphrase.
    const sealed = await call(
      rui,
      'GET',
      `/api/v1/vaults/shared/${shares.Rui!.shareId}/items/${items.sealedRui}/download`,
    );
    expect(sealed.headers['content-type']).toBe('application/pgp-encrypted');
    expect(sealed.raw).toEqual(sealedBytes);
    expect(gpg(['--decrypt', '--passphrase', PASSPHRASE], sealed.raw).toString()).toBe(SEALED_TEXT);
    const ruiLetter = await call(rui, 'GET', `/api/v1/vaults/shared/${shares.Rui!.shareId}/items/${items.letterRui}`);
    expect(ruiLetter.body.data.text).toBe(LETTER_RUI);

    const events = await accessed();
    expect(events.map((e) => [e.data.itemId, e.data.shareId, e.data.readerAccountId, e.data.via])).toEqual([
      [items.letterAna, shares.Ana!.shareId, ana.accountId, 'read'],
      [items.fileAna, shares.Ana!.shareId, ana.accountId, 'download'],
      [items.sealedRui, shares.Rui!.shareId, rui.accountId, 'download'],
      [items.letterRui, shares.Rui!.shareId, rui.accountId, 'read'],
    ]);
    // Nothing of the content travels in the events.
    expect(JSON.stringify(events)).not.toContain(TITLE_ANA);
    const vault = (await call(owner, 'GET', `/api/v1/vaults/${vaultId}`)).body.data;
    expect(vault.released).toBe(true);
    expect(vault.accessLog.map((a: { heir: string; itemId: string }) => [a.heir, a.itemId])).toEqual([
      ['Rui', items.letterRui],
      ['Rui', items.sealedRui],
      ['Ana', items.fileAna],
      ['Ana', items.letterAna],
    ]);
    // A revoked share reads nothing more.
    expect((await call(owner, 'DELETE', `/api/v1/svcloom/heirs/shares/${shares.Rui!.shareId}`)).status).toBe(200);
    const revoked = await call(rui, 'GET', `/api/v1/vaults/shared/${shares.Rui!.shareId}/items/${items.letterRui}`);
    expect(revoked.body.error.code).toBe('SHARE_NOT_AVAILABLE');
  });

  it("another account's keys and sessions get 404 on everything", async () => {
    for (const who of [stranger, strangerKey]) {
      const base = `/api/v1/vaults/${vaultId}`;
      const calls: Array<[string, string, unknown?]> = [
        ['GET', base],
        ['DELETE', base],
        ['PUT', `${base}/plan`, { planId }],
        ['POST', `${base}/items`, { title: 'x', text: 'y', heirs: [ANA] }],
        ['GET', `${base}/items/${items.letterAna}`],
        ['PATCH', `${base}/items/${items.letterAna}`, { title: 'mine now' }],
        ['DELETE', `${base}/items/${items.letterAna}`],
        ['GET', `/api/v1/vaults/shared/${shares.Ana!.shareId}/items`],
        ['GET', `/api/v1/vaults/shared/${shares.Ana!.shareId}/items/${items.letterAna}`],
        ['GET', `/api/v1/vaults/shared/${shares.Ana!.shareId}/items/${items.letterAna}/download`],
      ];
      for (const [method, url, body] of calls) {
        const res = await call(who, method, url, body);
        expect(res.status, `${method} ${url}`).toBe(404);
      }
      expect((await call(who, 'GET', '/api/v1/vaults')).body.data).toEqual([]);
    }
    // The owner's own vault to a plan of another account: 404 too.
    const theirs = await call(stranger, 'POST', '/api/v1/vaults', { name: 'mine' });
    expect((await call(stranger, 'PUT', `/api/v1/vaults/${theirs.body.data.id}/plan`, { planId })).status).toBe(404);
    // Everything is still there for the owner.
    expect((await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${items.letterAna}`)).body.data.text).toBe(
      LETTER_ANA,
    );
  });

  it('no plaintext at rest: neither in the data directory, the PostgreSQL rows nor the logs', async () => {
    await server.services.store.flush();
    let dump = await filesUnder(server.dataDir);
    if (schema) {
      const admin = new pg.Client({ connectionString: await testDatabaseUrl() });
      await admin.connect();
      try {
        const tables = await admin.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
          [schema],
        );
        expect(tables.rows.map((r) => r.table_name).join()).toContain('vault');
        for (const { table_name } of tables.rows) {
          const rows = await admin.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`);
          for (const r of rows.rows) dump += r.row + '\n';
        }
      } finally {
        await admin.end();
      }
    } else {
      // The embedded store's file is where records live: it must hold the vault (encrypted).
      expect(dump).toContain(vaultId);
    }
    expect(dump).toContain(items.letterAna);
    for (const text of PLAINTEXTS) expect(dump, text).not.toContain(text);
    // The log ran (it holds the requests) and holds nothing of the vault either.
    expect(logged).toContain(`/api/v1/vaults/${vaultId}`);
    for (const text of PLAINTEXTS) expect(logged, text).not.toContain(text);
    // Nor the sealed file's bytes as the owner sent them (they are encrypted once more).
    expect(dump).not.toContain(sealedBytes.toString('base64'));
  });

  it('deleting a plan unlinks its vaults, and only its own', async () => {
    const other = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      label: 'Second plan',
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [{ name: 'Ana', address: ANA, percentage: 100 }],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirAccess: { enabled: true },
    });
    expect(other.status).toBe(201);
    const otherPlan = other.body.data.plan.id as string;
    const vault = await call(owner, 'POST', '/api/v1/vaults', { name: 'Papers for the second plan' });
    expect(vault.status).toBe(201);
    const id = vault.body.data.id as string;
    expect((await call(owner, 'PUT', `/api/v1/vaults/${id}/plan`, { planId: otherPlan })).status).toBe(200);

    const gone = await call(owner, 'DELETE', `/api/v1/svcloom/heirs/plans/${otherPlan}`);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ deleted: true, sharesRevoked: 1, vaultsUnlinked: 1 });
    expect((await call(owner, 'GET', `/api/v1/vaults/${id}`)).body.data.planId).toBeNull();
    // The first plan's vault keeps its link.
    expect((await call(owner, 'GET', `/api/v1/vaults/${vaultId}`)).body.data.planId).toBe(planId);
    const told = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter(
      (e) => e.type === 'vault.updated' && e.data.vaultId === id,
    );
    expect(told.map((e) => e.data.change)).toEqual(['plan.linked', 'plan.unlinked']);
    // It can be linked to the remaining plan again.
    expect((await call(owner, 'PUT', `/api/v1/vaults/${id}/plan`, { planId })).status).toBe(200);
    expect((await call(owner, 'DELETE', `/api/v1/vaults/${id}`)).status).toBe(200);
  });

  it('a master-key rotation re-wraps the data keys, leaves the items as stored, and keeps them readable', async () => {
    const store = server.services.store;
    const old = Buffer.from(TEST_MASTER_KEY, 'base64');
    const fresh = generateMasterKey();
    const before = await store.get<VaultRecord>(VAULTS, vaultId);
    const itemsBefore = await store.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', vaultId);
    await rotateStoreKey(store, old, fresh, clock.now());
    server.services.keyring = new Keyring(fresh);
    const after = await store.get<VaultRecord>(VAULTS, vaultId);
    expect(sealedKeyId(after!.wrappedKey)).toBe(new Keyring(fresh).keyId);
    expect(after!.wrappedKey).not.toBe(before!.wrappedKey);
    expect(() => new Keyring(old).unwrapKey(after!.wrappedKey, `vaults/${vaultId}`)).toThrow();
    const itemsAfter = await store.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', vaultId);
    expect(itemsAfter.map((i) => [i.id, i.content, i.meta])).toEqual(itemsBefore.map((i) => [i.id, i.content, i.meta]));

    for (const id of [items.letterAna, items.fileAna, items.letterRui, items.sealedRui]) {
      expect((await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${id}`)).status).toBe(200);
    }
    const letter = await call(ana, 'GET', `/api/v1/vaults/shared/${shares.Ana!.shareId}/items/${items.letterAna}`);
    expect(letter.body.data.text).toBe(LETTER_ANA);
    const sealed = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${items.sealedRui}`);
    expect(Buffer.from(sealed.body.data.contentBase64, 'base64')).toEqual(sealedBytes);
    // Deleting the vault frees its items and says so.
    const gone = await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}`);
    expect(gone.body.data).toEqual({ deleted: true, itemsDeleted: 4 });
    expect(await store.findBy(VAULT_ITEMS, 'vaultId', vaultId)).toEqual([]);
  });
});
