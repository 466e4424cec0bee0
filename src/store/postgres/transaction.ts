/**
 * A transaction of the PostgreSQL store on one pooled connection: every statement goes through a bind parameter,
 * and the first database error fails the whole transaction even if the callback caught it.
 */
import type pg from 'pg';
import type { ClaimQuery, ClaimTurns, Doc, IndexValue, Tx } from '../port.js';
import { inOrderOf, lockClaimableSql, mergeJson, mergeSql } from './claim.js';
import {
  assignTurns,
  checkTurns,
  inTurnOrder,
  listPairsSql,
  lockTurnsSql,
  MAX_PAIRS,
  pairsToList,
  roomKey,
  TURN_ROUNDS,
  type Pair,
} from './claim-turns.js';
import { isConnectionError, mapError, unavailable } from './errors.js';
import { checkCollectionName, encodeDoc, indexValueJson } from './records.js';
import type { Table, Tables } from './tables.js';
import { REVISIONED_COLLECTIONS } from '../revisions.js';

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
      return await this.client.query<R>(text, values);
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

  /** Locks and reads the records a claim selects (see ClaimableStore). */
  async lockClaimable<T extends Doc>(collection: string, q: ClaimQuery): Promise<T[]> {
    const t = await this.table(collection);
    const expr = this.tables.indexExpr(t, collection, q.field);
    if (q.turns) return this.lockInTurns<T>(t, collection, expr, q, q.turns);
    const { text, values } = lockClaimableSql(t.q, expr, q);
    const res = await this.run<{ doc: T }>(text, values);
    return res.rows.map((r) => r.doc);
  }

  /**
   * A claim serving groups in turn (./claim-turns.ts): list groups from `after` on, hand out turns, lock each group's
   * share; while that took fewer than the limit (groups whose records are all locked or not due), list the next
   * groups, wider each time, until the listing has come round to where it started.
   */
  private async lockInTurns<T extends Doc>(
    t: Table,
    collection: string,
    expr: string,
    q: ClaimQuery,
    turns: ClaimTurns,
  ): Promise<T[]> {
    checkTurns(q, turns);
    await this.tables.turnIndex(t, collection, q.field, turns.by);
    const full = [...(turns.room ?? [])].filter(([, n]) => n <= 0).map(([v]) => v);
    const list = async (after: unknown, max: number): Promise<Pair[]> => {
      const { text, values } = listPairsSql(t.q, expr, q.value, turns.by, after, max, full);
      const res = await this.run<{ a: unknown; b: unknown }>(text, values);
      return res.rows.map((r) => ({ first: r.a, second: r.b }));
    };
    const fullKeys = new Set(full.map(roomKey));
    /** How many of a listing's groups have room: fewer than asked means the listing reached the last value. */
    const counted = (pairs: Pair[]) => pairs.filter((p) => !fullKeys.has(roomKey(p.second))).length;
    /** Room left per group, as this claim takes records (starting from turns.room; turns.most for the others). */
    const room = new Map(turns.room);
    const claimed: T[] = [];
    /** Groups listed so far: meeting one again means the listing went all the way round. */
    const listed = new Set<string>();
    let from: unknown = turns.after;
    let wrapped = from === undefined;
    for (let round = 0; claimed.length < q.limit && round < TURN_ROUNDS; round++) {
      const max = Math.min(MAX_PAIRS, pairsToList(q.limit - claimed.length) * 2 ** round);
      let pairs = await list(from, max);
      let end = counted(pairs) < max;
      if (end && !wrapped) {
        // The listing reached the last value: go on from the first.
        wrapped = true;
        const more = await list(undefined, max - counted(pairs));
        end = counted(more) < max - counted(pairs);
        pairs = pairs.concat(more);
      }
      const fresh: Pair[] = [];
      for (const p of pairs) {
        const key = JSON.stringify([p.first, p.second]);
        if (listed.has(key)) {
          end = true;
          break;
        }
        listed.add(key);
        fresh.push(p);
      }
      if (fresh.length === 0) break;
      await this.lockListed(t, expr, q, fresh, room, claimed);
      if (end) break;
      from = fresh[fresh.length - 1]!.first;
    }
    return claimed;
  }

  /**
   * Hands out the claim's remaining turns over listed groups and locks their shares; a group that yields fewer records
   * than its share has none left that are due and free, and its unused turns go to the others, until the claim is
   * full or every listed group is dry or out of room.
   */
  private async lockListed<T extends Doc>(
    t: Table,
    expr: string,
    q: ClaimQuery,
    listed: Pair[],
    room: Map<string, number>,
    claimed: T[],
  ): Promise<void> {
    const most = q.turns?.most ?? q.limit;
    let pool = listed;
    while (claimed.length < q.limit && pool.length > 0) {
      const { quotas, order } = assignTurns(pool, q.limit - claimed.length, room, most);
      if (quotas.length === 0) return;
      const { text, values } = lockTurnsSql(
        t.q,
        expr,
        q,
        quotas,
        claimed.map((d) => d.id),
      );
      const res = await this.run<{ doc: T; i: string }>(text, values);
      claimed.push(...inTurnOrder(order, res.rows));
      const dry = new Set<string>();
      const taken = new Map<number, number>();
      for (const r of res.rows) taken.set(Number(r.i) - 1, (taken.get(Number(r.i) - 1) ?? 0) + 1);
      quotas.forEach((quota, i) => {
        const key = roomKey(quota.second);
        const n = taken.get(i) ?? 0;
        room.set(key, (room.get(key) ?? most) - n);
        if (n < quota.count) dry.add(JSON.stringify([quota.first, quota.second]));
      });
      pool = pool.filter((p) => !dry.has(JSON.stringify([p.first, p.second])));
    }
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
