/**
 * The access revision on PostgreSQL (src/store/revisions.ts): two instances on one schema, each with its own key
 * cache. A change made through one is applied by the other on its very next request.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { API_KEYS, type ApiKeyRecord } from '../../src/keys/keys.js';
import { isRevisioned, type RevisionedStore } from '../../src/store/port.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';
import { keyCall } from '../support/rest.js';

let a: TestServer;
let b: TestServer;
let admin: pg.Client;
const schema = randomSchema('svc_rev');
let customer: string;
let manager: string;

beforeAll(async () => {
  const databaseUrl = await testDatabaseUrl();
  admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  const config = { databaseUrl, databaseSchema: schema };
  a = await startTestServer({ config, listen: false });
  b = await startTestServer({ config, listen: false });
  customer = await a.account({ tier: 'partner' });
  manager = await a.key({ tier: 'partner', scopes: ['contracts', 'webhooks'], ownerId: customer, name: 'm' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
});

const call = (server: TestServer, method: string, url: string, key: string, payload?: unknown) =>
  keyCall(server.app, method, url, key, payload);

const templates = (server: TestServer, key: string) => call(server, 'GET', '/api/v1/contracts/templates', key);

/** A new key of the customer account, made on A, cached on both instances. */
async function cachedKey(): Promise<{ id: string; key: string }> {
  const made = await call(a, 'POST', '/api/v1/api-keys', manager, { name: 'k', scopes: ['contracts'], tier: 'public' });
  expect(made.status).toBe(201);
  const { id, key } = made.body.data as { id: string; key: string };
  for (let i = 0; i < 3; i++) {
    expect((await templates(a, key)).status).toBe(200);
    expect((await templates(b, key)).status).toBe(200);
  }
  return { id, key };
}

describe('the revision', () => {
  it('moves with every committed write to keys or accounts, and only then', async () => {
    const store = a.services.store;
    expect(isRevisioned(store)).toBe(true);
    const revisioned = store as RevisionedStore;
    const before = await revisioned.accessRevision();
    await store.put('pg_revision_other', { id: 'x' });
    expect(await revisioned.accessRevision()).toBe(before);
    const account = (await store.get<AccountRecord>(ACCOUNTS, customer))!;
    await store.put(ACCOUNTS, { ...account, name: 'renamed' });
    expect(await revisioned.accessRevision()).toBeGreaterThan(before);
    // A transaction that throws writes nothing and moves nothing.
    const now = await revisioned.accessRevision();
    await expect(
      store.transact(async (tx) => {
        await tx.put(ACCOUNTS, { ...account, name: 'never' });
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await (b.services.store as RevisionedStore).accessRevision()).toBe(now);
  });
});

describe('a change on one instance applies on the other at once', () => {
  it('a key revoked on A is refused on B', async () => {
    const { id, key } = await cachedKey();
    expect((await call(a, 'DELETE', `/api/v1/api-keys/${id}`, manager)).status).toBe(200);
    const after = await templates(b, key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('API_KEY_INVALID');
  });

  it('a key deleted on A, or narrowed, is refused on B', async () => {
    const deleted = await cachedKey();
    expect(await a.services.store.delete(API_KEYS, deleted.id)).toBe(true);
    expect((await templates(b, deleted.key)).status).toBe(401);

    const narrowed = await cachedKey();
    const record = (await a.services.store.get<ApiKeyRecord>(API_KEYS, narrowed.id))!;
    expect((await call(a, 'PATCH', `/api/v1/api-keys/${narrowed.id}`, manager, { scopes: ['webhooks'] })).status).toBe(
      200,
    );
    expect(record.scopes).toEqual(['contracts']);
    const refused = await templates(b, narrowed.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('an account suspended on A is refused on B', async () => {
    const { key } = await cachedKey();
    expect((await call(a, 'DELETE', `/api/v1/accounts/${customer}`, a.adminKey)).status).toBe(200);
    const refused = await templates(b, key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ACCOUNT_SUSPENDED');
    expect((await call(a, 'PATCH', `/api/v1/accounts/${customer}`, a.adminKey, { status: 'active' })).status).toBe(200);
    expect((await templates(b, key)).status).toBe(200);
  });
});
