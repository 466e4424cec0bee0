import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_COUNT_TAG, tagBeneficiaryCount, taggedBeneficiaryCount } from '../../../src/contracts/evm/code-count.js';
import { contractSource, MAX_BENEFICIARIES } from '../../../src/contracts/evm/contract.js';
import { DEFAULT_GAS_SHAPE, estimateEvmGas } from '../../../src/contracts/evm/gas.js';
import { generateEvm } from '../../../src/contracts/evm/generate.js';
import type { SolcPool } from '../../../src/contracts/evm/pool.js';
import type { Plan } from '../../../src/contracts/plan.js';
import { testSolcPool } from './fixtures.js';

// The generated Solidity carries its plan's beneficiary count (a NatSpec tag above the contract), so the bare source
// pasted into estimate_gas is measured for that plan, not for 3 heirs; the tag changes nothing in the bytecode.

const heirs = (n: number) => Array.from({ length: n }, (_, i) => `0x${(0xa11ce00 + i).toString(16).padStart(40, '0')}`);

function plan(n: number): Plan {
  const even = Math.floor(10_000 / n);
  return {
    blockchain: 'evm',
    ownerAddress: '0x00000000000000000000000000000000000000aa',
    inheritanceTemplate: 'custom',
    beneficiaries: heirs(n).map((address, i) => ({
      name: `B${i}`,
      address,
      percentage: (i === 0 ? 10_000 - even * (n - 1) : even) / 100,
    })),
    deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 0 },
  } as Plan;
}

describe('the plan count tag', () => {
  it('is written above the contract and read back; disagreeing or out-of-range tags are not read', () => {
    const src = contractSource(DEFAULT_GAS_SHAPE);
    expect(taggedBeneficiaryCount(src, MAX_BENEFICIARIES)).toBeUndefined();
    const tagged = tagBeneficiaryCount(src, 'CustomInheritance', 7);
    expect(tagged).toMatch(new RegExp(`/// ${PLAN_COUNT_TAG} 7\\ncontract CustomInheritance \\{`));
    expect(taggedBeneficiaryCount(tagged, MAX_BENEFICIARIES)).toBe(7);
    expect(taggedBeneficiaryCount(tagged.replace(`${PLAN_COUNT_TAG} 7`, `${PLAN_COUNT_TAG} 51`), 50)).toBeUndefined();
    expect(taggedBeneficiaryCount(tagged.replace(`${PLAN_COUNT_TAG} 7`, `${PLAN_COUNT_TAG} 0`), 50)).toBeUndefined();
    expect(taggedBeneficiaryCount(`/// ${PLAN_COUNT_TAG} 9\n${tagged}`, 50)).toBeUndefined();
    // text that only mentions the tag is not a tag line
    expect(taggedBeneficiaryCount(`// see ${PLAN_COUNT_TAG} 9\n${src}`, 50)).toBeUndefined();
    // an unknown contract name leaves the source as it was
    expect(tagBeneficiaryCount(src, 'Other', 7)).toBe(src);
  });
});

describe('estimate_gas(contractCode) of generated code reads its plan count', () => {
  let pool: SolcPool;
  beforeAll(() => {
    pool = testSolcPool({ size: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('bare generated code of a 7-heir plan is measured for 7 heirs, as if 7 were given; the bytecode is unchanged', async () => {
    const g = await generateEvm(plan(7), { pool });
    expect(g.contractCode).toContain(`/// ${PLAN_COUNT_TAG} 7\ncontract ${g.contractName} {`);
    // the tag is a comment: the code compiles to exactly the bytecode generate returned
    const again = await pool.compile(g.contractCode);
    expect(again.bytecode).toBe(g.bytecode as Hex);
    expect(again.warnings).toEqual([]);

    const bare = await estimateEvmGas({ contractCode: g.contractCode }, { pool });
    expect(bare.figures['beneficiaries']).toBe(7);
    expect(bare.method).toContain(`7 beneficiaries (the plan's, read from the code's ${PLAN_COUNT_TAG} tag)`);
    // the same figures as the untagged code measured with 7 stated by the caller
    const untagged = contractSource(DEFAULT_GAS_SHAPE);
    expect(g.contractCode.replace(`/// ${PLAN_COUNT_TAG} 7\n`, '')).toBe(untagged);
    const given = await estimateEvmGas({ contractCode: untagged, beneficiaries: 7 }, { pool });
    for (const k of ['deployment', 'claim', 'update', 'updateGrow', 'updateShrink'])
      expect(bare.figures[k], k).toBe(given.figures[k]);
    // without the tag, the same code is read as 3 heirs (what bare code got before)
    const assumed = await estimateEvmGas({ contractCode: untagged }, { pool });
    expect(assumed.figures['beneficiaries']).toBe(3);
    expect(assumed.figures['deployment']).not.toBe(bare.figures['deployment']);
    // a count the caller states still wins over the tag
    const stated = await estimateEvmGas({ contractCode: g.contractCode, beneficiaries: 2 }, { pool });
    expect(stated.figures['beneficiaries']).toBe(2);
  });
});
