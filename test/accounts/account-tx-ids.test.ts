import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountTx } from '../../src/accounts/tenancy.js';
import { DEPLOYMENTS } from '../../src/contracts/deployments.js';
import { DELIVERIES } from '../../src/events/events.js';
import type { Store } from '../../src/store/index.js';
import type { Tx } from '../../src/store/port.js';
import { tmpStore } from '../helpers.js';
import { countReads, overriding } from '../support/store-wrap.js';

// An account's view answers idsBy on a field other accounts' records share with its own ids only, and reads none of
// the others' records to tell them apart: few records at the value are read, many are told apart by the account's
// index alone.

const A = 'own_AAAAAAAAAAAAAAAAAAAAAAAAAA';
const B = 'own_BBBBBBBBBBBBBBBBBBBBBBBBBB';

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ store, cleanup } = await tmpStore('svc-account-ids-'));
});
afterAll(() => cleanup());

/** Deployment-like records at `address`: `mine` of A's, `theirs` of B's; answers A's ids. */
async function seed(address: string, mine: number, theirs: number): Promise<string[]> {
  const ids: string[] = [];
  await store.transact(async (tx) => {
    for (let i = 0; i < mine + theirs; i++) {
      const id = `dep_${address.slice(-4)}_${String(i).padStart(3, '0')}`;
      await tx.put(DEPLOYMENTS, { id, ownerId: i < mine ? A : B, address });
      if (i < mine) ids.push(id);
    }
  });
  return ids;
}

it.each([
  ['a few records at the value', 1, 3],
  ['many records at the value, most of another account', 2, 40],
])('answers the account ids only: %s', async (_label, mine, theirs) => {
  const address = `0x${String(mine * 1000 + theirs).padStart(40, '0')}`;
  const expected = await seed(address, mine, theirs);
  const reads = countReads(store, DEPLOYMENTS);
  try {
    const ids = await store.transact((tx) => accountTx(tx, A).idsBy(DEPLOYMENTS, 'address', address), {
      readOnly: true,
    });
    expect(ids.sort()).toEqual(expected);
    // Another account's records are never copied past the few read to tell them apart.
    expect(reads.count()).toBeLessThanOrEqual(mine + theirs <= 8 ? mine + theirs : 0);
    // The other account sees its own, and an account with none sees nothing.
    expect((await store.transact((tx) => accountTx(tx, B).idsBy(DEPLOYMENTS, 'address', address))).length).toBe(theirs);
    expect(await store.transact((tx) => accountTx(tx, 'own_NOBODY').idsBy(DEPLOYMENTS, 'address', address))).toEqual(
      [],
    );
  } finally {
    reads.restore();
  }
});

it.each([
  ['in ascending order', (ids: string[]) => ids],
  ['in any other order', (ids: string[]) => [...ids].reverse()],
])("keeps the order of the value's ids when the indexes answer %s", async (_label, order) => {
  const address = '0x00000000000000000000000000000000000000ab';
  const expected: string[] = [];
  await store.transact(async (tx) => {
    for (let i = 0; i < 60; i++) {
      const id = `dep_order_${String(i).padStart(3, '0')}`;
      const owner = i % 3 === 0 ? A : B;
      await tx.put(DEPLOYMENTS, { id, ownerId: owner, address });
      if (owner === A) expected.push(id);
    }
    // A's records elsewhere: in its index, not at the value.
    for (let i = 0; i < 30; i++) await tx.put(DEPLOYMENTS, { id: `dep_order_z${i}`, ownerId: A, address: '0x1' });
  });
  const ids = await store.transact(
    (tx) =>
      accountTx(
        overriding(tx, {
          idsBy: async (c: string, f: string, v: never) => order(await tx.idsBy(c, f, v)),
        }),
        A,
      ).idsBy(DEPLOYMENTS, 'address', address),
    { readOnly: true },
  );
  expect(ids).toEqual(order(expected));
});

it("finds the account's records at a shared value without copying the others'", async () => {
  const address = '0x00000000000000000000000000000000000000cd';
  const expected = await seed(address, 3, 50);
  for (const [label, value] of [
    ['many', address],
    ['few', `0x${'0'.repeat(38)}ef`],
  ] as const) {
    const mine = label === 'many' ? expected : await seed(value, 2, 3);
    const reads = countReads(store, DEPLOYMENTS);
    try {
      const found = await store.transact((tx) => accountTx(tx, A).findBy(DEPLOYMENTS, 'address', value), {
        readOnly: true,
      });
      expect(found.map((d) => d.id).sort()).toEqual(mine);
      expect(found.every((d) => d.ownerId === A)).toBe(true);
      // Many at the value: the account's own records only; a few: those few, read once.
      expect(reads.count()).toBe(label === 'many' ? mine.length : 5);
    } finally {
      reads.restore();
    }
  }
});

it("tells the account's records apart by reading them where its own field has no index (webhook deliveries)", async () => {
  const webhookId = 'wh_shared';
  const expected: string[] = [];
  await store.transact(async (tx) => {
    for (let i = 0; i < 20; i++) {
      const id = `dlv_${String(i).padStart(3, '0')}`;
      const owner = i % 4 === 0 ? A : B;
      await tx.put(DELIVERIES, { id, ownerId: owner, webhookId, eventId: `evt_${i}`, state: 'pending' });
      if (owner === A) expected.push(id);
    }
  });
  const view = (tx: Tx) => accountTx(tx, A);
  expect((await store.transact((tx) => view(tx).idsBy(DELIVERIES, 'webhookId', webhookId))).sort()).toEqual(expected);
  const found = await store.transact((tx) => view(tx).findBy(DELIVERIES, 'webhookId', webhookId));
  expect(found.map((d) => d.id).sort()).toEqual(expected);
});
