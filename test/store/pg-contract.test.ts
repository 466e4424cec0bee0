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
  url = await testDatabaseUrl();
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
