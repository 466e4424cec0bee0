/**
 * A test file's PostgreSQL schemas: before its tests, the test database's URL and an admin connection; schemas named
 * by `schema()`, each dropped (with the connection closed) after them. Called at the top of a file or a describe.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { randomSchema, testDatabaseUrl } from './engines.js';

export interface PgSchemas {
  /** The test database's URL (set once the file's hooks have run). */
  url(): string;
  /** The admin connection, for what the test checks or plants behind the store's back. */
  admin(): pg.Client;
  /** A new schema name with the prefix, dropped after the tests. */
  schema(): string;
}

export function pgSchemas(prefix: string): PgSchemas {
  let url = '';
  let admin: pg.Client | undefined;
  const made: string[] = [];
  beforeAll(async () => {
    url = await testDatabaseUrl();
    admin = new pg.Client({ connectionString: url });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    for (const schema of made) await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });
  return {
    url: () => url,
    admin: () => {
      if (!admin) throw new Error('pgSchemas: the admin connection opens in beforeAll');
      return admin;
    },
    schema: () => {
      const schema = randomSchema(prefix);
      made.push(schema);
      return schema;
    },
  };
}
