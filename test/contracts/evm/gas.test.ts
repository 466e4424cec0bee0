import { createBlock } from '@ethereumjs/block';
import { createLegacyTx } from '@ethereumjs/tx';
import { createAddressFromPrivateKey, hexToBytes } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { encodeDeployData, encodeFunctionData, formatEther, parseGwei, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { DEFAULT_GAS_SHAPE, estimateEvmGas, gasPriceWei, sampleArgs } from '../../../src/contracts/evm/gas.js';
import { generateEvm } from '../../../src/contracts/evm/generate.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { testSolcPool } from './fixtures.js';
import { EvmSandbox } from '../../../src/contracts/evm/vm.js';
import { ApiError } from '../../../src/core/errors.js';

describe('gas figures', () => {
  let pool: SolcPool;
  let defaultCompiled: SolcCompileOutput;
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    defaultCompiled = await pool.compile(contractSource(DEFAULT_GAS_SHAPE), {
      contractName: contractName(DEFAULT_GAS_SHAPE),
    });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('per-transaction gas from the sandbox equals the receipt of a real signed transaction', async () => {
    const abi = defaultCompiled.abi as Abi;
    const key = hexToBytes(`0x${'42'.repeat(32)}`);
    const sender = createAddressFromPrivateKey(key);
    const from = sender.toString() as Hex;
    const ctor = abi.find((x) => x.type === 'constructor');
    const args = sampleArgs(ctor && 'inputs' in ctor ? ctor.inputs : []);
    args[0] = from;
    const deployData = encodeDeployData({ abi, bytecode: defaultCompiled.bytecode, args });
    const update = encodeFunctionData({
      abi,
      functionName: 'updateBeneficiaries',
      args: [[`0x${'ab'.repeat(20)}`], [10_000]],
    });

    // Path 1: the sandbox, as used for every figure.
    const sb = await EvmSandbox.create();
    const d1 = await sb.send(from, undefined, deployData);
    const u1 = await sb.send(from, d1.createdAddress!, update);
    expect(d1.ok && u1.ok).toBe(true);

    // Path 2: signed transactions through runTx.
    const sb2 = await EvmSandbox.create();
    const vm = await createVM({ common: sb2.common, evm: sb2.evm, stateManager: sb2.evm.stateManager });
    await sb2.setBalance(from, 10n ** 18n);
    const block = createBlock(
      { header: { timestamp: sb2.timestamp, number: 1n, gasLimit: 60_000_000n, baseFeePerGas: 0n } },
      { common: sb2.common },
    );
    const send = async (nonce: bigint, to: Hex | undefined, data: Hex) => {
      const tx = createLegacyTx(
        { nonce, gasLimit: 10_000_000n, gasPrice: 0n, to, data: hexToBytes(data) },
        { common: sb2.common },
      ).sign(key);
      return runTx(vm, { tx, block });
    };
    const d2 = await send(0n, undefined, deployData);
    const created = d2.createdAddress!.toString() as Hex;
    expect(created.toLowerCase()).toBe(d1.createdAddress!.toLowerCase());
    const u2 = await send(1n, created, update);
    expect(d1.gasUsed).toBe(Number(d2.totalGasSpent));
    // The update deletes three shares: refunds are applied and capped the same way.
    expect(u2.gasRefund).toBeGreaterThan(0n);
    expect(u1.gasUsed).toBe(Number(u2.totalGasSpent));
  });

  it('without contractCode measures the default contract and states price and method', async () => {
    const est = await estimateEvmGas({}, { pool });
    expect(est.currency).toBe('ETH');
    expect(est.gasPriceGwei).toBe(20);
    for (const k of ['deployment', 'claim', 'update'] as const) {
      const g = est.figures[k];
      expect(g).toBeGreaterThan(21_000);
      const text = `${g!.toLocaleString('en-US')} gas ≈ ${formatEther(BigInt(g!) * parseGwei('20'))} ETH at 20 gwei`;
      // The update names the same-length figure first, then growing and shrinking the list.
      if (k === 'update')
        expect(est[k].startsWith(`${text} (3 beneficiaries replaced by 3 new); to 6 beneficiaries: `)).toBe(true);
      else expect(est[k]).toBe(text);
    }
    expect(est.figures['deployment']).toBeGreaterThan(est.figures['claim']!);
    expect(est.method).toMatch(/no network was asked/);
    expect(est.method).toMatch(/CustomInheritance/);
  });

  it('with contractCode measures that contract, at the given gas price', async () => {
    const src = contractSource({ ...DEFAULT_GAS_SHAPE, guardians: true, erc20: true });
    const est = await estimateEvmGas({ contractCode: src }, { pool, gasPriceGwei: 1.5 });
    const dflt = await estimateEvmGas({}, { pool, gasPriceGwei: 1.5 });
    expect(est.gasPriceGwei).toBe(1.5);
    expect(est.deployment).toMatch(/ETH at 1\.5 gwei$/);
    // More features, more code: a larger deployment.
    expect(est.figures['deployment']).toBeGreaterThan(dflt.figures['deployment']!);
    expect(est.figures['claim']).toBeGreaterThan(0);
    expect(est.figures['update']).toBeGreaterThan(0);
    expect(est.method).toMatch(/the given contract/);
  });

  it('a contract without claim/update reports deployment only, saying why', async () => {
    const src = `// SPDX-License-Identifier: MIT\npragma solidity ${SOLC_VERSION};\ncontract Vault {\n    address public immutable keeper;\n    constructor(address keeper_) { keeper = keeper_; }\n}\n`;
    const est = await estimateEvmGas({ contractCode: src }, { pool });
    expect(est.figures['deployment']).toBeGreaterThan(53_000);
    expect(est.figures['claim']).toBeNull();
    expect(est.claim).toMatch(/^not measured: the contract has no claim\(\)/);
    expect(est.update).toMatch(/^not measured: the contract has no updateBeneficiaries/);
  });

  it('a constructor it cannot fill or that reverts: nothing measured, with the reason', async () => {
    const tuple = `// SPDX-License-Identifier: MIT\npragma solidity ${SOLC_VERSION};\ncontract T {\n    struct P { uint256 a; }\n    uint256 public a;\n    constructor(P memory p) { a = p.a; }\n}\n`;
    const est = await estimateEvmGas({ contractCode: tuple }, { pool });
    expect(est.figures).toEqual({
      deployment: null,
      claim: null,
      update: null,
      updateGrow: null,
      updateShrink: null,
      beneficiaries: 3,
    });
    expect(est.deployment).toMatch(
      /^not measured: no sample constructor arguments: constructor parameter p of type tuple/,
    );
    const reverting = `// SPDX-License-Identifier: MIT\npragma solidity ${SOLC_VERSION};\ncontract R {\n    constructor() { revert("no"); }\n}\n`;
    const est2 = await estimateEvmGas({ contractCode: reverting }, { pool });
    expect(est2.deployment).toMatch(/^not measured: deployment reverted/);
  });

  it('broken contractCode is a VALIDATION_ERROR with positions; a bad gas price is refused', async () => {
    const err = await estimateEvmGas({ contractCode: 'contract {' }, { pool }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('VALIDATION_ERROR');
    expect((err as ApiError).details?.[0]?.line).toBe(1);
    await expect(estimateEvmGas({}, { pool, gasPriceGwei: 0 })).rejects.toThrow(/positive/);
  });

  it('a tiny gas price is exact to the wei, and below one wei (or between wei) a VALIDATION_ERROR naming gasPriceGwei', async () => {
    expect(gasPriceWei(1e-7)).toBe(100n);
    expect(gasPriceWei(1e-9)).toBe(1n);
    expect(gasPriceWei(20)).toBe(20_000_000_000n);
    expect(gasPriceWei(0.1 + 0.2)).toBe(300_000_000n);
    const est = await estimateEvmGas({}, { pool, gasPriceGwei: 1e-7 });
    expect(est.deployment).toBe(
      `${est.figures['deployment']!.toLocaleString('en-US')} gas ≈ ${formatEther(BigInt(est.figures['deployment']!) * 100n)} ETH at 1e-7 gwei`,
    );
    for (const bad of [1e-10, 5e-10, 1.5e-9, 1e-300]) {
      const err = await estimateEvmGas({}, { pool, gasPriceGwei: bad }).catch((e: unknown) => e);
      expect(err, String(bad)).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('VALIDATION_ERROR');
      expect((err as ApiError).details?.[0]?.field).toBe('gasPriceGwei');
      expect((err as ApiError).details?.[0]?.reason).toMatch(/wei/);
    }
  });

  /** Sends an update with addresses never seen before, as a real update does, on a freshly deployed contract. */
  async function independentUpdate(
    abi: Abi,
    deployData: Hex,
    from: Hex,
    count: number,
  ): Promise<{ fresh: number; same: number }> {
    const fresh = Array.from(
      { length: count },
      (_, i) => `0x${(0xabcdef00 + i).toString(16).padStart(40, '0')}` as Hex,
    );
    const shares = Array.from({ length: count }, (_, i) =>
      i === 0 ? 10_000 - Math.floor(10_000 / count) * (count - 1) : Math.floor(10_000 / count),
    );
    const sb = await EvmSandbox.create();
    const dep = await sb.send(from, undefined, deployData, 0n, abi);
    expect(dep.ok).toBe(true);
    const c = dep.createdAddress!;
    sb.warp(86_400n);
    const [current, currentShares] = await sb.read<[Hex[], bigint[]]>(c, abi, 'beneficiaries');
    // The understated way: the same addresses and shares again (warm, unchanged slots).
    const same = await sb.tx(from, c, abi, 'updateBeneficiaries', [current, currentShares.map(Number)]);
    sb.warp(86_400n);
    const r = await sb.tx(from, c, abi, 'updateBeneficiaries', [fresh, shares]);
    expect(same.ok && r.ok).toBe(true);
    return { fresh: r.gasUsed, same: same.gasUsed };
  }

  const within = (figure: number, reference: number, pct: number) =>
    Math.abs(figure - reference) / reference <= pct / 100;

  it('the update figure of generate is within 5% of an update with fresh addresses sent independently', async () => {
    const OWNER = '0x1111111111111111111111111111111111111111' as Hex;
    for (const n of [1, 3, 10]) {
      const plan = {
        blockchain: 'evm' as const,
        ownerAddress: OWNER,
        inheritanceTemplate: 'custom' as const,
        beneficiaries: Array.from({ length: n }, (_, i) => ({
          name: `B${i}`,
          address: `0x${(0xbe0000 + i).toString(16).padStart(40, '0')}`,
          percentage: i === 0 ? 100 - Math.floor(100 / n) * (n - 1) : Math.floor(100 / n),
        })),
        deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 0 },
      };
      const g = await generateEvm(plan, { pool });
      const measured = await independentUpdate(g.abi as Abi, g.deployData, OWNER, n);
      expect(
        within(g.gas['update']!, measured.fresh, 5),
        `${n} beneficiaries: figure ${g.gas['update']} vs independent ${measured.fresh}`,
      ).toBe(true);
      // The old way of measuring (same addresses) is far off: it is not what the figure reports.
      expect(measured.same).toBeLessThan(measured.fresh * 0.8);
    }
  });

  it('the update figure of estimate_gas is within 5% of an update with fresh addresses sent independently', async () => {
    const est = await estimateEvmGas({}, { pool });
    const abi = defaultCompiled.abi as Abi;
    const ctor = abi.find((x) => x.type === 'constructor');
    const deployData = encodeDeployData({
      abi,
      bytecode: defaultCompiled.bytecode,
      args: sampleArgs(ctor && 'inputs' in ctor ? ctor.inputs : []),
    });
    const measured = await independentUpdate(abi, deployData, '0x1000000000000000000000000000000000000001', 3);
    expect(
      within(est.figures['update']!, measured.fresh, 5),
      `figure ${est.figures['update']} vs independent ${measured.fresh}`,
    ).toBe(true);
    expect(est.method).toMatch(/new addresses/);
  });
});
