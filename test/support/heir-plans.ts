import type { HeirPlanRecord } from '../../src/memoir/heir-plans.js';

/**
 * The `i`th of many armed plans of as many accounts, checked in at `at` (ISO 8601) with a 90-day interval: none due a
 * reminder for weeks. For the tests and benches of the sweeps that look at every armed plan.
 */
export function armedPlan(i: number, at: string): HeirPlanRecord {
  return {
    id: `mhp_${String(i).padStart(26, '0')}`,
    ownerId: `acct_${String(i).padStart(26, '0')}`,
    label: `plan ${i}`,
    blockchain: 'evm',
    ownerAddress: `0x${'a'.repeat(40)}`,
    contractAddress: null,
    intervalDays: 90,
    heirAccess: { enabled: true, openAfterDays: 30, accessDays: 365, allowChat: true },
    heirs: [],
    state: 'armed',
    verification: null,
    triggeredAt: null,
    triggerEventId: null,
    lastEvent: null,
    checkedInAt: at,
    createdAt: at,
    updatedAt: at,
  };
}
