/**
 * The credit history (list_credit_history) pages through an account's ledger newest first, each entry once, reading
 * only the entries of the page asked for: a ledger grows with every paid action, and reading all of it at each page
 * made walking it cost the square of its length. On both stores, since the page finds its entries through an index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_INDEXES } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { CursorCodec } from '../../src/core/pagination.js';
import { addEntry, creditHistory } from '../../src/credits/ledger.js';
import { CREDIT_ENTRIES, type LedgerEntry } from '../../src/credits/records.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/port.js';
import { tmpStore } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { countReads } from '../support/store-wrap.js';

const N = 130;
const PAGE = 50;
const cursors = new CursorCodec('history-pages-test-secret');

async function grant(store: Store, accountId: string, n: number): Promise<void> {
  await addEntry(store, systemClock, accountId, {
    kind: 'grant',
    amount: n,
    idempotencyKey: `grant-${n}`,
    reference: { type: 'operator', id: 'op' },
    reason: `grant ${n}`,
  });
}

async function walk(store: Store, accountId: string, limit = PAGE): Promise<{ seqs: number[]; pages: number }> {
  const seqs: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await creditHistory(store, cursors, accountId, { cursor, limit });
    seqs.push(...page.items.map((e) => e.seq));
    expect(page.pagination.hasMore).toBe(page.pagination.nextCursor !== null);
    cursor = page.pagination.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  return { seqs, pages };
}

const descending = (n: number) => Array.from({ length: n }, (_, i) => n - i);

function suite(open: () => Promise<{ store: Store; close: () => Promise<void> }>) {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ store, close } = await open());
    for (let i = 1; i <= N; i++) {
      await grant(store, 'acct_hist_a', i);
      // Another account's entries in between: never listed, never read for A's pages.
      if (i % 10 === 0) await grant(store, 'acct_hist_b', i);
    }
  });
  afterAll(async () => {
    await close?.();
  });

  it('walks the ledger newest first, each entry once, reading only each page', async () => {
    const reads = countReads(store, CREDIT_ENTRIES);
    try {
      const { seqs, pages } = await walk(store, 'acct_hist_a');
      expect(pages).toBe(Math.ceil(N / PAGE));
      expect(seqs).toEqual(descending(N));
      expect(reads.count()).toBe(N);
    } finally {
      reads.restore();
    }
    const first = await creditHistory(store, cursors, 'acct_hist_a', { limit: 2 });
    expect(first.items.map((e) => [e.seq, e.amount, e.balanceAfter, e.reason])).toEqual([
      [N, N, (N * (N + 1)) / 2, `grant ${N}`],
      [N - 1, N - 1, (N * (N + 1)) / 2 - N, `grant ${N - 1}`],
    ]);
    expect((await walk(store, 'acct_hist_b', 4)).seqs).toEqual(descending(N / 10));
    expect(await creditHistory(store, cursors, 'acct_hist_none', { limit: 5 })).toEqual({
      items: [],
      pagination: { cursor: null, nextCursor: null, hasMore: false },
    });
  });

  it("refuses another account's cursor", async () => {
    const page = await creditHistory(store, cursors, 'acct_hist_a', { limit: 3 });
    const cursor = page.pagination.nextCursor ?? undefined;
    expect(cursor).toBeDefined();
    await expect(creditHistory(store, cursors, 'acct_hist_b', { cursor, limit: 3 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('reads a ledger written before the index whole, in the same order', async () => {
    await grant(store, 'acct_hist_old', 1);
    await grant(store, 'acct_hist_old', 2);
    await grant(store, 'acct_hist_old', 3);
    // As an older version stored them: no `place`.
    await store.transact(async (tx) => {
      for (const e of await tx.findBy<LedgerEntry>(CREDIT_ENTRIES, 'ownerId', 'acct_hist_old')) {
        const { place: _place, ...old } = e;
        await tx.put(CREDIT_ENTRIES, old);
      }
    });
    expect((await walk(store, 'acct_hist_old', 2)).seqs).toEqual([3, 2, 1]);
    // A new entry is indexed; the older ones are still listed.
    await grant(store, 'acct_hist_old', 4);
    expect((await walk(store, 'acct_hist_old', 3)).seqs).toEqual([4, 3, 2, 1]);
  });
}

describe('credit history pages, embedded store', () => {
  suite(async () => {
    const t = await tmpStore('svc-history-pages-');
    return { store: t.store, close: t.cleanup };
  });
});

describe('credit history pages, PostgreSQL', () => {
  suite(async () => {
    const url = await testDatabaseUrl();
    const schema = randomSchema('svc_history');
    const store = await openPostgresStore({ url, schema, indexes: STORE_INDEXES });
    return {
      store,
      close: async () => {
        await store.close();
        await dropSchemas(url, schema);
      },
    };
  });
});
