import { encodeDeployData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource } from '../../../src/contracts/evm/contract.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox } from '../../../src/contracts/evm/vm.js';
import { address, compileFixtures, testSolcPool, type Fixtures } from './fixtures.js';

const FULL: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  erc20: true,
  erc721: true,
};
const NO_SWITCH_GUARDIANS: EvmShape = {
  template: 'custom',
  deadMansSwitch: false,
  gracePeriod: false,
  guardians: true,
  erc20: false,
  erc721: false,
};
const ETH = 10n ** 18n;
const DAY = 86_400n;

const owner = address(0x0a, 1);
const stranger = address(0x0b, 1);
const bens = [address(0xbe, 1), address(0xbe, 2)];
const guardians = [address(0x6a, 1), address(0x6a, 2)];

function inputs(over: Partial<ConstructorInputs> = {}): ConstructorInputs {
  return {
    owner,
    beneficiaries: bens,
    shares: [4000, 6000],
    intervalDays: 30,
    graceDays: 5,
    guardians,
    threshold: 2,
    tokens: [address(0x70, 1)],
    nfts: [{ token: address(0x72, 1), tokenId: 1n, recipient: bens[0]! }],
    ...over,
  };
}

describe.concurrent('generated contract behaviour beyond the matrix', () => {
  let pool: SolcPool;
  let fx: Fixtures;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [f, a, b] = await Promise.all([
      compileFixtures(pool),
      pool.compile(contractSource(FULL), { contractName: contractName(FULL) }),
      pool.compile(contractSource(NO_SWITCH_GUARDIANS), { contractName: contractName(NO_SWITCH_GUARDIANS) }),
    ]);
    fx = f;
    compiled.set(FULL, a);
    compiled.set(NO_SWITCH_GUARDIANS, b);
  });
  afterAll(async () => {
    await pool.close();
  });

  async function deploy(shape: EvmShape, inp: ConstructorInputs, value = 0n) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    if (shape.erc20) for (const t of inp.tokens) await vm.putCode(t, fx.erc20.runtime);
    if (shape.erc721) for (const n of inp.nfts) await vm.putCode(n.token, fx.erc721.runtime);
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = await vm.send(owner, undefined, data, value, abi);
    return { vm, abi, r, c: r.createdAddress as Hex };
  }

  it('the constructor refuses invalid plans with custom errors', async () => {
    const cases: Array<[Partial<ConstructorInputs>, string]> = [
      [{ shares: [4000, 5999] }, 'InvalidShares'],
      [{ shares: [0, 10_000] }, 'InvalidShares'],
      [{ beneficiaries: [bens[0]!, bens[0]!] }, 'DuplicateAddress'],
      [
        {
          beneficiaries: Array.from({ length: 51 }, (_, i) => address(0xbe, i + 1)),
          shares: Array.from({ length: 51 }, (_, i) => (i === 0 ? 10_000 - 50 * 196 : 196)),
        },
        'InvalidCount',
      ],
      [{ shares: [10_000] }, 'LengthMismatch'],
      [{ intervalDays: 0 }, 'InvalidInterval'],
      [{ intervalDays: 3651 }, 'InvalidInterval'],
      [{ threshold: 3 }, 'InvalidThreshold'],
      [{ guardians: [owner], threshold: 1 }, 'DuplicateAddress'],
      [{ owner: '0x0000000000000000000000000000000000000000' }, 'ZeroAddress'],
    ];
    for (const [over, error] of cases) {
      const { r } = await deploy(FULL, inputs(over));
      expect(r.ok, error).toBe(false);
      expect(r.revert).toBe(error);
    }
  });

  it('cancel returns ETH, tokens and NFTs to the owner and stops the contract', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), 3n * ETH);
    await vm.tx(stranger, address(0x70, 1), fx.erc20.abi, 'mint', [c, 500n]);
    await vm.tx(stranger, address(0x72, 1), fx.erc721.abi, 'mint', [c, 1n]);
    expect((await vm.tx(stranger, c, abi, 'cancel')).revert).toBe('NotOwner');
    const w = await vm.tx(owner, c, abi, 'withdraw', [ETH]);
    expect(w.ok).toBe(true);
    expect(w.logs).toBe(2); // CheckedIn (proof of life), Withdrawn
    expect((await vm.tx(owner, c, abi, 'withdraw', [10n * ETH])).revert).toBe('InsufficientBalance');
    const before = await vm.balanceOf(owner);
    const r = await vm.tx(owner, c, abi, 'cancel');
    expect(r.ok).toBe(true);
    expect(r.logs).toBeGreaterThanOrEqual(2);
    expect((await vm.balanceOf(owner)) - before).toBe(2n * ETH);
    expect(await vm.read<bigint>(address(0x70, 1), fx.erc20.abi, 'balanceOf', [owner])).toBe(500n);
    expect((await vm.read<Hex>(address(0x72, 1), fx.erc721.abi, 'ownerOf', [1n])).toLowerCase()).toBe(
      owner.toLowerCase(),
    );
    expect(await vm.read<boolean>(c, abi, 'cancelled')).toBe(true);
    expect((await vm.send(stranger, c, '0x', 1n, abi)).revert).toBe('ContractCancelled');
    expect((await vm.tx(owner, c, abi, 'checkIn')).revert).toBe('ContractCancelled');
    vm.warp(400n * DAY);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    expect((await vm.tx(bens[0]!, c, abi, 'claim')).revert).toBe('ContractCancelled');
  });

  it('cancel works when a listed NFT was never deposited', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), ETH);
    expect((await vm.tx(owner, c, abi, 'cancel')).ok).toBe(true);
  });

  it('a check-in after release is refused; every state change emits an event', async () => {
    const { vm, abi, c, r } = await deploy(FULL, inputs(), ETH);
    expect(r.logs).toBeGreaterThanOrEqual(3); // NftAssigned, BeneficiariesUpdated, CheckedIn, Deposited
    expect((await vm.tx(owner, c, abi, 'checkIn')).logs).toBe(1);
    expect((await vm.send(stranger, c, '0x', 5n, abi)).logs).toBe(1);
    vm.warp(36n * DAY);
    expect((await vm.tx(owner, c, abi, 'checkIn')).revert).toBe('AlreadyReleased');
    const claim = await vm.tx(bens[1]!, c, abi, 'claim');
    expect(claim.logs).toBe(1);
    expect((await vm.tx(guardians[0]!, c, abi, 'confirmRelease')).revert).toBe('AlreadyReleased');
  });

  it('without a switch: the owner or the guardians release; the deadline is unbounded', async () => {
    const { vm, abi, c } = await deploy(NO_SWITCH_GUARDIANS, inputs(), ETH);
    expect(await vm.read<bigint>(c, abi, 'deadline')).toBe(2n ** 256n - 1n);
    vm.warp(3650n * DAY);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    expect((await vm.tx(stranger, c, abi, 'release')).revert).toBe('NotOwner');
    const r = await vm.tx(owner, c, abi, 'release');
    expect(r.ok && r.logs === 1).toBe(true);
    expect((await vm.tx(owner, c, abi, 'release')).revert).toBe('AlreadyReleased');
    expect(await vm.read<bigint>(c, abi, 'claimable', [bens[1]!])).toBe((ETH * 6000n) / 10_000n);
  });
});
