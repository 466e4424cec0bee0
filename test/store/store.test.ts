import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDataDir, WRITER_THREAD_NAME } from '../../src/store/lowdb/file.js';
import { openLowdbStore, StoreLockedError, type Doc, type Store } from '../../src/store/index.js';
import { COPY_SLICE } from '../../src/store/lowdb/store.js';
import { ticker } from '../support/loop.js';
import { threadNamesShown, threadsNamed } from '../support/threads.js';

type User = Doc & { email: string; name: string; age?: number; tags?: string[] };

const indexes = { users: ['email', 'age'], contracts: ['ownerId'] };

let dir: string;
const opened: Store[] = [];

async function open(dataDir = dir): Promise<Store> {
  const store = await openLowdbStore({ dataDir, indexes });
  opened.push(store);
  return store;
}

function writes(store: Store): number {
  return (store as unknown as { stats: { writes: number } }).stats.writes;
}

/** What the data files hold (the snapshot with the journal replayed), read from disk while the store is open. */
function readDataFile(): ReturnType<typeof readDataDir> {
  return readDataDir(dir);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'svc-store-'));
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('lowdb store: CRUD', () => {
  it('puts, gets, counts and deletes records', async () => {
    const store = await open();
    expect(await store.get('users', 'u1')).toBeUndefined();
    expect(await store.count('users')).toBe(0);

    await store.put<User>('users', { id: 'u1', email: 'a@x.org', name: 'Ann' });
    await store.put<User>('users', { id: 'u2', email: 'b@x.org', name: 'Bob' });
    expect(await store.get('users', 'u1')).toEqual({ id: 'u1', email: 'a@x.org', name: 'Ann' });
    expect(await store.count('users')).toBe(2);

    await store.put<User>('users', { id: 'u1', email: 'a@x.org', name: 'Annie' });
    expect(await store.get<User>('users', 'u1')).toMatchObject({ name: 'Annie' });
    expect(await store.count('users')).toBe(2);

    expect(await store.delete('users', 'u1')).toBe(true);
    expect(await store.delete('users', 'u1')).toBe(false);
    expect(await store.delete('nothing-here', 'u1')).toBe(false);
    expect(await store.get('users', 'u1')).toBeUndefined();
    expect(await store.count('users')).toBe(1);
  });

  it('writes the documented file format, svc.json alone once closed', async () => {
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x.org', name: 'Ann' });
    await store.put('contracts', { id: 'c1', ownerId: 'u1' });
    expect((await readdir(dir)).sort()).toEqual(['svc.journal', 'svc.json', 'svc.lock']);
    await store.close();
    expect(await readdir(dir)).toEqual(['svc.json']);
    const file = JSON.parse(await readFile(path.join(dir, 'svc.json'), 'utf8'));
    expect(file).toEqual({
      format: 'svc-store',
      version: 1,
      generation: expect.any(Number),
      collections: {
        users: { u1: { id: 'u1', email: 'a@x.org', name: 'Ann' } },
        contracts: { c1: { id: 'c1', ownerId: 'u1' } },
      },
    });
  });

  it('validates records on put', async () => {
    const store = await open();
    await expect(store.put('users', { id: '' } as Doc)).rejects.toThrow(TypeError);
    await expect(store.put('users', { name: 'no id' } as unknown as Doc)).rejects.toThrow(
      /id must be a non-empty string/,
    );
    await expect(store.put('users', { id: 42 } as unknown as Doc)).rejects.toThrow(TypeError);
    await expect(store.put('users', null as unknown as Doc)).rejects.toThrow(TypeError);
    const cyclic: Doc = { id: 'c' };
    cyclic.self = cyclic;
    await expect(store.put('users', cyclic)).rejects.toThrow();
    expect(await store.count('users')).toBe(0);
  });

  it('keeps insertion order in all(), including integer-like ids, across reopen', async () => {
    let store = await open();
    const ids = ['b', '10', 'a', '2', '007', '1'];
    for (const id of ids) await store.put('users', { id, email: `${id}@x`, name: id });
    await store.put('users', { id: 'a', email: 'a@x', name: 'updated' }); // update keeps position
    await store.delete('users', '10');
    await store.put('users', { id: '10', email: '10@x', name: 'again' }); // re-insert goes last
    const expected = ['b', 'a', '2', '007', '1', '10'];
    expect((await store.all('users')).map((d) => d.id)).toEqual(expected);

    await store.close();
    store = await open();
    expect((await store.all('users')).map((d) => d.id)).toEqual(expected);
    expect(await store.get<User>('users', 'a')).toMatchObject({ name: 'updated' });
  });

  it.each([
    ['all()', (store: Store) => store.all<User>('users')],
    ['findBy()', (store: Store) => store.findBy<User>('users', 'age', 7)],
  ])(
    `%s of more than ${COPY_SLICE} records reads them in slices, giving turns, as they were when asked`,
    async (_, read) => {
      const store = await open();
      const n = 2 * COPY_SLICE + 7;
      await store.transact(async (tx) => {
        for (let i = 0; i < n; i++)
          await tx.put('users', { id: `u${i}`, email: `${i}@x`, name: `n${i}`, age: 7, tags: ['a'] });
      });
      const loop = ticker();
      const reading = read(store);
      // Written while it is read: neither the update nor the deletion nor the addition is in it.
      const writing = store.transact(async (tx) => {
        await tx.put('users', { id: `u${n - 1}`, email: 'late@x', name: 'late', age: 7 });
        await tx.delete('users', 'u0');
        await tx.put('users', { id: 'u-new', email: 'new@x', name: 'new', age: 7 });
      });
      const found = await reading;
      expect(loop.stop()).toBeGreaterThanOrEqual(2);
      await writing;
      expect(found.map((u) => u.id)).toEqual(Array.from({ length: n }, (_, i) => `u${i}`));
      expect(found.at(-1)).toMatchObject({ name: `n${n - 1}` });
      // Copies: changing them changes nothing stored.
      found[1]!.tags!.push('b');
      expect((await store.get<User>('users', 'u1'))!.tags).toEqual(['a']);
      const after = await read(store);
      expect(after).toHaveLength(n);
      expect(after.at(-1)!.id).toBe('u-new');
    },
  );
});

describe('lowdb store: indexes', () => {
  it('finds by indexed fields and keeps indexes current on update and delete', async () => {
    const store = await open();
    await store.put<User>('users', { id: 'u1', email: 'a@x', name: 'Ann', age: 30 });
    await store.put<User>('users', { id: 'u2', email: 'b@x', name: 'Bob', age: 30 });
    await store.put<User>('users', { id: 'u3', email: 'a@x', name: 'Ann 2', age: 41 });

    expect((await store.findBy('users', 'email', 'a@x')).map((d) => d.id)).toEqual(['u1', 'u3']);
    expect((await store.findBy('users', 'age', 30)).map((d) => d.id)).toEqual(['u1', 'u2']);
    expect(await store.findBy('users', 'age', '30')).toEqual([]); // exact match, no coercion
    expect(await store.findBy('users', 'email', 'nobody@x')).toEqual([]);

    // Changing an indexed field moves the record between index entries.
    await store.put<User>('users', { id: 'u1', email: 'c@x', name: 'Ann', age: 30 });
    expect((await store.findBy('users', 'email', 'a@x')).map((d) => d.id)).toEqual(['u3']);
    expect((await store.findBy('users', 'email', 'c@x')).map((d) => d.id)).toEqual(['u1']);

    // Removing the field removes it from the index.
    await store.put<User>('users', { id: 'u2', email: 'b@x', name: 'Bob' });
    expect((await store.findBy('users', 'age', 30)).map((d) => d.id)).toEqual(['u1']);
    // Adding it back indexes it; the unchanged email stays indexed.
    await store.put<User>('users', { id: 'u2', email: 'b@x', name: 'Bob', age: 52 });
    expect((await store.findBy('users', 'age', 52)).map((d) => d.id)).toEqual(['u2']);
    expect((await store.findBy('users', 'email', 'b@x')).map((d) => d.id)).toEqual(['u2']);

    await store.delete('users', 'u3');
    expect(await store.findBy('users', 'email', 'a@x')).toEqual([]);

    // null is a value like any other.
    await store.put('contracts', { id: 'c1', ownerId: null });
    await store.put('contracts', { id: 'c2', ownerId: 'u1' });
    expect((await store.findBy('contracts', 'ownerId', null)).map((d) => d.id)).toEqual(['c1']);
  });

  it('rebuilds indexes when reopening', async () => {
    let store = await open();
    await store.put('contracts', { id: 'c1', ownerId: 'u1' });
    await store.put('contracts', { id: 'c2', ownerId: 'u2' });
    await store.put('contracts', { id: 'c3', ownerId: 'u1' });
    await store.close();
    store = await open();
    expect((await store.findBy('contracts', 'ownerId', 'u1')).map((d) => d.id)).toEqual(['c1', 'c3']);
  });

  it('refuses findBy on a field that is not indexed', async () => {
    const store = await open();
    await expect(store.findBy('users', 'name', 'Ann')).rejects.toThrow(/"name".*"users".*not indexed/);
    await expect(store.findBy('unknown', 'id', 'x')).rejects.toThrow(/"id".*"unknown".*not indexed/);
    await expect(store.transact(async (tx) => await tx.findBy('users', 'name', 'Ann'))).rejects.toThrow(/not indexed/);
  });
});

describe('lowdb store: transactions', () => {
  it('applies all writes together and returns fn result', async () => {
    const store = await open();
    await store.put<User>('users', { id: 'u0', email: 'z@x', name: 'Zed' });
    const result = await store.transact(async (tx) => {
      await tx.put<User>('users', { id: 'u1', email: 'a@x', name: 'Ann' });
      await tx.put('contracts', { id: 'c1', ownerId: 'u1' });
      await tx.delete('users', 'u0');
      return 'done';
    });
    expect(result).toBe('done');
    expect((await store.all('users')).map((d) => d.id)).toEqual(['u1']);
    expect(await store.get('contracts', 'c1')).toEqual({ id: 'c1', ownerId: 'u1' });
  });

  it('lets reads inside the transaction see its own writes', async () => {
    const store = await open();
    await store.put<User>('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    await store.put<User>('users', { id: 'u2', email: 'a@x', name: 'Al' });
    const seen = await store.transact(async (tx) => {
      await tx.put<User>('users', { id: 'u3', email: 'a@x', name: 'Amy' });
      await tx.put<User>('users', { id: 'u1', email: 'b@x', name: 'Ann' });
      await tx.delete('users', 'u2');
      return {
        u1: (await tx.get<User>('users', 'u1'))?.email,
        u2: await tx.get('users', 'u2'),
        byA: (await tx.findBy('users', 'email', 'a@x')).map((d) => d.id),
        byB: (await tx.findBy('users', 'email', 'b@x')).map((d) => d.id),
        all: (await tx.all('users')).map((d) => d.id),
      };
    });
    expect(seen).toEqual({ u1: 'b@x', u2: undefined, byA: ['u3'], byB: ['u1'], all: ['u1', 'u3'] });
    expect((await store.all('users')).map((d) => d.id)).toEqual(['u1', 'u3']);
  });

  it('changes nothing when fn throws, in memory and on disk', async () => {
    let store = await open();
    await store.put<User>('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    const before = await readFile(path.join(dir, 'svc.json'), 'utf8');
    const writesBefore = writes(store);

    const boom = new Error('boom');
    await expect(
      store.transact(async (tx) => {
        await tx.put<User>('users', { id: 'u2', email: 'b@x', name: 'Bob' });
        await tx.put<User>('users', { id: 'u1', email: 'changed@x', name: 'Changed' });
        await tx.delete('users', 'u1');
        throw boom;
      }),
    ).rejects.toBe(boom);

    expect(await store.all('users')).toEqual([{ id: 'u1', email: 'a@x', name: 'Ann' }]);
    expect(await store.findBy('users', 'email', 'b@x')).toEqual([]);
    expect(await store.findBy('users', 'email', 'a@x')).toHaveLength(1);
    expect(writes(store)).toBe(writesBefore);
    await store.close();
    expect(await readFile(path.join(dir, 'svc.json'), 'utf8')).toBe(before);

    store = await open();
    expect(await store.all('users')).toEqual([{ id: 'u1', email: 'a@x', name: 'Ann' }]);
  });

  it('fails a transaction whose fn awaits something other than its Tx, writes nothing of it, and moves on', async () => {
    const store = await open();
    let later: Promise<unknown> | undefined;
    await expect(
      store.transact(async (tx) => {
        await tx.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
        // Started meanwhile by someone else: waits behind the stalled transaction.
        later = store.put('users', { id: 'u3', email: 'c@x', name: 'Cy' });
        await new Promise((resolve) => setTimeout(resolve, 20)); // I/O or a timer: not allowed
        await tx.put('users', { id: 'u2', email: 'b@x', name: 'Bob' });
      }),
    ).rejects.toThrow(/awaited something other than its Tx/);
    await later;
    expect((await store.all('users')).map((d) => d.id)).toEqual(['u3']);
  });

  it('does not deadlock on a store call awaited inside fn: the outer transaction fails', async () => {
    const store = await open();
    await expect(
      store.transact(async (tx) => {
        await tx.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
        await store.put('users', { id: 'u2', email: 'b@x', name: 'Bob' }); // queued behind this very transaction
      }),
    ).rejects.toThrow(/awaited something other than its Tx/);
    expect(await store.get('users', 'u1')).toBeUndefined();
  });

  it('refuses use of a Tx after its transaction finished', async () => {
    const store = await open();
    let leaked: { put(c: string, d: Doc): Promise<void> } | undefined;
    await store.transact(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.put('users', { id: 'late' })).rejects.toThrow(/transaction already finished/);
    expect(await store.count('users')).toBe(0);
  });

  it('refuses writes in a readOnly transaction and keeps its reads', async () => {
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    await expect(
      store.transact(
        async (tx) => {
          expect(await tx.get('users', 'u1')).toMatchObject({ name: 'Ann' });
          await tx.put('users', { id: 'u2', email: 'b@x', name: 'Bob' });
        },
        { readOnly: true },
      ),
    ).rejects.toThrow(/read-only transaction cannot write/);
    expect(await store.count('users')).toBe(1);
  });
});

describe('lowdb store: idsBy', () => {
  it("lists matching ids, with the transaction's own changes, and refuses an unindexed field", async () => {
    const store = await open();
    await store.transact(async (tx) => {
      for (let i = 0; i < 4; i++)
        await tx.put('users', { id: `u${i}`, email: i % 2 ? 'odd@x' : 'even@x', name: `n${i}` });
    });
    const seen = await store.transact(async (tx) => {
      const before = (await tx.idsBy('users', 'email', 'odd@x')).sort();
      await tx.put('users', { id: 'u1', email: 'even@x', name: 'moved' }); // leaves odd
      await tx.put('users', { id: 'u5', email: 'odd@x', name: 'new' }); // joins odd
      await tx.delete('users', 'u3'); // leaves odd
      await tx.put('users', { id: 'u6', email: 'odd@x', name: 'short-lived' });
      await tx.delete('users', 'u6'); // put and deleted in the same transaction
      return {
        before,
        after: (await tx.idsBy('users', 'email', 'odd@x')).sort(),
        even: (await tx.idsBy('users', 'email', 'even@x')).sort(),
        found: (await tx.findBy('users', 'email', 'odd@x')).map((d) => d.id),
      };
    });
    expect(seen).toEqual({ before: ['u1', 'u3'], after: ['u5'], even: ['u0', 'u1', 'u2'], found: ['u5'] });
    await store.transact(async (tx) => {
      expect(await tx.idsBy('users', 'email', 'nobody@x')).toEqual([]);
      await expect(tx.idsBy('users', 'name', 'new')).rejects.toThrow(/not indexed/);
    });
  });
});

describe('lowdb store: scan', () => {
  /** A store holding users u0..u(n-1), named n0..n(n-1), in that order. */
  async function withUsers(n: number): Promise<Store> {
    const store = await open();
    await store.transact(async (tx) => {
      for (let i = 0; i < n; i++) await tx.put('users', { id: `u${i}`, email: `${i}@x`, name: `n${i}` });
    });
    return store;
  }

  it('yields records in insertion order, copying only what the iteration reaches', async () => {
    const store = await withUsers(5);
    const seen = await store.transact(async (tx) => {
      const ids: string[] = [];
      for await (const u of tx.scan<User>('users')) {
        ids.push(u.id);
        u.name = 'changed by the caller'; // a copy: the store is not affected
        if (u.id === 'u2') break;
      }
      return ids;
    });
    expect(seen).toEqual(['u0', 'u1', 'u2']);
    expect((await store.get<User>('users', 'u1'))!.name).toBe('n1');
    expect(writes(store)).toBe(1); // the reading transaction wrote nothing
  });

  it("sees the transaction's own updates, deletions and additions", async () => {
    const store = await withUsers(4);
    const names = await store.transact(async (tx) => {
      const out: string[] = [];
      await tx.put('users', { id: 'u1', email: '1@x', name: 'renamed' });
      for await (const u of tx.scan<User>('users')) {
        out.push(u.name);
        if (u.id === 'u0') await tx.delete('users', 'u2'); // deleted ahead of the iteration
      }
      return out;
    });
    expect(names).toEqual(['n0', 'renamed', 'n3']);
    const withAdded = await store.transact(async (tx) => {
      await tx.put('users', { id: 'u9', email: '9@x', name: 'added' });
      await tx.put('users', { id: 'u0', email: '0@x', name: 'first again' });
      const out: string[] = [];
      for await (const u of tx.scan<User>('users')) out.push(u.name);
      return out;
    });
    expect(withAdded).toEqual(['first again', 'renamed', 'n3', 'added']);
    expect([...(await store.all<User>('users'))].map((u) => u.name)).toEqual(withAdded);
  });
});

describe('lowdb store: isolation', () => {
  it('deep-copies records on put and on read', async () => {
    const store = await open();
    const doc: User = { id: 'u1', email: 'a@x', name: 'Ann', tags: ['a'] };
    await store.put('users', doc);
    doc.name = 'mutated after put';
    doc.tags!.push('mutated');

    const read = (await store.get<User>('users', 'u1'))!;
    expect(read).toEqual({ id: 'u1', email: 'a@x', name: 'Ann', tags: ['a'] });
    read.tags!.push('mutated via read');
    read.email = 'mutated@x';
    (await store.all<User>('users'))[0]!.tags!.push('x');
    (await store.findBy<User>('users', 'email', 'a@x'))[0]!.tags!.push('y');
    await store.transact(async (tx) => {
      (await tx.get<User>('users', 'u1'))!.tags!.push('z');
    });

    expect(await store.get('users', 'u1')).toEqual({ id: 'u1', email: 'a@x', name: 'Ann', tags: ['a'] });
    expect((await store.findBy('users', 'email', 'a@x')).map((d) => d.id)).toEqual(['u1']);
  });

  it('stores exactly the JSON round trip of any record, in memory and after reopen', async () => {
    // Plain data takes a fast copy; anything else the real round trip. Either way
    // a read must equal JSON.parse(JSON.stringify(doc)), -0, NaN, undefined and Dates included.
    const leaf = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.double(),
      fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY),
      fc.date({ noInvalidDate: true }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    const record = fc.dictionary(fc.constantFrom('a', 'b', 'toJSON', '__proto__', 'constructor', 'x y'), value, {
      maxKeys: 4,
    });
    const docs: Doc[] = fc.sample(record, { numRuns: 300, seed: 42 }).map((fields, i) => ({ ...fields, id: `r${i}` }));
    // Own "__proto__" keys, as JSON.parse makes them, and a toJSON method.
    docs.push({ id: 'proto', ...JSON.parse('{"__proto__":{"x":1}}') });
    docs.push({ id: 'method', toJSON: () => ({ id: 'method', replaced: true }) });
    class Tagged extends Array<number> {
      toJSON() {
        return { tagged: [...this] };
      }
    }
    // One of each per record: any one of them sends the whole record through the real round trip.
    docs.push({ id: 'subclass', list: Tagged.from([1, 2]) });
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test (it is null in JSON)
    docs.push({ id: 'sparse', list: [1, , 3] });
    docs.push({ id: 'boxed', list: [Object(1), Object('s')] });
    const store = await open();
    await store.transact(async (tx) => {
      for (const doc of docs) await tx.put('mixed', doc);
    });
    // toEqual tells -0 from 0; the JSON text adds key order (toStrictEqual would trip on "constructor" fields).
    const same = (got: unknown, doc: Doc) => {
      const want = JSON.parse(JSON.stringify(doc)) as unknown;
      expect(got).toEqual(want);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    };
    for (const doc of docs) same(await store.get('mixed', doc.id), doc);
    await store.close();
    const reopened = await open();
    for (const doc of docs) same(await reopened.get('mixed', doc.id), doc);
  });
});

describe('lowdb store: durability and group commit', () => {
  it('persists across close and reopen', async () => {
    let store = await open();
    await store.put<User>('users', { id: 'u1', email: 'a@x', name: 'Ann', tags: ['x', 'y'] });
    await store.put('contracts', { id: 'c1', ownerId: 'u1', nested: { deep: [1, { two: 2 }] } });
    await store.delete('users', 'u1');
    await store.put<User>('users', { id: 'u2', email: 'b@x', name: 'Bob' });
    await store.close();

    store = await open();
    expect(await store.all('users')).toEqual([{ id: 'u2', email: 'b@x', name: 'Bob' }]);
    expect(await store.get('contracts', 'c1')).toEqual({ id: 'c1', ownerId: 'u1', nested: { deep: [1, { two: 2 }] } });
  });

  it('groups 50 concurrent puts into a few file writes and loses none', async () => {
    const store = await open();
    const before = writes(store);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.put<User>('users', { id: `u${i}`, email: `${i}@x`, name: `n${i}` })),
    );
    expect(writes(store) - before).toBeLessThanOrEqual(3);
    expect(writes(store) - before).toBeGreaterThanOrEqual(1);

    const onDisk = await readDataFile();
    expect(Object.keys(onDisk.collections.users ?? {})).toHaveLength(50);
    await store.close();
    const reopened = await open();
    expect(await reopened.count('users')).toBe(50);
  });

  it('keeps every update when writes overlap a write in progress', async () => {
    const store = await open();
    const first = store.put('counters', { id: 'c', n: 0 });
    const rest: Promise<void>[] = [];
    for (let n = 1; n <= 20; n++) {
      await new Promise((resolve) => setImmediate(resolve)); // let the first write start
      rest.push(store.put('counters', { id: 'c', n }));
      rest.push(store.put('counters', { id: `k${n}`, n }));
    }
    await Promise.all([first, ...rest]);
    const onDisk = await readDataFile();
    expect(onDisk.collections.counters?.c).toEqual({ id: 'c', n: 20 });
    expect(Object.keys(onDisk.collections.counters ?? {})).toHaveLength(21);
  });

  it('acknowledges a write only once the file holds it', async () => {
    const store = await open();
    for (let i = 0; i < 5; i++) {
      await store.put('users', { id: `u${i}`, email: 'e', name: 'n' });
      const onDisk = await readDataFile();
      expect(onDisk.collections.users?.[`u${i}`]).toBeDefined();
    }
    await store.transact(async (tx) => {
      await tx.delete('users', 'u0');
      await tx.put('users', { id: 'u9', email: 'e', name: 'n' });
    });
    const onDisk = await readDataFile();
    expect(Object.keys(onDisk.collections.users ?? {})).toEqual(['u1', 'u2', 'u3', 'u4', 'u9']);
  });

  it('rejects waiting writes when the file write fails, keeps the data and recovers', async () => {
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    await store.put('users', { id: 'u0', email: 'z@x', name: 'Zed' }); // the journal is open now
    await store.compactNow(); // and gone again
    // Make the next writes fail: creating the journal (a rename over svc.journal), and the compaction that follows
    // a failed write (a rename over svc.json): both become non-empty directories.
    const dataFile = path.join(dir, 'svc.json');
    await rm(dataFile);
    await mkdir(path.join(dataFile, 'blocker'), { recursive: true });
    const journalFile = path.join(dir, 'svc.journal');
    await mkdir(path.join(journalFile, 'blocker'), { recursive: true });

    await expect(store.put('users', { id: 'u2', email: 'b@x', name: 'Bob' })).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|ENOTDIR)$/),
    });
    // Still usable, memory still has the data.
    expect(await store.get('users', 'u2')).toEqual({ id: 'u2', email: 'b@x', name: 'Bob' });
    await expect(store.flush()).rejects.toThrow();
    // close() cannot flush either: it fails and the store stays open, still locked.
    await expect(store.close()).rejects.toThrow();
    expect(await readdir(dir)).toContain('svc.lock');
    expect((await readdir(dir)).filter((n) => n.includes('tmp'))).toEqual([]);

    await rm(dataFile, { recursive: true });
    await rm(journalFile, { recursive: true });
    await store.put('users', { id: 'u3', email: 'c@x', name: 'Cy' });
    await store.close();
    expect(await readdir(dir)).toEqual(['svc.json']);
    const reopened = await open();
    expect((await reopened.all('users')).map((d) => d.id)).toEqual(['u1', 'u0', 'u2', 'u3']);
  });

  it('writes exactly what memory holds, in order, through random batches of puts, updates, deletes and moves', async () => {
    // The writer thread rebuilds the file from the changes it is sent; any
    // divergence from memory (content or order) shows after a reopen.
    let seed = 0x9e3779b9;
    const rnd = (n: number) => {
      // xorshift32
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const collections = ['users', 'contracts', '7'];
    const ids = ['a', 'b', 'c', '1', '2', '10', 'x"y', 'é', 'k\u0000'];
    const store = await open();
    for (let round = 0; round < 60; round++) {
      const txs: Array<Promise<unknown>> = [];
      for (let t = 0, n = 1 + rnd(4); t < n; t++) {
        txs.push(
          store.transact(async (tx) => {
            for (let k = 0, m = 1 + rnd(5); k < m; k++) {
              const c = collections[rnd(collections.length)]!;
              const id = ids[rnd(ids.length)]!;
              const op = rnd(4);
              if (op === 0) await tx.delete(c, id);
              else if (op === 1) {
                await tx.delete(c, id); // delete and put again: moves to the end
                await tx.put(c, { id, email: `${round}-${k}@x`, n: round });
              } else await tx.put(c, { id, email: `${round}-${k}@x`, n: round, nested: { list: [round, k, null] } });
            }
          }),
        );
      }
      // Some rounds wait for durability, others pile up behind the write in flight.
      if (rnd(3) === 0) await Promise.all(txs);
    }
    await store.flush();
    const before: Record<string, Doc[]> = {};
    for (const c of collections) before[c] = await store.all(c);
    await store.close();
    const reopened = await open();
    for (const c of collections) expect(await reopened.all(c)).toEqual(before[c]);
  });

  it('survives the loss of its writer thread: the write in flight fails, the next one writes everything', async () => {
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    type Thread = { terminate(): Promise<number>; postMessage(message: { type: string }): void };
    const writer = (store as unknown as { writer: { worker?: Thread } }).writer;
    const thread = writer.worker!;
    expect(thread).toBeDefined();
    // The thread dies once the write is handed to it, before it can answer. The
    // write message is dropped rather than delivered: a thread that got it might
    // finish the write before terminate() takes effect, and then it did not fail.
    const post = thread.postMessage.bind(thread);
    thread.postMessage = (message) => {
      if (message.type === 'write') void thread.terminate();
      else post(message);
    };
    const lost = store.put('users', { id: 'u2', email: 'b@x', name: 'Bob' });
    await expect(lost).rejects.toThrow(/writer thread failed/);
    expect(await store.get('users', 'u2')).toEqual({ id: 'u2', email: 'b@x', name: 'Bob' }); // kept in memory
    await store.put('users', { id: 'u3', email: 'c@x', name: 'Cy' }); // a new thread, with the whole image
    expect(Object.keys((await readDataFile()).collections.users ?? {})).toEqual(['u1', 'u2', 'u3']);
    await store.close();
    expect((await (await open()).all('users')).map((d) => d.id)).toEqual(['u1', 'u2', 'u3']);
  });

  it('flush() waits for pending writes', async () => {
    const store = await open();
    void store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    await store.flush();
    expect((await readDataFile()).collections.users?.u1).toBeDefined();
    await store.flush(); // nothing pending
  });

  it('removes temp files left by an interrupted write', async () => {
    await writeFile(path.join(dir, 'svc.json.tmp-999999'), '{"format":"svc-st');
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    expect((await readdir(dir)).sort()).toEqual(['svc.json', 'svc.lock']);
  });

  it('creates a missing data directory recursively', async () => {
    const nested = path.join(dir, 'a', 'b', 'c');
    const store = await open(nested);
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    expect((await readdir(nested)).sort()).toEqual(['svc.json', 'svc.lock']);
  });
});

describe('lowdb store: lifecycle and locking', () => {
  it('refuses a second open of the same directory in the same process', async () => {
    const store = await open();
    await expect(openLowdbStore({ dataDir: dir })).rejects.toBeInstanceOf(StoreLockedError);
    await expect(openLowdbStore({ dataDir: path.join(dir, '.', '') })).rejects.toThrow(/already open/);
    await store.close();
    const again = await open();
    expect(await again.count('users')).toBe(0);
  });

  it('writes our pid to the lock file and removes it on close', async () => {
    const store = await open();
    expect((await readFile(path.join(dir, 'svc.lock'), 'utf8')).trim()).toBe(String(process.pid));
    await store.close();
    expect(await readdir(dir)).not.toContain('svc.lock');
  });

  it.skipIf(!threadNamesShown)('writes from a thread the system shows as svc-writer, ended at close', async () => {
    const before = threadsNamed(WRITER_THREAD_NAME);
    const store = await open();
    await store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    expect(threadsNamed(WRITER_THREAD_NAME)).toBe(before + 1);
    await store.close();
    expect(threadsNamed(WRITER_THREAD_NAME)).toBe(before);
  });

  it('flushes on close, is idempotent, and rejects operations afterwards', async () => {
    const store = await open();
    const pending = store.put('users', { id: 'u1', email: 'a@x', name: 'Ann' });
    const closing = store.close();
    await expect(store.put('users', { id: 'u2', email: 'b@x', name: 'Bob' })).rejects.toThrow(/closed/);
    await closing;
    await pending;
    await store.close();
    expect(Object.keys((await readDataFile()).collections.users ?? {})).toEqual(['u1']);

    await expect(store.get('users', 'u1')).rejects.toThrow(/store is closed/);
    await expect(store.all('users')).rejects.toThrow(/store is closed/);
    await expect(store.findBy('users', 'email', 'a@x')).rejects.toThrow(/store is closed/);
    await expect(store.count('users')).rejects.toThrow(/store is closed/);
    await expect(store.put('users', { id: 'u3' })).rejects.toThrow(/store is closed/);
    await expect(store.delete('users', 'u1')).rejects.toThrow(/store is closed/);
    await expect(store.transact(async () => 1)).rejects.toThrow(/store is closed/);
    await expect(store.flush()).rejects.toThrow(/store is closed/);
  });
});

describe.skipIf(process.platform === 'win32')('lowdb store: file modes', () => {
  const mode = async (p: string) => (await stat(p)).mode & 0o777;

  it('creates the data directory 0700 and writes svc.json and svc.lock 0600', async () => {
    const nested = path.join(dir, 'a', 'data');
    const store = await open(nested);
    await store.put('users', { id: 'u1', email: 'a@x', name: 'A' });
    expect(await mode(nested)).toBe(0o700);
    expect(await mode(path.join(dir, 'a'))).toBe(0o700); // every directory svc creates
    expect(await mode(path.join(nested, 'svc.json'))).toBe(0o600); // the renamed temp file
    expect(await mode(path.join(nested, 'svc.lock'))).toBe(0o600);
    await store.put('users', { id: 'u2', email: 'b@x', name: 'B' });
    expect(await mode(path.join(nested, 'svc.journal'))).toBe(0o600); // the journal, once there is one
    await store.compactNow();
    expect(await mode(path.join(nested, 'svc.json'))).toBe(0o600);
  });

  it('narrows an existing data directory and data file that others could read', async () => {
    const first = await open();
    await first.put('users', { id: 'u1', email: 'a@x', name: 'A' });
    await first.close();
    await chmod(dir, 0o755);
    await chmod(path.join(dir, 'svc.json'), 0o644);
    // A temp file left by a crash, world-readable: removed at open, never reused as is.
    await writeFile(path.join(dir, `svc.json.tmp-${process.pid}`), '{}', { mode: 0o666 });
    await writeFile(path.join(dir, `svc.journal.tmp-${process.pid}`), '{}', { mode: 0o666 });
    // A journal others could read (left by a process killed before its close compacted it).
    await writeFile(
      path.join(dir, 'svc.journal'),
      `{"format":"svc-journal","version":1,"generation":${
        JSON.parse(await readFile(path.join(dir, 'svc.json'), 'utf8')).generation
      }}\n`,
      { mode: 0o644 },
    );
    await chmod(path.join(dir, 'svc.journal'), 0o644);
    const store = await open();
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(path.join(dir, 'svc.json'))).toBe(0o600);
    expect(await mode(path.join(dir, 'svc.journal'))).toBe(0o600);
    await store.put('users', { id: 'u2', email: 'b@x', name: 'B' });
    expect(await mode(path.join(dir, 'svc.json'))).toBe(0o600);
    expect(await mode(path.join(dir, 'svc.journal'))).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['svc.journal', 'svc.json', 'svc.lock']);
  });
});
