/**
 * The store contract (./contract.ts) against the PostgreSQL adapter: every test gets an empty schema of its own,
 * dropped after it.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';
import { describeStoreContract } from './contract.js';

let url: string;
let admin: pg.Client;

beforeAll(async () => {
  // Opposite-order transfers deadlock, and the server notices each deadlock only after deadlock_timeout (1 s by
  // default) before the store retries: these connections notice after 100 ms. Same outcome, tens of seconds less.
  const u = new URL(await testDatabaseUrl());
  u.searchParams.set('options', '-c deadlock_timeout=100ms');
  url = u.toString();
  admin = new pg.Client({ connectionString: url });
  admin.on('error', () => undefined);
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
});

describeStoreContract('PostgreSQL', async (indexes) => {
  const schema = randomSchema('svc_contract');
  const store = await openPostgresStore({ url, schema, indexes, poolSize: 5 });
  return {
    store,
    async cleanup() {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
});
