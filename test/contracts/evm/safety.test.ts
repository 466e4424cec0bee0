import { decodeEventLog, encodeDeployData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource } from '../../../src/contracts/evm/contract.js';
import { MOCK_PAUSABLE_ERC20_SOURCE, MOCK_REBASING_ERC20_SOURCE } from '../../../src/contracts/evm/mocks.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import { address, compileFixtures, testSolcPool, type Fixtures, type Runtime } from './fixtures.js';

/**
 * The ways an estate could get stuck forever (issue #15), each executed in the
 * VM: unlisted tokens refused or rescued, cancel() returning each asset on its
 * own, claimTo for beneficiaries that cannot receive, pro-rata token claims when
 * the balance falls, and every owner action as proof of life.
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
const ETH = 10n ** 18n;
const DAY = 86_400n;

const owner = address(0x0a, 1);
const stranger = address(0x0b, 1);
const bens = [address(0xbe, 1), address(0xbe, 2), address(0xbe, 3)];
const guardians = [address(0x6a, 1), address(0x6a, 2)];
const T1 = address(0x70, 1);
const T2 = address(0x70, 2);
const NFT = address(0x72, 1);
const OTHER_NFT = address(0x72, 9);
const OTHER_TOKEN = address(0x71, 9);

function inputs(over: Partial<ConstructorInputs> = {}): ConstructorInputs {
  return {
    owner,
    beneficiaries: bens,
    shares: [3334, 3333, 3333],
    intervalDays: 30,
    graceDays: 5,
    guardians,
    threshold: 2,
    tokens: [T1, T2],
    nfts: [{ token: NFT, tokenId: 1n, recipient: bens[0]! }],
    ...over,
  };
}

function ok(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new Error(`${what} failed: ${r.revert ?? r.error}`);
  return r;
}

describe.concurrent('generated contracts never lock an estate', () => {
  let pool: SolcPool;
  let fx: Fixtures;
  let pausable: Runtime;
  let rebasing: Runtime;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [f, a, b, p, r] = await Promise.all([
      compileFixtures(pool),
      pool.compile(contractSource(FULL), { contractName: contractName(FULL) }),
      pool.compile(contractSource(ETH_ONLY), { contractName: contractName(ETH_ONLY) }),
      pool.compile(MOCK_PAUSABLE_ERC20_SOURCE),
      pool.compile(MOCK_REBASING_ERC20_SOURCE),
    ]);
    fx = f;
    compiled.set(FULL, a);
    compiled.set(ETH_ONLY, b);
    pausable = { abi: p.abi as Abi, runtime: p.deployedBytecode! };
    rebasing = { abi: r.abi as Abi, runtime: r.deployedBytecode! };
  }, 120_000);
  afterAll(async () => {
    await pool.close();
  });

  /** Deploys a shape; token doubles at T1 and T2 (ERC-20 unless given), NFT and OTHER_NFT (ERC-721), OTHER_TOKEN (ERC-20). */
  async function deploy(
    shape: EvmShape,
    inp: ConstructorInputs,
    opts: { value?: bigint; t1?: Runtime; t2?: Runtime } = {},
  ) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    await vm.putCode(T1, (opts.t1 ?? fx.erc20).runtime);
    await vm.putCode(T2, (opts.t2 ?? fx.erc20).runtime);
    await vm.putCode(OTHER_TOKEN, fx.erc20.runtime);
    await vm.putCode(NFT, fx.erc721.runtime);
    await vm.putCode(OTHER_NFT, fx.erc721.runtime);
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = ok(await vm.send(owner, undefined, data, opts.value ?? 0n, abi), 'deploy');
    return { vm, abi, c: r.createdAddress as Hex };
  }

  const events = (abi: Abi, r: TxResult) =>
    r.events.flatMap((e) => {
      try {
        return [decodeEventLog({ abi, topics: e.topics as [Hex, ...Hex[]], data: e.data })];
      } catch {
        return [];
      }
    });

  it('an NFT not in the plan is refused by safeTransferFrom; one sent with transferFrom is rescued by the owner', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs());
    // The listed NFT is accepted with safeTransferFrom.
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [stranger, 1n]), 'mint');
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'safeTransferFrom', [stranger, c, 1n]), 'deposit of the listed NFT');
    // The same collection, another id, and another collection: refused, the sender keeps them.
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [stranger, 2n]), 'mint');
    ok(await vm.tx(stranger, OTHER_NFT, fx.erc721.abi, 'mint', [stranger, 1n]), 'mint');
    const refused = await vm.tx(stranger, NFT, fx.erc721.abi, 'safeTransferFrom', [stranger, c, 2n]);
    expect(refused.ok).toBe(false);
    expect((await vm.tx(stranger, OTHER_NFT, fx.erc721.abi, 'safeTransferFrom', [stranger, c, 1n])).ok).toBe(false);
    expect((await vm.read<Hex>(NFT, fx.erc721.abi, 'ownerOf', [2n])).toLowerCase()).toBe(stranger.toLowerCase());
    // The hook itself names the refusal.
    const hook = await vm.tx(NFT, c, abi, 'onERC721Received', [stranger, stranger, 2n, '0x']);
    expect(hook.revert).toBe('UnlistedNft');

    // Sent with plain transferFrom (no hook): the owner takes it back; a listed NFT stays while the plan is live.
    ok(await vm.tx(stranger, OTHER_NFT, fx.erc721.abi, 'transferFrom', [stranger, c, 1n]), 'transferFrom by mistake');
    expect((await vm.tx(stranger, c, abi, 'rescueNft', [OTHER_NFT, 1n])).revert).toBe('NotOwner');
    expect((await vm.tx(owner, c, abi, 'rescueNft', [NFT, 1n])).revert).toBe('ListedAsset');
    ok(await vm.tx(owner, c, abi, 'rescueNft', [OTHER_NFT, 1n]), 'rescue NFT');
    expect((await vm.read<Hex>(OTHER_NFT, fx.erc721.abi, 'ownerOf', [1n])).toLowerCase()).toBe(owner.toLowerCase());

    // A contract that lists no NFT refuses every safeTransferFrom and still rescues one sent with transferFrom.
    const plain = await deploy(ETH_ONLY, inputs());
    ok(await plain.vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [stranger, 5n]), 'mint');
    expect((await plain.vm.tx(stranger, NFT, fx.erc721.abi, 'safeTransferFrom', [stranger, plain.c, 5n])).ok).toBe(
      false,
    );
    ok(
      await plain.vm.tx(stranger, NFT, fx.erc721.abi, 'transferFrom', [stranger, plain.c, 5n]),
      'transferFrom by mistake',
    );
    ok(await plain.vm.tx(owner, plain.c, plain.abi, 'rescueNft', [NFT, 5n]), 'rescue NFT');
    expect((await plain.vm.read<Hex>(NFT, fx.erc721.abi, 'ownerOf', [5n])).toLowerCase()).toBe(owner.toLowerCase());
  });

  it('an ERC-20 not in the plan is rescued by the owner while the plan is live; a listed one only after cancel', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs());
    ok(await vm.tx(stranger, OTHER_TOKEN, fx.erc20.abi, 'mint', [c, 777n]), 'sent by mistake');
    ok(await vm.tx(stranger, T1, fx.erc20.abi, 'mint', [c, 500n]), 'listed token');
    expect((await vm.tx(stranger, c, abi, 'rescueToken', [OTHER_TOKEN])).revert).toBe('NotOwner');
    expect((await vm.tx(owner, c, abi, 'rescueToken', [T1])).revert).toBe('ListedAsset');
    const r = ok(await vm.tx(owner, c, abi, 'rescueToken', [OTHER_TOKEN]), 'rescue');
    expect(events(abi, r).map((e) => e.eventName)).toContain('TokenRescued');
    expect(await vm.read<bigint>(OTHER_TOKEN, fx.erc20.abi, 'balanceOf', [owner])).toBe(777n);
    expect((await vm.tx(owner, c, abi, 'rescueToken', [OTHER_TOKEN])).revert).toBe('NothingToClaim');
    // The listed token is still shared; the beneficiaries' claims are untouched.
    expect(await vm.read<bigint>(T1, fx.erc20.abi, 'balanceOf', [c])).toBe(500n);

    // In a contract that lists no token at all.
    const plain = await deploy(ETH_ONLY, inputs());
    ok(await plain.vm.tx(stranger, OTHER_TOKEN, fx.erc20.abi, 'mint', [plain.c, 42n]), 'sent by mistake');
    ok(await plain.vm.tx(owner, plain.c, plain.abi, 'rescueToken', [OTHER_TOKEN]), 'rescue');
    expect(await plain.vm.read<bigint>(OTHER_TOKEN, fx.erc20.abi, 'balanceOf', [owner])).toBe(42n);

    // After release the owner no longer touches anything.
    plain.vm.warp(31n * DAY);
    ok(await plain.vm.tx(stranger, OTHER_TOKEN, fx.erc20.abi, 'mint', [plain.c, 1n]), 'mint');
    expect((await plain.vm.tx(owner, plain.c, plain.abi, 'rescueToken', [OTHER_TOKEN])).revert).toBe('AlreadyReleased');
  });

  it('cancel returns every asset while one token reverts, reports it, and the owner retries once it unpauses', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), { value: 2n * ETH, t1: pausable });
    ok(await vm.tx(stranger, T1, pausable.abi, 'mint', [c, 1_000n]), 'mint paused token');
    ok(await vm.tx(stranger, T2, fx.erc20.abi, 'mint', [c, 2_000n]), 'mint');
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [c, 1n]), 'mint NFT');
    ok(await vm.tx(stranger, T1, pausable.abi, 'setPaused', [true]), 'pause');

    const ethBefore = await vm.balanceOf(owner);
    const r = ok(await vm.tx(owner, c, abi, 'cancel'), 'cancel with a paused token');
    expect(await vm.read<boolean>(c, abi, 'cancelled')).toBe(true);
    // Everything else came back.
    expect((await vm.balanceOf(owner)) - ethBefore).toBe(2n * ETH);
    expect(await vm.read<bigint>(T2, fx.erc20.abi, 'balanceOf', [owner])).toBe(2_000n);
    expect((await vm.read<Hex>(NFT, fx.erc721.abi, 'ownerOf', [1n])).toLowerCase()).toBe(owner.toLowerCase());
    // The paused token is reported and stays.
    const failed = events(abi, r).filter((e) => e.eventName === 'ReturnFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.args).toEqual({ asset: T1, amountOrTokenId: 1_000n });
    expect(await vm.read<bigint>(T1, pausable.abi, 'balanceOf', [c])).toBe(1_000n);

    // Retry: refused while still paused (nothing is lost), then done once it unpauses.
    expect((await vm.tx(owner, c, abi, 'rescueToken', [T1])).revert).toBe('TokenTransferFailed');
    expect((await vm.tx(stranger, c, abi, 'rescueToken', [T1])).revert).toBe('NotOwner');
    ok(await vm.tx(stranger, T1, pausable.abi, 'setPaused', [false]), 'unpause');
    ok(await vm.tx(owner, c, abi, 'rescueToken', [T1]), 'retry');
    expect(await vm.read<bigint>(T1, pausable.abi, 'balanceOf', [owner])).toBe(1_000n);

    // After cancel the owner still withdraws, asset by asset: ETH forced in later, a listed NFT sent later.
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [stranger, 3n]), 'mint');
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'transferFrom', [stranger, c, 3n]), 'late NFT');
    ok(await vm.tx(owner, c, abi, 'rescueNft', [NFT, 3n]), 'rescue after cancel');
    expect((await vm.read<Hex>(NFT, fx.erc721.abi, 'ownerOf', [3n])).toLowerCase()).toBe(owner.toLowerCase());
    expect((await vm.tx(owner, c, abi, 'withdraw', [1n])).revert).toBe('InsufficientBalance');
  });

  it('cancel with a blocklisted owner address for one token: the rest returns, the token waits', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), { value: ETH, t2: pausable });
    ok(await vm.tx(stranger, T1, fx.erc20.abi, 'mint', [c, 10n]), 'mint');
    ok(await vm.tx(stranger, T2, pausable.abi, 'mint', [c, 20n]), 'mint');
    ok(await vm.tx(stranger, T2, pausable.abi, 'setBlocked', [owner, true]), 'blocklist the owner');
    const r = ok(await vm.tx(owner, c, abi, 'cancel'), 'cancel');
    expect(
      events(abi, r)
        .filter((e) => e.eventName === 'ReturnFailed')
        .map((e) => (e.args as unknown as { asset: Hex }).asset),
    ).toEqual([T2]);
    expect(await vm.read<bigint>(T1, fx.erc20.abi, 'balanceOf', [owner])).toBe(10n);
    ok(await vm.tx(stranger, T2, pausable.abi, 'setBlocked', [owner, false]), 'lifted');
    ok(await vm.tx(owner, c, abi, 'rescueToken', [T2]), 'retry');
    expect(await vm.read<bigint>(T2, pausable.abi, 'balanceOf', [owner])).toBe(20n);
  });

  it('a beneficiary a blocklisting token refuses takes its token share to another address with claimTokenTo', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), { value: ETH, t1: pausable });
    ok(await vm.tx(stranger, T1, pausable.abi, 'mint', [c, 10_000n]), 'mint');
    ok(await vm.tx(stranger, T1, pausable.abi, 'setBlocked', [bens[0]!, true]), 'blocklist beneficiary 0');
    vm.warp(36n * DAY);
    expect((await vm.tx(bens[0]!, c, abi, 'claimToken', [T1])).revert).toBe('TokenTransferFailed');
    const other = address(0xee, 7);
    expect(
      (await vm.tx(bens[0]!, c, abi, 'claimTokenTo', [T1, '0x0000000000000000000000000000000000000000'])).revert,
    ).toBe('ZeroAddress');
    ok(await vm.tx(bens[0]!, c, abi, 'claimTokenTo', [T1, other]), 'claimTokenTo');
    expect(await vm.read<bigint>(T1, pausable.abi, 'balanceOf', [other])).toBe(3_334n);
    // the share is paid once, whichever way
    expect((await vm.tx(bens[0]!, c, abi, 'claimTokenTo', [T1, other])).revert).toBe('NothingToClaim');
    // a stranger has no share to send anywhere
    expect((await vm.tx(stranger, c, abi, 'claimTokenTo', [T1, other])).revert).toBe('NothingToClaim');
    ok(await vm.tx(bens[1]!, c, abi, 'claimToken', [T1]), 'others claim as before');
    expect(await vm.read<bigint>(T1, pausable.abi, 'balanceOf', [bens[1]!])).toBe(3_333n);
  });

  it('a contract beneficiary that cannot receive ETH or NFTs claims to another address with claimTo / claimNftTo', async () => {
    const wallet = address(0xcc, 1); // a contract beneficiary that rejects ETH and has no NFT hook
    const eoa = address(0xee, 1);
    const inp = inputs({
      beneficiaries: [wallet, bens[1]!],
      shares: [6000, 4000],
      nfts: [{ token: NFT, tokenId: 1n, recipient: wallet }],
    });
    const { vm, abi, c } = await deploy(FULL, inp, { value: 10n * ETH });
    await vm.putCode(wallet, fx.rejecter.runtime);
    ok(await vm.tx(stranger, NFT, fx.erc721.abi, 'mint', [c, 1n]), 'mint NFT');
    expect((await vm.tx(wallet, c, abi, 'claimTo', [eoa])).revert).toBe('NotReleased');
    vm.warp(36n * DAY);

    expect((await vm.tx(wallet, c, abi, 'claim')).revert).toBe('TransferFailed');
    expect((await vm.tx(wallet, c, abi, 'claimTo', ['0x0000000000000000000000000000000000000000'])).revert).toBe(
      'ZeroAddress',
    );
    // Only a beneficiary's own due can be sent: a stranger has nothing to send.
    expect((await vm.tx(stranger, c, abi, 'claimTo', [stranger])).revert).toBe('NothingToClaim');
    ok(await vm.tx(wallet, c, abi, 'claimTo', [eoa]), 'claimTo');
    expect(await vm.balanceOf(eoa)).toBe(6n * ETH);
    expect(await vm.read<bigint>(c, abi, 'claimedBy', [wallet])).toBe(6n * ETH);
    expect((await vm.tx(wallet, c, abi, 'claimTo', [eoa])).revert).toBe('NothingToClaim');
    ok(await vm.tx(bens[1]!, c, abi, 'claim'), 'the other beneficiary');
    expect(await vm.balanceOf(bens[1]!)).toBe(4n * ETH);

    // The NFT: safeTransferFrom to the wallet fails; sent to the EOA instead; nobody else can redirect it.
    expect((await vm.tx(wallet, c, abi, 'claimNft', [0n])).ok).toBe(false);
    expect((await vm.tx(bens[1]!, c, abi, 'claimNftTo', [0n, bens[1]!])).revert).toBe('NotNftRecipient');
    ok(await vm.tx(wallet, c, abi, 'claimNftTo', [0n, eoa]), 'claimNftTo');
    expect((await vm.read<Hex>(NFT, fx.erc721.abi, 'ownerOf', [1n])).toLowerCase()).toBe(eoa.toLowerCase());
  });

  it('a rebasing token that loses 10% after the first claim still pays every beneficiary, pro rata, the last one the remainder', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs({ tokens: [T1] }), { t1: rebasing });
    const minted = 1_000_000n * ETH;
    ok(await vm.tx(stranger, T1, rebasing.abi, 'mint', [c, minted]), 'mint');
    vm.warp(36n * DAY);
    const bal = (a: Hex) => vm.read<bigint>(T1, rebasing.abi, 'balanceOf', [a]);

    ok(await vm.tx(bens[0]!, c, abi, 'claimToken', [T1]), 'first claim');
    const first = await bal(bens[0]!);
    expect(first).toBe((minted * 3334n) / 10_000n);
    // The token rebases: every holder loses 10%, the contract too (the first claimant as well).
    ok(await vm.tx(stranger, T1, rebasing.abi, 'rebase', [9n, 10n]), 'rebase');
    const held = await bal(c);
    // The recorded dues (33.33% of the original total each) are now more than the contract holds.
    expect(held < 2n * ((minted * 3333n) / 10_000n)).toBe(true);
    const close = (a: bigint, b: bigint, units = 2n) =>
      expect(a - b <= units && b - a <= units, `${a} ≈ ${b}`).toBe(true);
    close(await vm.read<bigint>(c, abi, 'claimableToken', [T1, bens[1]!]), held / 2n);

    ok(await vm.tx(bens[1]!, c, abi, 'claimToken', [T1]), 'second claim');
    ok(await vm.tx(bens[2]!, c, abi, 'claimToken', [T1]), 'last claim');
    const second = await bal(bens[1]!);
    const third = await bal(bens[2]!);
    // Equal shares of what was held (the loss is shared pro rata); the last one gets what is left, up to rounding dust.
    close(second, held / 2n);
    close(third, held - second);
    expect(await bal(c)).toBeLessThanOrEqual(BigInt(bens.length));
    for (const b of bens) expect((await vm.tx(b, c, abi, 'claimToken', [T1])).revert).toBe('NothingToClaim');

    // Later deposits are shared again by the plan's shares, the first claimant included.
    const late = 30_000_000n;
    const before = await Promise.all(bens.map(bal));
    ok(await vm.tx(stranger, T1, rebasing.abi, 'mint', [c, late]), 'late deposit');
    for (const b of bens) ok(await vm.tx(b, c, abi, 'claimToken', [T1]), 'claim of the late deposit');
    const after = await Promise.all(bens.map(bal));
    [3334n, 3333n, 3333n].forEach((share, i) => close(after[i]! - before[i]!, (late * share) / 10_000n, 3n));
  });

  it('every owner action is proof of life: deposit, update, withdraw, rescue, NFT assignment reset the timer', async () => {
    const { vm, abi, c } = await deploy(FULL, inputs(), { value: ETH });
    const interval = 30n * DAY;
    const actions: Array<[string, () => Promise<TxResult>]> = [
      ['deposit', () => vm.send(owner, c, '0x', 1n, abi)],
      [
        'updateBeneficiaries',
        () =>
          vm.tx(owner, c, abi, 'updateBeneficiaries', [
            [bens[1]!, bens[0]!],
            [5000, 5000],
          ]),
      ],
      ['withdraw', () => vm.tx(owner, c, abi, 'withdraw', [1n])],
      [
        'rescueToken',
        async () => {
          await vm.tx(stranger, OTHER_TOKEN, fx.erc20.abi, 'mint', [c, 5n]);
          return vm.tx(owner, c, abi, 'rescueToken', [OTHER_TOKEN]);
        },
      ],
      [
        'rescueNft',
        async () => {
          await vm.tx(stranger, OTHER_NFT, fx.erc721.abi, 'mint', [c, 9n]);
          return vm.tx(owner, c, abi, 'rescueNft', [OTHER_NFT, 9n]);
        },
      ],
      ['assignNft', () => vm.tx(owner, c, abi, 'assignNft', [0n, bens[1]!])],
    ];
    for (const [name, act] of actions) {
      vm.warp(29n * DAY); // one day before the deadline
      ok(await act(), name);
      expect(await vm.read<bigint>(c, abi, 'lastCheckIn'), name).toBe(vm.timestamp);
      expect(await vm.read<bigint>(c, abi, 'deadline'), name).toBe(vm.timestamp + interval);
    }
    // Six actions, each one day before its deadline: far beyond the first deadline, and still not released.
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    // An owner action clears pending guardian votes, as a check-in does.
    ok(await vm.tx(guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.send(owner, c, '0x', 1n, abi), 'owner deposit');
    expect(await vm.read<bigint>(c, abi, 'releaseConfirmations')).toBe(0n);
    // Someone else's deposit proves nothing.
    const last = await vm.read<bigint>(c, abi, 'lastCheckIn');
    vm.warp(DAY);
    ok(await vm.send(stranger, c, '0x', 1n, abi), 'stranger deposit');
    expect(await vm.read<bigint>(c, abi, 'lastCheckIn')).toBe(last);
  });
});
