import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import type { Store } from '../../src/store/index.js';
import type { Tx } from '../../src/store/port.js';
import { loadCursor } from '../../src/watch/reorg.js';
import { tmpStore } from '../helpers.js';
import { overriding, wrapTransactions } from '../support/store-wrap.js';
import { SwitchChain, seedWatched, switchWatcher } from '../support/switch-chain.js';

// A poll writes the deployments that changed several to a store transaction. A deployment whose write fails does
// not hold back the others of its batch (the batch is written again one by one), nothing is recorded twice, and the
// network's cursor stays where it was so the failed one is read again.

const DAY = 86_400;
const OWNER = 'own_BATCH000000000000000000000';
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;

describe('batched writes', () => {
  let inner: Store;
  let cleanup: () => Promise<void>;
  let bad: string | null = null;
  let transactions = 0;

  // The store, with the write of one deployment failing while `bad` names it.
  const guard = (tx: Tx): Tx =>
    overriding(tx, {
      put: async (collection: string, doc: { id: string }) => {
        if (collection === DEPLOYMENTS && doc.id === bad) throw new Error('this record cannot be written');
        return tx.put(collection, doc as never);
      },
    });
  let store: Store;

  beforeAll(async () => {
    ({ store: inner, cleanup } = await tmpStore('svc-watch-batch-'));
    store = wrapTransactions(inner, guard, () => {
      transactions += 1;
    });
  });
  afterAll(() => cleanup());

  it('one failing write holds back only itself', async () => {
    const chain = new SwitchChain();
    const ids = await seedWatched(inner, chain, OWNER, 10, [HEIR]);
    const watcher = switchWatcher(store, chain, { writeBatch: 4 });
    expect(await watcher.pollOnce('31337')).toMatchObject({ read: 10, events: 0, failed: 0 });
    const cursor = (await loadCursor(inner, '31337'))!.block;

    // Every contract's 30-day warning falls due; the sixth cannot be written.
    bad = ids[5]!;
    chain.advance(31 * DAY);
    transactions = 0;
    const poll = await watcher.pollOnce('31337');
    expect(poll).toMatchObject({ read: 10, events: 9, failed: 1 });
    // Three batches (4 + 4 + 2), the failed one written again one by one (4): far fewer than one per contract
    // plus retries would be, and more than the three a poll without failure takes.
    expect(transactions).toBe(3 + 4);
    const warnings = async () =>
      (await inner.all<EventRecord>(EVENTS))
        .filter((e) => e.type === 'deadman.warning')
        .map((e) => e.data.deploymentId);
    expect((await warnings()).sort()).toEqual(ids.filter((id) => id !== bad).sort());
    expect((await loadCursor(inner, '31337'))!.block).toBe(cursor);

    // Writable again: the next poll at the same block sends its warning, and only its warning.
    bad = null;
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 1, failed: 0 });
    expect((await warnings()).sort()).toEqual([...ids].sort());
    expect((await loadCursor(inner, '31337'))!.block).toBe(Number(chain.head) - 2);
  });
});
