/**
 * The owner's side of vault items, on the embedded store and on PostgreSQL: file and sealed items count in the
 * storage quota (413 past it, nothing stored, the room free again once deleted), text items change, a file's text
 * cannot, and bad input is refused naming its field with nothing stored or altered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAULT_ITEMS } from '../../src/vaults/records.js';
import { looksSealed } from '../../src/vaults/vaults.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';

const ANA = '0x2222222222222222222222222222222222222222';
const QUOTA = 1000;

let server: TestServer;
let owner: TestSession;

async function call(method: string, url: string, payload?: unknown) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: sessionHeaders(owner),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

/** `bytes` bytes that begin as an age file does (what follows is not checked). */
const ageFile = (bytes: number) =>
  Buffer.concat([Buffer.from('age-encryption.org/v1\n'), Buffer.alloc(bytes - 22, 1)]).toString('base64');

const file = (bytes: number, name = 'scan.bin') => ({
  contentBase64: Buffer.alloc(bytes, 7).toString('base64'),
  contentType: 'application/octet-stream',
  fileName: name,
});

describe.each(['lowdb', 'postgres'] as const)('vault items (%s)', (engine) => {
  let schema: string | undefined;
  let vaultId: string;
  beforeAll(async () => {
    schema = engine === 'postgres' ? randomSchema('svc_vault_items') : undefined;
    const config = schema
      ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, storageQuotaBytes: QUOTA }
      : { storageQuotaBytes: QUOTA };
    server = await startTestServer({ config });
    owner = await registerUser(server.app);
    vaultId = (await call('POST', '/api/v1/vaults', { name: 'Papers' })).body.data.id;
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  it('files count in the storage quota; a text does not; deleting frees the room', async () => {
    const first = await call('POST', `/api/v1/vaults/${vaultId}/items`, { title: 'A', heirs: [ANA], file: file(600) });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ kind: 'file', size: 600, fileName: 'scan.bin' });
    const over = await call('POST', `/api/v1/vaults/${vaultId}/items`, {
      title: 'B',
      heirs: [ANA],
      sealed: { contentBase64: ageFile(500), format: 'age' },
    });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(over.body.error.details[0]).toMatchObject({ used: 600, limit: QUOTA, needed: 500 });
    // A letter takes no quota.
    const letter = await call('POST', `/api/v1/vaults/${vaultId}/items`, {
      title: 'C',
      heirs: [ANA],
      text: 'x'.repeat(2000),
    });
    expect(letter.status).toBe(201);
    expect((await server.services.store.findBy(VAULT_ITEMS, 'vaultId', vaultId)).length).toBe(2);
    expect((await call('DELETE', `/api/v1/vaults/${vaultId}/items/${first.body.data.id}`)).status).toBe(200);
    const now = await call('POST', `/api/v1/vaults/${vaultId}/items`, {
      title: 'B',
      heirs: [ANA],
      sealed: { contentBase64: ageFile(500), format: 'age' },
    });
    expect(now.status).toBe(201);
    expect(now.body.data).toMatchObject({ kind: 'sealed', format: 'age', fileName: 'sealed.age' });
  });

  it('changes a text item; refuses text on a file; bad input names its field and changes nothing', async () => {
    const letter = await call('POST', `/api/v1/vaults/${vaultId}/items`, { title: 'Old', heirs: [ANA], text: 'first' });
    const id = letter.body.data.id as string;
    const changed = await call('PATCH', `/api/v1/vaults/${vaultId}/items/${id}`, { title: 'New', text: 'second' });
    expect(changed.body.data).toMatchObject({ title: 'New', size: 6 });
    expect((await call('GET', `/api/v1/vaults/${vaultId}/items/${id}`)).body.data.text).toBe('second');

    const small = await call('POST', `/api/v1/vaults/${vaultId}/items`, { title: 'F', heirs: [ANA], file: file(10) });
    const onFile = await call('PATCH', `/api/v1/vaults/${vaultId}/items/${small.body.data.id}`, { text: 'no' });
    expect(onFile.status).toBe(400);
    expect(onFile.body.error.details[0].field).toBe('text');

    const cases: Array<[unknown, string]> = [
      [{ title: ' ', heirs: [ANA], text: 'a' }, 'title'],
      [{ title: 'x', heirs: [], text: 'a' }, 'heirs'],
      [{ title: 'x', heirs: [ANA] }, 'text'],
      [{ title: 'x', heirs: [ANA], file: { ...file(3), contentType: 'not a type' } }, 'file.contentType'],
      [{ title: 'x', heirs: [ANA], file: { ...file(3), fileName: '../etc/passwd' } }, 'file.fileName'],
      // A name that shows other than it is (read right to left: "invoiceexe.pdf"), or holds a C1 control character.
      [{ title: 'x', heirs: [ANA], file: { ...file(3), fileName: 'invoice\u202efdp.exe' } }, 'file.fileName'],
      [{ title: 'x', heirs: [ANA], file: { ...file(3), fileName: 'a\u2067b.pdf' } }, 'file.fileName'],
      [{ title: 'x', heirs: [ANA], file: { ...file(3), fileName: 'a\u0085b.pdf' } }, 'file.fileName'],
      [
        { title: 'x', heirs: [ANA], sealed: { contentBase64: ageFile(40), format: 'age', fileName: 'a\u009bb' } },
        'sealed.fileName',
      ],
      [{ title: 'a\u0085b', heirs: [ANA], text: 'a' }, 'title'],
      [{ title: 'x', heirs: [ANA], sealed: { contentBase64: 'AA==', format: 'zip' } }, 'sealed.format'],
      // Not sealed at all: plain text sent as an age or an OpenPGP file.
      [{ title: 'x', heirs: [ANA], sealed: { contentBase64: 'aGVsbG8=', format: 'age' } }, 'sealed.contentBase64'],
      [{ title: 'x', heirs: [ANA], sealed: { contentBase64: 'aGVsbG8=', format: 'openpgp' } }, 'sealed.contentBase64'],
      [{ title: 'x', heirs: [ANA], sealed: { contentBase64: ageFile(40), format: 'openpgp' } }, 'sealed.contentBase64'],
      [{ title: 'x', heirs: [ANA], text: 'a', colour: 'red' }, 'colour'],
    ];
    const before = JSON.stringify(await server.services.store.findBy(VAULT_ITEMS, 'vaultId', vaultId));
    for (const [body, field] of cases) {
      const res = await call('POST', `/api/v1/vaults/${vaultId}/items`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const hidden = await call('PATCH', `/api/v1/vaults/${vaultId}/items/${id}`, { title: 'New\u0090' });
    expect(hidden.body.error.details[0].field).toBe('title');
    expect((await call('POST', '/api/v1/vaults', { name: 'Papers\u009c' })).body.error.details[0].field).toBe('name');
    const bad = await call('PATCH', `/api/v1/vaults/${vaultId}/items/${id}`, { heirs: [ANA, ANA] });
    expect(bad.body.error.details[0].field).toBe('heirs.1');
    expect(JSON.stringify(await server.services.store.findBy(VAULT_ITEMS, 'vaultId', vaultId))).toBe(before);
  });
});

describe('what a sealed file begins with', () => {
  it('an age file (binary or armoured) and an OpenPGP message (packets or armour) pass; anything else does not', () => {
    const b = (s: string) => Buffer.from(s, 'latin1');
    expect(looksSealed('age', b('age-encryption.org/v1\n-> X25519 abc\n'))).toBe(true);
    expect(looksSealed('age', b('-----BEGIN AGE ENCRYPTED FILE-----\nYWdl'))).toBe(true);
    expect(looksSealed('age', b('hello'))).toBe(false);
    expect(looksSealed('age', b('age-encryption.org/v2\n'))).toBe(false);
    expect(looksSealed('openpgp', b('-----BEGIN PGP MESSAGE-----\n\nhQ'))).toBe(true);
    // gpg --symmetric: a new-format passphrase packet (tag 3); gpg --encrypt: an old-format key packet (tag 1).
    expect(looksSealed('openpgp', Buffer.from([0xc3, 0x0d, 0x04]))).toBe(true);
    expect(looksSealed('openpgp', Buffer.from([0x85, 0x01, 0x0c]))).toBe(true);
    // A literal data packet (tag 11) is signed or plain, not encrypted; text is no packet at all.
    expect(looksSealed('openpgp', Buffer.from([0xcb, 0x0d, 0x62]))).toBe(false);
    expect(looksSealed('openpgp', b('hello'))).toBe(false);
    expect(looksSealed('openpgp', Buffer.alloc(0))).toBe(false);
  });
});
