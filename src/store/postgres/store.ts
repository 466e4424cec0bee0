/**
 * The PostgreSQL store: single reads as one statement each, and transactions (SERIALIZABLE, or READ COMMITTED for
 * claims) retried on a serialization failure or deadlock.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { StoreConflictError } from '../port.js';
import type {
  ClaimableStore,
  ClaimQuery,
  ClaimReach,
  Doc,
  IndexValue,
  RevisionedStore,
  TransactOptions,
  Tx,
} from '../port.js';
import { errCode, isConnectionError, isRetryable, mapError, unavailable } from './errors.js';
import { checkTurns } from './claim-turns.js';
import { indexValueJson } from './records.js';
import type { Table, Tables } from './tables.js';
import { PgTx } from './transaction.js';
import { statement } from './statements.js';
import { quoteIdent } from './migrations.js';
import { ACCESS_REVISION_ROW, REVISION_TABLE } from '../revisions.js';

type Isolation = 'SERIALIZABLE' | 'READ COMMITTED';

export class PostgresStore implements ClaimableStore, RevisionedStore {
  /** The engine's name (for /health, src/core/health.ts). */
  readonly engine = 'postgres';
  readonly #pool: pg.Pool;
  /** One connection for creating collection tables, apart from the pool that transactions hold. */
  readonly #ddl: pg.Pool;
  readonly #tables: Tables;
  readonly #schema: string;
  readonly #maxAttempts: number;
  /** Statements sent named, parsed and planned once per connection (./statements.ts). */
  readonly #prepared: boolean;
  /** Reads and moves the access revision (src/store/revisions.ts). */
  readonly #revisionRead: string;
  readonly #revisionMove: string;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** Counters for tests and diagnostics (not part of the port). */
  readonly stats = { transactions: 0, retries: 0, conflictsGivenUp: 0 };

  constructor(pool: pg.Pool, ddl: pg.Pool, tables: Tables, schema: string, maxAttempts: number, prepared: boolean) {
    this.#pool = pool;
    this.#prepared = prepared;
    this.#ddl = ddl;
    this.#tables = tables;
    this.#schema = schema;
    this.#maxAttempts = maxAttempts;
    const row = `${quoteIdent(schema)}.${REVISION_TABLE}`;
    this.#revisionRead = `SELECT value FROM ${row} WHERE name = '${ACCESS_REVISION_ROW}'`;
    this.#revisionMove = `UPDATE ${row} SET value = value + 1 WHERE name = '${ACCESS_REVISION_ROW}'`;
  }

  /** The collection's table, created (with its declared indexes) on first use. */
  table(collection: string): Promise<Table> {
    return this.#tables.table(collection);
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
      return await this.#pool.query<R>(statement(text, values, this.#prepared));
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

  /** The access revision: one statement, answered from the row every instance's writes move. */
  async accessRevision(): Promise<number> {
    const res = await this.#query<{ value: string }>(this.#revisionRead, []);
    return Number(res.rows[0]?.value ?? 0);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const t = await this.#tableOrUnavailable(collection);
    const res = await this.#query<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE id = $1`, [id]);
    return res.rows[0]?.doc;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const t = await this.#tableOrUnavailable(collection);
    const expr = this.#tables.indexExpr(t, collection, field);
    const res = await this.#query<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE ${expr} = $1::jsonb ORDER BY seq`, [
      indexValueJson(value),
    ]);
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
    const begin = opts?.readOnly
      ? 'BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY'
      : 'BEGIN ISOLATION LEVEL SERIALIZABLE';
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

  async claimWith<T extends Doc, R>(
    collection: string,
    query: ClaimQuery,
    fn: (tx: Tx, claimed: T[], reach: ClaimReach) => Promise<R>,
  ): Promise<R> {
    let q = query;
    if (query.turns) {
      this.#assertOpen();
      checkTurns(query, query.turns);
      // Before the claim's transaction, not in it: the index is built CONCURRENTLY, which waits for the
      // transactions open on the table to end (./tables.ts).
      const t = await this.#tables.table(collection);
      this.#tables.indexExpr(t, collection, query.field);
      // While a long build goes on (a large table after an upgrade), claims take the oldest records first.
      if (!(await this.#tables.turnIndex(collection, query.field, query.turns.by, query.dueField)))
        q = { ...query, turns: undefined };
    }
    return this.#run('READ COMMITTED', 'BEGIN ISOLATION LEVEL READ COMMITTED', false, async (tx) => {
      const { claimed, reached } = await (tx as PgTx).lockClaimable<T>(collection, q);
      // Also while the index is built and the claim takes the oldest first: the turns go on from its last record.
      const by = query.turns?.by[0];
      const last = by === undefined ? undefined : (claimed.at(-1)?.[by] as IndexValue | undefined);
      return fn(tx, claimed, { after: reached ?? last });
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
    const tx = new PgTx(this.#tables, client, readOnly, () => broken, this.#prepared);
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
      // In the same transaction as the writes: visible to other instances exactly when they are.
      if (tx.movesRevision) await client.query(statement(this.#revisionMove, [], this.#prepared));
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

  /** Only flushes: row versions an update left behind are the server's to vacuum (docs/architecture.md). */
  compactNow(): Promise<void> {
    return this.flush();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      await Promise.allSettled([this.#pool.end(), this.#ddl.end(), this.#tables.close()]);
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error(`store is closed (PostgreSQL schema ${this.#schema})`);
  }
}
