/**
 * Vault files uploaded as multipart/form-data, on the embedded store and on PostgreSQL: a 5 MiB file is encrypted in
 * chunks as it streams to disk and comes back byte for byte to its owner and, once released, to its heir; a file
 * sealed with age for the heir's age recipient opens with the real age tool and the heir's identity; a tampered
 * chunk is refused with nothing sent; refused uploads (too large, over the quota, another account, a read-only key,
 * bad fields) leave no file, no staging file, no record and no reserved room; deleting an item removes its file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageUsage } from '../../src/accounts/quota.js';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { accountStore } from '../../src/accounts/tenancy.js';
import { VAULT_ITEMS, type VaultItemRecord } from '../../src/vaults/records.js';
import { openItem } from '../../src/vaults/vaults.js';
import { encryptedSize } from '../../src/vaults/stream.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { multipartBody } from '../memoir/support.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';

const DAY = 86_400_000;
const MiB = 1024 * 1024;
const LIMIT = 6 * MiB;
const QUOTA = 20 * MiB;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const ANA = `0x${'2'.repeat(40)}`;
const RUI = `0x${'3'.repeat(40)}`;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: TestServer;
let owner: TestSession;
let ana: TestSession;
let stranger: TestSession;
let ownerKey: string;
let readKey: string;
let strangerKey: string;
let vaultId: string;
let bigId: string;
let smallId: string;
let ageId: string;
let big: Buffer;
let small: Buffer;
let ageDir: string;
let ageSealed: Buffer;
const AGE_TEXT = 'Ana: the safe at Larkspur Lane opens with 31-07-1962.';

interface Answer {
  status: number;
  body: ReturnType<typeof JSON.parse>;
  raw: Buffer;
  headers: Record<string, unknown>;
}

function headersOf(who: TestSession | string): Record<string, string> {
  return (typeof who === 'string' ? { authorization: `Bearer ${who}` } : sessionHeaders(who)) as Record<string, string>;
}

async function call(who: TestSession | string, method: string, url: string, payload?: unknown): Promise<Answer> {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: headersOf(who),
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

type Part = Parameters<typeof multipartBody>[0][number];

async function upload(who: TestSession | string, vault: string, parts: Part[], chunked = false): Promise<Answer> {
  const form = multipartBody(parts);
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/v1/vaults/${vault}/items/upload`,
    headers: {
      ...headersOf(who),
      'content-type': form.contentType,
      ...(chunked ? { 'transfer-encoding': 'chunked' } : {}),
    },
    payload: form.body,
  });
  return { status: res.statusCode, body: res.json(), raw: res.rawPayload, headers: res.headers };
}

const fileParts = (data: Buffer, title: string, heirs: string[], extra: Part[] = [], filename = 'scan.pdf'): Part[] => [
  { name: 'title', value: title },
  ...heirs.map((h) => ({ name: 'heirs', value: h })),
  ...extra,
  { name: 'file', filename, contentType: 'application/pdf', data },
];

function age(args: string[], input?: Buffer): Buffer {
  const run = spawnSync(args[0] === 'keygen' ? 'age-keygen' : 'age', args[0] === 'keygen' ? args.slice(1) : args, {
    input,
  });
  if (run.error) throw new Error(`age is needed for this test (apt-get install age): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`age failed: ${run.stderr.toString()}`);
  return run.stdout;
}

/** Every file under the data directory's vault area, with its size. */
async function vaultFiles(): Promise<Array<[string, number]>> {
  const dir = path.join(server.dataDir, 'vault-files');
  const out: Array<[string, number]> = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out.push([path.relative(dir, file), (await readFile(file)).length]);
  }
  return out.sort();
}

/** This process's open descriptors of `file`. */
const openFiles = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });

const items = () => server.services.store.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', vaultId);
const usage = () => storageUsage(server.services.store, owner.accountId, { defaultLimit: QUOTA, now: clock.now() });

describe.each(['lowdb', 'postgres'] as const)('vault uploads (%s)', (engine) => {
  let schema: string | undefined;
  beforeAll(async () => {
    offset = 0;
    ageDir = await mkdtemp(path.join(os.tmpdir(), 'svc-age-'));
    schema = engine === 'postgres' ? randomSchema('svc_vault_up') : undefined;
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    const base = { sessions, vaultUploadBytes: LIMIT, storageQuotaBytes: QUOTA };
    const config = schema ? { ...base, databaseUrl: await testDatabaseUrl(), databaseSchema: schema } : base;
    server = await startTestServer({ clock, config, listen: false });
    owner = await registerUser(server.app, { name: 'Rose' });
    ana = await registerUser(server.app);
    stranger = await registerUser(server.app);
    ownerKey = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['vaults'] });
    readKey = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['vaults:read'] });
    strangerKey = await server.key({ ownerId: stranger.accountId, tier: 'public', scopes: ['vaults'] });
    vaultId = (await call(owner, 'POST', '/api/v1/vaults', { name: 'Papers' })).body.data.id;
    big = randomBytes(5 * MiB);
    small = randomBytes(3000);
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
    await rm(ageDir, { recursive: true, force: true });
  });

  it('a 5 MiB file is encrypted in chunks on disk and comes back byte for byte to its owner', async () => {
    const up = await upload(owner, vaultId, fileParts(big, 'Deeds scan', [ANA], [], 'deeds.pdf'));
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.data).toMatchObject({
      kind: 'file',
      title: 'Deeds scan',
      fileName: 'deeds.pdf',
      contentType: 'application/octet-stream',
      heirs: [ANA],
      size: big.length,
    });
    bigId = up.body.data.id;
    // With a key too, and a media type of its own.
    const withKey = await upload(
      ownerKey,
      vaultId,
      fileParts(small, 'Small', [ANA, RUI], [{ name: 'contentType', value: 'application/pdf' }]),
    );
    expect(withKey.status, JSON.stringify(withKey.body)).toBe(201);
    smallId = withKey.body.data.id;

    // On disk: one encrypted file per item, of the framed size, nothing in staging, no plaintext.
    const files = await vaultFiles();
    expect(files).toEqual(
      [
        [path.join(owner.accountId, `${bigId}.svcvf`), encryptedSize(big.length)],
        [path.join(owner.accountId, `${smallId}.svcvf`), encryptedSize(small.length)],
      ].sort(),
    );
    const stored = await readFile(path.join(server.dataDir, 'vault-files', owner.accountId, `${bigId}.svcvf`));
    for (const at of [0, 100_000, 3 * MiB]) expect(stored.includes(big.subarray(at, at + 32))).toBe(false);
    expect((await usage()).used).toBe(big.length + small.length);
    expect((await usage()).reserved).toBe(0);

    const down = await call(readKey, 'GET', `/api/v1/vaults/${vaultId}/files/${bigId}`);
    expect(down.status).toBe(200);
    expect(down.headers['content-length']).toBe(String(big.length));
    expect(down.headers['content-disposition']).toContain('deeds.pdf');
    expect(sha(down.raw)).toBe(sha(big));
    // A reader that stops mid-download (a client gone) closes the file: none stays open, nor its disk space held.
    const deps = {
      store: accountStore(server.services.store, owner.accountId),
      ownerId: owner.accountId,
      keyring: server.services.keyring,
      clock,
      dataDir: server.dataDir,
    };
    const onDisk = path.join(server.dataDir, 'vault-files', owner.accountId, `${bigId}.svcvf`);
    for (let i = 0; i < 3; i++) {
      const { stream } = await openItem(deps, vaultId, bigId);
      await once(stream, 'readable');
      expect(stream.read()).not.toBeNull();
      stream.destroy();
    }
    await expect.poll(() => openFiles(onDisk), { timeout: 2000 }).toEqual([]);
    // Too large for JSON: get_vault_item says so with a null, the small one comes in base64.
    const json = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${bigId}`);
    expect(json.body.data).toMatchObject({ id: bigId, contentBase64: null, text: null, size: big.length });
    const smallJson = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${smallId}`);
    expect(smallJson.body.data.contentType).toBe('application/pdf');
    expect(Buffer.from(smallJson.body.data.contentBase64, 'base64').equals(small)).toBe(true);
  });

  it('refused uploads leave no file, no staging file, no record and no reserved room', async () => {
    const before = { files: await vaultFiles(), items: (await items()).length, used: (await usage()).used };
    const unchanged = async (what: string) => {
      expect(await vaultFiles(), what).toEqual(before.files);
      expect((await items()).length, what).toBe(before.items);
      const u = await usage();
      expect([u.used, u.reserved], what).toEqual([before.used, 0]);
      expect(await readdir(path.join(server.dataDir, 'vault-files', '.staging')), what).toEqual([]);
    };
    const tooLarge = await upload(owner, vaultId, fileParts(randomBytes(LIMIT + 1), 'Huge', [ANA]));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    await unchanged('too large');
    const chunked = await upload(owner, vaultId, fileParts(randomBytes(LIMIT + 1), 'Huge', [ANA]), true);
    expect(chunked.status).toBe(413);
    await unchanged('too large, chunked');
    // Over the quota: 20 MiB, of which 5 MiB are used; three 6 MiB files fill it, the fourth fits no more.
    const fill: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await upload(owner, vaultId, fileParts(randomBytes(LIMIT - 1000), `Fill ${i}`, [ANA]));
      if (ok.status === 201) fill.push(ok.body.data.id);
      else {
        expect(ok.status).toBe(413);
        expect(ok.body.error.code).toBe('QUOTA_EXCEEDED');
      }
    }
    expect(fill.length).toBe(2);
    for (const id of fill)
      expect((await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}/items/${id}`)).status).toBe(200);
    await unchanged('over the quota, then deleted');
    for (const who of [stranger, strangerKey]) {
      const theirs = await upload(who, vaultId, fileParts(small, 'Mine now', [ANA]));
      expect(theirs.status).toBe(404);
      expect((await call(who, 'GET', `/api/v1/vaults/${vaultId}/files/${bigId}`)).status).toBe(404);
    }
    await unchanged('another account');
    const readOnly = await upload(readKey, vaultId, fileParts(small, 'Read only', [ANA]));
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('INSUFFICIENT_SCOPE');
    // Refused after the file was read and encrypted: the staged file goes too.
    const noHeirs = await upload(owner, vaultId, fileParts(small, 'No heirs', []));
    expect(noHeirs.status).toBe(400);
    expect(noHeirs.body.error.details[0].field).toBe('heirs');
    const badFormat = await upload(owner, vaultId, fileParts(small, 'x', [ANA], [{ name: 'format', value: 'zip' }]));
    expect(badFormat.status).toBe(400);
    // A plain file sent as sealed: refused once read, whether the format field comes before or after the file.
    const text = Buffer.from('A letter, not sealed. '.repeat(100));
    const plain = await upload(owner, vaultId, fileParts(text, 'x', [ANA], [{ name: 'format', value: 'age' }]));
    expect(plain.status).toBe(400);
    expect(plain.body.error.details[0]).toMatchObject({ field: 'file' });
    const after = [...fileParts(text, 'x', [ANA]), { name: 'format', value: 'openpgp' }];
    const plainPgp = await upload(owner, vaultId, after);
    expect(plainPgp.status).toBe(400);
    expect(plainPgp.body.error.message).toContain('OpenPGP');
    const stray = await upload(owner, vaultId, fileParts(small, 'x', [ANA], [{ name: 'colour', value: 'red' }]));
    expect(stray.body.error.details[0]).toMatchObject({ field: 'colour' });
    // A file name that an override makes show as "deedsexe.pdf" (an .exe): refused once the file is staged.
    const spoofed = await upload(owner, vaultId, fileParts(small, 'x', [ANA], [], 'deeds\u202efdp.exe'));
    expect(spoofed.status).toBe(400);
    expect(spoofed.body.error.details[0]).toMatchObject({ field: 'file' });
    const empty = await upload(owner, vaultId, fileParts(Buffer.alloc(0), 'Empty', [ANA]));
    expect(empty.status).toBe(400);
    const json = await call(owner, 'POST', `/api/v1/vaults/${vaultId}/items/upload`, { title: 'x' });
    expect(json.status).toBe(415);
    await unchanged('bad fields');
  });

  it("a file that fills the quota's room exactly is stored; a byte more is refused, leaving nothing", async () => {
    // The account's own limit leaves exactly 1000 bytes; the request carries more (the form's boundaries and fields).
    const account = await server.services.store.get<AccountRecord>(ACCOUNTS, owner.accountId);
    const { used } = await usage();
    await server.services.store.put(ACCOUNTS, { ...account!, storageQuotaBytes: used + 1000 });
    try {
      const before = await vaultFiles();
      const over = await upload(owner, vaultId, fileParts(randomBytes(1001), 'One too many', [ANA]));
      expect(over.status).toBe(413);
      expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(await vaultFiles()).toEqual(before);
      expect((await usage()).reserved).toBe(0);
      for (const chunked of [false, true]) {
        const exact = await upload(owner, vaultId, fileParts(randomBytes(1000), 'Exact', [ANA]), chunked);
        expect(exact.status, JSON.stringify(exact.body)).toBe(201);
        expect(await usage()).toMatchObject({ used: used + 1000, reserved: 0, available: 0 });
        expect((await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}/items/${exact.body.data.id}`)).status).toBe(200);
      }
      expect(await vaultFiles()).toEqual(before);
    } finally {
      await server.services.store.put(ACCOUNTS, account!);
    }
  });

  it('an age file sealed for the heir opens with age; the heir downloads the 5 MiB file once released', async () => {
    // The heir makes an age identity and gives the owner its recipient; the owner seals with it.
    const identity = path.join(ageDir, 'ana.key');
    age(['keygen', '-o', identity]);
    const recipient = (await readFile(identity, 'utf8')).match(/public key: (age1[0-9a-z]+)/)![1]!;
    ageSealed = age(['--encrypt', '--recipient', recipient], Buffer.from(AGE_TEXT));
    const up = await upload(
      owner,
      vaultId,
      fileParts(ageSealed, 'For Ana only', [ANA], [{ name: 'format', value: 'age' }], 'safe.txt.age'),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.data).toMatchObject({ kind: 'sealed', format: 'age', fileName: 'safe.txt.age' });
    ageId = up.body.data.id;

    const linked = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: {
        blockchain: 'evm',
        ownerAddress: `0x${'1'.repeat(40)}`,
        beneficiaries: [
          { name: 'Ana', address: ANA, percentage: 60 },
          { name: 'Rui', address: RUI, percentage: 40 },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 30 },
    });
    expect(linked.status).toBe(201);
    const planId = linked.body.data.plan.id;
    const share = linked.body.data.codes.find((c: { heir: string }) => c.heir === 'Ana');
    expect((await call(owner, 'PUT', `/api/v1/vaults/${vaultId}/plan`, { planId })).status).toBe(200);
    expect((await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: share.code })).status).toBe(200);
    const watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
    const fired = await call(watcher, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.body.data.plan.state).toBe('verifying');
    const base = `/api/v1/vaults/shared/${share.shareId}/items`;
    expect((await call(ana, 'GET', `${base}/${bigId}/download`)).status).toBe(403);
    offset = 8 * DAY;
    await completeDueVerifications(server.services.store, clock);

    const down = await call(ana, 'GET', `${base}/${bigId}/download`);
    expect(down.status).toBe(200);
    expect(sha(down.raw)).toBe(sha(big));
    const sealed = await call(ana, 'GET', `${base}/${ageId}/download`);
    expect(sealed.headers['content-type']).toBe('application/octet-stream');
    expect(sealed.raw.equals(ageSealed)).toBe(true);
    await writeFile(path.join(ageDir, 'safe.txt.age'), sealed.raw);
    expect(age(['--decrypt', '--identity', identity, path.join(ageDir, 'safe.txt.age')]).toString()).toBe(AGE_TEXT);
    // Through JSON too: the small file in base64, the large one null.
    const json = await call(ana, 'GET', `${base}/${bigId}`);
    expect(json.body.data).toMatchObject({ id: bigId, contentBase64: null });
    const log = (await call(owner, 'GET', `/api/v1/vaults/${vaultId}`)).body.data.accessLog;
    expect(log.map((a: { itemId: string; via: string }) => [a.itemId, a.via])).toEqual([
      [bigId, 'read'],
      [ageId, 'download'],
      [bigId, 'download'],
    ]);
  });

  it('a tampered chunk is refused with nothing sent; deleting an item removes its file', async () => {
    const file = path.join(server.dataDir, 'vault-files', owner.accountId, `${bigId}.svcvf`);
    const good = await readFile(file);
    const bad = Buffer.from(good);
    bad[good.length >> 1]! ^= 0x40;
    await writeFile(file, bad);
    const down = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/files/${bigId}`);
    expect(down.status).toBe(500);
    expect(down.body.error.code).toBe('INTERNAL_ERROR');
    expect(down.raw.length).toBeLessThan(1000);
    // A file cut short, or moved onto another item, fails the same way.
    await writeFile(file, good.subarray(0, good.length - 100));
    expect((await call(owner, 'GET', `/api/v1/vaults/${vaultId}/files/${bigId}`)).status).toBe(500);
    const smallFile = path.join(server.dataDir, 'vault-files', owner.accountId, `${smallId}.svcvf`);
    const smallGood = await readFile(smallFile);
    await writeFile(
      smallFile,
      await readFile(path.join(server.dataDir, 'vault-files', owner.accountId, `${ageId}.svcvf`)),
    );
    expect((await call(owner, 'GET', `/api/v1/vaults/${vaultId}/items/${smallId}`)).status).toBe(500);
    await writeFile(smallFile, smallGood);
    await writeFile(file, good);
    const again = await call(owner, 'GET', `/api/v1/vaults/${vaultId}/files/${bigId}`);
    expect(sha(again.raw)).toBe(sha(big));

    expect((await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}/items/${bigId}`)).status).toBe(200);
    expect((await vaultFiles()).map(([f]) => f)).not.toContain(path.join(owner.accountId, `${bigId}.svcvf`));
    expect((await call(owner, 'DELETE', `/api/v1/vaults/${vaultId}`)).body.data).toEqual({
      deleted: true,
      itemsDeleted: 2,
    });
    expect(await vaultFiles()).toEqual([]);
    expect((await usage()).used).toBe(0);
  });
});
