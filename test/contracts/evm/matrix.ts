import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDeployData, type Abi, type Hex } from 'viem';
import { contractName, contractSource } from '../../../src/contracts/evm/contract.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import { allShapes, shapeKey, type EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import type { TemplateType } from '../../../src/law/templates.js';
import { address, compileFixtures, testSolcPool, unevenShares, type Fixtures } from './fixtures.js';

const DAY = 86_400n;
const ETH = 10n ** 18n;
export const COUNTS = [1, 2, 10, 50];

function ok(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new Error(`${what} failed: ${r.revert ?? r.error}`);
  return r;
}

function reverts(r: TxResult, error?: string): void {
  expect(r.ok).toBe(false);
  if (error) expect(r.revert).toBe(error);
}

const due = (total: bigint, share: number) => (total * BigInt(share)) / 10_000n;

/**
 * The executed scenario every shape × beneficiary count passes. Beneficiary 0
 * is a contract that rejects ETH (n ≥ 2), beneficiary 1 a contract that
 * re-enters claim() from its receive() (n ≥ 10).
 */
export async function fullScenario(
  shape: EvmShape,
  compiled: SolcCompileOutput,
  fx: Fixtures,
  n: number,
): Promise<void> {
  const vm = await EvmSandbox.create();
  const abi = compiled.abi as Abi;
  const owner = address(0x0a, 1);
  const stranger = address(0x0b, 1);
  const funder = address(0x0c, 1);
  const initial = Array.from({ length: n }, (_, i) => address(0xbe, i + 1));
  const inputs: ConstructorInputs = {
    owner,
    beneficiaries: initial,
    shares: unevenShares(n),
    intervalDays: 365,
    graceDays: 30,
    guardians: [address(0x6a, 1), address(0x6a, 2), address(0x6a, 3)],
    threshold: 2,
    tokens: [address(0x70, 1), address(0x70, 2)],
    nfts: [
      { token: address(0x72, 1), tokenId: 7n, recipient: initial[n - 1]! },
      { token: address(0x72, 1), tokenId: 8n, recipient: initial[0]! },
    ],
  };
  if (shape.erc20) for (const t of inputs.tokens) await vm.putCode(t, fx.erc20.runtime);
  if (shape.erc721) await vm.putCode(address(0x72, 1), fx.erc721.runtime);

  const deployData = encodeDeployData({ abi, bytecode: compiled.bytecode, args: constructorArgs(shape, inputs) });
  const dep = ok(await vm.send(owner, undefined, deployData, ETH, abi), 'deploy');
  const c = dep.createdAddress!;
  expect((await vm.read<Hex>(c, abi, 'owner')).toLowerCase()).toBe(owner.toLowerCase());
  expect(await vm.read<string>(c, abi, 'TEMPLATE')).toBe(shape.template);

  // Claims before release revert; a non-owner check-in reverts.
  reverts(await vm.tx(initial[n - 1]!, c, abi, 'claim'), 'NotReleased');
  reverts(await vm.tx(stranger, c, abi, 'checkIn'), 'NotOwner');
  reverts(await vm.tx(stranger, c, abi, 'updateBeneficiaries', [initial, inputs.shares]), 'NotOwner');

  // A check-in moves the deadline.
  vm.warp(100n * DAY);
  ok(await vm.tx(owner, c, abi, 'checkIn'), 'check-in');
  expect(await vm.read<bigint>(c, abi, 'lastCheckIn')).toBe(vm.timestamp);
  if (shape.deadMansSwitch) expect(await vm.read<bigint>(c, abi, 'deadline')).toBe(vm.timestamp + 365n * DAY);

  // An update before the deadline works: new beneficiaries (contracts among them) and new shares.
  const final = Array.from({ length: n }, (_, i) => address(0xbf, i + 1));
  const rejecter = n >= 2 ? final[0]! : undefined;
  const attacker = n >= 10 ? final[1]! : undefined;
  if (rejecter) await vm.putCode(rejecter, fx.rejecter.runtime);
  if (attacker) await vm.putCode(attacker, fx.attacker.runtime);
  const shares = unevenShares(n).reverse();
  reverts(
    await vm.tx(owner, c, abi, 'updateBeneficiaries', [final, shares.map((s, i) => (i === 0 ? s + 1 : s))]),
    'InvalidShares',
  );
  ok(await vm.tx(owner, c, abi, 'updateBeneficiaries', [final, shares]), 'update');
  expect(await vm.read<bigint>(c, abi, 'shareOf', [initial[0]!])).toBe(0n);
  for (const [i, b] of final.entries()) expect(await vm.read<bigint>(c, abi, 'shareOf', [b])).toBe(BigInt(shares[i]!));
  if (shape.erc721) {
    ok(await vm.tx(owner, c, abi, 'assignNft', [0n, final[n - 1]!]), 'assign NFT');
    ok(await vm.tx(owner, c, abi, 'assignNft', [1n, final[n - 1]!]), 'assign NFT');
  }

  // A token the plan does not list, sent by mistake: the owner takes it back while the plan is live (every shape).
  const unlisted = address(0x71, 9);
  await vm.putCode(unlisted, fx.erc20.runtime);
  ok(await vm.tx(funder, unlisted, fx.erc20.abi, 'mint', [c, 321n]), 'unlisted token');
  reverts(await vm.tx(stranger, c, abi, 'rescueToken', [unlisted]), 'NotOwner');
  ok(await vm.tx(owner, c, abi, 'rescueToken', [unlisted]), 'rescue');
  expect(await vm.read<bigint>(unlisted, fx.erc20.abi, 'balanceOf', [owner])).toBe(321n);

  // Funding: ETH (deploy value + deposit), tokens, NFTs.
  ok(await vm.send(funder, c, '0x', 2n * ETH + 12_345n, abi), 'deposit');
  const tokenAmounts = [1_000_000n * ETH + 99n, 12_345_678n];
  if (shape.erc20)
    for (const [i, t] of inputs.tokens.entries())
      ok(await vm.tx(funder, t, fx.erc20.abi, 'mint', [c, tokenAmounts[i]!]), 'mint');
  if (shape.erc721)
    for (const nft of inputs.nfts)
      ok(await vm.tx(funder, nft.token, fx.erc721.abi, 'mint', [c, nft.tokenId]), 'mint NFT');

  // Release.
  if (shape.guardians) {
    reverts(await vm.tx(stranger, c, abi, 'confirmRelease'), 'NotGuardian');
    if (shape.gracePeriod) {
      // A wrong trigger: the deadline passes; during the grace period the guardians veto.
      vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + 1n;
      expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
      reverts(await vm.tx(owner, c, abi, 'updateBeneficiaries', [final, shares]), 'DeadlinePassed');
      ok(await vm.tx(inputs.guardians[0]!, c, abi, 'vetoTrigger'), 'veto');
      reverts(await vm.tx(inputs.guardians[0]!, c, abi, 'vetoTrigger'), 'AlreadyConfirmed');
      ok(await vm.tx(inputs.guardians[2]!, c, abi, 'vetoTrigger'), 'veto');
      expect(await vm.read<bigint>(c, abi, 'deadline')).toBe(vm.timestamp + 365n * DAY);
      reverts(await vm.tx(inputs.guardians[1]!, c, abi, 'vetoTrigger'), 'NotInGracePeriod');
    }
    // The owner's check-in clears a pending confirmation.
    ok(await vm.tx(inputs.guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(owner, c, abi, 'checkIn'), 'check-in');
    expect(await vm.read<bigint>(c, abi, 'releaseConfirmations')).toBe(0n);
    ok(await vm.tx(inputs.guardians[1]!, c, abi, 'confirmRelease'), 'confirm');
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    ok(await vm.tx(inputs.guardians[2]!, c, abi, 'confirmRelease'), 'confirm');
    // The quorum proposed; the release waits for the owner's silence.
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    vm.timestamp = await vm.read<bigint>(c, abi, 'guardianReleaseTime');
  } else if (shape.deadMansSwitch) {
    if (shape.gracePeriod) {
      vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + 1n;
      expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
      reverts(await vm.tx(final[n - 1]!, c, abi, 'claim'), 'NotReleased');
      ok(await vm.tx(owner, c, abi, 'checkIn'), 'check-in during the grace period');
    }
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) - 1n;
    reverts(await vm.tx(final[n - 1]!, c, abi, 'claim'), 'NotReleased');
    vm.timestamp = await vm.read<bigint>(c, abi, 'releaseTime');
  } else {
    reverts(await vm.tx(stranger, c, abi, 'release'), 'NotOwner');
    ok(await vm.tx(owner, c, abi, 'release'), 'release');
  }
  expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);

  // After release the owner can no longer update, withdraw or cancel.
  reverts(await vm.tx(owner, c, abi, 'updateBeneficiaries', [final, shares]));
  reverts(await vm.tx(owner, c, abi, 'withdraw', [1n]));
  reverts(await vm.tx(owner, c, abi, 'cancel'));

  const paid = new Map<Hex, bigint>();
  const claim = async (b: Hex) => {
    const before = await vm.balanceOf(b);
    const r =
      b === attacker ? await vm.tx(stranger, b, fx.attacker.abi, 'attack', [c]) : await vm.tx(b, c, abi, 'claim');
    paid.set(b, (paid.get(b) ?? 0n) + (await vm.balanceOf(b)) - before);
    return r;
  };

  // First round: everyone claims; the rejecting contract fails alone.
  for (const b of final) {
    const r = await claim(b);
    if (b === rejecter) reverts(r, 'TransferFailed');
    else ok(r, 'claim');
  }
  if (attacker) {
    expect(await vm.read<boolean>(attacker, fx.attacker.abi, 'reentered')).toBe(false);
    expect(await vm.read<bigint>(attacker, fx.attacker.abi, 'blocked')).toBe(1n);
  }
  // A double claim pays nothing.
  const last = final[n - 1]!;
  const before = await vm.balanceOf(last);
  reverts(await vm.tx(last, c, abi, 'claim'), 'NothingToClaim');
  expect(await vm.balanceOf(last)).toBe(before);

  // A late deposit is shared too.
  const lateDeposit = ETH / 3n;
  ok(await vm.send(funder, c, '0x', lateDeposit, abi), 'late deposit');
  const total = ETH + 2n * ETH + 12_345n + lateDeposit;
  expect(await vm.read<bigint>(c, abi, 'totalReceived')).toBe(total);
  for (const b of final) if (b !== rejecter) ok(await claim(b), 'second claim');
  for (const [i, b] of final.entries()) {
    expect(paid.get(b)).toBe(b === rejecter ? 0n : due(total, shares[i]!));
  }
  expect(await vm.read<bigint>(c, abi, 'claimable', [last])).toBe(0n);
  const remaining = await vm.balanceOf(c);
  const rejecterDue = rejecter ? due(total, shares[0]!) : 0n;
  expect(remaining - rejecterDue >= 0n && remaining - rejecterDue <= BigInt(n)).toBe(true);
  if (rejecter) {
    expect(await vm.read<bigint>(c, abi, 'claimable', [rejecter])).toBe(rejecterDue);
    // The contract that cannot receive ETH has its share sent to another address.
    const before = await vm.balanceOf(stranger);
    ok(await vm.tx(rejecter, c, abi, 'claimTo', [stranger]), 'claimTo');
    expect((await vm.balanceOf(stranger)) - before).toBe(rejecterDue);
    expect(await vm.read<bigint>(c, abi, 'claimable', [rejecter])).toBe(0n);
  }

  if (shape.erc20) {
    for (const [k, t] of inputs.tokens.entries()) {
      reverts(await vm.tx(stranger, c, abi, 'claimToken', [t]), 'NothingToClaim');
      for (const [i, b] of final.entries()) {
        const expected = due(tokenAmounts[k]!, shares[i]!);
        if (expected === 0n) continue;
        ok(await vm.tx(b, c, abi, 'claimToken', [t]), 'token claim');
        expect(await vm.read<bigint>(t, fx.erc20.abi, 'balanceOf', [b])).toBe(expected);
      }
      const left = await vm.read<bigint>(t, fx.erc20.abi, 'balanceOf', [c]);
      expect(left <= BigInt(n)).toBe(true);
      // Every share has claimed: the rounding dust left starts a new round for all shares; usually too little to pay.
      const again = due(left, shares[n - 1]!);
      if (again === 0n) reverts(await vm.tx(last, c, abi, 'claimToken', [t]), 'NothingToClaim');
      else ok(await vm.tx(last, c, abi, 'claimToken', [t]), 'claim of the dust');
    }
  }
  // A token arriving after the deadline (an airdrop) is not locked, in every shape: the heirs claim it by their shares.
  reverts(await vm.tx(last, c, abi, 'claimToken', [unlisted]), 'NothingToClaim');
  ok(await vm.tx(funder, unlisted, fx.erc20.abi, 'mint', [c, 1_000_000n]), 'airdrop');
  reverts(await vm.tx(owner, c, abi, 'rescueToken', [unlisted]), 'AlreadyReleased');
  const airdropBefore = await vm.read<bigint>(unlisted, fx.erc20.abi, 'balanceOf', [last]);
  ok(await vm.tx(last, c, abi, 'claimToken', [unlisted]), 'airdrop claim');
  expect((await vm.read<bigint>(unlisted, fx.erc20.abi, 'balanceOf', [last])) - airdropBefore).toBe(
    due(1_000_000n, shares[n - 1]!),
  );
  if (shape.erc721) {
    if (n > 1) reverts(await vm.tx(final[0]!, c, abi, 'claimNft', [0n]), 'NotNftRecipient');
    for (const [i, nft] of inputs.nfts.entries()) {
      ok(await vm.tx(last, c, abi, 'claimNft', [BigInt(i)]), 'NFT claim');
      expect((await vm.read<Hex>(nft.token, fx.erc721.abi, 'ownerOf', [nft.tokenId])).toLowerCase()).toBe(
        last.toLowerCase(),
      );
    }
    reverts(await vm.tx(last, c, abi, 'claimNft', [0n]), 'NothingToClaim');
  }
}

/** The template whose every shape is compiled and run; the others are shown to differ from it only in their labels. */
export const REFERENCE_TEMPLATE: TemplateType = 'common-law';

/** The shapes of one template, or the `part`-th of `parts` slices of them (so several files share the list). */
export function shapesOf(template: TemplateType, part = 0, parts = 1): EvmShape[] {
  return allShapes()
    .filter((s) => s.template === template)
    .filter((_, i) => i % parts === part);
}

/** Compiles each of the given shapes once (one solc pool for the file) and runs the scenario for every count. */
export function defineMatrix(label: string, shapes: EvmShape[]): void {
  describe.concurrent(`EVM matrix: ${label}`, () => {
    let pool: SolcPool;
    let fx: Fixtures;
    const compiled = new Map<string, Promise<SolcCompileOutput>>();
    beforeAll(async () => {
      pool = testSolcPool();
      fx = await compileFixtures(pool);
      for (const s of shapes) {
        const p = pool.compile(contractSource(s), { contractName: contractName(s) });
        p.catch(() => undefined);
        compiled.set(shapeKey(s), p);
      }
    });
    afterAll(async () => {
      await pool?.close();
    });
    it('has shapes to run', () => {
      expect(shapes.length).toBeGreaterThan(0);
    });
    for (const shape of shapes) {
      it(`${shapeKey(shape)}: compiles with zero warnings and passes the scenario for ${COUNTS.join(', ')} beneficiaries`, async () => {
        const out = await compiled.get(shapeKey(shape))!;
        expect(out.warnings).toEqual([]);
        for (const n of COUNTS) await fullScenario(shape, out, fx, n);
      }, 120_000);
    }
  });
}
