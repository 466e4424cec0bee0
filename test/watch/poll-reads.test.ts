import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { newId } from '../../src/core/ids.js';
import type { Store } from '../../src/store/index.js';
import type { Tx } from '../../src/store/port.js';
import { tmpStore } from '../helpers.js';
import { overriding, wrapTransactions } from '../support/store-wrap.js';
import { SwitchChain, seedWatched, switchWatcher } from '../support/switch-chain.js';

// A poll that writes every deployment of an account reads a bounded number of deployment records per write, however
// many deployments the account has, and however many other accounts registered the same addresses: each write looks
// for the deployment's twins (the same address on another network) through the address's index. Reading all of the
// account's deployments at each write made such a poll cost the square of their number (4.3 times the time per
// deployment at 4,000 as at 1,000 in `npm run bench -- watch`), and an account with thousands of deployments held
// every other account's warnings back for as long. (A store of its own: the watcher polls every account's.)

const DAY = 86_400;
const OWNER = 'own_READS000000000000000000000';
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;
const N = 120;
const OTHERS_PER_ADDRESS = 12;

describe('a poll that writes every deployment', () => {
  let inner: Store;
  let store: Store;
  let cleanup: () => Promise<void>;
  /** Deployment records handed out by the store's reads (get and findBy) inside transactions. */
  let deploymentsRead = 0;

  const counting = (tx: Tx): Tx =>
    overriding(tx, {
      findBy: async (collection: string, field: string, value: never) => {
        const found = await tx.findBy(collection, field, value);
        if (collection === DEPLOYMENTS) deploymentsRead += found.length;
        return found;
      },
      get: async (collection: string, id: string) => {
        const found = await tx.get(collection, id);
        if (collection === DEPLOYMENTS && found) deploymentsRead += 1;
        return found;
      },
    });

  beforeAll(async () => {
    ({ store: inner, cleanup } = await tmpStore('svc-watch-reads-'));
    store = wrapTransactions(inner, counting);
  });
  afterAll(() => cleanup());

  it('reads a bounded number of deployments per write, one at a time or batched', async () => {
    const chain = new SwitchChain();
    const ids = await seedWatched(inner, chain, OWNER, N, [HEIR]);
    // Other accounts registered the same addresses for contracts of their own (unverified, so not watched): however
    // many, this account's writes read none of them.
    await inner.transact(async (tx) => {
      for (const id of ids) {
        const d = (await tx.get<DeploymentRecord>(DEPLOYMENTS, id))!;
        for (let k = 0; k < OTHERS_PER_ADDRESS; k++)
          await tx.put<DeploymentRecord>(DEPLOYMENTS, {
            ...d,
            id: newId('deployment'),
            ownerId: `own_OTHER${String(k).padStart(21, '0')}`,
            contractId: newId('contract'),
            status: 'unverified',
            watch: null,
          });
      }
    });
    for (const writeBatch of [1, 16]) {
      const watcher = switchWatcher(store, chain, { writeBatch });
      await watcher.pollOnce('31337');
      // Every contract's next warning falls due (30 days before the deadline, then 7).
      chain.advance((writeBatch === 1 ? 31 : 23) * DAY);
      deploymentsRead = 0;
      expect(await watcher.pollOnce('31337')).toMatchObject({ read: N, events: N, failed: 0 });
      // Each write reads its own record again, and its twins (none here): a few per write, neither N nor the other
      // accounts' records at its address.
      expect(deploymentsRead).toBeLessThanOrEqual(3 * N);
    }
  });
});
