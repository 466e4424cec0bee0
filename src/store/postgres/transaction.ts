/**
 * A transaction of the PostgreSQL store on one pooled connection: every statement goes through a bind parameter,
 * and the first database error fails the whole transaction even if the callback caught it.
 */
import type pg from 'pg';
import type { ClaimQuery, Doc, IndexValue, Tx } from '../port.js';
import { inOrderOf, lockClaimableSql, mergeJson, mergeSql } from './claim.js';
import { lockInTurns } from './claim-turns.js';
import { isConnectionError, mapError, unavailable } from './errors.js';
import { checkCollectionName, encodeDoc, indexValueJson } from './records.js';
import type { Table, Tables } from './tables.js';
import { REVISIONED_COLLECTIONS } from '../revisions.js';
import { statement } from './statements.js';

/** Rows fetched per page by scan(). */
export const SCAN_PAGE = 200;

type Queryable = Pick<pg.ClientBase, 'query'>;

export class PgTx implements Tx {
  finished = false;
  /** The first database error (or misuse) in this transaction: it fails the transaction even if fn caught it. */
  failure: { error: unknown } | undefined;
  /** A write touched a collection of the access revision: the commit moves it (src/store/revisions.ts). */
  movesRevision = false;

  constructor(
    private readonly tables: Tables,
    private readonly client: Queryable,
    private readonly readOnly: boolean,
    private readonly broken: () => unknown,
    /** Statements sent named, parsed and planned once per connection (./statements.ts). */
    private readonly prepared: boolean,
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
    if (this.finished)
      this.fail(new Error('transaction already finished: use the Tx only inside the transact callback'));
    const lost = this.broken();
    if (lost !== undefined) this.fail(unavailable(lost));
    try {
      return await this.client.query<R>(statement(text, values, this.prepared));
    } catch (err) {
      this.failure ??= { error: err };
      throw mapError(err);
    }
  }

  private async table(collection: string): Promise<Table> {
    if (this.finished)
      this.fail(new Error('transaction already finished: use the Tx only inside the transact callback'));
    try {
      return await this.tables.table(collection);
    } catch (err) {
      if (isConnectionError(err)) this.failure ??= { error: err };
      throw mapError(err);
    }
  }

  private writable(): void {
    if (this.readOnly)
      this.fail(
        new Error('this transaction is read-only (transact with readOnly: true): put and delete are not allowed'),
      );
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const t = await this.table(collection);
    const res = await this.run<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE id = $1`, [id]);
    return res.rows[0]?.doc;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const t = await this.table(collection);
    const expr = this.tables.indexExpr(t, collection, field);
    const res = await this.run<{ doc: T }>(`SELECT doc FROM ${t.q} WHERE ${expr} = $1::jsonb ORDER BY seq`, [
      indexValueJson(value),
    ]);
    return res.rows.map((r) => r.doc);
  }

  async idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
    const t = await this.table(collection);
    const expr = this.tables.indexExpr(t, collection, field);
    const res = await this.run<{ id: string }>(`SELECT id FROM ${t.q} WHERE ${expr} = $1::jsonb`, [
      indexValueJson(value),
    ]);
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
      const res = await this.run<{ seq: string; doc: T }>(
        `SELECT seq, doc FROM ${t.q} WHERE seq > $1 ORDER BY seq LIMIT ${SCAN_PAGE}`,
        [after],
      );
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
    if (REVISIONED_COLLECTIONS.has(collection)) this.movesRevision = true;
    const { id, json } = encodeDoc(collection, doc);
    const t = await this.table(collection);
    await this.run(
      `INSERT INTO ${t.q} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [id, json],
    );
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.track(this.#delete(collection, id));
  }

  async #delete(collection: string, id: string): Promise<boolean> {
    this.writable();
    if (REVISIONED_COLLECTIONS.has(collection)) this.movesRevision = true;
    const t = await this.table(collection);
    const res = await this.run(`DELETE FROM ${t.q} WHERE id = $1`, [id]);
    return (res.rowCount ?? 0) > 0;
  }

  /** Locks and reads the records a claim selects (see ClaimableStore), and how far a claim in turns looked. */
  async lockClaimable<T extends Doc>(
    collection: string,
    q: ClaimQuery,
  ): Promise<{ claimed: T[]; reached?: IndexValue }> {
    const t = await this.table(collection);
    const expr = this.tables.indexExpr(t, collection, q.field);
    if (q.turns) {
      // The claim checked the request and made the index before its transaction (./store.ts).
      return lockInTurns<T>((text, values) => this.run(text, values), t.q, expr, q, q.turns);
    }
    const { text, values } = lockClaimableSql(t.q, expr, q);
    const res = await this.run<{ doc: T }>(text, values);
    return { claimed: res.rows.map((r) => r.doc) };
  }

  /** Merges `set` into the given records (already locked); resolves with them in the given order. */
  async mergeInto<T extends Doc>(collection: string, ids: string[], set: Partial<T>): Promise<T[]> {
    this.writable();
    if (ids.length === 0) return [];
    if (REVISIONED_COLLECTIONS.has(collection)) this.movesRevision = true;
    const json = mergeJson(collection, set as Record<string, unknown>);
    const t = await this.table(collection);
    const { text, values } = mergeSql(t.q, ids, json);
    const res = await this.run<{ doc: T }>(text, values);
    return inOrderOf(ids, res.rows);
  }
}
