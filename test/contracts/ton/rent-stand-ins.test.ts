import type { Address, Cell } from '@ton/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TonPlanData, TonRent } from '../../../src/contracts/ton/data.js';
import { buildTonShape, type TonShape } from '../../../src/contracts/ton/index.js';
import {
  basechainStoragePrices,
  rentReserveFor,
  reserveFromSizes,
  worstCaseStorage,
  worstCasesBuilt,
} from '../../../src/contracts/ton/rent.js';
import { TON_MAX_BENEFICIARIES } from '../../../src/contracts/ton/shape.js';
import { addr } from './helpers.js';

// The rent reserve reckons the counts above a plan's own from a stand-in plan of the same structure, built once per
// structure (src/contracts/ton/rent.ts). Here it is checked against the reckoning it replaced, which builds the
// worst case of every count with the plan's own values: the same reserve, rate and step for plans of every
// structure, and for a plan whose cells are not all distinct (two guardians at one address, which validation
// refuses), where the stand-in's sizes do not apply.

/** The former reckoning: every count from the plan's up to the cap built with the plan's own values. */
async function directReserve(code: Cell, plan: Omit<TonPlanData, 'rent'>): Promise<TonRent> {
  const probe: TonPlanData = { ...plan, rent: { reserve: 0n, rate: 0n } };
  return reserveFromSizes(plan, plan.beneficiaries.length, await basechainStoragePrices(), (count) =>
    worstCaseStorage(code, probe, count),
  );
}

const SHAPES: TonShape[] = [
  { template: 'common-law', deadMansSwitch: false, gracePeriod: false, guardians: false, jettons: false },
  { template: 'custom', deadMansSwitch: true, gracePeriod: true, guardians: true, jettons: true },
];
const code = new Map<TonShape, Cell>();

beforeAll(async () => {
  for (const shape of SHAPES) code.set(shape, (await buildTonShape(shape)).compiled.code);
}, 120_000);

function planData(shape: TonShape, n: number, guardians: Address[], jettons: number, seed: string) {
  return {
    owner: addr(`owner-${seed}`),
    beneficiaries: Array.from({ length: n }, (_, i) => ({ address: addr(`b${i}-${seed}`), shareBps: 100 + i })),
    intervalSeconds: shape.deadMansSwitch ? 365 * 86_400 : 0,
    graceSeconds: shape.gracePeriod ? 30 * 86_400 : 0,
    ...(shape.guardians ? { guardians: { addresses: guardians, threshold: Math.min(2, guardians.length) } } : {}),
    ...(shape.jettons ? { jettons: Array.from({ length: jettons }, (_, j) => addr(`j${j}-${seed}`)) } : {}),
  } satisfies Omit<TonPlanData, 'rent'>;
}

describe('the rent reserve from stand-in plans', () => {
  it('is the reserve, rate and step of the direct reckoning, for plans of every structure and size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SHAPES),
        fc.integer({ min: 1, max: TON_MAX_BENEFICIARIES }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 10 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        async (shape, n, g, jettons, seed) => {
          const guardians = Array.from({ length: g }, (_, i) => addr(`g${i}-${seed}`));
          const plan = planData(shape, n, guardians, jettons, seed);
          const c = code.get(shape)!;
          expect(await rentReserveFor(c, plan)).toEqual(await directReserve(c, plan));
        },
      ),
      { numRuns: 8, seed: 0x7e17 },
    );
  }, 120_000);

  it('builds one worst case for a second plan of a structure already reckoned', async () => {
    const shape = SHAPES[1]!;
    const c = code.get(shape)!;
    const guardians = [addr('g0-x'), addr('g1-x'), addr('g2-x')];
    await rentReserveFor(c, planData(shape, 3, guardians, 4, 'first'));
    const before = worstCasesBuilt();
    const other = planData(shape, 3, [addr('g0-y'), addr('g1-y'), addr('g2-y')], 4, 'second');
    const rent = await rentReserveFor(c, other);
    expect(worstCasesBuilt() - before).toBe(1);
    expect(rent).toEqual(await directReserve(c, other));
  }, 60_000);

  it('reckons every count with the plan’s own values when two of its cells are the same', async () => {
    const shape = SHAPES[1]!;
    const c = code.get(shape)!;
    const same = addr('one-guardian');
    // The same address at keys 0 and 1 of the guardians' dictionary: two leaves of one fork with empty labels,
    // identical cells, stored once.
    const plan = planData(shape, 2, [same, same, addr('g2')], 1, 'dup');
    const standIn = planData(shape, 2, [addr('s0'), addr('s1'), addr('s2')], 1, 'dup');
    expect(worstCaseStorage(c, { ...plan, rent: { reserve: 0n, rate: 0n } }).cells).toBeLessThan(
      worstCaseStorage(c, { ...standIn, rent: { reserve: 0n, rate: 0n } }).cells,
    );
    const before = worstCasesBuilt();
    const rent = await rentReserveFor(c, plan);
    // its own count, the stand-in's at that count, and every count above it with the plan's values
    expect(worstCasesBuilt() - before).toBeGreaterThanOrEqual(1 + TON_MAX_BENEFICIARIES - 2);
    expect(rent).toEqual(await directReserve(c, plan));
  }, 60_000);
});
