import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createBlock } from '@ethereumjs/block';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  createAccount,
  createAddressFromPrivateKey,
  createAddressFromString,
  hexToBytes,
  bytesToHex,
} from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { DEFAULT_GAS_SHAPE, estimateEvmGas } from '../../../src/contracts/evm/gas.js';
import { generateEvm } from '../../../src/contracts/evm/generate.js';
import { VM_HARDFORK } from '../../../src/contracts/evm/hardfork.js';
import { REAL_ERC721_SOURCE } from '../../../src/contracts/evm/mocks.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import type { Plan } from '../../../src/contracts/plan.js';
import { deployScript } from '../../../src/contracts/package/evm.js';
import type { PackageContract } from '../../../src/contracts/package/common.js';
import { testSolcPool } from './fixtures.js';

// Every reported figure is compared with the receipt of the same operation sent as a signed
// transaction on a separate @ethereumjs/vm chain (runTx: nonces, signatures, blocks with timestamps),
// not through the sandbox that produced the figure.

const DAY = 86_400n;
const key = (i: number) => hexToBytes(`0x${(0x1000 + i).toString(16).padStart(64, '0')}`);
const addressOf = (k: Uint8Array) => createAddressFromPrivateKey(k).toString() as Hex;
const fresh = (base: number, count: number) =>
  Array.from({ length: count }, (_, i) => `0x${(base + i).toString(16).padStart(40, '0')}` as Hex);
const evenShares = (m: number) =>
  Array.from({ length: m }, (_, i) => (i === 0 ? 10_000 - Math.floor(10_000 / m) * (m - 1) : Math.floor(10_000 / m)));
const within = (figure: number | undefined | null, reference: number, pct = 5) =>
  typeof figure === 'number' && Math.abs(figure - reference) / reference <= pct / 100;

/** A chain of signed transactions: every call is a legacy transaction signed with the sender's key. */
class Chain {
  private readonly nonces = new Map<string, bigint>();
  timestamp = 1_700_000_000n;
  private number = 1n;
  private constructor(
    readonly vm: VM,
    readonly common: Common,
  ) {}

  static async create(): Promise<Chain> {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Osaka });
    return new Chain(await createVM({ common }), common);
  }

  async fund(k: Uint8Array): Promise<void> {
    const a = createAddressFromPrivateKey(k);
    await this.vm.stateManager.putAccount(a, createAccount({ balance: 10n ** 21n }));
  }

  /** Sends a signed transaction; answers the receipt's gas and the created address. */
  async send(k: Uint8Array, to: Hex | undefined, data: Hex, value = 0n): Promise<{ gas: number; created?: Hex }> {
    const from = addressOf(k).toLowerCase();
    const nonce = this.nonces.get(from) ?? 0n;
    const tx = createLegacyTx(
      { nonce, gasLimit: 16_000_000n, gasPrice: 0n, value, ...(to ? { to } : {}), data: hexToBytes(data) },
      { common: this.common },
    ).sign(k);
    const block = createBlock(
      { header: { timestamp: this.timestamp, number: this.number++, gasLimit: 60_000_000n, baseFeePerGas: 0n } },
      { common: this.common },
    );
    const r = await runTx(this.vm, { tx, block, skipBlockGasLimitValidation: true });
    this.nonces.set(from, nonce + 1n);
    if (r.execResult.exceptionError) throw new Error(`transaction reverted: ${r.execResult.exceptionError.error}`);
    return {
      gas: Number(r.totalGasSpent),
      ...(r.createdAddress ? { created: r.createdAddress.toString() as Hex } : {}),
    };
  }

  call(k: Uint8Array, to: Hex, abi: Abi, functionName: string, args: unknown[] = []) {
    return this.send(
      k,
      to,
      encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]),
    );
  }

  async read<T>(to: Hex, abi: Abi, functionName: string, args: unknown[] = []): Promise<T> {
    const block = createBlock(
      { header: { timestamp: this.timestamp, number: this.number, gasLimit: 60_000_000n, baseFeePerGas: 0n } },
      { common: this.common },
    );
    const res = await this.vm.evm.runCall({
      to: createAddressFromString(to),
      data: hexToBytes(encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])),
      block,
    });
    return decodeFunctionResult({ abi, functionName, data: bytesToHex(res.execResult.returnValue) } as Parameters<
      typeof decodeFunctionResult
    >[0]) as T;
  }
}

describe('gas figures against signed transactions on a separate chain', () => {
  let pool: SolcPool;
  let nft: SolcCompileOutput;
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    nft = await pool.compile(REAL_ERC721_SOURCE);
  });
  afterAll(async () => {
    await pool.close();
  });

  const ownerKey = key(1);
  const owner = addressOf(ownerKey);

  it("measures under the fork the service's VM runs and names", () => {
    expect(VM_HARDFORK).toBe(Hardfork.Osaka);
  });

  function plan(beneficiaries: Hex[], extra: Partial<Plan> = {}): Plan {
    const shares = evenShares(beneficiaries.length);
    return {
      blockchain: 'evm',
      ownerAddress: owner,
      inheritanceTemplate: 'custom',
      beneficiaries: beneficiaries.map((address, i) => ({ name: `B${i}`, address, percentage: shares[i]! / 100 })),
      deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 0 },
      ...extra,
    } as Plan;
  }

  it('claimNft of generate is within 5% of claiming a real OpenZeppelin ERC-721', async () => {
    const minterKey = key(2);
    const recipientKey = key(3);
    const recipient = addressOf(recipientKey);
    const chain = await Chain.create();
    for (const k of [ownerKey, minterKey, recipientKey]) await chain.fund(k);
    const nftAbi = nft.abi as Abi;
    // The NFT contract deployed with its constructor, by a signed transaction.
    const token = (await chain.send(minterKey, undefined, nft.bytecode)).created!;
    const g = await generateEvm(
      plan([recipient, '0x00000000000000000000000000000000000b0b02'], {
        assets: [{ type: 'erc721', address: token, tokenId: '7', beneficiary: recipient }],
      }),
      { pool },
    );
    const c = (await chain.send(ownerKey, undefined, g.deployData)).created!;
    await chain.call(minterKey, token, nftAbi, 'mint', [c, 7n]);
    chain.timestamp += 366n * DAY;
    const claim = await chain.call(recipientKey, c, g.abi as Abi, 'claimNft', [0n]);
    expect((await chain.read<Hex>(token, nftAbi, 'ownerOf', [7n])).toLowerCase()).toBe(recipient.toLowerCase());
    expect(within(g.gas['claimNft'], claim.gas), `figure ${g.gas['claimNft']} vs signed ${claim.gas}`).toBe(true);
  });

  it('updates that grow or shrink the list, from generate, are within 5% of signed updates', async () => {
    for (const n of [1, 3, 10]) {
      const list = fresh(0xbe0000, n);
      const g = await generateEvm(plan(list), { pool });
      const abi = g.abi as Abi;
      const targets: Array<[string, number]> = [
        ['update', n],
        ['updateGrow', Math.min(2 * n, 50)],
        ['updateShrink', Math.max(1, Math.floor(n / 2))],
      ];
      for (const [k, m] of targets) {
        if (k !== 'update' && m === n) {
          expect(g.gas[k], `${n}: ${k}`).toBeUndefined();
          continue;
        }
        // Each update from a freshly deployed contract holding the plan's list, to new addresses.
        const chain = await Chain.create();
        await chain.fund(ownerKey);
        const c = (await chain.send(ownerKey, undefined, g.deployData)).created!;
        chain.timestamp += DAY;
        const r = await chain.call(ownerKey, c, abi, 'updateBeneficiaries', [fresh(0xcafe0000, m), evenShares(m)]);
        const [listed] = await chain.read<[Hex[], bigint[]]>(c, abi, 'beneficiaries');
        expect(listed.length).toBe(m);
        expect(within(g.gas[k], r.gas), `${n} → ${m}: figure ${g.gas[k]} vs signed ${r.gas}`).toBe(true);
        if (m !== n) {
          // The same-length figure does not describe it (the reason these figures exist).
          expect(
            within(g.gas['update'], r.gas, 10),
            `${n} → ${m}: same-length figure ${g.gas['update']} vs ${r.gas}`,
          ).toBe(false);
        }
      }
      expect(g.estimatedGas).toMatch(/update to \d+ benefici/);
    }
  });

  it('estimate_gas(contractCode) measures the stated number of beneficiaries, each figure within 5% of signed transactions', async () => {
    const n = 10;
    const code = contractSource(DEFAULT_GAS_SHAPE);
    const est = await estimateEvmGas({ contractCode: code, beneficiaries: n }, { pool });
    expect(est.figures['beneficiaries']).toBe(n);
    expect(est.method).toMatch(/10 beneficiaries \(as given\)/);
    const compiled = await pool.compile(code, { contractName: contractName(DEFAULT_GAS_SHAPE) });
    const abi = compiled.abi as Abi;
    const keys = Array.from({ length: n }, (_, i) => key(100 + i));
    const heirs = keys.map(addressOf);
    const deployData = encodeDeployData({
      abi,
      bytecode: compiled.bytecode,
      args: [owner, heirs, evenShares(n), 365n],
    });

    const deployChain = async () => {
      const chain = await Chain.create();
      for (const k of [ownerKey, ...keys]) await chain.fund(k);
      const d = await chain.send(ownerKey, undefined, deployData);
      return { chain, c: d.created!, deployment: d.gas };
    };
    const first = await deployChain();
    expect(
      within(est.figures['deployment'], first.deployment),
      `deployment ${est.figures['deployment']} vs ${first.deployment}`,
    ).toBe(true);

    for (const [k, m] of [
      ['update', n],
      ['updateGrow', 2 * n],
      ['updateShrink', n / 2],
    ] as const) {
      const { chain, c } = await deployChain();
      chain.timestamp += DAY;
      const r = await chain.call(ownerKey, c, abi, 'updateBeneficiaries', [fresh(0xcafe0000, m), evenShares(m)]);
      expect(within(est.figures[k], r.gas), `${k} (${n} → ${m}): figure ${est.figures[k]} vs signed ${r.gas}`).toBe(
        true,
      );
    }

    const { chain, c } = first;
    await chain.fund(key(998));
    await chain.send(key(998), c, '0x', 10n ** 18n);
    chain.timestamp += 366n * DAY;
    let max = 0;
    for (const k of keys) max = Math.max(max, (await chain.call(k, c, abi, 'claim')).gas);
    expect(within(est.figures['claim'], max), `claim ${est.figures['claim']} vs signed ${max}`).toBe(true);
    expect(est.update).toMatch(/to 20 beneficiaries: .* gas/);
    expect(est.update).toMatch(/to 5 beneficiaries: .* gas/);
  });

  for (const n of [1, 3, 10]) {
    it(`estimate_gas(contractCode) of generated code deployed with ${n} by a script in the code reads ${n}; figures within 5% of signed transactions`, async () => {
      const keys = Array.from({ length: n }, (_, i) => key(200 + i));
      const heirs = keys.map(addressOf);
      const g = await generateEvm(plan(heirs), { pool });
      // The generated contract, with the package's deploy script for this plan in the same file (its import dropped):
      // the script's constructor call names the contract and creates the beneficiary list with its length.
      const script = deployScript(
        { compiled: { bytecode: g.bytecode }, deployData: g.deployData } as unknown as PackageContract,
        g.contractName,
        g.abi as Abi,
      )
        .split('\n')
        .filter((l) => !/^(import|pragma|\/\/ SPDX)/.test(l))
        .join('\n');
      expect(script).toContain(`new address[](${n})`);
      const est = await estimateEvmGas({ contractCode: `${g.contractCode}\n${script}` }, { pool });
      expect(est.figures['beneficiaries']).toBe(n);
      expect(est.method).toContain(
        `${n} ${n === 1 ? 'beneficiary' : 'beneficiaries'} (read from the code's call new ${g.contractName}(...))`,
      );
      // a count stated by the caller does not override what the code says
      const stated = await estimateEvmGas({ contractCode: `${g.contractCode}\n${script}`, beneficiaries: 7 }, { pool });
      expect(stated.figures['beneficiaries']).toBe(n);

      const abi = g.abi as Abi;
      const deployChain = async () => {
        const chain = await Chain.create();
        for (const k of [ownerKey, ...keys]) await chain.fund(k);
        const d = await chain.send(ownerKey, undefined, g.deployData as Hex);
        return { chain, c: d.created!, deployment: d.gas };
      };
      const first = await deployChain();
      expect(
        within(est.figures['deployment'], first.deployment),
        `deployment ${est.figures['deployment']} vs ${first.deployment}`,
      ).toBe(true);
      const updates: Array<[string, number]> = [
        ['update', n],
        ['updateGrow', 2 * n],
        ...(n > 1 ? ([['updateShrink', Math.floor(n / 2)]] as Array<[string, number]>) : []),
      ];
      for (const [k, m] of updates) {
        const { chain, c } = await deployChain();
        chain.timestamp += DAY;
        const r = await chain.call(ownerKey, c, abi, 'updateBeneficiaries', [fresh(0xbeef0000, m), evenShares(m)]);
        expect(within(est.figures[k], r.gas), `${k} (${n} → ${m}): figure ${est.figures[k]} vs signed ${r.gas}`).toBe(
          true,
        );
      }
      const { chain, c } = first;
      await chain.fund(key(997));
      await chain.send(key(997), c, '0x', 10n ** 18n);
      chain.timestamp += 366n * DAY;
      let max = 0;
      for (const k of keys) max = Math.max(max, (await chain.call(k, c, abi, 'claim')).gas);
      expect(within(est.figures['claim'], max), `claim ${est.figures['claim']} vs signed ${max}`).toBe(true);
    });
  }

  it('a fixed-size beneficiary array in the constructor sets the count; without any, 3 are assumed and said so', async () => {
    const src = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};
contract Fixed {
    address[4] public heirs;
    constructor(address owner_, address[4] memory heirs_) { require(owner_ != address(0)); heirs = heirs_; }
}
`;
    const est = await estimateEvmGas({ contractCode: src, beneficiaries: 9 }, { pool });
    expect(est.figures['beneficiaries']).toBe(4);
    expect(est.figures['deployment']).toBeGreaterThan(4 * 22_100);
    expect(est.method).toMatch(/4 beneficiaries \(fixed by the constructor\)/);
    const dflt = await estimateEvmGas({}, { pool });
    expect(dflt.figures['beneficiaries']).toBe(3);
    expect(dflt.method).toMatch(/3 beneficiaries \(assumed; pass beneficiaries/);
    await expect(estimateEvmGas({ beneficiaries: 0 }, { pool })).rejects.toThrow(/beneficiaries/i);
  });
});
