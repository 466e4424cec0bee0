import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccounts } from '../../src/accounts/accounts.js';
import { ACCOUNTS, type AccountRecord, newAccount } from '../../src/accounts/records.js';
import type { Store } from '../../src/store/port.js';
import { MEMOIR_ENGINES, openEngineStore } from '../memoir/support.js';
import { countReads } from '../support/store-wrap.js';

// The operator's list of accounts (list_accounts, GET /api/v1/accounts) reads only the page's accounts: their ids come
// from the status index, oldest first. Copying every account for each page made a walk through 100,000 of them cost
// the square of their number (and, on PostgreSQL, fetch every row for each page).

const N = 40;

describe.each(MEMOIR_ENGINES)('a page of accounts (%s)', (engine) => {
  let store: Store;
  let close: () => Promise<void>;
  let at = Date.parse('2026-06-01T09:00:00Z');
  const clock = { now: () => new Date((at += 3)) };
  const made: AccountRecord[] = [];
  const deps = () => ({ system: store, clock });

  beforeAll(async () => {
    ({ store, close } = await openEngineStore(engine));
    for (let i = 0; i < N; i++) made.push(newAccount({ name: `a${i}`, tier: 'public', kind: 'customer' }, clock));
    await store.transact(async (tx) => {
      for (const [i, a] of made.entries()) await tx.put(ACCOUNTS, i % 8 === 3 ? { ...a, status: 'suspended' } : a);
    });
  });
  afterAll(() => close());

  it('reads only its own accounts, oldest first, with the total', async () => {
    const reads = countReads(store, ACCOUNTS);
    try {
      const page = await listAccounts(deps(), { page: 2, limit: 10 });
      expect(page.items.map((a) => a.id)).toEqual(made.slice(10, 20).map((a) => a.id));
      expect(page.pagination).toMatchObject({ page: 2, limit: 10, total: N, pages: 4, hasNext: true, hasPrev: true });
      expect(reads.count()).toBe(10);
    } finally {
      reads.restore();
    }
    const past = await listAccounts(deps(), { page: 5, limit: 10 });
    expect(past.items).toEqual([]);
    expect(past.pagination).toMatchObject({ total: N, hasNext: false });
  });

  it('filtered by status, counts and lists those alone', async () => {
    const suspended = made.filter((_, i) => i % 8 === 3).map((a) => a.id);
    const page = await listAccounts(deps(), { page: 1, limit: 20, status: 'suspended' });
    expect(page.items.map((a) => a.id)).toEqual(suspended);
    expect(page.items.every((a) => a.status === 'suspended')).toBe(true);
    expect(page.pagination.total).toBe(suspended.length);
    const active = await listAccounts(deps(), { page: 1, limit: 100, status: 'active' });
    expect(active.pagination.total).toBe(N - suspended.length);
  });
});
