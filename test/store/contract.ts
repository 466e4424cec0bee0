/**
 * The store port's contract: one suite for every adapter (lowdb, PostgreSQL).
 *
 *   describeStoreContract('lowdb', async (indexes) => {
 *     const store = await openSomeStore({ indexes, ... });
 *     return { store, cleanup: async () => { ... } };
 *   });
 *
 * `open` must give an empty store whose indexed fields are `indexes` (the same
 * as STORE_CONTRACT_INDEXES; every collection the suite uses is named there);
 * it is called before every test, and `cleanup` after it (also when the test
 * closed the store itself).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotIndexedError, type Doc, type Store, type Tx } from '../../src/store/port.js';

/** The collections the suite uses and their indexed fields. */
export const STORE_CONTRACT_INDEXES: Record<string, string[]> = {
  items: ['group', 'rank', 'flag', 'tag'],
  counters: [],
  uniques: ['value'],
  accounts: ['owner'],
  plain: [],
};

export type OpenStore = (indexes: Record<string, string[]>) => Promise<{ store: Store; cleanup(): Promise<void> }>;

type Item = Doc & { group?: string; rank?: number | null; flag?: boolean; tag?: string | number | null; note?: string };

const ids = (docs: Doc[]): string[] => docs.map((d) => d.id);

export function describeStoreContract(name: string, open: OpenStore): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open(STORE_CONTRACT_INDEXES));
    });

    afterEach(async () => {
      await store.close().catch(() => undefined);
      await cleanup();
    });

    describe('records', () => {
      it('puts, gets, overwrites, counts and deletes', async () => {
        expect(await store.get('items', 'a')).toBeUndefined();
        expect(await store.count('items')).toBe(0);
        await store.put<Item>('items', { id: 'a', group: 'g', note: 'first' });
        await store.put<Item>('items', { id: 'b', group: 'g' });
        expect(await store.get('items', 'a')).toEqual({ id: 'a', group: 'g', note: 'first' });
        await store.put<Item>('items', { id: 'a', group: 'h' }); // a whole new record: "note" is gone
        expect(await store.get('items', 'a')).toEqual({ id: 'a', group: 'h' });
        expect(await store.count('items')).toBe(2);
        expect(await store.delete('items', 'a')).toBe(true);
        expect(await store.delete('items', 'a')).toBe(false);
        expect(await store.delete('items', 'never')).toBe(false);
        expect(await store.get('items', 'a')).toBeUndefined();
        expect(await store.count('items')).toBe(1);
      });

      it('keeps collections apart: the same id in two collections is two records', async () => {
        await store.put('items', { id: 'x', group: 'g' });
        await store.put('plain', { id: 'x', other: true });
        expect(await store.get('items', 'x')).toEqual({ id: 'x', group: 'g' });
        expect(await store.get('plain', 'x')).toEqual({ id: 'x', other: true });
        await store.delete('plain', 'x');
        expect(await store.get('items', 'x')).toEqual({ id: 'x', group: 'g' });
      });

      it('refuses a record without a string id, and writes nothing', async () => {
        await expect(store.put('items', { id: '' } as Doc)).rejects.toThrow();
        await expect(store.put('items', { id: 7 } as unknown as Doc)).rejects.toThrow();
        await expect(store.put('items', null as unknown as Doc)).rejects.toThrow();
        expect(await store.count('items')).toBe(0);
      });

      it('round-trips values as JSON: nested data, unicode, numbers, booleans and null', async () => {
        const doc = {
          id: 'ünï-🎉',
          text: 'é漢字🎉 שלום "quoted" back\\slash\nnew line\ttab',
          empty: '',
          numbers: [0, -1, Math.PI, 1e-7, 1e300, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
          flags: [true, false],
          nothing: null,
          nested: { a: { b: { c: [1, [2, [3, { d: 'deep' }]]] } }, emptyObject: {}, emptyArray: [] },
          list: [{ k: 1 }, { k: null }, 'mixed', 2, false],
        };
        await store.put('plain', doc);
        expect(await store.get('plain', doc.id)).toEqual(doc);
        expect(await store.all('plain')).toEqual([doc]);
        const inTx = await store.transact((tx) => tx.get('plain', doc.id), { readOnly: true });
        expect(inTx).toEqual(doc);
      });

      it('stores the JSON form of what was put: undefined fields are dropped, dates become strings', async () => {
        const when = new Date('2030-01-02T03:04:05.678Z');
        await store.put('plain', { id: 'j', gone: undefined, when, list: [1, undefined, 3] } as unknown as Doc);
        expect(await store.get('plain', 'j')).toEqual({
          id: 'j',
          when: '2030-01-02T03:04:05.678Z',
          list: [1, null, 3],
        });
      });

      it('hands out copies: changing a record put or read changes nothing stored', async () => {
        const doc = { id: 'c', group: 'g', tags: ['one'] };
        await store.put('items', doc);
        doc.tags.push('changed after put');
        const read = (await store.get<typeof doc>('items', 'c'))!;
        read.tags.push('changed after get');
        (await store.all<typeof doc>('items'))[0]!.tags.push('changed after all');
        (await store.findBy<typeof doc>('items', 'group', 'g'))[0]!.tags.push('changed after findBy');
        await store.transact(async (tx) => {
          (await tx.get<typeof doc>('items', 'c'))!.tags.push('changed in a transaction');
        });
        expect(await store.get('items', 'c')).toEqual({ id: 'c', group: 'g', tags: ['one'] });
      });
    });

    describe('indexes', () => {
      it('finds by indexed fields in insertion order, and follows updates and deletions', async () => {
        for (const [id, group] of [
          ['i1', 'red'],
          ['i2', 'blue'],
          ['i3', 'red'],
          ['i4', 'red'],
        ] as const) {
          await store.put<Item>('items', { id, group });
        }
        expect(ids(await store.findBy('items', 'group', 'red'))).toEqual(['i1', 'i3', 'i4']);
        expect(await store.findBy('items', 'group', 'green')).toEqual([]);
        await store.put<Item>('items', { id: 'i1', group: 'blue' }); // moves to blue, keeps its place
        await store.delete('items', 'i3');
        expect(ids(await store.findBy('items', 'group', 'red'))).toEqual(['i4']);
        expect(ids(await store.findBy('items', 'group', 'blue'))).toEqual(['i1', 'i2']);
      });

      it('matches exactly, by type: numbers, booleans, null, strings', async () => {
        await store.put<Item>('items', { id: 'n1', rank: 1, flag: true, tag: 'x' });
        await store.put<Item>('items', { id: 's1', tag: '1' });
        await store.put<Item>('items', { id: 'n2', rank: 2, flag: false, tag: 1 });
        await store.put<Item>('items', { id: 'z', rank: null, tag: null });
        await store.put<Item>('items', { id: 'missing' }); // no rank, flag or tag at all
        expect(ids(await store.findBy('items', 'rank', 1))).toEqual(['n1']);
        expect(ids(await store.findBy('items', 'tag', 1))).toEqual(['n2']);
        expect(ids(await store.findBy('items', 'tag', '1'))).toEqual(['s1']);
        expect(ids(await store.findBy('items', 'flag', true))).toEqual(['n1']);
        expect(ids(await store.findBy('items', 'flag', false))).toEqual(['n2']);
        // null matches a field that is null, not one that is missing.
        expect(ids(await store.findBy('items', 'rank', null))).toEqual(['z']);
        expect(ids(await store.findBy('items', 'tag', null))).toEqual(['z']);
      });

      it('refuses a field that is not indexed, in and out of transactions', async () => {
        await store.put<Item>('items', { id: 'a', note: 'n' });
        await expect(store.findBy('items', 'note', 'n')).rejects.toThrow(/not indexed/);
        await expect(store.findBy('plain', 'id', 'a')).rejects.toThrow(/not indexed/);
        await expect(store.transact((tx) => tx.findBy('items', 'note', 'n'))).rejects.toThrow(/not indexed/);
        await expect(store.transact((tx) => tx.idsBy('items', 'note', 'n'))).rejects.toThrow(/not indexed/);
        // A type of its own, which an account's view tells from a failure of the store.
        await expect(store.transact((tx) => tx.idsBy('items', 'note', 'n'))).rejects.toBeInstanceOf(NotIndexedError);
      });

      it("idsBy and findBy inside a transaction see the transaction's own writes", async () => {
        for (let i = 0; i < 4; i++) await store.put<Item>('items', { id: `u${i}`, group: i % 2 ? 'odd' : 'even' });
        const seen = await store.transact(async (tx) => {
          const before = (await tx.idsBy('items', 'group', 'odd')).sort();
          await tx.put<Item>('items', { id: 'u1', group: 'even' }); // leaves odd
          await tx.put<Item>('items', { id: 'u5', group: 'odd' }); // joins odd
          await tx.delete('items', 'u3'); // leaves odd
          await tx.put<Item>('items', { id: 'u6', group: 'odd' });
          await tx.delete('items', 'u6'); // put and deleted in the same transaction
          return {
            before,
            after: (await tx.idsBy('items', 'group', 'odd')).sort(),
            even: (await tx.idsBy('items', 'group', 'even')).sort(),
            found: ids(await tx.findBy('items', 'group', 'even')),
          };
        });
        expect(seen).toEqual({
          before: ['u1', 'u3'],
          after: ['u5'],
          even: ['u0', 'u1', 'u2'],
          found: ['u0', 'u1', 'u2'],
        });
        expect((await store.findBy('items', 'group', 'odd')).map((d) => d.id)).toEqual(['u5']);
      });
    });

    describe('order', () => {
      it('lists all() in insertion order; an update keeps its place, a re-insert goes last', async () => {
        for (const id of ['b', '10', 'a', '2', 'c']) await store.put('plain', { id, v: 1 });
        await store.put('plain', { id: '10', v: 2 });
        await store.delete('plain', 'a');
        await store.put('plain', { id: 'a', v: 3 });
        expect(ids(await store.all('plain'))).toEqual(['b', '10', '2', 'c', 'a']);
        expect(await store.get('plain', '10')).toEqual({ id: '10', v: 2 });
      });

      it('scans in insertion order, over more records than one page, and may stop early', async () => {
        await store.transact(async (tx) => {
          for (let i = 0; i < 300; i++) await tx.put('plain', { id: `r${String(299 - i).padStart(3, '0')}`, i });
        });
        const all = await store.transact(async (tx) => {
          const seen: number[] = [];
          for await (const d of tx.scan<Doc & { i: number }>('plain')) seen.push(d.i);
          return seen;
        });
        expect(all).toEqual(Array.from({ length: 300 }, (_, i) => i));
        const firstFive = await store.transact(async (tx) => {
          const seen: string[] = [];
          for await (const d of tx.scan('plain')) {
            seen.push(d.id);
            if (seen.length === 5) break;
          }
          return seen;
        });
        expect(firstFive).toEqual(['r299', 'r298', 'r297', 'r296', 'r295']);
      });

      it("scan sees the transaction's own updates, deletions and additions", async () => {
        for (let i = 0; i < 4; i++) await store.put('plain', { id: `s${i}`, name: `n${i}` });
        const names = await store.transact(async (tx) => {
          await tx.put('plain', { id: 's1', name: 'renamed' });
          await tx.delete('plain', 's2');
          await tx.put('plain', { id: 's9', name: 'added' });
          const out: unknown[] = [];
          for await (const d of tx.scan('plain')) out.push(d.name);
          return out;
        });
        expect(names).toEqual(['n0', 'renamed', 'n3', 'added']);
        expect((await store.all('plain')).map((d) => d.name)).toEqual(names);
      });
    });

    describe('transactions', () => {
      it('applies every write together and resolves with the result of fn', async () => {
        await store.put('plain', { id: 'old' });
        const result = await store.transact(async (tx) => {
          await tx.put('plain', { id: 'p1' });
          await tx.put('items', { id: 'i1', group: 'g' });
          await tx.delete('plain', 'old');
          return { done: true };
        });
        expect(result).toEqual({ done: true });
        expect(ids(await store.all('plain'))).toEqual(['p1']);
        expect(ids(await store.findBy('items', 'group', 'g'))).toEqual(['i1']);
      });

      it('reads its own writes', async () => {
        await store.put('plain', { id: 'a', v: 1 });
        const seen = await store.transact(async (tx) => {
          await tx.put('plain', { id: 'a', v: 2 });
          await tx.put('plain', { id: 'b', v: 3 });
          const deleted = await tx.delete('plain', 'a');
          return {
            deleted,
            a: await tx.get('plain', 'a'),
            b: await tx.get('plain', 'b'),
            all: ids(await tx.all('plain')),
          };
        });
        expect(seen).toEqual({ deleted: true, a: undefined, b: { id: 'b', v: 3 }, all: ['b'] });
      });

      it('discards every write when fn throws midway, and rejects with the thrown error', async () => {
        await store.put<Item>('items', { id: 'keep', group: 'g', note: 'original' });
        const boom = new Error('boom');
        await expect(
          store.transact(async (tx) => {
            await tx.put<Item>('items', { id: 'new', group: 'g' });
            await tx.put<Item>('items', { id: 'keep', group: 'moved', note: 'changed' });
            await tx.put('plain', { id: 'elsewhere' });
            await tx.delete('items', 'keep');
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await store.all('items')).toEqual([{ id: 'keep', group: 'g', note: 'original' }]);
        expect(ids(await store.findBy('items', 'group', 'g'))).toEqual(['keep']);
        expect(await store.findBy('items', 'group', 'moved')).toEqual([]);
        expect(await store.count('plain')).toBe(0);
      });

      it('a bad record in the middle fails the whole transaction', async () => {
        await expect(
          store.transact(async (tx) => {
            await tx.put('plain', { id: 'fine' });
            await tx.put('plain', { id: '' });
          }),
        ).rejects.toThrow();
        expect(await store.count('plain')).toBe(0);
      });

      it('is serializable: 50 concurrent read-increment-write transactions end at 50', async () => {
        await store.put('counters', { id: 'c', n: 0 });
        const increment = () =>
          store.transact(async (tx) => {
            const c = (await tx.get<Doc & { n: number }>('counters', 'c'))!;
            await tx.put('counters', { id: 'c', n: c.n + 1 });
            return c.n;
          });
        const seen = await Promise.all(Array.from({ length: 50 }, increment));
        expect(await store.get('counters', 'c')).toEqual({ id: 'c', n: 50 });
        // Each transaction saw a different value: none ran on a stale read.
        expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      });

      it('is serializable: of concurrent check-then-insert transactions for one value, exactly one inserts', async () => {
        const attempt = (k: number) =>
          store.transact(async (tx) => {
            if ((await tx.findBy('uniques', 'value', 'the-one')).length > 0) return 'exists';
            await tx.put('uniques', { id: `u${k}`, value: 'the-one' });
            return 'inserted';
          });
        const outcomes = await Promise.all(Array.from({ length: 10 }, (_, k) => attempt(k)));
        expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(1);
        expect(await store.findBy('uniques', 'value', 'the-one')).toHaveLength(1);
      });

      it('is serializable: transfers keep the total, and every reading transaction sees it whole', async () => {
        await store.transact(async (tx) => {
          await tx.put('accounts', { id: 'a', owner: 'o', balance: 100 });
          await tx.put('accounts', { id: 'b', owner: 'o', balance: 100 });
        });
        const balance = async (tx: Tx, id: string) =>
          (await tx.get<Doc & { balance: number }>('accounts', id))!.balance;
        const transfer = (from: string, to: string, amount: number) =>
          store.transact(async (tx) => {
            const f = await balance(tx, from);
            await tx.put('accounts', { id: from, owner: 'o', balance: f - amount });
            const t = await balance(tx, to);
            await tx.put('accounts', { id: to, owner: 'o', balance: t + amount });
          });
        const total = () =>
          store.transact(
            async (tx) => {
              let sum = 0;
              for (const d of await tx.findBy<Doc & { balance: number }>('accounts', 'owner', 'o')) sum += d.balance;
              return sum;
            },
            { readOnly: true },
          );
        const work: Array<Promise<unknown>> = [];
        const totals: Array<Promise<number>> = [];
        for (let i = 0; i < 20; i++) {
          work.push(i % 2 ? transfer('a', 'b', 7) : transfer('b', 'a', 3));
          totals.push(total());
        }
        await Promise.all(work);
        expect(new Set(await Promise.all(totals))).toEqual(new Set([200]));
        expect(await store.get('accounts', 'a')).toMatchObject({ balance: 100 - 10 * 7 + 10 * 3 });
        expect(await store.get('accounts', 'b')).toMatchObject({ balance: 100 + 10 * 7 - 10 * 3 });
        // Opposite-order transfers deadlock on a networked engine, and PostgreSQL takes deadlock_timeout (1 s) to notice
        // each one before the retry: correct but slow, slower still on a busy machine.
      }, 120_000);

      it('runs readOnly transactions: they read committed data and refuse writes', async () => {
        await store.put<Item>('items', { id: 'r', group: 'g' });
        const read = await store.transact(
          async (tx) => ({ r: await tx.get('items', 'r'), g: ids(await tx.findBy('items', 'group', 'g')) }),
          {
            readOnly: true,
          },
        );
        expect(read).toEqual({ r: { id: 'r', group: 'g' }, g: ['r'] });
        await expect(
          store.transact(
            async (tx) => {
              await tx.put('items', { id: 'w', group: 'g' });
            },
            { readOnly: true },
          ),
        ).rejects.toThrow();
        expect(await store.get('items', 'w')).toBeUndefined();
      });

      it('refuses use of a Tx after its transaction is over', async () => {
        let leaked: Tx | undefined;
        await store.transact(async (tx) => {
          leaked = tx;
        });
        await expect(leaked!.put('plain', { id: 'late' })).rejects.toThrow();
        expect(await store.get('plain', 'late')).toBeUndefined();
      });
    });

    describe('closing', () => {
      it('flushes, closes idempotently, and refuses work afterwards', async () => {
        await store.put('plain', { id: 'a' });
        await store.flush();
        await Promise.all([store.close(), store.close()]);
        await store.close();
        await expect(store.get('plain', 'a')).rejects.toThrow();
        await expect(store.put('plain', { id: 'b' })).rejects.toThrow();
        await expect(store.transact(async (tx) => tx.get('plain', 'a'))).rejects.toThrow();
      });
    });
  });
}
