import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError, type Doc, type Store } from '../../src/store/port.js';
import {
  LATEST_VERSION,
  migrate,
  openPostgresStore,
  SchemaTooNewError,
  tableNameFor,
  UnstorableTextError,
  type ClaimableStore,
} from '../../src/store/postgres/index.js';
import { freePort, randomSchema, startOwnPostgres, testDatabaseUrl } from '../support/engines.js';

const INDEXES = { users: ['email', 'n'], deliveries: ['state'], counters: [] };

let url: string;
let admin: pg.Client;
const schemas: string[] = [];
const stores: Store[] = [];

/** A store in a schema of its own (dropped after the file). */
async function freshStore(
  extra: Partial<Parameters<typeof openPostgresStore>[0]> = {},
): Promise<ClaimableStore & { stats: { retries: number } }> {
  const schema = extra.schema ?? randomSchema();
  if (!schemas.includes(schema)) schemas.push(schema);
  const store = await openPostgresStore({ url, schema, indexes: INDEXES, ...extra });
  stores.push(store);
  return store;
}

beforeAll(async () => {
  url = await testDatabaseUrl();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});

afterAll(async () => {
  for (const s of stores) await s.close();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

describe('migrations', () => {
  it('applies every migration once, records it, and does nothing the second time', async () => {
    const schema = randomSchema();
    schemas.push(schema);
    const first = await migrate(url, schema);
    expect(first.applied).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
    const second = await migrate(url, schema);
    expect(second).toEqual({ applied: [], version: LATEST_VERSION });
    const store = await freshStore({ schema });
    await store.put('users', { id: 'u1', email: 'a@x' });
    const rows = await admin.query(`SELECT version, name FROM "${schema}".svc_migrations ORDER BY version`);
    expect(rows.rows.map((r) => r.version)).toEqual(first.applied);
    expect(rows.rows.every((r) => typeof r.name === 'string' && r.name.length > 0)).toBe(true);
  });

  it('runs the migrations at open when the schema is behind, also from several instances at once', async () => {
    const schema = randomSchema();
    const opened = await Promise.all([1, 2, 3].map(() => freshStore({ schema })));
    await opened[0]!.put('users', { id: 'u1', email: 'a@x' });
    expect(await opened[2]!.get('users', 'u1')).toEqual({ id: 'u1', email: 'a@x' });
    const rows = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".svc_migrations`);
    expect(rows.rows[0].n).toBe(LATEST_VERSION);
  });

  it('refuses a schema migrated by a newer svc, and drops nothing', async () => {
    const store = await freshStore();
    const schema = schemas[schemas.length - 1]!;
    await store.put('users', { id: 'keep', email: 'k@x' });
    await admin.query(`INSERT INTO "${schema}".svc_migrations (version, name) VALUES ($1, 'from the future')`, [
      LATEST_VERSION + 1,
    ]);
    await expect(openPostgresStore({ url, schema, indexes: INDEXES })).rejects.toThrow(SchemaTooNewError);
    await expect(openPostgresStore({ url, schema, indexes: INDEXES })).rejects.toThrow(/newer than this svc knows/);
    await expect(migrate(url, schema)).rejects.toThrow(SchemaTooNewError);
    const rows = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".svc_migrations WHERE version = $1`, [
      LATEST_VERSION + 1,
    ]);
    expect(rows.rows[0].n).toBe(1);
    expect(await store.get('users', 'keep')).toEqual({ id: 'keep', email: 'k@x' });
  });

  it('with migrate: false, refuses a schema that is behind instead of migrating it', async () => {
    const schema = randomSchema();
    schemas.push(schema);
    await expect(openPostgresStore({ url, schema, migrate: false })).rejects.toThrow(/svc migrate/);
    const exists = await admin.query(`SELECT to_regclass($1) AS t`, [`"${schema}".svc_collections`]);
    expect(exists.rows[0].t).toBeNull();
  });
});

describe('records', () => {
  let store: ClaimableStore;
  beforeAll(async () => {
    store = await freshStore();
  });

  it('puts, gets, replaces, counts and deletes', async () => {
    expect(await store.get('users', 'nobody')).toBeUndefined();
    await store.put('users', { id: 'a', email: 'a@x', nested: { list: [1, 'two', null] } });
    expect(await store.get('users', 'a')).toEqual({ id: 'a', email: 'a@x', nested: { list: [1, 'two', null] } });
    await store.put('users', { id: 'a', email: 'a2@x' });
    expect(await store.get('users', 'a')).toEqual({ id: 'a', email: 'a2@x' });
    expect(await store.count('users')).toBe(1);
    expect(await store.delete('users', 'a')).toBe(true);
    expect(await store.delete('users', 'a')).toBe(false);
    expect(await store.get('users', 'a')).toBeUndefined();
    expect(await store.count('users')).toBe(0);
  });

  it('stores the JSON round trip of a record (undefined dropped, Date as string)', async () => {
    const when = new Date('2030-01-02T03:04:05.000Z');
    await store.put('misc', { id: 'r', when, gone: undefined, n: -0 } as unknown as Doc);
    expect(await store.get('misc', 'r')).toEqual({ id: 'r', when: when.toISOString(), n: 0 });
  });

  it('refuses bad records with a clear error and writes nothing', async () => {
    await expect(store.put('misc', { id: '' })).rejects.toThrow(/record.id must be a non-empty string/);
    await expect(store.put('misc', null as unknown as Doc)).rejects.toThrow(/must be an object/);
    await expect(store.put('misc', { id: 'nul', text: 'a\u0000b' })).rejects.toThrow(/NUL character/);
    await expect(store.put('misc', { id: 'sur', text: 'a\ud800b' })).rejects.toThrow(/unpaired UTF-16 surrogate/);
    // A backslash before "u0000" in the text is not an escape: stored fine.
    await store.put('misc', { id: 'bs', text: '\\u0000' });
    expect(await store.get('misc', 'bs')).toEqual({ id: 'bs', text: '\\u0000' });
    expect(await store.get('misc', 'nul')).toBeUndefined();
    expect(await store.get('misc', 'sur')).toBeUndefined();
    await expect(store.get('', 'x')).rejects.toThrow(/collection name/);
  });

  it('refuses text jsonb cannot hold with an UnstorableTextError naming the record and the field, in a transaction too', async () => {
    const caught = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      );
    const nul = await caught(store.put('misc', { id: 'u1', meta: { tags: ['ok', 'x\u0000'] } }));
    expect(nul).toBeInstanceOf(UnstorableTextError);
    expect(nul).not.toBeInstanceOf(TypeError);
    expect(nul).toMatchObject({
      name: 'UnstorableTextError',
      collection: 'misc',
      id: 'u1',
      field: 'meta.tags.1',
      problem: 'nul',
    });
    expect((nul as Error).message).not.toContain('x\u0000');
    const lone = await caught(store.put('misc', { id: 'u2', ok: '😀', deep: [{ text: 'x\udc00' }] }));
    expect(lone).toMatchObject({ name: 'UnstorableTextError', id: 'u2', field: 'deep.0.text', problem: 'surrogate' });
    const key = await caught(store.put('misc', { id: 'u3', ['k\ud800']: 1 }));
    expect(key).toMatchObject({ field: 'k\ufffd', problem: 'surrogate' });
    // Inside a transaction: the whole transaction fails, its earlier write is not kept.
    const tx = await caught(
      store.transact(async (t) => {
        await t.put('misc', { id: 'u4', text: 'fine' });
        await t.put('misc', { id: 'u5', text: 'a\u0000' });
      }),
    );
    expect(tx).toBeInstanceOf(UnstorableTextError);
    for (const id of ['u1', 'u2', 'u3', 'u4', 'u5']) expect(await store.get('misc', id)).toBeUndefined();
    // A claim whose `set` holds such text: refused the same way, the claimed record unchanged.
    await store.put('deliveries', { id: 'd1', state: 'pending' });
    const claim = await caught(
      store.claim('deliveries', { field: 'state', value: 'pending', limit: 1, set: { note: 'a\u0000' } }),
    );
    expect(claim).toMatchObject({
      name: 'UnstorableTextError',
      collection: 'deliveries',
      id: undefined,
      field: 'note',
      problem: 'nul',
    });
    expect(await store.get('deliveries', 'd1')).toEqual({ id: 'd1', state: 'pending' });
  });

  it('keeps insertion order in all(), findBy() and scan(), an update keeping its place', async () => {
    for (const id of ['c', 'a', 'b']) await store.put('ordered', { id, v: 1 });
    await store.put('ordered', { id: 'c', v: 2 });
    expect((await store.all('ordered')).map((d) => d.id)).toEqual(['c', 'a', 'b']);
    await store.delete('ordered', 'c');
    await store.put('ordered', { id: 'c', v: 3 });
    expect((await store.all('ordered')).map((d) => d.id)).toEqual(['a', 'b', 'c']);
  });

  it("scan pages through many records in order and sees its own transaction's writes", async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `r${String(i).padStart(3, '0')}`);
    await store.transact(async (tx) => {
      for (const id of ids) await tx.put('big', { id, v: 0 });
    });
    const seen = await store.transact(
      async (tx) => {
        await tx.put('big', { id: 'r300', v: 'changed' });
        await tx.delete('big', 'r301');
        await tx.put('big', { id: 'zz-new', v: 1 });
        const out: Doc[] = [];
        for await (const d of tx.scan('big')) out.push(d);
        return out;
      },
      { readOnly: false },
    );
    expect(seen.map((d) => d.id)).toEqual([...ids.filter((id) => id !== 'r301'), 'zz-new']);
    expect(seen.find((d) => d.id === 'r300')?.v).toBe('changed');
    // Stopping early: only what was read.
    const firstTwo = await store.transact(
      async (tx) => {
        const out: string[] = [];
        for await (const d of tx.scan('big')) {
          out.push(d.id);
          if (out.length === 2) break;
        }
        return out;
      },
      { readOnly: true },
    );
    expect(firstTwo).toEqual(['r000', 'r001']);
  });

  it('findBy matches exact JSON values through the expression index; unindexed fields are an error', async () => {
    await store.put('users', { id: 'u1', email: 'x@x', n: 1 });
    await store.put('users', { id: 'u2', email: 'y@x', n: '1' });
    await store.put('users', { id: 'u3', email: 'x@x', n: null });
    await store.put('users', { id: 'u4', email: { not: 'scalar' } });
    expect((await store.findBy('users', 'email', 'x@x')).map((d) => d.id)).toEqual(['u1', 'u3']);
    expect((await store.findBy('users', 'n', 1)).map((d) => d.id)).toEqual(['u1']);
    expect((await store.findBy('users', 'n', '1')).map((d) => d.id)).toEqual(['u2']);
    expect((await store.findBy('users', 'n', null)).map((d) => d.id)).toEqual(['u3']);
    expect(await store.findBy('users', 'email', 'nobody')).toEqual([]);
    const ids = await store.transact((tx) => tx.idsBy('users', 'email', 'x@x'));
    expect(ids.sort()).toEqual(['u1', 'u3']);
    await expect(store.findBy('users', 'name', 'x')).rejects.toThrow(/not indexed/);
    // Inside a transaction the error can be caught and the transaction goes on (as with lowdb).
    const fallback = await store.transact(async (tx) => {
      try {
        return await tx.findBy('users', 'name', 'x');
      } catch {
        return (await tx.all('users')).filter((u) => u.email === 'y@x');
      }
    });
    expect(fallback.map((d) => d.id)).toEqual(['u2']);

    // The query uses the expression index (sequential scans disabled so the plan must use it if it can).
    const schema = schemas[schemas.length - 1]!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(
        `EXPLAIN SELECT doc FROM "${schema}"."${tableNameFor('users')}" WHERE doc -> 'email' = '"x@x"'::jsonb ORDER BY seq`,
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index|Bitmap/);
      expect(text).toContain(`${tableNameFor('users')}_i_`);
    } finally {
      await client.end();
    }
  });

  it('an index declared later (next release, same database) is created on first use of the collection', async () => {
    const schema = randomSchema();
    const before = await freshStore({ schema, indexes: { people: ['email'] } });
    await before.put('people', { id: 'p1', email: 'e@x', city: 'Lyon' });
    await expect(before.findBy('people', 'city', 'Lyon')).rejects.toThrow(/not indexed/);
    const after = await freshStore({ schema, indexes: { people: ['email', 'city'] } });
    expect(await after.findBy('people', 'city', 'Lyon')).toEqual([{ id: 'p1', email: 'e@x', city: 'Lyon' }]);
    const rows = await admin.query(
      `SELECT field FROM "${schema}".svc_indexes WHERE collection = 'people' ORDER BY field`,
    );
    expect(rows.rows.map((r) => r.field)).toEqual(['city', 'email']);
  });

  it('gives collections with awkward names tables of their own', async () => {
    await store.put('Odd Name/with "quotes"', { id: '1' });
    await store.put('odd_name_with__quotes_', { id: '2' });
    expect(await store.all('Odd Name/with "quotes"')).toEqual([{ id: '1' }]);
    expect(await store.all('odd_name_with__quotes_')).toEqual([{ id: '2' }]);
  });
});

describe('transactions', () => {
  let store: ClaimableStore & { stats: { retries: number } };
  beforeAll(async () => {
    store = await freshStore({ poolSize: 10 });
  });

  it('50 concurrent read-increment-write transactions on one counter end at exactly 50', async () => {
    await store.put('counters', { id: 'c', n: 0 });
    const retriesBefore = store.stats.retries;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.transact(async (tx) => {
          const c = await tx.get<{ id: string; n: number }>('counters', 'c');
          await tx.put('counters', { id: 'c', n: c!.n + 1 });
        }),
      ),
    );
    expect((await store.get<{ id: string; n: number }>('counters', 'c'))!.n).toBe(50);
    expect(store.stats.retries).toBeGreaterThan(retriesBefore); // they did conflict, and were retried
  });

  it('a check-then-insert uniqueness rule holds under 20 concurrent attempts', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.transact(async (tx) => {
          const existing = await tx.findBy('users', 'email', 'unique@x');
          if (existing.length > 0) return 'taken';
          await tx.put('users', { id: `user-${i}`, email: 'unique@x' });
          return 'created';
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(await store.findBy('users', 'email', 'unique@x')).toHaveLength(1);
  });

  it('a throwing fn leaves nothing and rejects with its error', async () => {
    const boom = new Error('boom');
    await expect(
      store.transact(async (tx) => {
        await tx.put('users', { id: 'half-1', email: 'h@x' });
        await tx.put('users', { id: 'half-2', email: 'h@x' });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await store.findBy('users', 'email', 'h@x')).toEqual([]);
  });

  it('a database error fails the transaction even when fn catches it', async () => {
    await expect(
      store.transact(async (tx) => {
        await tx.put('users', { id: 'caught-1', email: 'c@x' });
        try {
          await (tx as unknown as { run(t: string, v: unknown[]): Promise<unknown> }).run('SELECT 1/0', []);
        } catch {
          /* ignored by fn */
        }
        return 'done';
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await store.get('users', 'caught-1')).toBeUndefined();
  });

  it('writes fn forgot to await are part of the commit, not lost', async () => {
    await store.transact(async (tx) => {
      void tx.put('users', { id: 'fire-1', email: 'f@x' });
      void tx.put('users', { id: 'fire-2', email: 'f@x' });
    });
    expect((await store.findBy('users', 'email', 'f@x')).map((d) => d.id)).toEqual(['fire-1', 'fire-2']);
  });

  it('read-only transactions refuse writes', async () => {
    await expect(store.transact((tx) => tx.put('users', { id: 'ro' }), { readOnly: true })).rejects.toThrow(
      /read-only/,
    );
    expect(await store.get('users', 'ro')).toBeUndefined();
  });

  it('the Tx cannot be used after the transaction', async () => {
    let leaked: import('../../src/store/port.js').Tx | undefined;
    await store.transact(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.get('users', 'x')).rejects.toThrow(/already finished/);
  });

  it('a connection dropped mid-transaction rejects with StoreUnavailableError and writes nothing; the pool recovers', async () => {
    const app = `svc-test-${randomUUID()}`;
    const s = await freshStore({ applicationName: app, poolSize: 2 });
    await s.put('users', { id: 'before', email: 'b@x' });
    const attempt = s.transact(async (tx) => {
      await tx.put('users', { id: 'lost-1', email: 'lost@x' });
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'`,
        [app],
      );
      expect(killed.rows).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 100));
      await tx.put('users', { id: 'lost-2', email: 'lost@x' });
    });
    await expect(attempt).rejects.toThrow(StoreUnavailableError);
    expect(await s.findBy('users', 'email', 'lost@x')).toEqual([]);
    // Every connection of the store killed while idle: the next requests get new ones.
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [app]);
    await new Promise((r) => setTimeout(r, 100));
    let ok: unknown;
    for (let i = 0; i < 3 && ok === undefined; i++) {
      ok = await s
        .get('users', 'before')
        .catch((err: unknown) => (err instanceof StoreUnavailableError ? undefined : Promise.reject(err)));
    }
    expect(ok).toEqual({ id: 'before', email: 'b@x' });
    await s.put('users', { id: 'after', email: 'a@x' });
    expect(await s.get('users', 'after')).toEqual({ id: 'after', email: 'a@x' });
  });

  it('a database that cannot be reached rejects with StoreUnavailableError', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(
      openPostgresStore({
        url: `postgres://postgres@127.0.0.1:${port}/test`,
        schema: randomSchema(),
        connectTimeoutMs: 1000,
      }),
    ).rejects.toThrow(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('claim (FOR UPDATE SKIP LOCKED)', () => {
  interface Delivery extends Doc {
    state: string;
    nextAttemptAt: number | null;
    owner?: string;
  }
  let store: ClaimableStore;
  beforeAll(async () => {
    store = await freshStore({ poolSize: 8 });
  });

  it('concurrent claimers never get the same record, and together get every due one', async () => {
    await store.transact(async (tx) => {
      for (let i = 0; i < 300; i++)
        await tx.put<Delivery>('deliveries', {
          id: `d${i}`,
          state: 'pending',
          nextAttemptAt: i % 10 === 0 ? null : 1000,
        });
      for (let i = 0; i < 20; i++)
        await tx.put<Delivery>('deliveries', { id: `later${i}`, state: 'pending', nextAttemptAt: 5000 });
      for (let i = 0; i < 20; i++)
        await tx.put<Delivery>('deliveries', { id: `done${i}`, state: 'succeeded', nextAttemptAt: null });
    });
    const claimer = async (owner: string): Promise<string[]> => {
      const got: string[] = [];
      for (;;) {
        const batch = await store.claim<Delivery>('deliveries', {
          field: 'state',
          value: 'pending',
          dueField: 'nextAttemptAt',
          dueBefore: 2000,
          limit: 7,
          set: { state: 'delivering', owner },
        });
        if (batch.length === 0) return got;
        for (const d of batch) {
          expect(d.state).toBe('delivering');
          expect(d.owner).toBe(owner);
        }
        got.push(...batch.map((d) => d.id));
      }
    };
    const results = await Promise.all(['A', 'B', 'C', 'D'].map(claimer));
    const all = results.flat();
    expect(new Set(all).size).toBe(all.length); // no record twice
    expect(all.sort()).toEqual(Array.from({ length: 300 }, (_, i) => `d${i}`).sort());
    for (const [i, owner] of ['A', 'B', 'C', 'D'].entries()) {
      const stored = await Promise.all(results[i]!.map((id) => store.get<Delivery>('deliveries', id)));
      expect(stored.every((d) => d?.owner === owner && d.state === 'delivering')).toBe(true);
    }
    expect(await store.findBy('deliveries', 'state', 'pending')).toHaveLength(20); // the not-yet-due ones
  });

  it('a claimer skips the records another holds instead of waiting for them', async () => {
    await store.transact(async (tx) => {
      for (let i = 0; i < 6; i++)
        await tx.put<Delivery>('deliveries', { id: `s${i}`, state: 'queued', nextAttemptAt: 0 });
    });
    let second: Delivery[] = [];
    const first = await store.claimWith<Delivery, string[]>(
      'deliveries',
      { field: 'state', value: 'queued', limit: 3 },
      async (tx, claimed) => {
        // While these three are locked, another claimer gets the other three at once.
        second = await store.claim<Delivery>('deliveries', {
          field: 'state',
          value: 'queued',
          limit: 10,
          set: { state: 'taken-by-2' },
        });
        for (const d of claimed) await tx.put('deliveries', { ...d, state: 'taken-by-1' });
        return claimed.map((d) => d.id);
      },
    );
    expect(first).toEqual(['s0', 's1', 's2']);
    expect(second.map((d) => d.id)).toEqual(['s3', 's4', 's5']);
    expect((await store.findBy('deliveries', 'state', 'taken-by-1')).map((d) => d.id)).toEqual(['s0', 's1', 's2']);
  });

  it('a throwing claimWith releases its records unchanged', async () => {
    await store.put<Delivery>('deliveries', { id: 'x1', state: 'xq', nextAttemptAt: 0 });
    await expect(
      store.claimWith<Delivery, void>('deliveries', { field: 'state', value: 'xq', limit: 5 }, async (tx, claimed) => {
        for (const d of claimed) await tx.put('deliveries', { ...d, state: 'half' });
        throw new Error('send failed');
      }),
    ).rejects.toThrow('send failed');
    const again = await store.claim<Delivery>('deliveries', {
      field: 'state',
      value: 'xq',
      limit: 5,
      set: { state: 'ok' },
    });
    expect(again.map((d) => d.id)).toEqual(['x1']);
  });
});

describe('a PostgreSQL started by the test support', () => {
  it('starts from the Debian binaries, serves a store, and stops', async () => {
    const own = await startOwnPostgres();
    try {
      const store = await openPostgresStore({ url: own.url, indexes: { users: ['email'] } });
      await store.put('users', { id: 'u', email: 'e@x' });
      expect(await store.findBy('users', 'email', 'e@x')).toEqual([{ id: 'u', email: 'e@x' }]);
      await store.close();
    } finally {
      await own.stop();
    }
    await expect(openPostgresStore({ url: own.url, connectTimeoutMs: 1000 })).rejects.toThrow(StoreUnavailableError);
  }, 90_000);
});
