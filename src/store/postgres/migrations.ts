/**
 * Versioned schema migrations of the PostgreSQL store.
 *
 * Every migration that ran is a row of `svc_migrations` (version, name, time). `migrate()` applies the missing ones
 * in order, all in one transaction under an advisory lock, so several instances starting at once apply each exactly
 * once. Migrations only add: none drops a table, a column or data. A database whose newest migration is one this
 * code does not know (written by a newer svc) is refused with SchemaTooNewError rather than used.
 *
 * The collection tables themselves (one per collection, see ./tables.ts) are not migrations: they are created, with
 * the expression indexes of their declared fields, by an idempotent step the first time a collection is used, and
 * recorded in `svc_collections` / `svc_indexes`, which migration 1 creates.
 */
import pg from 'pg';
import { ACCESS_REVISION_ROW, REVISION_TABLE } from '../revisions.js';

export interface Migration {
  version: number;
  name: string;
  /** SQL statements, run in order; `s` is the quoted schema name. */
  statements(s: string): string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'collection and index catalogue',
    statements: (s) => [
      `CREATE TABLE IF NOT EXISTS ${s}.svc_collections (
         name text PRIMARY KEY,
         table_name text NOT NULL UNIQUE,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE IF NOT EXISTS ${s}.svc_indexes (
         collection text NOT NULL REFERENCES ${s}.svc_collections (name),
         field text NOT NULL,
         index_name text NOT NULL UNIQUE,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (collection, field)
       )`,
    ],
  },
  {
    version: 2,
    name: 'access revision',
    // Moved by every transaction writing keys or accounts, read by admission on each request (src/store/revisions.ts).
    statements: (s) => [
      `CREATE TABLE IF NOT EXISTS ${s}.${REVISION_TABLE} (
         name text PRIMARY KEY,
         value bigint NOT NULL DEFAULT 0
       )`,
      `INSERT INTO ${s}.${REVISION_TABLE} (name, value) VALUES (${quoteLiteral(ACCESS_REVISION_ROW)}, 0)
         ON CONFLICT (name) DO NOTHING`,
    ],
  },
];

/** The newest schema version this code knows. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The database was migrated by a newer svc: this one refuses to use it (it might misread or damage the data). */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The advisory lock key of a schema's DDL (migrations and collection creation). */
export function ddlLockSql(schema: string): string {
  return `SELECT pg_advisory_xact_lock(hashtext(${quoteLiteral(`svc-ddl:${schema}`)}))`;
}

/**
 * Takes (or gives back) the schema's lock for index builds on tables in use, held by the session: `CREATE INDEX
 * CONCURRENTLY` cannot run in a transaction. One build at a time per schema, so that an instance never drops as
 * invalid the index another one is still building; apart from the DDL lock, which a build may hold for minutes.
 */
export function indexBuildLockSql(schema: string, lock: boolean): string {
  return `SELECT ${lock ? 'pg_advisory_lock' : 'pg_advisory_unlock'}(hashtext(${quoteLiteral(`svc-index-build:${schema}`)}))`;
}

/** The schema's migration version (0: never migrated), read without locking. */
export async function schemaVersion(client: pg.ClientBase, schema: string): Promise<number> {
  const exists = await client.query<{ ok: boolean }>(
    `SELECT to_regclass(${quoteLiteral(`${quoteIdent(schema)}.svc_migrations`)}) IS NOT NULL AS ok`,
  );
  if (!exists.rows[0]?.ok) return 0;
  const res = await client.query<{ v: number | null }>(
    `SELECT max(version) AS v FROM ${quoteIdent(schema)}.svc_migrations`,
  );
  return res.rows[0]?.v ?? 0;
}

function tooNew(schema: string, version: number): SchemaTooNewError {
  return new SchemaTooNewError(
    `schema ${JSON.stringify(schema)} is at migration ${version}, newer than this svc knows (${LATEST_VERSION}): ` +
      `it was migrated by a newer svc; run that version (or a newer one) instead`,
  );
}

/** Refuses a schema migrated by a newer svc; answers whether migrations are missing. */
export function checkVersion(schema: string, version: number): boolean {
  if (version > LATEST_VERSION) throw tooNew(schema, version);
  return version < LATEST_VERSION;
}

export interface MigrateResult {
  /** Versions applied by this call, in order (empty: the schema was up to date). */
  applied: number[];
  version: number;
}

/** Applies the missing migrations to `schema` (created when missing) on an open client. */
export async function migrateWith(client: pg.ClientBase, schema: string): Promise<MigrateResult> {
  const s = quoteIdent(schema);
  await client.query('BEGIN');
  try {
    await client.query(ddlLockSql(schema));
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.svc_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const version = await schemaVersion(client, schema);
    checkVersion(schema, version);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      for (const sql of m.statements(s)) await client.query(sql);
      await client.query(`INSERT INTO ${s}.svc_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return { applied, version: Math.max(version, LATEST_VERSION) };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * `svc migrate`: brings the schema (default `public`) of the database at `url` up to date. Safe to run while
 * instances are up and from several places at once (advisory lock). Rejects with SchemaTooNewError when the schema
 * is newer than this code.
 */
export async function migrate(url: string, schema = 'public'): Promise<MigrateResult> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    application_name: 'svc migrate',
  });
  client.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
  await client.connect();
  try {
    return await migrateWith(client, schema);
  } finally {
    await client.end().catch(() => undefined);
  }
}
