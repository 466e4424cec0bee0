/**
 * Opening the PostgreSQL store (src/store/postgres/tables.ts, `openAll`): the tables of every declared collection,
 * with their indexes, are looked up in one query and the missing ones made in one transaction, whose statements go
 * in one round trip. A fresh schema of the service's thirty-odd collections took some four hundred statements, one
 * transaction per collection; a restart looked each collection up on its own.
 */
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORE_INDEXES } from '../../src/app.js';
import { openPostgresStore, tableNameFor } from '../../src/store/postgres/index.js';
import { pgSchemas } from '../support/pg-schemas.js';

const pgs = pgSchemas('svc_open');
const schemaOfTest = pgs.schema;
afterEach(() => {
  vi.restoreAllMocks();
});

/** Opens and closes the store on `schema`, counting the statements every connection of the driver sent meanwhile. */
async function openCounting(schema: string, indexes: Record<string, string[]> = STORE_INDEXES): Promise<number> {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  const store = await openPostgresStore({ url: pgs.url(), schema, indexes });
  const sent = query.mock.calls.length;
  query.mockRestore();
  await store.close();
  return sent;
}

/** What the schema records: each collection's table and its indexed fields, and the indexes that exist. */
async function recorded(schema: string) {
  const collections = await pgs
    .admin()
    .query<{ name: string; table_name: string }>(
      `SELECT name, table_name FROM "${schema}".svc_collections ORDER BY name`,
    );
  const fields = await pgs
    .admin()
    .query<{ collection: string; field: string; index_name: string }>(
      `SELECT collection, field, index_name FROM "${schema}".svc_indexes ORDER BY collection, field`,
    );
  const indexes = await pgs
    .admin()
    .query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [schema]);
  return {
    collections: collections.rows,
    fields: fields.rows,
    existing: new Set(indexes.rows.map((r) => r.indexname)),
  };
}

describe('opening the store', () => {
  it("makes every declared collection's table and index on a fresh schema in a handful of statements", async () => {
    const schema = schemaOfTest();
    const sent = await openCounting(schema);
    const declared = Object.entries(STORE_INDEXES);
    expect(declared.length).toBeGreaterThan(20);
    // The migrations, one lookup, the lock's transaction with one more lookup and one batch of DDL.
    expect(sent).toBeLessThanOrEqual(20);

    const { collections, fields, existing } = await recorded(schema);
    expect(collections.map((c) => c.name)).toEqual(declared.map(([c]) => c).sort());
    for (const c of collections) expect(c.table_name).toBe(tableNameFor(c.name));
    const wanted = declared.flatMap(([c, fs]) => fs.map((f) => `${c} ${f}`)).sort();
    expect(fields.map((f) => `${f.collection} ${f.field}`)).toEqual(wanted);
    for (const f of fields) expect(existing.has(f.index_name), f.index_name).toBe(true);
  });

  it('finds them all with one lookup when it opens again', async () => {
    const schema = schemaOfTest();
    await openCounting(schema);
    const before = await recorded(schema);
    // The schema's version (two), then the one lookup of every collection.
    expect(await openCounting(schema)).toBeLessThanOrEqual(4);
    expect(await recorded(schema)).toEqual(before);
  });

  it('builds an index a new version declares on a table that exists, and makes a new collection beside it', async () => {
    const schema = schemaOfTest();
    await openCounting(schema, { users: ['email'] });
    const store = await openPostgresStore({
      url: pgs.url(),
      schema,
      indexes: { users: ['email', 'n'], things: ['kind'] },
    });
    try {
      await store.transact(async (tx) => {
        await tx.put('users', { id: 'u1', email: 'a@example.com', n: 1 });
        await tx.put('things', { id: 't1', kind: 'x' });
      });
      expect((await store.findBy('users', 'n', 1)).map((u) => u.id)).toEqual(['u1']);
      expect((await store.findBy('things', 'kind', 'x')).map((t) => t.id)).toEqual(['t1']);
    } finally {
      await store.close();
    }
    const { fields, existing } = await recorded(schema);
    expect(fields.map((f) => `${f.collection} ${f.field}`)).toEqual(['things kind', 'users email', 'users n']);
    for (const f of fields) expect(existing.has(f.index_name), f.index_name).toBe(true);
  });

  it('makes nothing when one of the tables cannot be made: the open fails and the schema is as it was', async () => {
    const schema = schemaOfTest();
    await openCounting(schema, { users: ['email'] });
    // A table of that name already there, not the store's (no seq nor doc column): its indexes cannot be made.
    await pgs.admin().query(`CREATE TABLE "${schema}"."${tableNameFor('zzz')}" (id text PRIMARY KEY)`);
    const before = await recorded(schema);
    await expect(
      openPostgresStore({ url: pgs.url(), schema, indexes: { users: ['email'], aaa: ['kind'], zzz: ['kind'] } }),
    ).rejects.toThrow(/column "seq" does not exist/);
    expect(await recorded(schema)).toEqual(before);
    const tables = await pgs
      .admin()
      .query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [schema, tableNameFor('aaa')]);
    expect(tables.rowCount).toBe(0);
  });
});
