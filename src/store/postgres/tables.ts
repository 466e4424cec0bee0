/**
 * The tables of the PostgreSQL store: one per collection, created (with the expression indexes of its declared
 * fields) by an idempotent step the first time the collection is used, under the schema's advisory lock, on a
 * connection of its own (so transactions waiting for it never starve the pool).
 */
import type pg from 'pg';
import { isConnectionError, mapError } from './errors.js';
import { ddlLockSql, indexBuildLockSql, quoteIdent, quoteLiteral } from './migrations.js';
import { turnExpr } from './claim-turns.js';
import { checkCollectionName, indexNameFor, tableNameFor } from './records.js';
import { NotIndexedError } from '../port.js';

export interface Table {
  /** Quoted, schema-qualified table name. */
  q: string;
  /** Indexed field -> SQL expression (`doc -> 'field'`). */
  fields: Map<string, string>;
}

/** The collections' tables, each looked up (or created) once per store. */
export class Tables {
  readonly #tables = new Map<string, Promise<Table>>();
  /** The claim-in-turns indexes made or being made: the build, whether it is done, and how long claims wait for it. */
  readonly #turnIndexes = new Map<string, { made: Promise<void>; done: boolean; until: number }>();
  /** The connections of the index builds under way, ended at close. */
  readonly #builds = new Set<pg.Client>();

  constructor(
    /** One connection for creating collection tables, apart from the pool that transactions hold. */
    private readonly ddl: pg.Pool,
    /** A new connection for an index build. */
    private readonly connect: () => pg.Client,
    private readonly schema: string,
    private readonly indexes: Record<string, string[]>,
    /** How long turnIndex waits for a build before answering false. */
    private readonly turnIndexWaitMs: number,
  ) {}

  /** Ends the connections of builds under way (a build cut short leaves an invalid index, built again later). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#builds].map((c) => c.end()));
  }

  /** The collection's table, created (with its declared indexes) on first use. */
  table(collection: string): Promise<Table> {
    checkCollectionName(collection);
    const kept = this.#tables.get(collection);
    if (kept) return kept;
    const made = ensureTables(this.ddl, this.schema, this.indexes, [collection], false);
    return this.#remember(
      collection,
      made.then(({ tables }) => tables.get(collection)!),
    );
  }

  /**
   * The tables of the collections the store declares indexes for, when it opens, before any of its transactions: all
   * looked up in one query, and those missing made in one transaction (a fresh schema's thirty-odd tables and their
   * indexes: a handful of round trips instead of some four hundred). A declared index missing on a table that exists
   * already (one a new version declares) is built concurrently, so that the writes of the instances still serving go
   * on meanwhile. (Later, in a transaction, a build would wait for that very transaction.)
   */
  async openAll(collections: readonly string[]): Promise<void> {
    for (const c of collections) checkCollectionName(c);
    const pending = [...new Set(collections)].filter((c) => !this.#tables.has(c));
    if (pending.length === 0) return;
    const made = ensureTables(this.ddl, this.schema, this.indexes, pending, true).then(async ({ tables, later }) => {
      // With the DDL connection given back: a build may take minutes.
      for (const [collection, field] of later)
        await this.#withBuildClient((client) =>
          buildIndex(client, this.schema, collection, field, fieldColumns(field)),
        );
      return tables;
    });
    for (const c of pending)
      this.#remember(
        c,
        made.then((tables) => tables.get(c)!),
      );
    await made;
  }

  /** Keeps the promise of a collection's table; a failed one is forgotten, to try again next time (e.g. the database was down). */
  #remember(collection: string, t: Promise<Table>): Promise<Table> {
    this.#tables.set(collection, t);
    t.catch(() => {
      if (this.#tables.get(collection) === t) this.#tables.delete(collection);
    });
    return t;
  }

  /**
   * Makes sure the compound index a claim in turns over `by` walks exists (once per store and index): true once it
   * does, false while its build goes on past the wait (counted from the build's start: only the first claims wait,
   * the later ones answer false at once until it is made). A failed build rejects, and the next call tries again.
   */
  async turnIndex(
    collection: string,
    field: string,
    by: readonly [string, string],
    dueField: string | undefined,
  ): Promise<boolean> {
    const key = JSON.stringify([collection, field, by, dueField ?? null]);
    let build = this.#turnIndexes.get(key);
    if (!build) {
      // The compound index a claim in turns walks (./claim-turns.ts): the claim's field, the two grouping fields,
      // the due field if the claim has one, then insertion order, recorded as `field>first>second` (then `>due`);
      // made by the first claim after an upgrade, when the table may be large and busy.
      const spec = [field, ...by, ...(dueField === undefined ? [] : [dueField])];
      const columns = [fieldColumns(field), ...spec.slice(1).map((f) => `(${turnExpr(f)})`), 'seq'].join(', ');
      const made = this.#withBuildClient((client) =>
        buildIndex(client, this.schema, collection, spec.join('>'), columns),
      );
      build = { made, done: false, until: Date.now() + this.turnIndexWaitMs };
      const entry = build;
      this.#turnIndexes.set(key, entry);
      made.then(
        () => void (entry.done = true),
        () => this.#turnIndexes.delete(key),
      );
    }
    if (build.done) return true;
    const left = build.until - Date.now();
    if (left <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), left);
    });
    try {
      return await Promise.race([build.made.then(() => true as const), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs fn on a connection of its own, ended after it (or at close). */
  async #withBuildClient(fn: (client: pg.Client) => Promise<void>): Promise<void> {
    const client = this.connect();
    this.#builds.add(client);
    try {
      await client.connect();
      await fn(client);
    } catch (err) {
      throw mapError(err);
    } finally {
      this.#builds.delete(client);
      await client.end().catch(() => undefined);
    }
  }

  /** The SQL expression of an indexed field; throws when the field isn't indexed. */
  indexExpr(t: Table, collection: string, field: string): string {
    const expr = t.fields.get(field);
    if (expr === undefined) {
      throw new NotIndexedError(collection, field);
    }
    return expr;
  }
}

/**
 * Makes the collections' tables and their declared indexes, under the schema's DDL lock, in one transaction whose
 * statements go in one round trip. With `concurrentLater`, the indexes missing on a table that was there already are
 * left to the caller (`later`), to build concurrently after the lock's transaction (see Tables.openAll); without, they
 * are made in the transaction.
 */
async function ensureTables(
  ddl: pg.Pool,
  schema: string,
  indexes: Record<string, string[]>,
  collections: readonly string[],
  concurrentLater: boolean,
): Promise<{ tables: Map<string, Table>; later: Array<[string, string]> }> {
  const s = quoteIdent(schema);
  const tableOf = (collection: string, name: string): Table => ({
    q: `${s}.${quoteIdent(name)}`,
    fields: new Map((indexes[collection] ?? []).map((f) => [f, `doc -> ${quoteLiteral(f)}`])),
  });
  return withDdlClient(ddl, async (client) => {
    // Fast path: all there with every declared index (the usual case after the first start).
    const tables = new Map<string, Table>();
    const known = await knownTables(client, s, collections);
    for (const c of collections) {
      const k = known.get(c);
      if (k && (indexes[c] ?? []).every((f) => k.fields.has(f))) tables.set(c, tableOf(c, k.table));
    }
    const rest = collections.filter((c) => !tables.has(c));
    if (rest.length === 0) return { tables, later: [] };

    return underDdlLock(client, schema, async () => {
      const now = await knownTables(client, s, rest);
      const statements: string[] = [];
      const later: Array<[string, string]> = [];
      for (const collection of rest) {
        const k = now.get(collection);
        const name = k?.table ?? tableNameFor(collection);
        const tq = `${s}.${quoteIdent(name)}`;
        if (k === undefined) {
          statements.push(
            `CREATE TABLE IF NOT EXISTS ${tq} (id text PRIMARY KEY, seq bigserial NOT NULL, doc jsonb NOT NULL)`,
            `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdent(`${name}_seq`)} ON ${tq} (seq)`,
            `INSERT INTO ${s}.svc_collections (name, table_name) VALUES (${quoteLiteral(collection)}, ${quoteLiteral(name)})`,
          );
        }
        for (const field of indexes[collection] ?? []) {
          if (k?.fields.has(field)) continue;
          if (concurrentLater && k !== undefined) {
            later.push([collection, field]);
            continue;
          }
          const index = indexNameFor(name, field);
          statements.push(
            `CREATE INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${tq} (${fieldColumns(field)})`,
            `INSERT INTO ${s}.svc_indexes (collection, field, index_name) VALUES (${quoteLiteral(collection)}, ${quoteLiteral(field)}, ${quoteLiteral(index)}) ON CONFLICT DO NOTHING`,
          );
        }
        tables.set(collection, tableOf(collection, name));
      }
      // No bind parameters: the simple protocol, which takes several statements (every name and value is quoted).
      if (statements.length > 0) await client.query(statements.join(';\n'));
      return { tables, later };
    });
  });
}

/** The tables of those `collections` that have one, with the fields indexed on each, in one query. */
async function knownTables(
  client: pg.PoolClient,
  s: string,
  collections: readonly string[],
): Promise<Map<string, { table: string; fields: Set<string> }>> {
  const known = await client.query<{ name: string; table_name: string; fields: string[] | null }>(
    `SELECT c.name, c.table_name, array_remove(array_agg(i.field), NULL) AS fields
       FROM ${s}.svc_collections c LEFT JOIN ${s}.svc_indexes i ON i.collection = c.name
      WHERE c.name = ANY($1::text[]) GROUP BY c.name, c.table_name`,
    [collections],
  );
  return new Map(known.rows.map((r) => [r.name, { table: r.table_name, fields: new Set(r.fields ?? []) }]));
}

/**
 * Builds an index of a collection's table that may be large and busy, recorded in svc_indexes under `spec`:
 * `CONCURRENTLY`, so that writes to the table go on while it is built (a plain `CREATE INDEX` holds them all until it
 * is done). That runs outside any transaction, on a connection of its own (`client`), under the schema's lock for
 * index builds held by the session (another instance waits for it, then finds the index recorded); and a build that
 * stopped half way (a crash, a lost connection) leaves an invalid index, dropped here before building again, where
 * `IF NOT EXISTS` alone would keep it. The build waits for the transactions open on the table: its callers wait for
 * it outside theirs (./store.ts, ./index.ts).
 */
async function buildIndex(
  client: pg.Client,
  schema: string,
  collection: string,
  spec: string,
  columns: string,
): Promise<void> {
  const s = quoteIdent(schema);
  const recorded = async () =>
    ((await client.query(`SELECT 1 FROM ${s}.svc_indexes WHERE collection = $1 AND field = $2`, [collection, spec]))
      .rowCount ?? 0) > 0;
  if (await recorded()) return;
  // Waiting for the lock, and the build itself, may take long: neither has the statement time limit of the others.
  await client.query({ text: indexBuildLockSql(schema, true), query_timeout: BUILD_TIME_LIMIT_MS } as pg.QueryConfig);
  try {
    if (await recorded()) return;
    const table = await client.query<{ table_name: string }>(
      `SELECT table_name FROM ${s}.svc_collections WHERE name = $1`,
      [collection],
    );
    const name = table.rows[0]?.table_name ?? tableNameFor(collection);
    const index = indexNameFor(name, spec);
    const invalid = await client.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relname = $2 AND NOT i.indisvalid`,
      [schema, index],
    );
    const build = (text: string) => client.query({ text, query_timeout: BUILD_TIME_LIMIT_MS } as pg.QueryConfig);
    if (invalid.rowCount) await build(`DROP INDEX CONCURRENTLY IF EXISTS ${s}.${quoteIdent(index)}`);
    await build(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${quoteIdent(index)} ON ${s}.${quoteIdent(name)} (${columns})`,
    );
    await client.query(
      `INSERT INTO ${s}.svc_indexes (collection, field, index_name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [collection, spec, index],
    );
  } finally {
    await client.query(indexBuildLockSql(schema, false));
  }
}

/** The columns of a declared field's index. */
const fieldColumns = (field: string) => `(doc -> ${quoteLiteral(field)})`;

/** The longest an index build (or the wait for another instance's) may take: a day. */
const BUILD_TIME_LIMIT_MS = 24 * 3_600_000;

/** Runs fn in a transaction of `client` holding the schema's DDL lock: committed when fn resolves, else rolled back. */
async function underDdlLock<R>(client: pg.PoolClient, schema: string, fn: () => Promise<R>): Promise<R> {
  await client.query('BEGIN');
  try {
    await client.query(ddlLockSql(schema));
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Runs fn on a connection of the DDL pool; a dropped connection is not returned to the pool. */
async function withDdlClient<R>(ddl: pg.Pool, fn: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await ddl.connect();
  let broken: unknown;
  const onError = (err: unknown): void => void (broken = err);
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    if (broken === undefined && isConnectionError(err)) broken = err;
    throw mapError(broken ?? err);
  } finally {
    client.off('error', onError);
    client.release(broken !== undefined ? new Error('connection dropped') : undefined);
  }
}
