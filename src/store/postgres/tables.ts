/**
 * The tables of the PostgreSQL store: one per collection, created (with the expression indexes of its declared
 * fields) by an idempotent step the first time the collection is used, under the schema's advisory lock, on a
 * connection of its own (so transactions waiting for it never starve the pool).
 */
import type pg from 'pg';
import { isConnectionError, mapError } from './errors.js';
import { ddlLockSql, quoteIdent, quoteLiteral } from './migrations.js';
import { checkCollectionName, indexNameFor, tableNameFor } from './records.js';

export interface Table {
  /** Quoted, schema-qualified table name. */
  q: string;
  /** Indexed field -> SQL expression (`doc -> 'field'`). */
  fields: Map<string, string>;
}

/** The collections' tables, each looked up (or created) once per store. */
export class Tables {
  readonly #tables = new Map<string, Promise<Table>>();

  constructor(
    /** One connection for creating collection tables, apart from the pool that transactions hold. */
    private readonly ddl: pg.Pool,
    private readonly schema: string,
    private readonly indexes: Record<string, string[]>,
  ) {}

  /** The collection's table, created (with its declared indexes) on first use. */
  table(collection: string): Promise<Table> {
    checkCollectionName(collection);
    let t = this.#tables.get(collection);
    if (!t) {
      t = ensureTable(this.ddl, this.schema, this.indexes, collection);
      this.#tables.set(collection, t);
      t.catch(() => this.#tables.delete(collection)); // try again next time (e.g. the database was down)
    }
    return t;
  }

  /** The SQL expression of an indexed field; throws when the field isn't indexed. */
  indexExpr(t: Table, collection: string, field: string): string {
    const expr = t.fields.get(field);
    if (expr === undefined) {
      throw new Error(
        `findBy: field ${JSON.stringify(field)} of collection ${JSON.stringify(collection)} is not indexed (declare it in StoreOptions.indexes)`,
      );
    }
    return expr;
  }
}

async function ensureTable(
  ddl: pg.Pool,
  schema: string,
  indexes: Record<string, string[]>,
  collection: string,
): Promise<Table> {
  const s = quoteIdent(schema);
  const fields = indexes[collection] ?? [];
  const table = tableNameFor(collection);
  const q = `${s}.${quoteIdent(table)}`;
  const result: Table = { q, fields: new Map(fields.map((f) => [f, `doc -> ${quoteLiteral(f)}`])) };
  const client = await ddl.connect();
  let broken: unknown;
  const onError = (err: unknown): void => void (broken = err);
  client.on('error', onError);
  try {
    // Fast path: already there with every declared index (the usual case after the first start).
    const known = await client.query<{ table_name: string; fields: string[] | null }>(
      `SELECT c.table_name, array_remove(array_agg(i.field), NULL) AS fields
         FROM ${s}.svc_collections c LEFT JOIN ${s}.svc_indexes i ON i.collection = c.name
        WHERE c.name = $1 GROUP BY c.table_name`,
      [collection],
    );
    const row = known.rows[0];
    if (row && fields.every((f) => row.fields?.includes(f)))
      return { ...result, q: `${s}.${quoteIdent(row.table_name)}` };

    await client.query('BEGIN');
    try {
      await client.query(ddlLockSql(schema));
      const existing = await client.query<{ table_name: string }>(
        `SELECT table_name FROM ${s}.svc_collections WHERE name = $1`,
        [collection],
      );
      let name = existing.rows[0]?.table_name;
      if (name === undefined) {
        name = table;
        const tq = `${s}.${quoteIdent(name)}`;
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${tq} (id text PRIMARY KEY, seq bigserial NOT NULL, doc jsonb NOT NULL)`,
        );
        await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdent(`${name}_seq`)} ON ${tq} (seq)`);
        await client.query(`INSERT INTO ${s}.svc_collections (name, table_name) VALUES ($1, $2)`, [collection, name]);
      }
      const tq = `${s}.${quoteIdent(name)}`;
      const have = await client.query<{ field: string }>(`SELECT field FROM ${s}.svc_indexes WHERE collection = $1`, [
        collection,
      ]);
      const present = new Set(have.rows.map((r) => r.field));
      for (const field of fields) {
        if (present.has(field)) continue;
        const index = indexNameFor(name, field);
        await client.query(
          `CREATE INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${tq} ((doc -> ${quoteLiteral(field)}))`,
        );
        await client.query(`INSERT INTO ${s}.svc_indexes (collection, field, index_name) VALUES ($1, $2, $3)`, [
          collection,
          field,
          index,
        ]);
      }
      await client.query('COMMIT');
      return { ...result, q: tq };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } catch (err) {
    if (broken === undefined && isConnectionError(err)) broken = err;
    throw mapError(broken ?? err);
  } finally {
    client.off('error', onError);
    client.release(broken !== undefined ? new Error('connection dropped') : undefined);
  }
}
