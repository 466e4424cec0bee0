/**
 * The PostgreSQL implementation of the persistence port (see ../port.ts), for several instances sharing one
 * database.
 *
 * Layout (in one schema, `public` unless told otherwise):
 *   svc_migrations   versions applied (./migrations.ts)
 *   svc_collections  collection name -> table name
 *   svc_indexes      indexed field -> expression index name
 *   c_<collection>   one table per collection: id text PRIMARY KEY, seq bigserial (insertion order), doc jsonb
 * An indexed field (StoreOptions.indexes) is an expression index on `(doc -> 'field')`; findBy compares with the
 * same expression, so exact JSON equality (1 is not "1", null is not a missing field) as in the lowdb store.
 *
 * Collections are not declared in advance: a table (with the indexes declared for it) is created the first time
 * the collection is used, by an idempotent step under the schema's advisory lock, on a connection of its own (so
 * transactions waiting for it never starve the pool). The collections named in `indexes` are created at open.
 *
 * Driver: `pg` with a Pool, and SQL written here. No query builder: the store issues about ten fixed statements over
 * tables whose names are only known at run time and JSONB expressions that must match the index expressions
 * character for character; a builder (kysely) would add a dependency and a typed-schema layer without covering any
 * of that. Every value goes through a bind parameter; identifiers and field names are quoted by quoteIdent /
 * quoteLiteral.
 *
 * Transactions run at SERIALIZABLE (READ ONLY when asked) and are retried on a serialization failure or deadlock
 * (40001, 40P01), up to `maxAttempts` times with a randomised, growing pause; one that still conflicts then rejects
 * with StoreConflictError. A lost connection (refused, dropped, server shut down, pg_terminate_backend, a session
 * ended by the server's idle-in-transaction or statement timeout) rejects with StoreUnavailableError; the server rolls
 * back what the transaction wrote. Both are transient: the service answers them 503 SERVICE_UNAVAILABLE with
 * Retry-After (src/access/unavailable.ts), never 500. If the connection is lost during COMMIT itself the outcome is unknown, as with any networked
 * database.
 *
 * Known differences from the lowdb store: PostgreSQL's jsonb does not keep the key order of a record (records come
 * back with equal content, keys in jsonb order), and cannot hold the NUL character or an unpaired UTF-16 surrogate
 * in a string: such a put is refused with an UnstorableTextError (naming the collection, the record and the field)
 * before anything is sent. The service refuses such text in every tool input first (src/tools/text-guard.ts, a 400
 * on every engine), so this error means some other path let it through.
 *
 * The parts: ./pool.ts makes the connection pools, ./tables.ts the collection tables, ./records.ts checks records,
 * ./transaction.ts and ./claim.ts issue the statements, ./store.ts runs and retries transactions, ./errors.ts
 * classifies errors, ./migrations.ts versions the schema.
 */
import type { ClaimableStore, StoreOptions } from '../port.js';
import { mapError, unavailable } from './errors.js';
import { checkVersion, migrateWith, schemaVersion, SchemaTooNewError } from './migrations.js';
import type { PostgresStoreOptions } from './options.js';
import { createPools } from './pool.js';
import { PostgresStore } from './store.js';
import { Tables } from './tables.js';

export { migrate, SchemaTooNewError, LATEST_VERSION, MIGRATIONS } from './migrations.js';
export type { MigrateResult } from './migrations.js';
export { isClaimable } from '../port.js';
export type { ClaimableStore, ClaimQuery } from '../port.js';
export { tableNameFor, UnstorableTextError } from './records.js';
export { SCAN_PAGE } from './transaction.js';
export type { PostgresStoreOptions } from './options.js';

function normalizeIndexes(indexes: StoreOptions['indexes']): Record<string, string[]> {
  if (indexes === undefined) return {};
  if (typeof indexes !== 'object' || indexes === null || Array.isArray(indexes)) {
    throw new TypeError('openPostgresStore: indexes must be an object of field lists');
  }
  const out: Record<string, string[]> = {};
  for (const [collection, fields] of Object.entries(indexes)) {
    if (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string' || f.length === 0)) {
      throw new TypeError(`openPostgresStore: indexes.${collection} must be a list of field names`);
    }
    out[collection] = [...new Set(fields)];
  }
  return out;
}

/**
 * Opens the store: connects, checks the schema version (refusing one newer than this code with SchemaTooNewError,
 * applying missing migrations unless `migrate: false`), and creates the tables of the collections named in
 * `indexes`. A database that cannot be reached rejects with StoreUnavailableError.
 */
export async function openPostgresStore(
  opts: PostgresStoreOptions,
): Promise<
  ClaimableStore & { readonly stats: PostgresStore['stats']; readonly engine: 'postgres'; ping(): Promise<void> }
> {
  if (typeof opts.url !== 'string' || opts.url.length === 0)
    throw new TypeError('openPostgresStore: url must be a non-empty string');
  const schema = opts.schema ?? 'public';
  if (typeof schema !== 'string' || schema.length === 0 || schema.length > 63)
    throw new TypeError('openPostgresStore: schema must be a name of 1 to 63 characters');
  const indexes = normalizeIndexes(opts.indexes);
  const turnIndexWaitMs = opts.turnIndexWaitMs ?? 10_000;
  if (!Number.isFinite(turnIndexWaitMs) || turnIndexWaitMs < 0)
    throw new TypeError('openPostgresStore: turnIndexWaitMs must be a number of milliseconds, 0 or more');
  const { pool, ddl, connect } = createPools(opts);
  const tables = new Tables(ddl, connect, schema, indexes, turnIndexWaitMs);
  const store = new PostgresStore(pool, ddl, tables, schema, opts.maxAttempts ?? 20, opts.preparedStatements ?? true);
  try {
    const client = await ddl.connect().catch((err: unknown) => {
      throw unavailable(err);
    });
    try {
      const version = await schemaVersion(client, schema);
      if (checkVersion(schema, version)) {
        if (opts.migrate === false) {
          throw new Error(
            `schema ${JSON.stringify(schema)} is at migration ${version}, behind this svc: run \`svc migrate\` first`,
          );
        }
        await migrateWith(client, schema);
      }
    } finally {
      client.release();
    }
    // Before any transaction of this store: an index a new version declares on a table in use is built concurrently.
    await tables.openAll(Object.keys(indexes));
  } catch (err) {
    await store.close();
    throw err instanceof SchemaTooNewError ? err : mapError(err);
  }
  return store;
}

export type { PostgresStore } from './store.js';
