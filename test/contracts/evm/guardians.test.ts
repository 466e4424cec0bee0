import { encodeDeployData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource, GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../../../src/contracts/evm/contract.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import { planFindings } from '../../../src/contracts/evm/analysis.js';
import type { Plan } from '../../../src/contracts/plan.js';
import { address, testSolcPool } from './fixtures.js';

/**
 * Guardians confirm an owner's absence; they never overrule a living owner. Executed in the VM with signed
 * transactions: a quorum's early release waits GUARDIAN_WAIT_DAYS of the owner's silence and any owner action
 * cancels it; a quorum's vetoes postpone a release at most MAX_VETOES times after the owner's last sign of life.
 */

const GUARDED: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  erc20: false,
  erc721: false,
};
const NO_SWITCH: EvmShape = {
  template: 'custom',
  deadMansSwitch: false,
  gracePeriod: false,
  guardians: true,
  erc20: false,
  erc721: false,
};
const ETH = 10n ** 18n;
const DAY = 86_400n;
const WAIT = BigInt(GUARDIAN_WAIT_DAYS) * DAY;

const owner = address(0x0a, 1);
const bens = [address(0xbe, 1), address(0xbe, 2)];
const guardians = [address(0x6a, 1), address(0x6a, 2), address(0x6a, 3)];

const inputs = (over: Partial<ConstructorInputs> = {}): ConstructorInputs => ({
  owner,
  beneficiaries: bens,
  shares: [5000, 5000],
  intervalDays: 365,
  graceDays: 30,
  guardians,
  threshold: 2,
  tokens: [],
  nfts: [],
  ...over,
});

function ok(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new Error(`${what} failed: ${r.revert ?? r.error}`);
  return r;
}

describe.concurrent('EVM guardians cannot overrule a living owner', () => {
  let pool: SolcPool;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [a, b] = await Promise.all([
      pool.compile(contractSource(GUARDED), { contractName: contractName(GUARDED) }),
      pool.compile(contractSource(NO_SWITCH), { contractName: contractName(NO_SWITCH) }),
    ]);
    compiled.set(GUARDED, a);
    compiled.set(NO_SWITCH, b);
  }, 180_000);
  afterAll(async () => {
    await pool.close();
  });

  async function deploy(shape: EvmShape, inp = inputs()) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = ok(await vm.send(owner, undefined, data, ETH, abi), 'deploy');
    return { vm, abi, c: r.createdAddress as Hex };
  }

  it("a quorum's release a day after a check-in waits for the owner's silence; the owner's next action cancels it", async () => {
    const { vm, abi, c } = await deploy(GUARDED);
    vm.warp(100n * DAY);
    ok(await vm.tx(owner, c, abi, 'checkIn'), 'check-in');
    vm.warp(DAY);
    ok(await vm.tx(guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(guardians[1]!, c, abi, 'confirmRelease'), 'confirm');
    // The quorum is reached, yet nothing is released: the owner has GUARDIAN_WAIT to answer.
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    expect(await vm.read<bigint>(c, abi, 'guardianReleaseTime')).toBe(vm.timestamp + WAIT);
    expect((await vm.tx(bens[0]!, c, abi, 'claim')).revert).toBe('NotReleased');
    vm.warp(WAIT - DAY);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    // The owner is alive: a plain deposit (any owner action) cancels the proposal.
    ok(await vm.send(owner, c, '0x', 1n, abi), 'owner deposit');
    expect(await vm.read<bigint>(c, abi, 'guardianReleaseTime')).toBe(0n);
    expect(await vm.read<bigint>(c, abi, 'releaseConfirmations')).toBe(0n);
    vm.warp(2n * WAIT);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    expect((await vm.tx(bens[0]!, c, abi, 'claim')).revert).toBe('NotReleased');
    // The owner still controls the plan.
    ok(await vm.tx(owner, c, abi, 'updateBeneficiaries', [[bens[1]!], [10_000]]), 'update');
  });

  it("with the owner silent for GUARDIAN_WAIT after the quorum, the estate is released and the owner's late check-in fails", async () => {
    const { vm, abi, c } = await deploy(GUARDED);
    vm.warp(10n * DAY);
    ok(await vm.tx(guardians[2]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    const at = await vm.read<bigint>(c, abi, 'guardianReleaseTime');
    vm.timestamp = at - 1n;
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    vm.timestamp = at;
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);
    // A third confirmation after the release changes nothing.
    expect((await vm.tx(guardians[1]!, c, abi, 'confirmRelease')).revert).toBe('AlreadyReleased');
    expect((await vm.tx(owner, c, abi, 'checkIn')).revert).toBe('AlreadyReleased');
    ok(await vm.tx(bens[0]!, c, abi, 'claim'), 'claim');
    expect(await vm.read<bigint>(c, abi, 'claimedBy', [bens[0]!])).toBe(ETH / 2n);
  });

  it('a quorum vetoes at most MAX_VETOES times after the owner is gone; then the release proceeds for the heirs', async () => {
    const { vm, abi, c } = await deploy(GUARDED);
    for (let k = 0; k < MAX_VETOES; k++) {
      vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
      ok(await vm.tx(guardians[0]!, c, abi, 'vetoTrigger'), `veto ${k}`);
      ok(await vm.tx(guardians[1]!, c, abi, 'vetoTrigger'), `veto ${k}`);
      expect(await vm.read<bigint>(c, abi, 'deadline')).toBe(vm.timestamp + 365n * DAY);
    }
    expect(await vm.read<bigint>(c, abi, 'vetoesLeft')).toBe(0n);
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
    expect((await vm.tx(guardians[0]!, c, abi, 'vetoTrigger')).revert).toBe('VetoLimitReached');
    expect((await vm.tx(guardians[1]!, c, abi, 'vetoTrigger')).revert).toBe('VetoLimitReached');
    vm.timestamp = await vm.read<bigint>(c, abi, 'releaseTime');
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);
    ok(await vm.tx(bens[1]!, c, abi, 'claim'), 'claim');
    // Thirty years of vetoes are not possible: the release stays.
    vm.warp(30n * 365n * DAY);
    expect((await vm.tx(guardians[0]!, c, abi, 'vetoTrigger')).revert).toBe('AlreadyReleased');
  });

  it("the owner's sign of life gives the guardians their vetoes back (a veto is for a living owner's wrong trigger)", async () => {
    const { vm, abi, c } = await deploy(GUARDED);
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
    ok(await vm.tx(guardians[0]!, c, abi, 'vetoTrigger'), 'veto');
    ok(await vm.tx(guardians[2]!, c, abi, 'vetoTrigger'), 'veto');
    expect(await vm.read<bigint>(c, abi, 'vetoesLeft')).toBe(BigInt(MAX_VETOES - 1));
    ok(await vm.tx(owner, c, abi, 'checkIn'), 'check-in');
    expect(await vm.read<bigint>(c, abi, 'vetoesLeft')).toBe(BigInt(MAX_VETOES));
  });

  it("without a switch the guardians also wait for the owner's silence; a withdrawal cancels their release", async () => {
    const { vm, abi, c } = await deploy(NO_SWITCH);
    ok(await vm.tx(guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(guardians[1]!, c, abi, 'confirmRelease'), 'confirm');
    vm.warp(WAIT / 2n);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    ok(await vm.tx(owner, c, abi, 'withdraw', [1n]), 'withdraw');
    vm.warp(WAIT);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    // A new proposal after that, with the owner silent, releases.
    ok(await vm.tx(guardians[1]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(guardians[2]!, c, abi, 'confirmRelease'), 'confirm');
    vm.warp(WAIT);
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);
    ok(await vm.tx(bens[0]!, c, abi, 'claim'), 'claim');
  });

  it('the analysis and advice explain every threshold, not only 1 of n', () => {
    for (const [n, m] of [
      [2, 1],
      [3, 2],
      [3, 3],
      [5, 3],
    ] as const) {
      const inp = inputs({ guardians: Array.from({ length: n }, (_, i) => address(0x6b, i + 1)), threshold: m });
      const { warnings, suggestions } = planFindings({} as Plan, GUARDED, inp, 10_000, {});
      const w = warnings.find((x) => x.id === 'guardian-threshold');
      expect(w?.message).toContain(`${m} of ${n} guardians can propose an early release`);
      expect(w?.message).toContain(`${GUARDIAN_WAIT_DAYS} days`);
      expect(w?.message).toContain(`${n - m + 1 > 1 ? `${n - m + 1} guardians refusing` : 'One guardian refusing'}`);
      expect(w?.message).toContain(`at most ${MAX_VETOES} times`);
      expect(suggestions.some((x) => x.includes('confirmRelease() only starts'))).toBe(true);
    }
  });
});
