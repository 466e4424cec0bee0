/**
 * `svc secrets rotate-master`, the real program, over vaults, on the embedded store and on PostgreSQL: after a
 * rotation every item (a letter, a file in the record, an uploaded file on disk) still opens byte for byte, every
 * sealed value in the store is under the new key, and the old key opens no vault's data key. The program promises
 * a rotation that is one store transaction plus a key-file swap, finished by the next run after a crash between
 * the two: a store left under `<key file>.next` is adopted and rotated again, and a leftover `.next` from a
 * rotation that never committed is replaced.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { generateMasterKey, Keyring, keyIdOf, recordAad, writeKeyFile } from '../../src/core/keyring.js';
import { rotateStoreKey } from '../../src/store/master-key.js';
import { VAULTS, type VaultRecord } from '../../src/vaults/records.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { multipartBody } from '../memoir/support.js';
import { runSvc } from '../support/cli.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';

const SEALED = /svcenc1\.([0-9a-f]{16})\.[A-Za-z0-9_-]+/g;
const LETTER = 'Dear Ana, the key to the Ashgrove shed is under the third stone.';
const SMALL = randomBytes(2000);
const UPLOADED = randomBytes(300_000);

async function filesUnder(dir: string): Promise<string> {
  let out = '';
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += (await readFile(path.join(e.parentPath, e.name))).toString('latin1');
  }
  return out;
}

describe.each(['lowdb', 'postgres'] as const)(
  'master-key rotation by the CLI over vaults (%s)',
  { timeout: 300_000 },
  (kind) => {
    let dir: string;
    let keyFile: string;
    let config: Config;
    let env: Record<string, string>;
    let schema: string | undefined;
    let server: TestServer | undefined;
    let key: string;
    let vaultId: string;
    const ids: Record<string, string> = {};

    const start = async () => {
      server = await startTestServer({ config, listen: false });
    };
    const stop = async () => {
      await server?.close();
      server = undefined;
    };
    const get = async (url: string) => {
      const res = await server!.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      return {
        status: res.statusCode,
        raw: res.rawPayload,
        body: res.statusCode < 300 && !url.includes('/files/') ? res.json() : undefined,
      };
    };
    /** Every item opens, byte for byte. */
    const allOpen = async () => {
      const base = `/api/v1/vaults/${vaultId}/items`;
      expect((await get(`${base}/${ids.letter}`)).body.data.text).toBe(LETTER);
      expect(Buffer.from((await get(`${base}/${ids.small}`)).body.data.contentBase64, 'base64').equals(SMALL)).toBe(
        true,
      );
      const down = await get(`/api/v1/vaults/${vaultId}/files/${ids.uploaded}`);
      expect(down.status).toBe(200);
      expect(down.raw.equals(UPLOADED)).toBe(true);
      expect((await get(`/api/v1/vaults/${vaultId}`)).body.data.name).toBe('Ashgrove papers');
    };
    const dump = async () => {
      let out = await filesUnder(dir);
      if (schema) {
        const admin = new pg.Client({ connectionString: await testDatabaseUrl() });
        await admin.connect();
        try {
          const tables = await admin.query<{ table_name: string }>(
            'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
            [schema],
          );
          for (const { table_name } of tables.rows) {
            const rows = await admin.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`);
            for (const r of rows.rows) out += `${r.row}\n`;
          }
        } finally {
          await admin.end();
        }
      }
      return out;
    };
    const keyIds = async () => new Set([...(await dump()).matchAll(SEALED)].map((m) => m[1]));
    const readKey = async () => Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64');
    const rotate = () => runSvc(['secrets', 'rotate-master', '--data-dir', path.join(dir, 'data')], env);
    /** The vault's data key opens with `k`, as the service unwraps it. */
    const opensVault = async (k: Buffer) => {
      const store = await openStore(config);
      try {
        const v = await store.get<VaultRecord>(VAULTS, vaultId);
        new Keyring(k).unwrapKey(v!.wrappedKey, recordAad(VAULTS, vaultId));
        return true;
      } catch {
        return false;
      } finally {
        await store.close();
      }
    };

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'svc-vault-rotate-'));
      keyFile = path.join(dir, 'master.key');
      await writeKeyFile(keyFile, generateMasterKey());
      env = { SVC_MASTER_KEY_FILE: keyFile };
      if (kind === 'postgres') {
        schema = randomSchema('svc_vault_rot');
        env = { ...env, SVC_DATABASE_URL: await testDatabaseUrl(), SVC_DATABASE_SCHEMA: schema };
      }
      config = loadConfig({ 'data-dir': path.join(dir, 'data') }, env);
      await start();
      key = await server!.key({ tier: 'public', scopes: ['vaults'], ownerId: await server!.account() });
      const post = async (url: string, payload: object) =>
        (
          await server!.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, payload })
        ).json();
      vaultId = (await post('/api/v1/vaults', { name: 'Ashgrove papers' })).data.id;
      const heirs = [`0x${'2'.repeat(40)}`];
      ids.letter = (await post(`/api/v1/vaults/${vaultId}/items`, { title: 'Letter', text: LETTER, heirs })).data.id;
      ids.small = (
        await post(`/api/v1/vaults/${vaultId}/items`, {
          title: 'Small',
          heirs,
          file: { contentBase64: SMALL.toString('base64'), contentType: 'application/octet-stream', fileName: 's.bin' },
        })
      ).data.id;
      const form = multipartBody([
        { name: 'title', value: 'Uploaded' },
        { name: 'heirs', value: heirs[0]! },
        { name: 'file', filename: 'u.bin', contentType: 'application/octet-stream', data: UPLOADED },
      ]);
      const up = await server!.app.inject({
        method: 'POST',
        url: `/api/v1/vaults/${vaultId}/items/upload`,
        headers: { authorization: `Bearer ${key}`, 'content-type': form.contentType },
        payload: form.body,
      });
      expect(up.statusCode, up.body).toBe(201);
      ids.uploaded = up.json().data.id;
      await allOpen();
      await stop();
    });
    afterAll(async () => {
      await stop();
      if (schema) {
        const admin = new pg.Client({ connectionString: await testDatabaseUrl() });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
      await rm(dir, { recursive: true, force: true });
    });

    it('rotates: every item still opens, everything sealed is under the new key, the old key opens nothing', async () => {
      const old = await readKey();
      expect(await keyIds()).toEqual(new Set([keyIdOf(old)]));
      const run = await rotate();
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Re-sealed [1-9]\d* record\(s\) from master key [0-9a-f]{16} to [0-9a-f]{16}/);
      const fresh = await readKey();
      expect(fresh.equals(old)).toBe(false);
      expect(existsSync(`${keyFile}.next`)).toBe(false);
      expect(await keyIds()).toEqual(new Set([keyIdOf(fresh)]));
      expect(await opensVault(fresh)).toBe(true);
      expect(await opensVault(old)).toBe(false);
      await start();
      await allOpen();
      await stop();
    });

    it('a crash after the store committed is finished by the next run; a rotation that never committed is replaced', async () => {
      // The state a crash between the transaction and the key-file swap leaves: the store under `.next`.
      const current = await readKey();
      const next = generateMasterKey();
      const store = await openStore(config);
      try {
        await rotateStoreKey(store, current, next, new Date());
      } finally {
        await store.close();
      }
      await writeKeyFile(`${keyFile}.next`, next);
      expect(await keyIds()).toEqual(new Set([keyIdOf(next)]));
      const resumed = await rotate();
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = await readKey();
      expect([current, next].some((k) => k.equals(after))).toBe(false);
      expect(existsSync(`${keyFile}.next`)).toBe(false);
      expect(await keyIds()).toEqual(new Set([keyIdOf(after)]));
      expect(await opensVault(next)).toBe(false);
      expect(await opensVault(after)).toBe(true);

      if (kind === 'lowdb') {
        // A `.next` the store is not under: written by a rotation that died before its transaction.
        const stray = generateMasterKey();
        await writeKeyFile(`${keyFile}.next`, stray);
        const again = await rotate();
        expect(again.code, again.stderr).toBe(0);
        const last = await readKey();
        expect([after, stray].some((k) => k.equals(last))).toBe(false);
        expect(await keyIds()).toEqual(new Set([keyIdOf(last)]));
      }
      await start();
      await allOpen();
      await stop();
    });
  },
);
