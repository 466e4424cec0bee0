import { describe, expect, it } from 'vitest';
import { buildContractModel, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { toBasisPoints } from '../../../src/contracts/evm/inputs.js';
import { allShapes, shapeFeatures, shapeKey, shapeOf } from '../../../src/contracts/evm/shape.js';
import { printSource, type SourceUnit } from '../../../src/contracts/evm/solidity.js';
import type { Plan } from '../../../src/contracts/plan.js';

const basePlan: Plan = {
  blockchain: 'evm',
  ownerAddress: '0x1111111111111111111111111111111111111111',
  inheritanceTemplate: 'civil-law',
  beneficiaries: [
    { name: 'A', address: '0x2222222222222222222222222222222222222222', percentage: 60 },
    { name: 'B', address: '0x3333333333333333333333333333333333333333', percentage: 40 },
  ],
};

describe('generated Solidity source', () => {
  it('covers 120 distinct shapes (5 templates × 3 switch modes × guardians × erc20 × erc721)', () => {
    const keys = new Set(allShapes().map(shapeKey));
    expect(keys.size).toBe(120);
  });

  for (const shape of allShapes()) {
    it(`snapshot: ${shapeKey(shape)}`, async () => {
      await expect(contractSource(shape)).toMatchFileSnapshot(`./__snapshots__/sources/${shapeKey(shape)}.sol`);
    });
  }

  it('every source has SPDX, a pinned pragma, NatSpec on every external function, and no tx.origin', () => {
    for (const shape of allShapes()) {
      const src = contractSource(shape);
      expect(src.startsWith('// SPDX-License-Identifier: MIT\n')).toBe(true);
      expect(src).toContain(`pragma solidity ${SOLC_VERSION};`);
      expect(src).not.toMatch(/pragma solidity [\^>~]/);
      expect(src).not.toContain('tx.origin');
      const lines = src.split('\n');
      const contractStart = lines.findIndex((l) => l.startsWith('contract '));
      lines.forEach((line, i) => {
        if (i > contractStart && /^\s{4}(function \w+\(.*\) (external|public)|receive\(\))/.test(line)) {
          expect(lines[i - 1], `${shapeKey(shape)}: ${line.trim()}`).toMatch(/^\s*\/\/\/ @(notice|dev|param|return)/);
        }
      });
      // Every loop iterates over a bounded list.
      for (const line of lines.filter((l) => /\bfor \(/.test(l)))
        expect(line).toMatch(
          /i < (n|previous|guardianCount|nftCount_|tokens_\.length|_tokens\.length|_nfts\.length); \+\+i\)/,
        );
    }
  });

  it('is one fixed source per shape: addresses, shares and interval never enter it', () => {
    const other: Plan = {
      ...basePlan,
      ownerAddress: '0x9999999999999999999999999999999999999999',
      beneficiaries: [
        { name: 'C', address: '0x4444444444444444444444444444444444444444', percentage: 33.33 },
        { name: 'D', address: '0x5555555555555555555555555555555555555555', percentage: 33.33 },
        { name: 'E', address: '0x6666666666666666666666666666666666666666', percentage: 33.34 },
      ],
    };
    expect(contractSource(shapeOf(other))).toBe(contractSource(shapeOf(basePlan)));
    const src = contractSource(shapeOf(basePlan));
    expect(src).not.toContain('2222222222');
    expect(src).not.toContain('1111111111');
  });

  it('derives the shape from template and features only', () => {
    // Without deadMansSwitch the default switch applies; only an explicit enabled: false has none.
    expect(shapeKey(shapeOf(basePlan))).toBe('civil-law.switch');
    expect(
      shapeKey(shapeOf({ ...basePlan, deadMansSwitch: { enabled: false, intervalDays: 365, gracePeriodDays: 0 } })),
    ).toBe('civil-law.no-switch');
    const full: Plan = {
      ...basePlan,
      deadMansSwitch: { enabled: true, intervalDays: 30, gracePeriodDays: 7 },
      guardians: { addresses: ['0x7777777777777777777777777777777777777777'], threshold: 1 },
      assets: [
        { type: 'erc20', address: '0x8888888888888888888888888888888888888888' },
        {
          type: 'erc721',
          address: '0x8888888888888888888888888888888888888889',
          tokenId: '1',
          beneficiary: '0x2222222222222222222222222222222222222222',
        },
      ],
    };
    expect(shapeKey(shapeOf(full))).toBe('civil-law.switch-grace.guardians.erc20.erc721');
    expect(shapeFeatures(shapeOf(full))).toEqual(
      expect.arrayContaining(['deadMansSwitch', 'gracePeriod', 'multiSig', 'guardianVeto', 'erc20', 'erc721']),
    );
    // Grace days without the switch do not make a grace shape.
    expect(
      shapeOf({ ...basePlan, deadMansSwitch: { enabled: false, intervalDays: 365, gracePeriodDays: 10 } }).gracePeriod,
    ).toBe(false);
  });

  it('converts percentages to basis points exactly', () => {
    expect([33.33, 33.33, 33.34].map(toBasisPoints)).toEqual([3333, 3333, 3334]);
    expect([0.01, 12.5, 57.49, 29.99, 0.1].map(toBasisPoints)).toEqual([1, 1250, 5749, 2999, 10]);
    expect(toBasisPoints(100)).toBe(10_000);
  });

  it('the printer refuses an external function without NatSpec and an unpinned pragma', () => {
    const model: SourceUnit = buildContractModel(allShapes()[0]!);
    const broken = structuredClone(model);
    const f = broken.contract.functions.find((x) => x.name === 'claim')!;
    delete f.natspec;
    expect(() => printSource(broken)).toThrow(/claim lacks NatSpec/);
    expect(() => printSource({ ...model, solidityVersion: '^0.8.0' })).toThrow(/pinned/);
    // Nested blocks print with braces and indentation.
    const printed = printSource(model);
    expect(printed).toMatch(/\n {8}if \(msg\.sender != _owner\) \{\n {12}revert NotOwner\(\);\n {8}\}/);
  });
});
