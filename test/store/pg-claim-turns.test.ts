/**
 * Claims that serve groups in turn on PostgreSQL (ClaimTurns in src/store/port.ts): accounts in turn, each account's
 * groups in turn, a long backlog never in front of another account's records, groups without room left out, and
 * concurrent claimers still disjoint. And the indexes built on tables in use (the claims' own, and one a new version
 * declares): writes go on while they are built.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimQuery, Doc } from '../../src/store/port.js';
import { openPostgresStore, type ClaimableStore } from '../../src/store/postgres/index.js';
import { assignTurns, lockInTurns, lockTurnsSql } from '../../src/store/postgres/claim-turns.js';
import { indexNameFor } from '../../src/store/postgres/records.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';

interface Item extends Doc {
  state: string;
  due: number | null;
  account: string;
  group: string;
}

let url: string;
const schemas: string[] = [];
const stores: ClaimableStore[] = [];

async function freshStore(opts: { turnIndexWaitMs?: number } = {}): Promise<ClaimableStore> {
  const schema = randomSchema();
  schemas.push(schema);
  const store = await openPostgresStore({ url, schema, indexes: { items: ['state'] }, poolSize: 6, ...opts });
  stores.push(store);
  return store;
}

/** Writes `n` pending items of one account's group, due at `due` (in insertion order, after what is there). */
let written = 0;

async function add(store: ClaimableStore, account: string, group: string, n: number, due: number | null = 0) {
  await store.transact(async (tx) => {
    for (let i = 0; i < n; i++) {
      const id = `${group}-${++written}`;
      await tx.put<Item>('items', { id, state: 'pending', due, account, group });
    }
  });
}

function query(limit: number, turns: Partial<NonNullable<ClaimQuery['turns']>> = {}): ClaimQuery {
  return {
    field: 'state',
    value: 'pending',
    dueField: 'due',
    dueBefore: 100,
    limit,
    turns: { by: ['account', 'group'], ...turns },
  };
}

/** Claims (marking the items taken) and answers "account/group" of each, in the order the claim returned them. */
async function claim(store: ClaimableStore, q: ClaimQuery): Promise<string[]> {
  const got = await store.claim<Item>('items', { ...q, set: { state: 'taken' } });
  return got.map((d) => `${d.account}/${d.group}`);
}

beforeAll(async () => {
  url = await testDatabaseUrl();
});

afterAll(async () => {
  for (const s of stores) await s.close();
  await dropSchemas(url, ...schemas);
});

/** The quoted table of the items collection in `schema`, and the name its claim-in-turns index has. */
async function turnIndexOf(
  schema: string,
  spec = 'state>account>group>due',
): Promise<{ table: string; index: string }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const res = await admin.query(`SELECT table_name FROM "${schema}".svc_collections WHERE name = 'items'`);
    const name: string = res.rows[0].table_name;
    return { table: `"${schema}"."${name}"`, index: indexNameFor(name, spec) };
  } finally {
    await admin.end();
  }
}

/**
 * While another connection holds a transaction on `table` (any index build waits for it to end): waits for a build to
 * wait, then checks that a writer gets its lock at once. A plain CREATE INDEX would queue the writer behind it, and the
 * writer's lock timeout refuse it.
 */
async function writerPassesBuild(table: string): Promise<void> {
  const writer = new pg.Client({ connectionString: url });
  await writer.connect();
  try {
    const building = `SELECT 1 FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX%' AND wait_event_type = 'Lock'`;
    for (let i = 0; i < 300 && !(await writer.query(building)).rowCount; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await writer.query(building)).rowCount).toBe(1);
    await writer.query(`BEGIN; SET LOCAL lock_timeout = '3s'; LOCK TABLE ${table} IN ROW EXCLUSIVE MODE; COMMIT`);
  } finally {
    await writer.end();
  }
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows an EXPLAIN ANALYZE plan read from `table` (a quoted "schema"."name"): those kept and those filtered out. */
function rowsRead(node: PlanNode, table: string): number {
  let n = 0;
  if (node['Relation Name'] !== undefined && table.endsWith(`."${node['Relation Name']}"`))
    n += ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
  for (const child of node.Plans ?? []) n += rowsRead(child, table);
  return n;
}

interface Scene {
  store: ClaimableStore;
  schema: string;
  table: string;
  index: string;
  admin: pg.Client;
}

/**
 * A fresh store holding three of acct-A's records, its table, the name of the index recorded as `spec`, and a
 * connection of the test's own: `fn` runs with them, then any transaction left open there is rolled back.
 */
async function onTable(
  spec: string | undefined,
  opts: { turnIndexWaitMs?: number },
  fn: (scene: Scene) => Promise<void>,
): Promise<void> {
  const store = await freshStore(opts);
  await add(store, 'acct-A', 'A1', 3);
  const schema = schemas.at(-1)!;
  const { table, index } = await turnIndexOf(schema, spec);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await fn({ store, schema, table, index, admin });
  } finally {
    await admin.query('ROLLBACK').catch(() => undefined);
    await admin.end();
  }
}

/** Whether the index is there and valid (undefined: not there). */
async function indexValid(client: pg.Client, schema: string, index: string): Promise<boolean | undefined> {
  const res = await client.query(
    `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
    [schema, index],
  );
  return res.rows[0]?.indisvalid;
}

describe('assignTurns', () => {
  const pairs = [
    { first: 'A', second: 'a1' },
    { first: 'A', second: 'a2' },
    { first: 'B', second: 'b1' },
  ];

  it('gives first-level values turns, and each value its groups in turn', () => {
    const { quotas, order } = assignTurns(pairs, 5);
    const turns = order.map((i) => quotas[i]!.second);
    expect(turns).toEqual(['a1', 'b1', 'a2', 'b1', 'a1']);
    expect(quotas.map((q) => [q.second, q.count])).toEqual([
      ['a1', 2],
      ['a2', 1],
      ['b1', 2],
    ]);
  });

  it('keeps each group within its room or `most`, and leaves out groups without room', () => {
    const room = new Map([
      ['a1', 0],
      ['b1', 1],
    ]);
    const { quotas, order } = assignTurns(pairs, 10, room, 2);
    expect(order.map((i) => quotas[i]!.second)).toEqual(['a2', 'b1', 'a2']);
    expect(quotas.map((q) => q.second)).toEqual(['a2', 'b1']);
  });

  it("starts a value's groups after the one it served last, wrapping round", () => {
    const three = [...pairs.slice(0, 2), { first: 'A', second: 'a3' }, pairs[2]!];
    const turnsOf = (resume: Map<string, string>, limit: number) => {
      const { quotas, order } = assignTurns(three, limit, undefined, limit, resume);
      return order.map((i) => quotas[i]!.second);
    };
    expect(turnsOf(new Map([['A', 'a1']]), 3)).toEqual(['a2', 'b1', 'a3']);
    expect(turnsOf(new Map([['A', 'a3']]), 2)).toEqual(['a1', 'b1']);
    // A group without room is still where the turns resume after.
    const { quotas, order } = assignTurns(three, 1, new Map([['a2', 0]]), 1, new Map([['A', 'a2']]));
    expect(order.map((i) => quotas[i]!.second)).toEqual(['a3']);
  });
});

describe('claim in turns (PostgreSQL)', () => {
  it("does not put one account's long backlog in front of another account's records", async () => {
    const store = await freshStore();
    await add(store, 'acct-A', 'A1', 300);
    await add(store, 'acct-B', 'B1', 1);
    await add(store, 'acct-C', 'C1', 2);
    // Oldest first would give three of A's; in turns each account gets one.
    expect(await claim(store, query(3))).toEqual(['acct-A/A1', 'acct-B/B1', 'acct-C/C1']);
    // Starting after C wraps around to A; B has nothing left, so A and C share the rest.
    expect(await claim(store, query(4, { after: 'acct-C' }))).toEqual([
      'acct-A/A1',
      'acct-C/C1',
      'acct-A/A1',
      'acct-A/A1',
    ]);
    // Starting after A: C has nothing left either, and A gets the whole claim.
    expect(await claim(store, query(2, { after: 'acct-A' }))).toEqual(['acct-A/A1', 'acct-A/A1']);
  });

  it("serves an account's groups in turn, and leaves out a group without room", async () => {
    const store = await freshStore();
    await add(store, 'acct-A', 'A1', 50);
    await add(store, 'acct-A', 'A2', 50);
    await add(store, 'acct-B', 'B1', 50);
    expect(await claim(store, query(4))).toEqual(['acct-A/A1', 'acct-B/B1', 'acct-A/A2', 'acct-B/B1']);
    // A1 has no room (its cap is reached), B1 one more: the rest goes to A2, at most `most` of it.
    const room = new Map([
      ['A1', 0],
      ['B1', 1],
    ]);
    expect(await claim(store, query(10, { room, most: 3 }))).toEqual([
      'acct-A/A2',
      'acct-B/B1',
      'acct-A/A2',
      'acct-A/A2',
    ]);
  });

  it('finds a due record behind many accounts whose records are not due yet', async () => {
    const store = await freshStore();
    // Forty accounts in retry back-off, listed before the one with a due record: a claim of one record lists
    // a dozen groups at first, then wider, until it finds it.
    for (let i = 0; i < 40; i++) await add(store, `acct-${String(i).padStart(2, '0')}`, `G${i}`, 3, 5000);
    await add(store, 'acct-zz', 'Z1', 1);
    expect(await claim(store, query(1))).toEqual(['acct-zz/Z1']);
    expect(await claim(store, query(1))).toEqual([]);
  });

  it('reads only the due records of a group, earliest due first, however many wait for a retry', async () => {
    const store = await freshStore();
    await add(store, 'acct-A', 'A1', 300, 5000); // in retry back-off
    await add(store, 'acct-A', 'A1', 1, 50);
    await add(store, 'acct-A', 'A1', 1, 'soon' as never); // not a number: never due
    await add(store, 'acct-A', 'A1', 1, 10);
    await add(store, 'acct-A', 'A1', 1, null); // due from the start
    const got = await store.claim<Item>('items', { ...query(5), set: { state: 'taken' } });
    expect(got.map((d) => d.due)).toEqual([null, 10, 50]);
    // What locking the group's next five reads now: its two due records and the one due 'soon' (a string sorts
    // below numbers in jsonb, so the range holds it and the type check drops it), not the 300 behind them.
    await add(store, 'acct-A', 'A1', 2, 20);
    const { table } = await turnIndexOf(schemas.at(-1)!);
    const quota = { first: 'acct-A', second: 'A1', count: 5 };
    const { text, values } = lockTurnsSql(table, `(doc -> 'state')`, query(5), [quota], []);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`ANALYZE ${table}`);
      await admin.query('BEGIN');
      const plan = await admin.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
      expect(rowsRead(plan.rows[0]['QUERY PLAN'][0].Plan, table)).toBeLessThanOrEqual(3);
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
    }
  });

  it('looks past hundreds of accounts with nothing due in one claim, and says how far it looked', async () => {
    const store = await freshStore();
    // One transaction: 1,400 accounts whose records wait for a retry, listed before acct-zz's due one.
    await store.transact(async (tx) => {
      for (let i = 0; i < 1400; i++)
        await tx.put<Item>('items', {
          id: `w-${i}`,
          state: 'pending',
          due: 5000,
          account: `acct-${String(i).padStart(4, '0')}`,
          group: 'G',
        });
    });
    await add(store, 'acct-zz', 'Z1', 1);
    const claimFrom = (after: string | undefined) =>
      store.claimWith<Item, { got: string[]; after: unknown }>('items', query(1, { after }), async (_tx, r, reach) => ({
        got: r.map((d) => `${d.account}/${d.group}`),
        after: reach.after,
      }));
    // A claim of one lists 12 groups, then twice as many each time, up to 256, in six listings: 628 groups. It
    // used to give every other listing to the rest of the last account listed (empty here) and reached about 250.
    expect(await claimFrom('acct-0799')).toEqual({ got: ['acct-zz/Z1'], after: 'acct-zz' });
    // From the start, short of its limit: where it stopped, and from there on the next claims reach acct-zz. A claim
    // that hands something out answers the value of its last record.
    await add(store, 'acct-zz', 'Z1', 1);
    const first = await claimFrom(undefined);
    expect(first).toEqual({ got: [], after: 'acct-0627' });
    const second = await claimFrom(first.after as string);
    expect(second).toEqual({ got: [], after: 'acct-1255' });
    expect(await claimFrom(second.after as string)).toEqual({ got: ['acct-zz/Z1'], after: 'acct-zz' });
  });

  it('asks once which listed groups have something due, not once per group', async () => {
    const store = await freshStore();
    await store.transact(async (tx) => {
      for (let i = 0; i < 600; i++)
        await tx.put<Item>('items', { id: `w-${i}`, state: 'pending', due: 5000, account: `acct-${i}`, group: 'G' });
    });
    await add(store, 'acct-zz', 'Z1', 1);
    const { table } = await turnIndexOf(schemas.at(-1)!);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let statements = 0;
    try {
      await admin.query('BEGIN');
      const q = query(1);
      const got = await lockInTurns<Item>(
        (text, values) => {
          statements++;
          return admin.query(text, values);
        },
        table,
        `(doc -> 'state')`,
        q,
        q.turns!,
      );
      expect(got.claimed.map((d) => d.account)).toEqual(['acct-zz']);
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
    }
    // Six listings, each with a lock statement for its first turn, the question, and (the last) a lock statement for
    // the one group with something due: 24 here. It used to be a lock statement for each group in turn, over 600.
    expect(statements).toBeLessThanOrEqual(30);
  });

  it("reaches an account's later groups when its first ones have nothing due", async () => {
    const store = await freshStore();
    // Eight groups in retry back-off fill the first listing of acct-A's groups (PAIRS_PER_FIRST of them); its
    // ninth and tenth have due records, and so has acct-B.
    for (let g = 0; g < 8; g++) await add(store, 'acct-A', `G0${g}`, 2, 5000);
    await add(store, 'acct-A', 'G08', 2);
    await add(store, 'acct-A', 'G09', 1);
    await add(store, 'acct-B', 'B1', 1);
    expect(await claim(store, query(3))).toEqual(['acct-B/B1', 'acct-A/G08', 'acct-A/G09']);
    // The same from a claim that starts with acct-A, and with many more groups behind the first eight.
    for (let g = 10; g < 40; g++) await add(store, 'acct-A', `G${g}`, 1, 5000);
    await add(store, 'acct-A', 'G99', 1);
    expect(await claim(store, query(2, { after: 'acct-0' }))).toEqual(['acct-A/G08', 'acct-A/G99']);
  });

  it("gives an account's groups the first turn in turn from claim to claim", async () => {
    const store = await freshStore();
    for (const g of ['A1', 'A2', 'A3']) await add(store, 'acct-A', g, 5);
    const resume = new Map<string, string>();
    const got: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [one] = await store.claim<Item>('items', { ...query(1, { resume }), set: { state: 'taken' } });
      resume.set(one!.account, one!.group);
      got.push(one!.group);
    }
    // Without `resume` every claim of one record would take A1's.
    expect(got).toEqual(['A1', 'A2', 'A3', 'A1', 'A2', 'A3']);

    // Past the eight groups a listing takes of one account, the turns still go round all of them.
    for (let g = 0; g < 12; g++) await add(store, 'acct-B', `B${String(g).padStart(2, '0')}`, 3);
    const ofB: string[] = [];
    for (let i = 0; i < 14; i++) {
      const [one] = await store.claim<Item>('items', {
        ...query(1, { after: 'acct-A', resume }),
        set: { state: 'taken' },
      });
      resume.set(one!.account, one!.group);
      ofB.push(one!.group);
    }
    expect(ofB).toEqual([...Array.from({ length: 12 }, (_, g) => `B${String(g).padStart(2, '0')}`), 'B00', 'B01']);
  });

  it.each([
    ['three groups an account', 6, 3, 20],
    // Past the eight groups a listing takes of one account, some in back-off: the claims list the rest of it too.
    ['twelve groups an account', 3, 12, 5],
  ])('hands every due record to exactly one of several concurrent claimers (%s)', async (_, accounts, groups, n) => {
    const store = await freshStore();
    for (let a = 0; a < accounts; a++)
      for (let g = 0; g < groups; g++) {
        const group = `A${a}G${String(g).padStart(2, '0')}`;
        await add(store, `acct-${a}`, group, n);
        if (g % 3 === 0) await add(store, `acct-${a}`, group, 2, 5000);
      }
    const claimer = async (): Promise<string[]> => {
      const got: string[] = [];
      const resume = new Map<string, string>();
      for (let after: string | undefined; ; ) {
        const batch = await store.claim<Item>('items', { ...query(5, { after, resume }), set: { state: 'taken' } });
        if (batch.length === 0) return got;
        after = batch.at(-1)!.account;
        for (const d of batch) resume.set(d.account, d.group);
        got.push(...batch.map((d) => d.id));
      }
    };
    const all = (await Promise.all([claimer(), claimer(), claimer(), claimer()])).flat();
    expect(all).toHaveLength(accounts * groups * n);
    expect(new Set(all).size).toBe(all.length);
  });

  it('builds its index while writes to the table go on, claiming oldest first until it is made', () =>
    onTable(undefined, { turnIndexWaitMs: 100 }, async ({ store, schema, table, index, admin }) => {
      await add(store, 'acct-B', 'B1', 2);
      // A transaction that may write to the table stays open: any index build waits for it to end.
      await admin.query(`BEGIN; LOCK TABLE ${table} IN ROW EXCLUSIVE MODE`);
      // The claim waits for the build a while, then takes the oldest records (in turns: A's, then B's).
      expect(await claim(store, query(2))).toEqual(['acct-A/A1', 'acct-A/A1']);
      await writerPassesBuild(table);
      await add(store, 'acct-C', 'C1', 1);
      await admin.query('COMMIT');
      const made = `SELECT 1 FROM "${schema}".svc_indexes WHERE field = 'state>account>group'`;
      for (let i = 0; i < 300 && !(await admin.query(made)).rowCount; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await indexValid(admin, schema, index)).toBe(true);
      // Made: claims serve accounts in turn again (oldest first would give A's last record first).
      expect(await claim(store, query(1, { after: 'acct-A' }))).toEqual(['acct-B/B1']);
    }));

  it('builds an index a new version declares, on a table in use, while writes go on', () =>
    onTable('account', {}, async ({ store, schema, table, index, admin }) => {
      await admin.query(`BEGIN; LOCK TABLE ${table} IN ROW EXCLUSIVE MODE`);
      // The new version's store opens (its index made before it serves), while the old one goes on writing.
      const opening = openPostgresStore({ url, schema, indexes: { items: ['state', 'account'] } });
      await writerPassesBuild(table);
      await add(store, 'acct-B', 'B1', 1);
      await admin.query('COMMIT');
      const newer = await opening;
      stores.push(newer);
      expect(await indexValid(admin, schema, index)).toBe(true);
      expect((await newer.findBy<Item>('items', 'account', 'acct-B')).map((d) => d.group)).toEqual(['B1']);
    }));

  it('drops an index left invalid by a build that stopped, and builds it again', () =>
    onTable(undefined, {}, async ({ store, schema, table, index, admin }) => {
      // A concurrent build that failed half way leaves its index behind, invalid (here: a unique one over
      // duplicates, under the name the claim's index has).
      await expect(
        admin.query(`CREATE UNIQUE INDEX CONCURRENTLY "${index}" ON ${table} ((doc -> 'state'))`),
      ).rejects.toThrow(/duplicate|unique/i);
      expect(await indexValid(admin, schema, index)).toBe(false);
      expect(await claim(store, query(1))).toEqual(['acct-A/A1']);
      expect(await indexValid(admin, schema, index)).toBe(true);
    }));

  it('creates its index once, recorded with the others, and refuses a malformed request', async () => {
    const store = await freshStore();
    await add(store, 'acct-A', 'A1', 1);
    await claim(store, query(1));
    const schema = schemas.at(-1)!;
    const again = await openPostgresStore({ url, schema, indexes: { items: ['state'] } });
    stores.push(again);
    await add(again, 'acct-A', 'A1', 1);
    expect(await claim(again, query(1))).toEqual(['acct-A/A1']);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const rows = await admin
      .query(`SELECT field FROM "${schema}".svc_indexes WHERE collection = 'items'`)
      .finally(() => admin.end());
    expect(rows.rows.map((r) => r.field).sort()).toEqual(['state', 'state>account>group>due']);
    await expect(claim(store, query(1, { by: ['account'] as never }))).rejects.toThrow(/turns\.by/);
    await expect(claim(store, query(1, { most: 0 }))).rejects.toThrow(/turns\.most/);
    await expect(claim(store, query(1, { resume: {} as never }))).rejects.toThrow(/turns\.resume/);
    await expect(openPostgresStore({ url, schema, turnIndexWaitMs: -1 })).rejects.toThrow(/turnIndexWaitMs/);
  });
});
