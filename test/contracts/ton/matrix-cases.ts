import { Address, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { TemplateType } from '../../../src/law/templates.js';
import { buildInitialData, tonAddressFor } from '../../../src/contracts/ton/data.js';
import { generateTon, shapeOf, tonPlanDataFor } from '../../../src/contracts/ton/index.js';
import { makePlan, type PlanOptions } from './helpers.js';

// Template x feature set x beneficiary count: generateTon compiles the
// shape and runs the whole sandbox scenario (exact payouts, refusals, bounce,
// time past the deadline) before it returns; a failure there throws.

const FEATURES: Array<{
  label: string;
  opts: Omit<PlanOptions, 'n' | 'template'>;
  expect: string[];
  absent: string[];
}> = [
  { label: 'owner release', opts: {}, expect: ['ownerRelease'], absent: ['deadMansSwitch', 'gracePeriod', 'multiSig'] },
  {
    label: 'guardians, no switch',
    opts: { guardians: { n: 3, threshold: 2 } },
    expect: ['multiSig', 'ownerRelease'],
    absent: ['deadMansSwitch'],
  },
  {
    label: 'switch',
    opts: { dms: { intervalDays: 180, gracePeriodDays: 0 } },
    expect: ['deadMansSwitch'],
    absent: ['gracePeriod', 'multiSig', 'ownerRelease'],
  },
  {
    label: 'switch + grace',
    opts: { dms: { intervalDays: 365, gracePeriodDays: 30 } },
    expect: ['deadMansSwitch', 'gracePeriod'],
    absent: ['multiSig'],
  },
  {
    label: 'switch + guardians',
    opts: { dms: { intervalDays: 90, gracePeriodDays: 0 }, guardians: { n: 2, threshold: 1 } },
    expect: ['deadMansSwitch', 'multiSig'],
    absent: ['gracePeriod'],
  },
  {
    label: 'switch + grace + guardians',
    opts: { dms: { intervalDays: 30, gracePeriodDays: 7 }, guardians: { n: 5, threshold: 3 } },
    expect: ['deadMansSwitch', 'gracePeriod', 'multiSig'],
    absent: ['ownerRelease'],
  },
  {
    label: 'jettons + switch + guardians',
    opts: { dms: { intervalDays: 120, gracePeriodDays: 0 }, guardians: { n: 2, threshold: 2 }, jettons: 1 },
    expect: ['deadMansSwitch', 'multiSig', 'jettons'],
    absent: ['gracePeriod', 'ownerRelease'],
  },
];
const COUNTS = [1, 2, 10, 50];

/**
 * The template run through every feature set and count. The templates change only the template constant and the
 * header of the FunC source (test/contracts/ton/snapshots.test.ts proves it for every shape), so the other templates
 * run the plainest and the richest feature sets only, which checks their labels in the sandbox.
 */
export const REFERENCE_TEMPLATE: TemplateType = 'custom';
const PLAINEST = 'owner release';
const RICHEST = 'jettons + switch + guardians';

/** Declares the matrix: every feature set × count for the reference template, or the two ends for the others. */
export function tonMatrix(templates: readonly TemplateType[]): void {
  describe.each(templates.map((t) => [t]))('TON contract, template %s', (template) => {
    const features =
      template === REFERENCE_TEMPLATE ? FEATURES : FEATURES.filter((f) => f.label === PLAINEST || f.label === RICHEST);
    const counts = template === REFERENCE_TEMPLATE ? COUNTS : [1, 50];
    const cases = features.flatMap((f) => counts.map((n) => [f.label, n, f] as const));
    it('has its cases', () => {
      expect(cases.length).toBe(template === REFERENCE_TEMPLATE ? FEATURES.length * COUNTS.length : 4);
    });
    it.each(cases)('%s, %i beneficiaries: compiles and passes the sandbox scenario', async (_label, n, f) => {
      const plan = makePlan({ n, template, ...f.opts, friendly: n % 2 === 0 });
      const r = await generateTon(plan);
      expect(r.features).toEqual(
        expect.arrayContaining(['checkIn', 'claims', 'bounceHandling', 'ownerUpdate', 'ownerCancel', ...f.expect]),
      );
      for (const a of f.absent) expect(r.features).not.toContain(a);
      const code = Cell.fromBase64(r.codeBoc);
      expect(code.hash().toString('hex')).toBe(r.codeHash);
      expect(r.contractCode).toContain(`template=${template}`);
      // the returned address is the one this plan's initial data gives
      const data = buildInitialData(await tonPlanDataFor(plan));
      expect(Address.parse(r.address).equals(tonAddressFor(code, data))).toBe(true);
      // fees were measured by running the contract
      for (const k of ['deployment', 'deposit', 'checkIn', 'update', 'withdraw', 'cancel', 'claim']) {
        expect(Number(r.fees[k]), k).toBeGreaterThan(0);
        expect(Number(r.fees[k]), k).toBeLessThan(0.5);
      }
      if (shapeOf(plan).guardians) expect(Number(r.fees.approve)).toBeGreaterThan(0);
      if (shapeOf(plan).jettons) expect(Number(r.fees.claimJetton)).toBeGreaterThan(0);
      else expect(r.features).not.toContain('jettons');
      if (shapeOf(plan).gracePeriod && plan.guardians) expect(Number(r.fees.veto)).toBeGreaterThan(0);
      expect(r.estimatedGas).toMatch(/deployment \d+\.\d+ TON/);
      expect(r.network).toBe('ton-mainnet');
      expect(r.analysis.securityScore).toBeGreaterThanOrEqual(0);
      expect(r.analysis.securityScore).toBeLessThanOrEqual(100);
    });
  });
}
