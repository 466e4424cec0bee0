/**
 * Transient database faults answer 503 SERVICE_UNAVAILABLE with Retry-After, never 500, and write nothing: a
 * transaction that runs out of serialization retries, and one whose connection the server terminates. Both are made
 * deterministic with a row lock held from another connection: the request's transaction waits on it (seen in
 * pg_stat_activity), then the holder commits a change of the same row (a serialization failure for the waiting
 * SERIALIZABLE transaction) or the waiting backend is terminated (pg_terminate_backend).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_INDEXES } from '../../src/app.js';
import type { Store } from '../../src/store/port.js';
import { StoreConflictError, StoreUnavailableError } from '../../src/store/port.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';

let url: string;
let schema: string;
let server: TestServer;
let original: Store;
/** The server's store for these tests: one attempt per transaction, and a name of its own in pg_stat_activity. */
let strict: Awaited<ReturnType<typeof openPostgresStore>>;
const appName = `svc_faults_${randomBytes(4).toString('hex')}`;
/** Holds the row lock. */
let holder: pg.Client;
/** Watches pg_stat_activity and terminates backends (outside the holder's transaction, whose snapshot would not move). */
let watcher: pg.Client;

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

beforeAll(async () => {
  url = await testDatabaseUrl();
  schema = randomSchema('svc_faults');
  server = await startTestServer({ listen: false, config: { databaseUrl: url, databaseSchema: schema } });
  original = server.services.store;
  // A key's first use records its lastUsedAt in a transaction of its own, beside the request's; both move the access
  // revision, so under the store below (one attempt) either could fail the other with a serialization error. The
  // admin key is used once here, on the usual store, and its use recorded before the tests: the next record of it is
  // a minute away.
  const first = await server.app.inject({
    method: 'GET',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${server.adminKey}` },
  });
  expect(first.statusCode).toBe(200);
  const looker = await client();
  try {
    for (let i = 0; ; i++) {
      const used = await looker.query(`SELECT 1 FROM "${schema}".c_api_keys WHERE doc->>'lastUsedAt' IS NOT NULL`);
      if (used.rows.length > 0) break;
      if (i >= 400) throw new Error("the admin key's use was never recorded");
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await looker.end();
  }
  strict = await openPostgresStore({
    url,
    schema,
    indexes: STORE_INDEXES,
    maxAttempts: 1,
    applicationName: appName,
    poolSize: 4,
  });
  server.services.store = strict;
  holder = await client();
  watcher = await client();
});

afterAll(async () => {
  if (server) server.services.store = original;
  await strict?.close();
  await server?.close();
  await holder?.end();
  await watcher?.end();
  if (url && schema) await dropSchemas(url, schema);
});

/** A fresh public key of the admin's account; resolves with its id. */
async function targetKey(name: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload: { name, tier: 'public', scopes: ['contracts:read'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

async function storedName(id: string): Promise<string> {
  const row = await watcher.query(`SELECT doc->>'name' AS name FROM "${schema}".c_api_keys WHERE id = $1`, [id]);
  return row.rows[0].name as string;
}

/** Locks the key's row in an open transaction of `holder` (a committed-later change to the same row). */
async function lockRow(id: string): Promise<void> {
  await holder.query('BEGIN');
  await holder.query(`UPDATE "${schema}".c_api_keys SET doc = jsonb_set(doc, '{name}', '"held"') WHERE id = $1`, [id]);
}

/** The pid of this test's store backend waiting for a lock, once there is one. */
async function waitingBackend(): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const res = await watcher.query(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [appName],
    );
    if (res.rows.length > 0) return res.rows[0].pid as number;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the request never waited for the row lock');
}

function rename(id: string, name: string) {
  return server.app.inject({
    method: 'PATCH',
    url: `/api/v1/api-keys/${id}`,
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload: { name },
  });
}

describe('PostgreSQL faults answer 503 with Retry-After', () => {
  it('a transaction out of serialization retries: 503 SERVICE_UNAVAILABLE, nothing written', async () => {
    const id = await targetKey('conflict');
    await lockRow(id);
    const pending = rename(id, 'renamed');
    await waitingBackend();
    await holder.query('COMMIT'); // the waiting SERIALIZABLE update now fails with 40001, and has no attempt left
    const res = await pending;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(res.json().error.message).toMatch(/busy with concurrent changes/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedName(id)).toBe('held');
    // And it recovers by itself: with nobody holding the row, the same request succeeds.
    const again = await rename(id, 'renamed');
    expect(again.statusCode).toBe(200);
    expect(await storedName(id)).toBe('renamed');
  });

  it('a connection terminated mid-transaction: 503 SERVICE_UNAVAILABLE, nothing written', async () => {
    const id = await targetKey('terminated');
    await lockRow(id);
    const pending = rename(id, 'renamed');
    const pid = await waitingBackend();
    await watcher.query('SELECT pg_terminate_backend($1)', [pid]);
    const res = await pending;
    await holder.query('ROLLBACK');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(res.json().error.message).toMatch(/cannot be reached/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedName(id)).toBe('terminated');
    const again = await rename(id, 'renamed');
    expect(again.statusCode).toBe(200);
  });

  it('at the store: StoreConflictError after the last attempt, StoreUnavailableError for a terminated connection', async () => {
    const id = await targetKey('store-level');
    const write = () =>
      strict.transact(async (tx) => {
        const doc = await tx.get<{ id: string; name: string }>('api_keys', id);
        await tx.put('api_keys', { ...doc!, name: 'direct' });
      });
    await lockRow(id);
    const conflicted = write();
    conflicted.catch(() => undefined);
    await waitingBackend();
    await holder.query('COMMIT');
    await expect(conflicted).rejects.toBeInstanceOf(StoreConflictError);
    await lockRow(id);
    const cut = write();
    cut.catch(() => undefined);
    await watcher.query('SELECT pg_terminate_backend($1)', [await waitingBackend()]);
    await expect(cut).rejects.toBeInstanceOf(StoreUnavailableError);
    await holder.query('ROLLBACK');
    expect(await storedName(id)).toBe('held');
  });
});
