/**
 * A deployment record put straight into the store, for tests that need one without a chain (access fixtures,
 * paging). Verification itself is tested against a real node in test/contracts/deployments.test.ts.
 */
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { newId } from '../../src/core/ids.js';
import type { Store } from '../../src/store/port.js';

export async function seedDeployment(
  store: Store,
  ownerId: string,
  contractId: string,
  n = 1,
  opts: { verified?: boolean } = {},
): Promise<string> {
  const now = new Date().toISOString();
  const record: DeploymentRecord = {
    id: newId('deployment'),
    ownerId,
    contractId,
    chain: 'evm',
    network: '31337',
    address: `0x${String(n).padStart(40, '0')}`,
    txHash: null,
    blockNumber: null,
    deployer: null,
    status: opts.verified ? 'verified' : 'unverified',
    differences: opts.verified
      ? []
      : [{ field: 'code', expected: "the stored contract's runtime code", found: 'no code at this address' }],
    watch: opts.verified ? { snapshot: null, warned: [], warnDays: [30, 7], emitted: [], paused: false } : null,
    createdAt: now,
    verifiedAt: opts.verified ? now : null,
    updatedAt: now,
  };
  await store.put(DEPLOYMENTS, record);
  return record.id;
}
