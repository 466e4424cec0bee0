import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { DeploymentRecord } from '../../src/contracts/deployments.js';
import { type HeirPlanRecord, MEMOIR_HEIR_PLANS } from '../../src/memoir/heir-plans.js';
import type { Store } from '../../src/store/index.js';
import { markWatched, plansOf } from '../../src/watch/plans.js';
import { tmpStore } from '../helpers.js';

// A TON contract has several spellings: raw (0:<hex>), bounceable and non-bounceable user-friendly. A deployment is
// stored in the bounceable friendly form whichever was registered; the memoir plan keeps the contract address its
// owner linked it with. The plan must be found by its deployment in any of them. Before, only the same spelling
// (compared case-insensitively) matched: a plan linked with the raw form was never watched, the chain's trigger
// never opened it, and reports about it were still taken while the owner checked in on chain only.

const OWNER = 'acct_PLANADDR000000000000000000';
const contract = new Address(0, Buffer.alloc(32, 7));

function planWith(id: string, contractAddress: string): HeirPlanRecord {
  const now = new Date().toISOString();
  return {
    id,
    ownerId: OWNER,
    label: id,
    blockchain: 'ton',
    ownerAddress: new Address(0, Buffer.alloc(32, 1)).toRawString(),
    contractAddress,
    intervalDays: 90,
    heirAccess: { enabled: true, openAfterDays: 7, accessDays: 365, allowChat: true },
    heirs: [],
    state: 'armed',
    watched: false,
    verification: null,
    triggeredAt: null,
    triggerEventId: null,
    lastEvent: null,
    createdAt: now,
    updatedAt: now,
  };
}

const deployment = {
  id: 'dep_PLANADDR000000000000000000',
  ownerId: OWNER,
  contractId: 'ctr_PLANADDR000000000000000000',
  chain: 'ton',
  network: 'ton-testnet',
  address: contract.toString({ bounceable: true }),
  status: 'verified',
} as unknown as DeploymentRecord;

describe('the plans a TON deployment watches', () => {
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ store, cleanup } = await tmpStore('svc-watch-plans-'));
    await store.transact(async (tx) => {
      await tx.put(MEMOIR_HEIR_PLANS, planWith('mhp_RAW', contract.toRawString()));
      await tx.put(MEMOIR_HEIR_PLANS, planWith('mhp_NONBOUNCE', contract.toString({ bounceable: false })));
      await tx.put(MEMOIR_HEIR_PLANS, planWith('mhp_SAME', contract.toString({ bounceable: true })));
      await tx.put(MEMOIR_HEIR_PLANS, planWith('mhp_OTHER', new Address(0, Buffer.alloc(32, 8)).toRawString()));
    });
  });
  afterAll(() => cleanup());

  it('are those linked with its address in any spelling, and they become watched', async () => {
    const found = await store.transact((tx) => plansOf(tx, deployment));
    expect(found.map((p) => p.id).sort()).toEqual(['mhp_NONBOUNCE', 'mhp_RAW', 'mhp_SAME']);
    await store.transact((tx) => markWatched(tx, deployment, systemClock));
    const watched = (await store.all<HeirPlanRecord>(MEMOIR_HEIR_PLANS)).filter((p) => p.watched === true);
    expect(watched.map((p) => p.id).sort()).toEqual(['mhp_NONBOUNCE', 'mhp_RAW', 'mhp_SAME']);
  });
});
