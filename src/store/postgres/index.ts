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
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { StoreConflictError, StoreUnavailableError } from '../port.js';
import type { Doc, IndexValue, Store, StoreOptions, TransactOptions, Tx } from '../port.js';
import { checkVersion, ddlLockSql, migrateWith, quoteIdent, quoteLiteral, schemaVersion, SchemaTooNewError } from './migrations.js';

export { migrate, SchemaTooNewError, LATEST_VERSION, MIGRATIONS } from './migrations.js';
export type { MigrateResult } from './migrations.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Schema holding the tables (created when missing). Default `public`. */
  schema?: string;
  /** Indexed fields per collection, used by findBy/idsBy/claim. Unindexed fields are an error. */
  indexes?: StoreOptions['indexes'];
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long opening a connection to the server may take before StoreUnavailableError. Default 5000 ms. */
  connectTimeoutMs?: number;
  /**
   * How long a transaction may wait for a free connection of the pool (all busy) before StoreUnavailableError.
   * Default 30 000 ms. Apart from connectTimeoutMs: a busy pool is not an unreachable server.
   */
  queueTimeoutMs?: number;
  /**
   * A statement without an answer after this long fails the transaction with StoreUnavailableError and its connection
   * is dropped (a stalled server or a network partition without a reset would otherwise hold the request forever).
   * Default 30 000 ms.
   */
  queryTimeoutMs?: number;
  /**
   * Attempts of a transaction that keeps hitting serialization conflicts. Default 20: with 20 transactions at once
   * on one row without pause (bench/engines.ts), 10 attempts let about 2% give up, 20 none.
   */
  maxAttempts?: number;
  /** Shown in pg_stat_activity. Default `svc`. */
  applicationName?: string;
  /** Apply missing migrations at open (default true); when false, a schema that is behind is refused. */
  migrate?: boolean;
  /** Send a transaction's statements without waiting for each answer (pg's pipeline mode). Default true. */
  pipeline?: boolean;
}

/** Rows fetched per page by scan(). */
export const SCAN_PAGE = 200;

/** Selection of records to claim (see ClaimableStore). */
export interface ClaimQuery {
  /** An indexed field and the value it must equal, e.g. state = 'pending'. */
  field: string;
  value: IndexValue;
  /**
   * A numeric field (e.g. nextAttemptAt, leaseUntil) that must be <= dueBefore. A record whose dueField is null or
   * missing counts as due; one whose dueField is not a number does not.
   */
  dueField?: string;
  dueBefore?: number;
  /** At most this many records, the oldest (insertion order) first. */
  limit: number;
}

/**
 * Claiming records of an outbox with row locks, for several instances working on one queue: each record is handed
 * to one claimer at a time (`FOR UPDATE SKIP LOCKED`: a claimer skips rows another one holds instead of waiting).
 * Present on stores that can do it (the PostgreSQL one); see isClaimable.
 *
 * Claim transactions run at READ COMMITTED, not SERIALIZABLE: the row locks give the exclusion, and at SERIALIZABLE
 * concurrent claimers, whose predicate reads overlap by design, would keep failing each other with serialization
 * conflicts. Their writes are to the claimed rows (locked) and whatever fn writes.
 */
export interface ClaimableStore extends Store {
  /**
   * Locks up to `limit` matching records nobody else holds, merges `set` into each (shallow) and commits; resolves
   * with the updated records, in insertion order.
   */
  claim<T extends Doc>(collection: string, query: ClaimQuery & { set: Partial<T> }): Promise<T[]>;
  /**
   * Locks up to `limit` matching records nobody else holds and runs `fn` with them and a Tx of the same transaction
   * (fn decides what to write, e.g. the dispatcher's per-delivery checks); commits when fn resolves. The records
   * stay locked until then. fn may run again on a deadlock (retried like transact), so it has the same rules.
   */
  claimWith<T extends Doc, R>(collection: string, query: ClaimQuery, fn: (tx: Tx, claimed: T[]) => Promise<R>): Promise<R>;
}

export function isClaimable(store: Store): store is ClaimableStore {
  return typeof (store as Partial<ClaimableStore>).claimWith === 'function' && typeof (store as Partial<ClaimableStore>).claim === 'function';
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
const CONNECTION_MESSAGES = /Query read timeout|^timeout expired$|Connection terminated due to connection timeout|Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed and is not queryable|Connection closed|not queryable/i;

function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The engine went away or cannot be reached (as opposed to an error in a statement). */
function isConnectionError(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  const code = errCode(err);
  if (code) {
    // 08: connection exception; 57P01-03: admin/crash shutdown, cannot connect now; 53300: too many connections;
    // 25P03: the server ended the session (idle_in_transaction_session_timeout); 57014: a statement cancelled by the
    // server's statement_timeout or by an operator (pg_cancel_backend); 55P03: lock_timeout. None says anything about
    // the request: the same request may succeed a moment later.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    if (code === '25P03' || code === '57014' || code === '55P03') return true;
    if (CONNECTION_CODES.has(code)) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return err instanceof Error && CONNECTION_MESSAGES.test(err.message);
}

function isRetryable(err: unknown): boolean {
  const code = errCode(err);
  return code === '40001' || code === '40P01';
}

function unavailable(err: unknown): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  const detail = err instanceof Error ? err.message || errCode(err) || err.name : String(err);
  return new StoreUnavailableError(`the PostgreSQL store cannot be reached (${detail})`, { cause: err });
}

/** A store-level error in the port's terms: connection problems become StoreUnavailableError. */
function mapError(err: unknown): unknown {
  return isConnectionError(err) ? unavailable(err) : err;
}

// ---------------------------------------------------------------------------
// Names and records
// ---------------------------------------------------------------------------

function checkCollectionName(collection: unknown): asserts collection is string {
  if (typeof collection !== 'string' || collection.length === 0) {
    throw new TypeError('collection name must be a non-empty string');
  }
}

const CLEAN_NAME = /^[a-z][a-z0-9_]{0,40}$/;

/** 32-bit FNV-1a of a string, as 8 hex digits: a short, stable suffix for derived identifiers. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The table of a collection: c_<name> when the name is a plain lower-case identifier, else sanitised + hash. */
export function tableNameFor(collection: string): string {
  if (CLEAN_NAME.test(collection)) return `c_${collection}`;
  const cleaned = collection.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 32);
  return `c_${cleaned}_${shortHash(collection)}`;
}

function indexNameFor(table: string, field: string): string {
  return `${table}_i_${shortHash(field)}`;
}

/** Matches a \u0000 or an unpaired-surrogate escape in JSON text (one not preceded by an odd run of backslashes). */
const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * A record holds text PostgreSQL's jsonb cannot store: the NUL character (U+0000) or an unpaired UTF-16 surrogate.
 * Nothing was written (the transaction it was part of fails). The message names the collection, the record and the
 * field, never the text itself.
 */
export class UnstorableTextError extends Error {
  override name = 'UnstorableTextError';
  constructor(
    readonly collection: string,
    /** The record's id (undefined for a claim's `set`). */
    readonly id: string | undefined,
    /** Path of the offending string inside the record (`content`, `answers.family.parents.answer`); a key's path for a bad key. */
    readonly field: string,
    readonly problem: 'nul' | 'surrogate',
  ) {
    const what = problem === 'nul' ? 'a NUL character (U+0000)' : 'an unpaired UTF-16 surrogate';
    const where = id === undefined ? `claim(${JSON.stringify(collection)}) set` : `put(${JSON.stringify(collection)}, ${JSON.stringify(id)})`;
    super(`${where}: field ${JSON.stringify(field)} holds ${what}, which PostgreSQL cannot store; nothing was written`);
  }
}

/** String.prototype.isWellFormed (ES2024, Node 20), not in this project's ES2022 library typings. */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const problemOf = (s: string): 'nul' | 'surrogate' | undefined => (s.includes('\u0000') ? 'nul' : isWellFormed(s) ? undefined : 'surrogate');

/** Where the first unstorable string (or key) of a value is, walking it as JSON.stringify would (no recursion). */
function locateUnstorable(value: unknown): { field: string; problem: 'nul' | 'surrogate' } | undefined {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  const at = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { field: path, problem };
    } else if (v !== null && typeof v === 'object') {
      const json = (v as { toJSON?: unknown }).toJSON;
      if (typeof json === 'function') {
        stack.push({ v: (json as () => unknown).call(v), path });
      } else if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: at(path, i) });
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i]!;
          const problem = problemOf(key);
          if (problem) return { field: at(path, key.replace(/[\u0000\ud800-\udfff]/g, '\ufffd')), problem };
          stack.push({ v: (v as Record<string, unknown>)[key], path: at(path, key) });
        }
      }
    }
  }
  return undefined;
}

/** The UnstorableTextError for a value whose JSON text showed an unstorable escape. */
function unstorableError(collection: string, id: string | undefined, value: unknown): UnstorableTextError {
  // The JSON text had the escape, so the walk finds it; the fallback only guards against a toJSON that changes.
  const found = locateUnstorable(value) ?? { field: '', problem: 'nul' as const };
  return new UnstorableTextError(collection, id, found.field, found.problem);
}

/** Validates a record and gives its JSON text (what the lowdb store would store: the JSON round trip). */
function encodeDoc(collection: string, doc: unknown): { id: string; json: string } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new TypeError(`put(${JSON.stringify(collection)}): the record must be an object`);
  }
  const id = (doc as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0) {
    throw new TypeError(`put(${JSON.stringify(collection)}): record.id must be a non-empty string`);
  }
  const json = JSON.stringify(doc);
  const back = json === undefined ? undefined : (JSON.parse(json) as unknown);
  if (typeof back !== 'object' || back === null || Array.isArray(back) || (back as { id?: unknown }).id !== id) {
    throw new TypeError(`put(${JSON.stringify(collection)}, ${JSON.stringify(id)}): the record does not serialize to a JSON object with the same id`);
  }
  if (json.includes('\\u') && UNSTORABLE_ESCAPE.test(json)) throw unstorableError(collection, id, doc);
  return { id, json };
}

function indexValueJson(value: IndexValue): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
    return JSON.stringify(value);
  }
  throw new TypeError(`findBy: the value must be a string, a finite number, a boolean or null (got ${typeof value})`);
}

interface Table {
  /** Quoted, schema-qualified table name. */
  q: string;
  /** Indexed field -> SQL expression (`doc -> 'field'`). */
  fields: Map<string, string>;
}

// ---------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------

type Queryable = Pick<pg.ClientBase, 'query'>;

class PgTx implements Tx {
  finished = false;
  /** The first database error (or misuse) in this transaction: it fails the transaction even if fn caught it. */
  failure: { error: unknown } | undefined;

  constructor(
    private readonly store: PostgresStore,
    private readonly client: Queryable,
    private readonly readOnly: boolean,
    private readonly broken: () => unknown,
  ) {}

  /** Writes not settled yet: the transaction commits only after all of them (even one fn forgot to await). */
  private readonly pending = new Set<Promise<unknown>>();

  private track<P>(p: Promise<P>): Promise<P> {
    this.pending.add(p);
    p.catch(() => undefined); // its failure is recorded in `failure` and fails the transaction
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  /** Waits for every write issued so far to settle. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private fail(error: unknown): never {
    this.failure ??= { error };
    throw error;
  }

  private async run<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.finished) this.fail(new Error('transaction already finished: use the Tx only inside the transact callback'));
    const lost = this.broken();
    if (lost !== undefined) this.fail(unavailable(lost));
    try {
      return await this.client.query<R>(text, values);
    } catch (err) {
      this.failure ??= { error: err };
      throw mapError(err);
    }
  }

  private async table(collection: string): Promise<Table> {
    if (this.finished) this.fail(new Error('transaction already finished: use the Tx only inside the transact callback'));
    try {
      return await this.store.table(collection);
    } catch (err) {
      if (isConnectionError(err)) this.failure ??= { error: err };
      throw mapError(err);
    }
  }

  private writable(): void {
    if (this.readOnly) this.fail(new Error('this transaction is read-only (transact with readOnly: true): put and delete are not allowed'));
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const t = await this.table(collection);
    const res = await this.run<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE id = $1`, [id]);
    return res.rows[0]?.doc;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const t = await this.table(collection);
    const expr = this.store.indexExpr(t, collection, field);
    const res = await this.run<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE ${expr} = $1::jsonb ORDER BY seq`, [indexValueJson(value)]);
    return res.rows.map((r) => r.doc);
  }

  async idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
    const t = await this.table(collection);
    const expr = this.store.indexExpr(t, collection, field);
    const res = await this.run<{ id: string }>(`SELECT id FROM ${t.q} WHERE ${expr} = $1::jsonb`, [indexValueJson(value)]);
    return res.rows.map((r) => r.id);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    const t = await this.table(collection);
    const res = await this.run<{ doc: T }>(`SELECT doc FROM ${t.q} ORDER BY seq`, []);
    return res.rows.map((r) => r.doc);
  }

  async *scan<T extends Doc>(collection: string): AsyncGenerator<T> {
    const t = await this.table(collection);
    let after = '0';
    for (;;) {
      const res = await this.run<{ seq: string; doc: T }>(`SELECT seq, doc FROM ${t.q} WHERE seq > $1 ORDER BY seq LIMIT ${SCAN_PAGE}`, [after]);
      for (const row of res.rows) yield row.doc;
      if (res.rows.length < SCAN_PAGE) return;
      after = res.rows[res.rows.length - 1]!.seq;
    }
  }

  async count(collection: string): Promise<number> {
    const t = await this.table(collection);
    const res = await this.run<{ n: string }>(`SELECT count(*) AS n FROM ${t.q}`, []);
    return Number(res.rows[0]?.n ?? 0);
  }

  put<T extends Doc>(collection: string, doc: T): Promise<void> {
    return this.track(this.#put(collection, doc));
  }

  async #put<T extends Doc>(collection: string, doc: T): Promise<void> {
    this.writable();
    checkCollectionName(collection);
    const { id, json } = encodeDoc(collection, doc);
    const t = await this.table(collection);
    await this.run(`INSERT INTO ${t.q} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`, [id, json]);
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.track(this.#delete(collection, id));
  }

  async #delete(collection: string, id: string): Promise<boolean> {
    this.writable();
    const t = await this.table(collection);
    const res = await this.run(`DELETE FROM ${t.q} WHERE id = $1`, [id]);
    return (res.rowCount ?? 0) > 0;
  }

  /** Locks and reads the records a claim selects (see ClaimableStore). */
  async lockClaimable<T extends Doc>(collection: string, q: ClaimQuery): Promise<T[]> {
    const t = await this.table(collection);
    const expr = this.store.indexExpr(t, collection, q.field);
    if (!Number.isInteger(q.limit) || q.limit < 1) throw new TypeError('claim: limit must be a positive integer');
    const values: unknown[] = [indexValueJson(q.value)];
    let due = '';
    if (q.dueField !== undefined) {
      if (typeof q.dueBefore !== 'number' || !Number.isFinite(q.dueBefore)) throw new TypeError('claim: dueBefore must be a finite number when dueField is given');
      const d = `doc -> ${quoteLiteral(q.dueField)}`;
      values.push(q.dueBefore);
      due = ` AND CASE WHEN ${d} IS NULL OR jsonb_typeof(${d}) = 'null' THEN true WHEN jsonb_typeof(${d}) = 'number' THEN (${d})::numeric <= $2::numeric ELSE false END`;
    }
    const res = await this.run<{ doc: T }>(
      `SELECT doc FROM ${t.q} WHERE ${expr} = $1::jsonb${due} ORDER BY seq LIMIT ${q.limit} FOR UPDATE SKIP LOCKED`,
      values,
    );
    return res.rows.map((r) => r.doc);
  }

  /** Merges `set` into the given records (already locked); resolves with them in the given order. */
  async mergeInto<T extends Doc>(collection: string, ids: string[], set: Partial<T>): Promise<T[]> {
    this.writable();
    if (ids.length === 0) return [];
    const { id: _ignored, ...fields } = set as Record<string, unknown>;
    const json = JSON.stringify(fields);
    if (json.includes('\\u') && UNSTORABLE_ESCAPE.test(json)) throw unstorableError(collection, undefined, fields);
    const t = await this.table(collection);
    const res = await this.run<{ doc: T }>(`UPDATE ${t.q} SET doc = doc || $1::jsonb WHERE id = ANY($2::text[]) RETURNING doc`, [json, ids]);
    const byId = new Map(res.rows.map((r) => [r.doc.id, r.doc]));
    return ids.map((id) => byId.get(id)).filter((d): d is T => d !== undefined);
  }
}

// ---------------------------------------------------------------------------
// Store
// ---------------------------------------------------------------------------

type Isolation = 'SERIALIZABLE' | 'READ COMMITTED';

class PostgresStore implements ClaimableStore {
  /** The engine's name (for /health, src/core/health.ts). */
  readonly engine = 'postgres';
  readonly #pool: pg.Pool;
  /** One connection for creating collection tables, apart from the pool that transactions hold. */
  readonly #ddl: pg.Pool;
  readonly #schema: string;
  readonly #s: string;
  readonly #indexes: Record<string, string[]>;
  readonly #maxAttempts: number;
  readonly #tables = new Map<string, Promise<Table>>();
  #closed = false;
  #closing: Promise<void> | undefined;
  /** Counters for tests and diagnostics (not part of the port). */
  readonly stats = { transactions: 0, retries: 0, conflictsGivenUp: 0 };

  constructor(pool: pg.Pool, ddl: pg.Pool, schema: string, indexes: Record<string, string[]>, maxAttempts: number) {
    this.#pool = pool;
    this.#ddl = ddl;
    this.#schema = schema;
    this.#s = quoteIdent(schema);
    this.#indexes = indexes;
    this.#maxAttempts = maxAttempts;
  }

  // --- tables ---------------------------------------------------------------

  /** The collection's table, created (with its declared indexes) on first use. */
  table(collection: string): Promise<Table> {
    checkCollectionName(collection);
    let t = this.#tables.get(collection);
    if (!t) {
      t = this.#ensureTable(collection);
      this.#tables.set(collection, t);
      t.catch(() => this.#tables.delete(collection)); // try again next time (e.g. the database was down)
    }
    return t;
  }

  indexExpr(t: Table, collection: string, field: string): string {
    const expr = t.fields.get(field);
    if (expr === undefined) {
      throw new Error(`findBy: field ${JSON.stringify(field)} of collection ${JSON.stringify(collection)} is not indexed (declare it in StoreOptions.indexes)`);
    }
    return expr;
  }

  async #ensureTable(collection: string): Promise<Table> {
    const s = this.#s;
    const fields = this.#indexes[collection] ?? [];
    const table = tableNameFor(collection);
    const q = `${s}.${quoteIdent(table)}`;
    const result: Table = { q, fields: new Map(fields.map((f) => [f, `doc -> ${quoteLiteral(f)}`])) };
    const client = await this.#ddl.connect();
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
      if (row && fields.every((f) => row.fields?.includes(f))) return { ...result, q: `${s}.${quoteIdent(row.table_name)}` };

      await client.query('BEGIN');
      try {
        await client.query(ddlLockSql(this.#schema));
        const existing = await client.query<{ table_name: string }>(`SELECT table_name FROM ${s}.svc_collections WHERE name = $1`, [collection]);
        let name = existing.rows[0]?.table_name;
        if (name === undefined) {
          name = table;
          const tq = `${s}.${quoteIdent(name)}`;
          await client.query(`CREATE TABLE IF NOT EXISTS ${tq} (id text PRIMARY KEY, seq bigserial NOT NULL, doc jsonb NOT NULL)`);
          await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdent(`${name}_seq`)} ON ${tq} (seq)`);
          await client.query(`INSERT INTO ${s}.svc_collections (name, table_name) VALUES ($1, $2)`, [collection, name]);
        }
        const tq = `${s}.${quoteIdent(name)}`;
        const have = await client.query<{ field: string }>(`SELECT field FROM ${s}.svc_indexes WHERE collection = $1`, [collection]);
        const present = new Set(have.rows.map((r) => r.field));
        for (const field of fields) {
          if (present.has(field)) continue;
          const index = indexNameFor(name, field);
          await client.query(`CREATE INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${tq} ((doc -> ${quoteLiteral(field)}))`);
          await client.query(`INSERT INTO ${s}.svc_indexes (collection, field, index_name) VALUES ($1, $2, $3)`, [collection, field, index]);
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

  // --- reads and single writes -----------------------------------------------

  /** Resolves when the database answers a trivial query; rejects with StoreUnavailableError otherwise (/health). */
  async ping(): Promise<void> {
    await this.#query('SELECT 1', []);
  }

  /** A single statement outside any transaction (its own snapshot). */
  async #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    this.#assertOpen();
    try {
      return await this.#pool.query<R>(text, values);
    } catch (err) {
      throw mapError(err);
    }
  }

  async #tableOrUnavailable(collection: string): Promise<Table> {
    this.#assertOpen();
    try {
      return await this.table(collection);
    } catch (err) {
      throw mapError(err);
    }
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const t = await this.#tableOrUnavailable(collection);
    const res = await this.#query<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE id = $1`, [id]);
    return res.rows[0]?.doc;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const t = await this.#tableOrUnavailable(collection);
    const expr = this.indexExpr(t, collection, field);
    const res = await this.#query<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE ${expr} = $1::jsonb ORDER BY seq`, [indexValueJson(value)]);
    return res.rows.map((r) => r.doc);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    const t = await this.#tableOrUnavailable(collection);
    const res = await this.#query<{ doc: T }>(`SELECT doc FROM ${t.q} ORDER BY seq`, []);
    return res.rows.map((r) => r.doc);
  }

  async count(collection: string): Promise<number> {
    const t = await this.#tableOrUnavailable(collection);
    const res = await this.#query<{ n: string }>(`SELECT count(*) AS n FROM ${t.q}`, []);
    return Number(res.rows[0]?.n ?? 0);
  }

  put<T extends Doc>(collection: string, doc: T): Promise<void> {
    // Through transact (SERIALIZABLE), so a lone put takes part in the conflict detection of concurrent transactions.
    return this.transact((tx) => tx.put(collection, doc));
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.transact((tx) => tx.delete(collection, id));
  }

  // --- transactions -----------------------------------------------------------

  transact<R>(fn: (tx: Tx) => Promise<R>, opts?: TransactOptions): Promise<R> {
    const begin = opts?.readOnly ? 'BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY' : 'BEGIN ISOLATION LEVEL SERIALIZABLE';
    return this.#run('SERIALIZABLE', begin, opts?.readOnly ?? false, fn);
  }

  async claim<T extends Doc>(collection: string, query: ClaimQuery & { set: Partial<T> }): Promise<T[]> {
    return this.claimWith<T, T[]>(collection, query, (tx, claimed) =>
      (tx as PgTx).mergeInto<T>(
        collection,
        claimed.map((d) => d.id),
        query.set,
      ),
    );
  }

  claimWith<T extends Doc, R>(collection: string, query: ClaimQuery, fn: (tx: Tx, claimed: T[]) => Promise<R>): Promise<R> {
    return this.#run('READ COMMITTED', 'BEGIN ISOLATION LEVEL READ COMMITTED', false, async (tx) => {
      const claimed = await (tx as PgTx).lockClaimable<T>(collection, query);
      return fn(tx, claimed);
    });
  }

  async #run<R>(isolation: Isolation, begin: string, readOnly: boolean, fn: (tx: Tx) => Promise<R>): Promise<R> {
    this.#assertOpen();
    for (let attempt = 1; ; attempt++) {
      this.stats.transactions++;
      try {
        return await this.#attempt(begin, readOnly, fn);
      } catch (err) {
        if (!isRetryable(err)) throw mapError(err);
        if (attempt >= this.#maxAttempts) {
          this.stats.conflictsGivenUp++;
          throw new StoreConflictError(
            `transaction gave up after ${attempt} attempts: it kept conflicting with concurrent transactions (${isolation}, ${errCode(err)}); nothing was written`,
            { cause: err },
          );
        }
        this.stats.retries++;
        // Randomised pause growing with the attempt (full jitter), so colliding transactions spread out.
        await delay(Math.random() * Math.min(1000, 2 ** attempt * 2));
        this.#assertOpen();
      }
    }
  }

  /** One try of a transaction. Rejects with the raw database error (the caller classifies it) or fn's error. */
  async #attempt<R>(begin: string, readOnly: boolean, fn: (tx: Tx) => Promise<R>): Promise<R> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      throw unavailable(err);
    }
    let broken: unknown;
    const onError = (err: unknown): void => void (broken ??= err);
    client.on('error', onError);
    const tx = new PgTx(this, client, readOnly, () => broken);
    let destroy = false;
    try {
      // Not awaited on its own: in pipeline mode BEGIN travels with fn's first statement.
      const begun = client.query(begin);
      begun.catch(() => undefined);
      let result: R | undefined;
      let thrown: { error: unknown } | undefined;
      try {
        result = await fn(tx);
      } catch (error) {
        thrown = { error };
      }
      await tx.settle();
      tx.finished = true;
      await begun;
      if (broken !== undefined) throw unavailable(broken);
      // A database error inside fn decides, even if fn caught it (the transaction is aborted anyway).
      if (tx.failure) throw tx.failure.error;
      if (thrown) throw thrown.error;
      await client.query('COMMIT');
      return result as R;
    } catch (err) {
      destroy = broken !== undefined || isConnectionError(err);
      if (!destroy) {
        try {
          await client.query('ROLLBACK');
        } catch {
          destroy = true;
        }
      }
      throw err;
    } finally {
      tx.finished = true;
      client.off('error', onError);
      client.release(destroy ? new Error('connection dropped') : undefined);
    }
  }

  // --- lifecycle ----------------------------------------------------------------

  async flush(): Promise<void> {
    // Every write is committed (durable) before its promise resolves; nothing is pending.
    this.#assertOpen();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      await Promise.allSettled([this.#pool.end(), this.#ddl.end()]);
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error(`store is closed (PostgreSQL schema ${this.#schema})`);
  }
}

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
export async function openPostgresStore(opts: PostgresStoreOptions): Promise<ClaimableStore & { readonly stats: PostgresStore['stats']; readonly engine: 'postgres'; ping(): Promise<void> }> {
  if (typeof opts.url !== 'string' || opts.url.length === 0) throw new TypeError('openPostgresStore: url must be a non-empty string');
  const schema = opts.schema ?? 'public';
  if (typeof schema !== 'string' || schema.length === 0 || schema.length > 63) throw new TypeError('openPostgresStore: schema must be a name of 1 to 63 characters');
  const indexes = normalizeIndexes(opts.indexes);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const queryTimeoutMs = opts.queryTimeoutMs ?? 30_000;
  // pg-pool uses one connectionTimeoutMillis both for opening a connection and for waiting in its queue; under load
  // (many transactions, conflicts retried) the queue wait can pass a connect timeout meant for an unreachable server.
  // So the pool's setting is the queue wait, and the clients it makes get the connect timeout of their own.
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs, query_timeout: queryTimeoutMs });
      // A connection the server terminates can emit 'error' more than once, also while the pool is discarding it and
      // nobody listens (pg-pool's query() listens once; a released broken client has no listener): without a listener
      // of its own, that second event would crash the process. Errors still reach the queries and listeners that wait
      // for them; this one only keeps them from being unhandled.
      this.on('error', () => undefined);
    }
  }
  const config: pg.PoolConfig = {
    connectionString: opts.url,
    connectionTimeoutMillis: opts.queueTimeoutMs ?? 30_000,
    application_name: opts.applicationName ?? 'svc',
    pipeline: opts.pipeline ?? true,
    Client: TimedClient,
  } as pg.PoolConfig;
  const pool = new pg.Pool({ ...config, max: opts.poolSize ?? 10 });
  const ddl = new pg.Pool({ ...config, pipeline: false, max: 1 } as pg.PoolConfig);
  // An idle connection that drops (server restart, network) is discarded by the pool and replaced on demand; the
  // error is reported to whichever request next needs the database, so it is not logged here.
  pool.on('error', () => undefined);
  ddl.on('error', () => undefined);
  const store = new PostgresStore(pool, ddl, schema, indexes, opts.maxAttempts ?? 20);
  try {
    const client = await ddl.connect().catch((err: unknown) => {
      throw unavailable(err);
    });
    try {
      const version = await schemaVersion(client, schema);
      if (checkVersion(schema, version)) {
        if (opts.migrate === false) {
          throw new Error(`schema ${JSON.stringify(schema)} is at migration ${version}, behind this svc: run \`svc migrate\` first`);
        }
        await migrateWith(client, schema);
      }
    } finally {
      client.release();
    }
    for (const collection of Object.keys(indexes)) await store.table(collection);
  } catch (err) {
    await store.close();
    throw err instanceof SchemaTooNewError ? err : mapError(err);
  }
  return store;
}

export type { PostgresStore };
