import { encodeDeployData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { MOCK_REBASING_ERC20_SOURCE } from '../../../src/contracts/evm/mocks.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import { address, compileFixtures, testSolcPool, type Fixtures, type Runtime } from './fixtures.js';

/**
 * Fair token claims, executed in the VM with signed transactions: a balance that grows or shrinks after a claim is
 * shared only by the shares still unclaimed; a token that charges the sender a fee on top of the amount still pays
 * its last claimant; and any ERC-20 that reaches the contract after the deadline (an airdrop) is claimed by the heirs
 * by their shares instead of being locked forever.
 */

const FULL: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  erc20: true,
  erc721: true,
};
const ETH_ONLY: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: false,
  guardians: false,
  erc20: false,
  erc721: false,
};
const DAY = 86_400n;

/**
 * A token that charges the sender a fee on top of the amount (1%, burned): sending the whole balance always fails,
 * because the sender must also hold the fee. Test double for the last claim of such a token.
 */
const SENDER_FEE_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockSenderFeeERC20 {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function fee(uint256 amount) public pure returns (uint256) {
        return amount / 100;
    }

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 charged = amount + fee(amount);
        require(balanceOf[msg.sender] >= charged, "balance");
        balanceOf[msg.sender] -= charged;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
`;

const owner = address(0x0a, 1);
const stranger = address(0x0b, 1);
const bens = [address(0xbe, 1), address(0xbe, 2), address(0xbe, 3)];
const guardians = [address(0x6a, 1), address(0x6a, 2)];
const T1 = address(0x70, 1);
const NFT = address(0x72, 1);
const AIRDROP = address(0x71, 9);

function inputs(over: Partial<ConstructorInputs> = {}): ConstructorInputs {
  return {
    owner,
    beneficiaries: bens,
    shares: [3334, 3333, 3333],
    intervalDays: 30,
    graceDays: 5,
    guardians,
    threshold: 2,
    tokens: [T1],
    nfts: [{ token: NFT, tokenId: 1n, recipient: bens[0]! }],
    ...over,
  };
}

function ok(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new Error(`${what} failed: ${r.revert ?? r.error}`);
  return r;
}

describe.concurrent('token claims are fair and nothing stays locked', () => {
  let pool: SolcPool;
  let fx: Fixtures;
  let rebasing: Runtime;
  let senderFee: Runtime;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [f, a, b, r, s] = await Promise.all([
      compileFixtures(pool),
      pool.compile(contractSource(FULL), { contractName: contractName(FULL) }),
      pool.compile(contractSource(ETH_ONLY), { contractName: contractName(ETH_ONLY) }),
      pool.compile(MOCK_REBASING_ERC20_SOURCE),
      pool.compile(SENDER_FEE_ERC20_SOURCE),
    ]);
    fx = f;
    compiled.set(FULL, a);
    compiled.set(ETH_ONLY, b);
    rebasing = { abi: r.abi as Abi, runtime: r.deployedBytecode! };
    senderFee = { abi: s.abi as Abi, runtime: s.deployedBytecode! };
  }, 180_000);
  afterAll(async () => {
    await pool.close();
  });

  /** Deploys a shape with the token double `t1` at T1, ERC-20 at AIRDROP, ERC-721 at NFT; the estate is released 36 days later. */
  async function released(shape: EvmShape, inp: ConstructorInputs, t1: Runtime) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    await vm.putCode(T1, t1.runtime);
    await vm.putCode(AIRDROP, fx.erc20.runtime);
    await vm.putCode(NFT, fx.erc721.runtime);
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = ok(await vm.send(owner, undefined, data, 0n, abi), 'deploy');
    return { vm, abi, c: r.createdAddress as Hex, release: () => vm.warp(36n * DAY) };
  }

  it('a rebase gain after an early claim goes only to the shares still unclaimed', async () => {
    const { vm, abi, c, release } = await released(FULL, inputs({ shares: [7000, 2000, 1000] }), rebasing);
    const bal = (a: Hex) => vm.read<bigint>(T1, rebasing.abi, 'balanceOf', [a]);
    ok(await vm.tx(stranger, T1, rebasing.abi, 'mint', [c, 1_000_000n]), 'mint');
    release();
    ok(await vm.tx(bens[0]!, c, abi, 'claimToken', [T1]), 'early 70% claim');
    expect(await bal(bens[0]!)).toBe(700_000n);
    // +10% for every holder: the early claimant's own 700,000 grew to 770,000; the estate's 300,000 to 330,000.
    ok(await vm.tx(stranger, T1, rebasing.abi, 'rebase', [11n, 10n]), 'rebase');
    expect(await bal(c)).toBe(330_000n);
    // The estate's gain belongs to the two shares that have not claimed: nothing more for the early claimant.
    expect(await vm.read<bigint>(c, abi, 'claimableToken', [T1, bens[0]!])).toBe(0n);
    expect((await vm.tx(bens[0]!, c, abi, 'claimToken', [T1])).revert).toBe('NothingToClaim');
    expect(await vm.read<bigint>(c, abi, 'claimableToken', [T1, bens[1]!])).toBe(220_000n);
    ok(await vm.tx(bens[1]!, c, abi, 'claimToken', [T1]), '20% claim');
    ok(await vm.tx(bens[2]!, c, abi, 'claimToken', [T1]), '10% claim');
    expect(await bal(bens[0]!)).toBe(770_000n);
    expect(await bal(bens[1]!)).toBe(220_000n);
    expect(await bal(bens[2]!)).toBe(110_000n);
    expect(await bal(c)).toBe(0n);
  });

  it('a deposit after an early claim also goes to the unclaimed shares; once all claimed, new arrivals are shared by all', async () => {
    const { vm, abi, c, release } = await released(FULL, inputs({ shares: [5000, 3000, 2000] }), fx.erc20);
    const bal = (a: Hex) => vm.read<bigint>(T1, fx.erc20.abi, 'balanceOf', [a]);
    ok(await vm.tx(stranger, T1, fx.erc20.abi, 'mint', [c, 100_000n]), 'mint');
    release();
    ok(await vm.tx(bens[0]!, c, abi, 'claimToken', [T1]), 'claim');
    ok(await vm.tx(stranger, T1, fx.erc20.abi, 'mint', [c, 10_000n]), 'deposit while two shares are unclaimed');
    ok(await vm.tx(bens[1]!, c, abi, 'claimToken', [T1]), 'claim');
    ok(await vm.tx(bens[2]!, c, abi, 'claimToken', [T1]), 'claim');
    expect(await Promise.all(bens.map(bal))).toEqual([50_000n, 36_000n, 24_000n]);
    // Every share has claimed: the next arrival starts a new round for all three.
    ok(await vm.tx(stranger, T1, fx.erc20.abi, 'mint', [c, 1_000n]), 'late deposit');
    for (const b of bens) ok(await vm.tx(b, c, abi, 'claimToken', [T1]), 'new round');
    expect(await Promise.all(bens.map(bal))).toEqual([50_500n, 36_300n, 24_200n]);
  });

  it('a token charging the sender a fee on top still pays the last claimant what the balance allows; the rest is shared again', async () => {
    const { vm, abi, c, release } = await released(FULL, inputs(), senderFee);
    const bal = (a: Hex) => vm.read<bigint>(T1, senderFee.abi, 'balanceOf', [a]);
    const fee = (x: bigint) => x / 100n;
    ok(await vm.tx(stranger, T1, senderFee.abi, 'mint', [c, 1_000_000n]), 'mint');
    release();
    ok(await vm.tx(bens[0]!, c, abi, 'claimToken', [T1]), 'first claim');
    expect(await bal(bens[0]!)).toBe(333_400n);
    // The fee the contract paid on that claim is a loss shared by the two shares still unclaimed, equally here.
    const afterFirst = await bal(c);
    expect(afterFirst).toBe(1_000_000n - 333_400n - fee(333_400n));
    ok(await vm.tx(bens[1]!, c, abi, 'claimToken', [T1]), 'second claim');
    const second = await bal(bens[1]!);
    expect(second === afterFirst / 2n || second === afterFirst / 2n - 1n).toBe(true);
    // The last due is the whole balance, which the token cannot send with its fee on top: the claim still succeeds.
    const beforeLast = await bal(c);
    expect(beforeLast < 2n * second).toBe(true);
    ok(await vm.tx(bens[2]!, c, abi, 'claimToken', [T1]), 'last claim');
    const last = await bal(bens[2]!);
    expect(last + fee(last)).toBeLessThanOrEqual(beforeLast);
    expect(last * 100n >= beforeLast * 98n).toBe(true);
    const left = await bal(c);
    expect(left).toBe(beforeLast - last - fee(last));
    expect(left * 100n < beforeLast).toBe(true);
    // Every share has claimed: what is left is shared by all shares again, not locked.
    expect(left > 0n).toBe(true);
    expect(await vm.read<bigint>(c, abi, 'claimableToken', [T1, bens[0]!])).toBe((left * 3334n) / 10_000n);
  });

  for (const [name, shape] of [
    ['a plan with tokens and NFTs', FULL],
    ['an ETH-only plan', ETH_ONLY],
  ] as const) {
    it(`${name}: an ERC-20 airdropped after the deadline is claimed by the heirs by their shares`, async () => {
      const { vm, abi, c, release } = await released(shape, inputs(), fx.erc20);
      const bal = (a: Hex) => vm.read<bigint>(AIRDROP, fx.erc20.abi, 'balanceOf', [a]);
      // Before release an unlisted token is the owner's to take back, not the heirs'.
      ok(await vm.tx(stranger, AIRDROP, fx.erc20.abi, 'mint', [c, 5n]), 'sent by mistake');
      expect((await vm.tx(bens[0]!, c, abi, 'claimToken', [AIRDROP])).revert).toBe('NotReleased');
      ok(await vm.tx(owner, c, abi, 'rescueToken', [AIRDROP]), 'rescue');
      release();
      ok(await vm.tx(stranger, AIRDROP, fx.erc20.abi, 'mint', [c, 9_000n]), 'airdrop after the deadline');
      expect((await vm.tx(owner, c, abi, 'rescueToken', [AIRDROP])).revert).toBe('AlreadyReleased');
      expect((await vm.tx(stranger, c, abi, 'claimToken', [AIRDROP])).revert).toBe('NothingToClaim');
      expect(await vm.read<bigint>(c, abi, 'claimableToken', [AIRDROP, bens[1]!])).toBe(2_999n);
      ok(await vm.tx(bens[0]!, c, abi, 'claimToken', [AIRDROP]), 'claim');
      const other = address(0xee, 1);
      ok(await vm.tx(bens[1]!, c, abi, 'claimTokenTo', [AIRDROP, other]), 'claimTokenTo');
      ok(await vm.tx(bens[2]!, c, abi, 'claimToken', [AIRDROP]), 'claim');
      expect([await bal(bens[0]!), await bal(other), await bal(bens[2]!)]).toEqual([3_000n, 2_999n, 2_999n]);
      expect((await vm.tx(bens[0]!, c, abi, 'claimToken', [AIRDROP])).revert).toBe('NothingToClaim');
      if (shape.erc721) {
        // A listed NFT collection is never paid out as if it were an ERC-20.
        expect((await vm.tx(bens[1]!, c, abi, 'claimToken', [NFT])).revert).toBe('NftCollection');
        expect(await vm.read<bigint>(c, abi, 'claimableToken', [NFT, bens[1]!])).toBe(0n);
      }
    });
  }
});
