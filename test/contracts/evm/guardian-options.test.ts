import { decodeDeployData, encodeDeployData, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractName, contractSource } from '../../../src/contracts/evm/contract.js';
import { generateEvm } from '../../../src/contracts/evm/generate.js';
import type { SolcCompileOutput, SolcPool } from '../../../src/contracts/evm/pool.js';
import { constructorArgs, type ConstructorInputs } from '../../../src/contracts/evm/inputs.js';
import type { EvmShape } from '../../../src/contracts/evm/shape.js';
import { EvmSandbox, type TxResult } from '../../../src/contracts/evm/vm.js';
import { GuardiansSchema, type Plan } from '../../../src/contracts/plan.js';
import { address, testSolcPool } from './fixtures.js';

/**
 * The guardian wait and the veto bound are plan options, fixed at deployment within bounds the contract checks.
 * Executed in the VM with values other than the defaults (30 days, 2 vetoes).
 */

const GUARDED: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  erc20: false,
  erc721: false,
};
const NO_GRACE: EvmShape = { ...GUARDED, gracePeriod: false };
const DAY = 86_400n;
const ETH = 10n ** 18n;
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

describe.concurrent('EVM guardian wait and veto bound from the plan', () => {
  let pool: SolcPool;
  const compiled = new Map<EvmShape, SolcCompileOutput>();
  beforeAll(async () => {
    pool = testSolcPool({ size: 2 });
    const [a, b] = await Promise.all(
      [GUARDED, NO_GRACE].map((s) => pool.compile(contractSource(s), { contractName: contractName(s) })),
    );
    compiled.set(GUARDED, a!);
    compiled.set(NO_GRACE, b!);
  }, 180_000);
  afterAll(async () => {
    await pool.close();
  });

  async function deploy(shape: EvmShape, inp: ConstructorInputs) {
    const vm = await EvmSandbox.create();
    const out = compiled.get(shape)!;
    const abi = out.abi as Abi;
    const data = encodeDeployData({ abi, bytecode: out.bytecode, args: constructorArgs(shape, inp) });
    const r = await vm.send(owner, undefined, data, ETH, abi);
    return { vm, abi, r, c: r.createdAddress as Hex };
  }

  it('a 10-day wait: the quorum releases after 10 days of silence, not 30', async () => {
    const { vm, abi, c } = await deploy(GUARDED, inputs({ guardianWaitDays: 10, maxVetoes: 4 }));
    expect(await vm.read<bigint>(c, abi, 'guardianWait')).toBe(10n * DAY);
    vm.warp(5n * DAY);
    ok(await vm.tx(guardians[0]!, c, abi, 'confirmRelease'), 'confirm');
    ok(await vm.tx(guardians[1]!, c, abi, 'confirmRelease'), 'confirm');
    const at = await vm.read<bigint>(c, abi, 'guardianReleaseTime');
    expect(at).toBe(vm.timestamp + 10n * DAY);
    vm.timestamp = at - 1n;
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(false);
    vm.timestamp = at;
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);
    ok(await vm.tx(bens[0]!, c, abi, 'claim'), 'claim');
  });

  it('a bound of 4 vetoes: four postpone the release, the fifth is refused and the release proceeds', async () => {
    const { vm, abi, c } = await deploy(GUARDED, inputs({ guardianWaitDays: 10, maxVetoes: 4 }));
    expect(await vm.read<bigint>(c, abi, 'maxVetoes')).toBe(4n);
    for (let k = 0; k < 4; k++) {
      vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
      ok(await vm.tx(guardians[0]!, c, abi, 'vetoTrigger'), `veto ${k}`);
      ok(await vm.tx(guardians[1]!, c, abi, 'vetoTrigger'), `veto ${k}`);
      expect(await vm.read<bigint>(c, abi, 'vetoesLeft')).toBe(BigInt(3 - k));
    }
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
    expect((await vm.tx(guardians[0]!, c, abi, 'vetoTrigger')).revert).toBe('VetoLimitReached');
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + 30n * DAY;
    expect(await vm.read<boolean>(c, abi, 'isReleased')).toBe(true);
  });

  it('a bound of 0 vetoes refuses every veto', async () => {
    const { vm, abi, c } = await deploy(GUARDED, inputs({ maxVetoes: 0 }));
    vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + DAY;
    expect((await vm.tx(guardians[0]!, c, abi, 'vetoTrigger')).revert).toBe('VetoLimitReached');
    expect(await vm.read<bigint>(c, abi, 'guardianWait')).toBe(30n * DAY);
  });

  it('the contract refuses a wait or a veto bound out of bounds', async () => {
    for (const [over, error] of [
      [{ guardianWaitDays: 6 }, 'InvalidGuardianWait'],
      [{ guardianWaitDays: 366 }, 'InvalidGuardianWait'],
      [{ maxVetoes: 11 }, 'InvalidVetoLimit'],
    ] as const) {
      const { r } = await deploy(GUARDED, inputs(over));
      expect(r.ok, JSON.stringify(over)).toBe(false);
      expect(r.revert).toBe(error);
    }
    // without a grace period there is no veto, and no veto bound argument
    const { vm, abi, c } = await deploy(NO_GRACE, inputs({ guardianWaitDays: 7 }));
    expect(await vm.read<bigint>(c, abi, 'guardianWait')).toBe(7n * DAY);
    expect(abi.some((x) => x.type === 'function' && x.name === 'maxVetoes')).toBe(false);
  });

  it('generate takes the options from the plan, deploys with them and explains them in the advice', async () => {
    const plan = {
      blockchain: 'evm',
      ownerAddress: owner,
      inheritanceTemplate: 'custom',
      beneficiaries: bens.map((a, i) => ({ name: `B${i}`, address: a, percentage: 50 })),
      deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 30 },
      guardians: { addresses: guardians, threshold: 2, waitDays: 14, maxVetoes: 1 },
    } as Plan;
    const g = await generateEvm(plan, { pool });
    const { args } = decodeDeployData({ abi: g.abi as Abi, bytecode: g.bytecode, data: g.deployData as Hex });
    const ctor = (g.abi as Abi).find((x) => x.type === 'constructor')!;
    const names = 'inputs' in ctor ? ctor.inputs.map((p) => p.name) : [];
    expect(args?.[names.indexOf('guardianRules_')]).toEqual([2n, 14n, 1n]);
    const w = g.analysis.warnings.find((x) => x.id === 'guardian-threshold');
    expect(w?.message).toContain('after 14 days');
    expect(w?.message).toContain('during the grace period, once after');
    expect(w?.message).toContain('the wait to 14 days instead of 30 and the veto bound to 1 instead of 2');
    expect(g.analysis.suggestions.join(' ')).toContain('a 14-day wait');
  });

  it('the plan bounds the options and names the field', () => {
    const base = { addresses: guardians, threshold: 2 };
    expect(GuardiansSchema.safeParse(base).success).toBe(true);
    for (const [over, field] of [
      [{ waitDays: 6 }, 'waitDays'],
      [{ waitDays: 366 }, 'waitDays'],
      [{ waitDays: 7.5 }, 'waitDays'],
      [{ maxVetoes: -1 }, 'maxVetoes'],
      [{ maxVetoes: 11 }, 'maxVetoes'],
    ] as const) {
      const r = GuardiansSchema.safeParse({ ...base, ...over });
      expect(r.success, JSON.stringify(over)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual([field]);
    }
  });
});
