import { encodeDeployData, getAddress, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { REAL_ERC721_SOURCE } from '../../../src/contracts/evm/mocks.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import { address, compileFixtures, testSolcPool, type Fixtures, type Runtime } from './fixtures.js';

/**
 * An NFT the plan does not list, sent to the contract with plain transferFrom (or minted to it) after the deadline,
 * is not locked: the heir with the largest share takes it with claimUnlistedNft. Executed in the VM against
 * OpenZeppelin's ERC-721, for a shape with listed tokens and NFTs and for an ETH-only one.
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
 * A fungible token whose transferFrom skips the allowance when the sender moves its own balance (as DAI does).
 * transferFrom(address,address,uint256) has the ERC-721 selector, so an unchecked NFT claim could move it.
 */
const SELF_SPEND_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockSelfSpendERC20 {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (from != msg.sender) {
            require(allowance[from][msg.sender] >= amount, "allowance");
            allowance[from][msg.sender] -= amount;
        }
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        return true;
    }
}
`;

const owner = address(0x0a, 1);
const stranger = address(0x0b, 1);
const bens = [address(0xbe, 1), address(0xbe, 2), address(0xbe, 3)];
const guardians = [address(0x6a, 1), address(0x6a, 2)];
const T1 = address(0x70, 1);
const LISTED_NFT = address(0x72, 1);
const OZ_NFT = address(0x73, 1);
const SELF_SPEND = address(0x74, 1);

function inputs(over: Partial<ConstructorInputs> = {}): ConstructorInputs {
  return {
    owner,
    beneficiaries: bens,
    // the middle beneficiary has the largest share: the heir of unlisted NFTs is not simply the first one
    shares: [2000, 5000, 3000],
    intervalDays: 30,
    graceDays: 5,
    guardians,
    threshold: 2,
    tokens: [T1],
    nfts: [{ token: LISTED_NFT, tokenId: 1n, recipient: bens[0]! }],
    ...over,
  };
}

function ok(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new Error(`${what} failed: ${r.revert ?? r.error}`);
  return r;
}

describe.concurrent('an NFT the plan does not list is not locked after release', () => {
  let pool: SolcPool;
  let fx: Fixtures;
  let oz: Runtime;
  let selfSpend: Runtime;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [f, a, b, n, s] = await Promise.all([
      compileFixtures(pool),
      pool.compile(contractSource(FULL), { contractName: contractName(FULL) }),
      pool.compile(contractSource(ETH_ONLY), { contractName: contractName(ETH_ONLY) }),
      pool.compile(REAL_ERC721_SOURCE),
      pool.compile(SELF_SPEND_ERC20_SOURCE),
    ]);
    fx = f;
    compiled.set(FULL, a);
    compiled.set(ETH_ONLY, b);
    oz = { abi: n.abi as Abi, runtime: n.deployedBytecode! };
    selfSpend = { abi: s.abi as Abi, runtime: s.deployedBytecode! };
  }, 180_000);
  afterAll(async () => {
    await pool.close();
  });

  async function deployed(shape: EvmShape, inp: ConstructorInputs) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    await vm.putCode(T1, fx.erc20.runtime);
    await vm.putCode(LISTED_NFT, fx.erc721.runtime);
    await vm.putCode(OZ_NFT, oz.runtime);
    await vm.putCode(SELF_SPEND, selfSpend.runtime);
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = ok(await vm.send(owner, undefined, data, 0n, abi), 'deploy');
    return { vm, abi, c: getAddress(r.createdAddress!) as Hex, release: () => vm.warp(36n * DAY) };
  }

  for (const [name, shape] of [
    ['a plan with tokens and NFTs', FULL],
    ['an ETH-only plan', ETH_ONLY],
  ] as const) {
    it(`${name}: an OpenZeppelin ERC-721 arriving after the deadline goes to the heir with the largest share`, async () => {
      const { vm, abi, c, release } = await deployed(shape, inputs());
      const holder = (id: bigint) => vm.read<Hex>(OZ_NFT, oz.abi, 'ownerOf', [id]);
      expect(await vm.read<Hex>(c, abi, 'unlistedNftHeir')).toBe(bens[1]);

      // Before release an unlisted NFT is the owner's: the heir cannot take it, the owner takes it back.
      ok(await vm.tx(stranger, OZ_NFT, oz.abi, 'mint', [c, 7n]), 'sent by mistake');
      expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [OZ_NFT, 7n, bens[1]!])).revert).toBe('NotReleased');
      ok(await vm.tx(owner, c, abi, 'rescueNft', [OZ_NFT, 7n]), 'rescue');
      expect(await holder(7n)).toBe(owner);

      release();
      ok(await vm.tx(stranger, OZ_NFT, oz.abi, 'mint', [c, 8n]), 'airdrop after the deadline');
      expect(await holder(8n)).toBe(c);
      // the owner can no longer act; no one but the heir takes it
      expect((await vm.tx(owner, c, abi, 'rescueNft', [OZ_NFT, 8n])).revert).toBe('AlreadyReleased');
      for (const who of [bens[0]!, bens[2]!, stranger, owner])
        expect((await vm.tx(who, c, abi, 'claimUnlistedNft', [OZ_NFT, 8n, who])).revert).toBe('NotNftHeir');
      expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [OZ_NFT, 8n, address(0, 0)])).revert).toBe(
        'ZeroAddress',
      );
      // an NFT the contract does not hold
      expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [OZ_NFT, 7n, bens[1]!])).revert).toBe('NftNotHeld');

      // the heir sends it where it can be held (its own address, or another one)
      const vault = address(0xee, 1);
      ok(await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [OZ_NFT, 8n, vault]), 'claimUnlistedNft');
      expect(await holder(8n)).toBe(vault);
      expect(await vm.read<bigint>(OZ_NFT, oz.abi, 'balanceOf', [c])).toBe(0n);
      expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [OZ_NFT, 8n, vault])).revert).toBe('NftNotHeld');
    });

    it(`${name}: a fungible token sharing the transferFrom selector is not moved as an NFT`, async () => {
      const { vm, abi, c, release } = await deployed(shape, inputs());
      const bal = (a: Hex) => vm.read<bigint>(SELF_SPEND, selfSpend.abi, 'balanceOf', [a]);
      ok(await vm.tx(stranger, SELF_SPEND, selfSpend.abi, 'mint', [c, 9_000n]), 'airdrop');
      release();
      // without the ownerOf check this would move the whole airdrop to the heir alone
      expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [SELF_SPEND, 9_000n, bens[1]!])).revert).toBe(
        'NftNotHeld',
      );
      expect(await bal(c)).toBe(9_000n);
      expect(await bal(bens[1]!)).toBe(0n);
    });
  }

  it('a listed NFT or token is not taken as unlisted: it stays with its own recipient or shares', async () => {
    const { vm, abi, c, release } = await deployed(FULL, inputs());
    ok(await vm.tx(owner, LISTED_NFT, fx.erc721.abi, 'mint', [c, 1n]), 'listed NFT deposited');
    release();
    expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [LISTED_NFT, 1n, bens[1]!])).revert).toBe('ListedAsset');
    expect((await vm.tx(bens[1]!, c, abi, 'claimUnlistedNft', [T1, 1n, bens[1]!])).revert).toBe('ListedAsset');
    ok(await vm.tx(bens[0]!, c, abi, 'claimNft', [0n]), 'the listed recipient claims');
    expect(await vm.read<Hex>(LISTED_NFT, fx.erc721.abi, 'ownerOf', [1n])).toBe(bens[0]);
  });

  it('at a tie of the largest shares, the first listed of them is the heir', async () => {
    const { vm, abi, c } = await deployed(ETH_ONLY, inputs({ shares: [2000, 4000, 4000] }));
    expect(await vm.read<Hex>(c, abi, 'unlistedNftHeir')).toBe(bens[1]);
    // an update changes the heir with the shares
    ok(await vm.tx(owner, c, abi, 'updateBeneficiaries', [bens, [2000, 3000, 5000]]), 'update');
    expect(await vm.read<Hex>(c, abi, 'unlistedNftHeir')).toBe(bens[2]);
  });
});
