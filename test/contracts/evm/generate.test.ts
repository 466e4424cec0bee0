import { decodeDeployData, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeAst } from '../../../src/contracts/evm/analysis.js';
import { SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { generateEvm } from '../../../src/contracts/evm/generate.js';
import type { SolcPool } from '../../../src/contracts/evm/pool.js';
import type { Plan } from '../../../src/contracts/plan.js';
import { testSolcPool } from './fixtures.js';
import { apiRejection as rejection } from '../../support/rejection.js';

const A = '0x2222222222222222222222222222222222222222';
const B = '0x3333333333333333333333333333333333333333';
const C = '0x4444444444444444444444444444444444444444';
const OWNER = '0x1111111111111111111111111111111111111111';

const plan: Plan = {
  blockchain: 'evm',
  ownerAddress: OWNER,
  inheritanceTemplate: 'common-law',
  beneficiaries: [
    { name: 'A', address: A, percentage: 33.33 },
    { name: 'B', address: B, percentage: 33.33 },
    { name: 'C', address: C, percentage: 33.34 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180, gracePeriodDays: 14 },
};

describe('generateEvm', () => {
  let pool: SolcPool;
  beforeAll(() => {
    pool = testSolcPool({ size: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('returns a compiled, executed contract whose deployData carries the plan', async () => {
    const g = await generateEvm(plan, { pool });
    expect(g.contractName).toBe('CommonLawInheritance');
    expect(g.contractCode).toContain(`pragma solidity ${SOLC_VERSION};`);
    expect(g.network).toBe('ethereum');
    expect(g.features).toEqual(expect.arrayContaining(['deadMansSwitch', 'gracePeriod']));
    expect(g.features).not.toContain('multiSig');
    expect(g.deployData.startsWith(g.bytecode)).toBe(true);
    const decoded = decodeDeployData({ abi: g.abi as Abi, bytecode: g.bytecode, data: g.deployData });
    expect(decoded.args).toEqual([OWNER, [A, B, C], [3333, 3333, 3334], 180n, 14n]);
    for (const k of ['deployment', 'claim', 'update', 'checkIn', 'deposit']) expect(g.gas[k]).toBeGreaterThan(21_000);
    expect(g.estimatedGas).toContain(`deployment ${g.gas['deployment']!.toLocaleString('en-US')} gas`);
    expect(g.verified).toEqual(
      expect.arrayContaining([
        'exact ETH payouts per share, late deposit shared',
        'double claim pays nothing',
        'update after the deadline refused',
      ]),
    );
    expect(g.analysis.warnings.filter((w) => w.severity === 'high')).toEqual([]);
    expect(g.analysis.securityScore).toBeGreaterThanOrEqual(90);
  });

  it('reuses the compiled shape for another plan of the same shape', async () => {
    const misses = pool.stats.misses;
    const other: Plan = {
      ...plan,
      ownerAddress: C,
      beneficiaries: [
        { name: 'X', address: A, percentage: 50 },
        { name: 'Y', address: B, percentage: 50 },
      ],
    };
    const g = await generateEvm(other, { pool });
    expect(pool.stats.misses).toBe(misses);
    const decoded = decodeDeployData({ abi: g.abi as Abi, bytecode: g.bytecode, data: g.deployData });
    expect(decoded.args?.[0]).toBe(C);
  });

  it("executes token claims against the plan's token addresses", async () => {
    const withAssets: Plan = {
      ...plan,
      guardians: {
        addresses: ['0x5555555555555555555555555555555555555555', '0x6666666666666666666666666666666666666666'],
        threshold: 1,
      },
      assets: [
        { type: 'native' },
        { type: 'erc20', address: '0x7777777777777777777777777777777777777777' },
        { type: 'erc721', address: '0x8888888888888888888888888888888888888888', tokenId: '42', beneficiary: B },
      ],
    };
    const g = await generateEvm(withAssets, { pool });
    expect(g.features).toEqual(expect.arrayContaining(['multiSig', 'guardianVeto', 'erc20', 'erc721']));
    expect(g.gas['claimToken']).toBeGreaterThan(21_000);
    expect(g.gas['claimNft']).toBeGreaterThan(21_000);
    expect(g.verified).toEqual(
      expect.arrayContaining(['exact ERC-20 payouts per share', 'each NFT reaches its beneficiary']),
    );
    expect(g.analysis.warnings.map((w) => w.id)).toContain('single-guardian-release');
  });

  it('analysis depends on the plan: short interval, single beneficiary, no switch, guardian as beneficiary, precompile beneficiary', async () => {
    const risky = await generateEvm(
      {
        ...plan,
        beneficiaries: [{ name: 'A', address: A, percentage: 100 }],
        deadMansSwitch: { enabled: true, intervalDays: 7, gracePeriodDays: 0 },
      },
      { pool },
    );
    const ids = risky.analysis.warnings.map((w) => w.id);
    expect(ids).toEqual(expect.arrayContaining(['short-interval', 'single-beneficiary']));
    expect(risky.analysis.warnings.find((w) => w.id === 'short-interval')?.severity).toBe('medium');
    expect(risky.analysis.suggestions.join(' ')).toMatch(/grace period/);

    const noSwitch = await generateEvm(
      {
        ...plan,
        deadMansSwitch: { enabled: false, intervalDays: 365, gracePeriodDays: 0 },
        guardians: { addresses: [A, '0x5555555555555555555555555555555555555555'], threshold: 2 },
      },
      { pool },
    );
    const ids2 = noSwitch.analysis.warnings.map((w) => w.id);
    expect(ids2).toEqual(
      expect.arrayContaining(['no-dead-mans-switch', 'guardian-is-beneficiary', 'unanimous-guardians']),
    );
    expect(noSwitch.features).toContain('ownerRelease');

    const precompile = await generateEvm(
      {
        ...plan,
        beneficiaries: [
          { name: 'A', address: A, percentage: 50 },
          { name: 'P', address: '0x0000000000000000000000000000000000000004', percentage: 50 },
        ],
      },
      { pool },
    );
    expect(precompile.analysis.warnings.find((w) => w.id === 'beneficiary-is-contract')?.severity).toBe('high');
    const baseline = await generateEvm(plan, { pool });
    expect(precompile.analysis.securityScore).toBeLessThan(baseline.analysis.securityScore);
    expect(risky.analysis.securityScore).toBeLessThan(baseline.analysis.securityScore);
  });

  it('the advice names only functions the contract has: cancel, rescue, claimTo, proof of life', async () => {
    const full = await generateEvm(
      {
        ...plan,
        guardians: { addresses: ['0x5555555555555555555555555555555555555555'], threshold: 1 },
        assets: [
          { type: 'erc20', address: '0x7777777777777777777777777777777777777777' },
          { type: 'erc721', address: '0x8888888888888888888888888888888888888888', tokenId: '1', beneficiary: A },
        ],
      },
      { pool },
    );
    const ethOnly = await generateEvm(
      { ...plan, deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 0 } },
      { pool },
    );
    for (const g of [full, ethOnly]) {
      const text = [...g.analysis.suggestions, ...g.analysis.warnings.map((w) => w.message)].join('\n');
      const functions = new Set(
        (g.abi as Array<{ type: string; name?: string }>).filter((x) => x.type === 'function').map((x) => x.name),
      );
      const named = [...text.matchAll(/\b([a-zA-Z_]\w*)\(/g)].map((m) => m[1]!);
      expect(named.length).toBeGreaterThan(5);
      for (const name of named) expect(functions.has(name), `${g.contractName}: advice names ${name}()`).toBe(true);
      for (const name of ['rescueToken', 'rescueNft', 'claimTo', 'withdraw', 'checkIn']) expect(named).toContain(name);
      expect(text).toMatch(/ReturnFailed/);
      expect(text).toMatch(/After release, any ERC-20 that reaches the contract .* claimToken\(token\)/);
    }
    expect(full.analysis.suggestions.join(' ')).toMatch(/claimNftTo\(index, recipient\)/);
    expect(full.analysis.warnings.find((w) => w.id === 'token-behaviour')?.message).toMatch(
      /shared only by the beneficiaries who have not claimed yet.*do not revert/,
    );
  });

  it('refuses plans the contract cannot honour, and never returns an unverified contract', async () => {
    const notEvm = await rejection(generateEvm({ ...plan, blockchain: 'ton' }, { pool }));
    expect(notEvm.code).toBe('VALIDATION_ERROR');
    const guardianOwner = await rejection(
      generateEvm({ ...plan, guardians: { addresses: [OWNER], threshold: 1 } }, { pool }),
    );
    expect(guardianOwner.details?.[0]?.field).toBe('guardians.addresses.0');
    const tooHigh = await rejection(
      generateEvm({ ...plan, guardians: { addresses: [C.replace('4', '5')], threshold: 2 } }, { pool }),
    );
    expect(tooHigh.details?.map((d) => d.field)).toContain('guardians.threshold');
    const tokenBeneficiary = await rejection(
      generateEvm({ ...plan, assets: [{ type: 'erc20', address: A }] }, { pool }),
    );
    expect(tokenBeneficiary.details?.[0]?.field).toBe('beneficiaries.0.address');
    const nftWithoutId = await rejection(
      generateEvm(
        {
          ...plan,
          assets: [{ type: 'erc721', address: '0x8888888888888888888888888888888888888888', beneficiary: A }],
        },
        { pool },
      ),
    );
    expect(nftWithoutId.details?.[0]?.field).toBe('assets.0.tokenId');
    const dupBen = await rejection(
      generateEvm(
        {
          ...plan,
          beneficiaries: [
            { name: 'A', address: A, percentage: 50 },
            { name: 'A2', address: A.toUpperCase().replace('0X', '0x'), percentage: 50 },
          ],
        },
        { pool },
      ),
    );
    expect(dupBen.details?.[0]?.field).toBe('beneficiaries.1.address');
    const tiny = await rejection(
      generateEvm(
        {
          ...plan,
          beneficiaries: [
            { name: 'A', address: A, percentage: 99.999 },
            { name: 'B', address: B, percentage: 0.001 },
          ],
        },
        { pool },
      ),
    );
    expect(tiny.details?.map((d) => d.field)).toContain('beneficiaries.1.percentage');
    // The same NFT listed twice ("1" and "001" are one token id), or one address as two kinds of token: refused, naming the field.
    const nft = {
      type: 'erc721' as const,
      address: '0x8888888888888888888888888888888888888888',
      tokenId: '1',
      beneficiary: A,
    };
    const dup = await rejection(generateEvm({ ...plan, assets: [nft, { ...nft, tokenId: '001' }] }, { pool }));
    expect(dup.code).toBe('VALIDATION_ERROR');
    expect(dup.details?.[0]?.field).toBe('assets.1.tokenId');
    const twoKinds = await rejection(
      generateEvm({ ...plan, assets: [{ type: 'erc20', address: nft.address }, nft] }, { pool }),
    );
    expect(twoKinds.code).toBe('VALIDATION_ERROR');
    expect(twoKinds.details?.[0]?.field).toBe('assets.1.address');
  });
});

describe('AST detectors', () => {
  let pool: SolcPool;
  beforeAll(() => {
    pool = testSolcPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('find tx.origin, ignored call results, unguarded external calls, while-loops, missing events and NatSpec, floating pragma', async () => {
    const bad = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Bad {
    address owner = msg.sender;
    mapping(address => uint256) public due;
    function pay(address to) external {
        require(tx.origin == owner, "no");
        payable(to).call{value: due[to]}("");
        due[to] = 0;
    }
    function spin(uint256 n) external {
        uint256 i;
        while (i < n) { i++; }
        due[msg.sender] = i;
    }
}
`;
    const out = await pool.compile(bad, { ast: true });
    const ids = analyzeAst(out.ast).map((f) => f.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'floating-pragma',
        'tx-origin',
        'unchecked-call',
        'reentrancy',
        'unbounded-loop',
        'missing-event',
        'missing-natspec',
      ]),
    );
  });

  it('find nothing in a generated contract', async () => {
    const g = await generateEvm(
      {
        ...plan,
        guardians: { addresses: ['0x5555555555555555555555555555555555555555'], threshold: 1 },
        assets: [{ type: 'erc20', address: '0x7777777777777777777777777777777777777777' }],
      },
      { pool },
    );
    const out = await pool.compile(g.contractCode, { contractName: g.contractName, ast: true });
    expect(analyzeAst(out.ast)).toEqual([]);
  });
});
