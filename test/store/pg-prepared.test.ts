/**
 * The PostgreSQL store sends its statements named (src/store/postgres/statements.ts): each connection parses and plans
 * a statement once. Checked on the statements pg is handed (a spy on its query), and on the results, which must be
 * the same with and without names (SVC_DATABASE_PREPARED=0).
 */
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { MAX_NAMED, StatementNames, statement } from '../../src/store/postgres/statements.js';
import { pgSchemas } from '../support/pg-schemas.js';

describe('statement names', () => {
  it('gives one text one name, another text another, and no name when asked for none', () => {
    const a = statement('SELECT doc FROM "s"."c_x" WHERE id = $1', ['1'], true);
    const again = statement('SELECT doc FROM "s"."c_x" WHERE id = $1', ['2'], true);
    const other = statement('SELECT doc FROM "s"."c_y" WHERE id = $1', ['1'], true);
    expect(a.name).toMatch(/^svc_[0-9a-f]{24}$/);
    expect(again).toEqual({ name: a.name, text: a.text, values: ['2'] });
    expect(other.name).not.toBe(a.name);
    expect(statement('SELECT 1', [], false)).toEqual({ text: 'SELECT 1', values: [] });
  });

  it(`names at most its cap of texts (${MAX_NAMED} in a process); the others go unnamed`, () => {
    const names = new StatementNames(5);
    expect(names.max).toBeLessThan(MAX_NAMED);
    const first = names.statement('SELECT 0 AS many', [], true);
    let named = 1;
    for (let i = 1; i < 8; i++) if (names.statement(`SELECT ${i} AS many`, [], true).name) named++;
    expect(named).toBe(5);
    expect(names.statement('SELECT 99 AS many', [], true)).toEqual({ text: 'SELECT 99 AS many', values: [] });
    // A text named before the cap keeps its name.
    expect(names.statement('SELECT 0 AS many', [1], true)).toEqual({ ...first, values: [1] });
  });
});

describe('the store on PostgreSQL, with and without named statements', () => {
  const pgs = pgSchemas('svc_prepared');
  afterEach(() => {
    vi.restoreAllMocks();
  });
  /** Puts, reads, finds and claims with several limits; resolves with what it read and the statements sent. */
  async function exercise(preparedStatements: boolean) {
    const sent: Array<{ name?: string; text: string }> = [];
    vi.restoreAllMocks();
    const original = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0];
      if (config && typeof config === 'object' && 'text' in config)
        sent.push({ name: (config as pg.QueryConfig).name, text: (config as pg.QueryConfig).text });
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original);
    const schema = pgs.schema();
    const store = await openPostgresStore({
      url: pgs.url(),
      schema,
      indexes: { jobs: ['state'] },
      poolSize: 2,
      preparedStatements,
    });
    try {
      for (let i = 0; i < 6; i++) await store.put('jobs', { id: `j${i}`, state: 'pending', n: i });
      const got = await store.get('jobs', 'j3');
      const pending = (await store.findBy('jobs', 'state', 'pending')).map((d) => d.id);
      const claims: string[][] = [];
      for (const limit of [1, 2, 3])
        claims.push(
          await store.claimWith<{ id: string; state: string }, string[]>(
            'jobs',
            { field: 'state', value: 'pending', limit },
            async (tx, records) => {
              for (const r of records) await tx.put('jobs', { ...r, state: 'taken' });
              return records.map((r) => r.id);
            },
          ),
        );
      return { got, pending, claims, sent };
    } finally {
      await store.close();
    }
  }

  it('reads, finds and claims the same with names as without, and names every statement of the store', async () => {
    const named = await exercise(true);
    const plain = await exercise(false);
    expect(named.got).toEqual({ id: 'j3', state: 'pending', n: 3 });
    expect(named.pending).toEqual(['j0', 'j1', 'j2', 'j3', 'j4', 'j5']);
    expect(named.claims).toEqual([['j0'], ['j1', 'j2'], ['j3', 'j4', 'j5']]);
    expect({ got: plain.got, pending: plain.pending, claims: plain.claims }).toEqual({
      got: named.got,
      pending: named.pending,
      claims: named.claims,
    });

    // The store's reads, writes and claims went named; the three claims, whatever their limit, as one statement.
    const claimsSent = named.sent.filter((s) => s.text.includes('FOR UPDATE SKIP LOCKED'));
    expect(claimsSent).toHaveLength(3);
    expect(new Set(claimsSent.map((s) => s.name)).size).toBe(1);
    for (const s of named.sent.filter((s) => /^(SELECT doc|INSERT INTO)/.test(s.text))) expect(s.name).toMatch(/^svc_/);
    // Without names, none.
    expect(plain.sent.filter((s) => /^(SELECT doc|INSERT INTO)/.test(s.text)).length).toBeGreaterThan(0);
    expect(plain.sent.every((s) => s.name === undefined)).toBe(true);
  });
});
