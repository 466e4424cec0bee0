import type { Abi, AbiParameter, Hex } from 'viem';
import { encodeDeployData, formatEther, parseGwei } from 'viem/utils';
import { ApiError } from '../../core/errors.js';
import { contractName, contractSource, GUARDIAN_WAIT_DAYS, MAX_BENEFICIARIES, MAX_VETOES } from './contract.js';
import type { SolcPool } from './pool.js';
import type { EvmShape } from './shape.js';
import { constructorArgs, evenShares, growCount, planInputs, shrinkCount } from './inputs.js';
import { shapeOf } from './shape.js';
import type { Plan } from '../plan.js';
import { VM_HARDFORK } from './hardfork.js';
import { EvmSandbox } from './vm.js';
import {
  addressArrayLength,
  constructorCallIn,
  PLAN_COUNT_TAG,
  tagBeneficiaryCount,
  taggedBeneficiaryCount,
} from './code-count.js';

/** Gas price used when the caller gives none (configurable by the caller through `deps.gasPriceGwei`). */
export const DEFAULT_GAS_PRICE_GWEI = 20;

/** The contract measured when no `contractCode` is given: custom template, dead man's switch of 365 days, ETH only. */
export const DEFAULT_GAS_SHAPE: EvmShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: false,
  guardians: false,
  erc20: false,
  erc721: false,
};

export interface EvmGasEstimate {
  deployment: string;
  claim: string;
  update: string;
  currency: string;
  gasPriceGwei: number;
  method: string;
  figures: Record<string, number | null>;
}

const SAMPLE_OWNER = '0x1000000000000000000000000000000000000001' as Hex;
/** Beneficiaries assumed when neither the constructor nor the caller gives their number. */
export const DEFAULT_SAMPLE_BENEFICIARIES = 3;
/** `count` sample beneficiaries, from `base` upwards (0x2000…0002, 0x2000…0003, …). */
const sampleList = (base: bigint, count: number): Hex[] =>
  Array.from({ length: count }, (_, i) => `0x${(base + BigInt(i)).toString(16).padStart(40, '0')}` as Hex);
const SAMPLE_BASE = 0x2000000000000000000000000000000000000002n;
/** The beneficiaries an update installs: new addresses, so the measured update writes cold, empty slots as a real one does. */
const SAMPLE_NEW_BASE = 0x2100000000000000000000000000000000000012n;
const SAMPLE_GUARDIANS = [
  '0x3000000000000000000000000000000000000005',
  '0x3000000000000000000000000000000000000006',
] as Hex[];
const SAMPLE_OTHER = '0x4000000000000000000000000000000000000007' as Hex;
const DAY = 86_400n;

/** The longest fixed-size array parameter filled with samples. */
const MAX_FIXED_LENGTH = 256;

const isBeneficiaryList = (name: string) => !/guardian|token|nft|asset/.test(name);
const fixedLength = (t: string, elem: RegExp): number | undefined => {
  const m = /^(.+)\[(\d+)\]$/.exec(t);
  if (!m || !elem.test(m[1]!)) return undefined;
  const k = Number(m[2]);
  if (k > MAX_FIXED_LENGTH)
    throw ApiError.validation('Cannot pick sample constructor arguments for this contract', [
      {
        field: 'contractCode',
        reason: `constructor parameter of type ${t}: at most ${MAX_FIXED_LENGTH} elements are filled`,
      },
    ]);
  return k;
};

/**
 * The number of beneficiaries the constructor itself fixes: the length of a
 * fixed-size `address[K]` parameter that is not a guardian or token list.
 * Undefined when the list is dynamic (the count is then a deployment choice).
 */
export function constructorBeneficiaryCount(inputs: readonly AbiParameter[]): number | undefined {
  for (const p of inputs) {
    const k = fixedLength(p.type, /^address$/);
    if (k !== undefined && isBeneficiaryList((p.name ?? '').toLowerCase())) return k;
  }
  return undefined;
}

/**
 * Sample constructor arguments, chosen by parameter type and name (owner,
 * beneficiaries, shares, interval...), for `count` beneficiaries with even
 * shares (a fixed-size array takes its own length).
 */
export function sampleArgs(inputs: readonly AbiParameter[], count = DEFAULT_SAMPLE_BENEFICIARIES): unknown[] {
  let sawAddress = false;
  return inputs.map((p) => {
    const name = (p.name ?? '').toLowerCase();
    const t = p.type;
    if (t === 'address') {
      const first = !sawAddress;
      sawAddress = true;
      return /owner/.test(name) || (first && !/token|guardian/.test(name)) ? SAMPLE_OWNER : SAMPLE_OTHER;
    }
    if (t === 'address[]') {
      if (/guardian/.test(name)) return SAMPLE_GUARDIANS;
      if (/token|nft|asset/.test(name)) return [];
      return sampleList(SAMPLE_BASE, count);
    }
    const fixedAddr = fixedLength(t, /^address$/);
    if (fixedAddr !== undefined)
      return sampleList(isBeneficiaryList(name) ? SAMPLE_BASE : 0x4100000000000000000000000000000000000001n, fixedAddr);
    const fixedUint = fixedLength(t, /^uint\d*$/);
    // the generated contracts' guardian threshold, wait in days and veto bound (1 of n, the defaults)
    if (fixedUint === 3 && /guardian/.test(name)) return [1n, BigInt(GUARDIAN_WAIT_DAYS), BigInt(MAX_VETOES)];
    if (fixedUint !== undefined) {
      const bits = Number(t.replace(/^uint/, '').replace(/\[.*$/, '') || 256);
      return evenShares(fixedUint).map((v) => (bits <= 48 ? v : BigInt(v)));
    }
    if (/^uint\d*\[\]$/.test(t))
      return /nft|id/.test(name) ? [] : t === 'uint256[]' ? evenShares(count).map(BigInt) : evenShares(count);
    if (/^u?int\d*$/.test(t)) {
      const bits = Number(t.replace(/^u?int/, '') || 256);
      const v = /grace/.test(name) ? 30 : /interval|day/.test(name) ? 365 : /threshold|quorum/.test(name) ? 1 : 0;
      return bits <= 48 ? v : BigInt(v);
    }
    if (t === 'bool') return false;
    if (t === 'string') return '';
    if (t === 'bytes') return '0x';
    if (/^bytes\d+$/.test(t)) return `0x${'00'.repeat(Number(t.slice(5)))}`;
    if (t.endsWith('[]')) return [];
    throw ApiError.validation('Cannot pick sample constructor arguments for this contract', [
      { field: 'contractCode', reason: `constructor parameter ${p.name || '?'} of type ${t}` },
    ]);
  });
}

/**
 * The gas price in wei, exactly. Prices are stated to the wei: below 1e-9 gwei
 * (one wei), or with a fraction of a wei, is a VALIDATION_ERROR naming the field.
 */
export function gasPriceWei(gasPriceGwei: number): bigint {
  if (!(gasPriceGwei > 0) || !Number.isFinite(gasPriceGwei))
    throw ApiError.validation('Gas price must be positive', [{ field: 'gasPriceGwei', reason: 'must be > 0' }]);
  if (gasPriceGwei > 1e9)
    throw ApiError.validation('Gas price is too high', [
      { field: 'gasPriceGwei', reason: 'at most 1,000,000,000 gwei' },
    ]);
  const fixed = gasPriceGwei.toFixed(9);
  const wei = parseGwei(fixed);
  if (wei === 0n) {
    throw ApiError.validation('Gas price is below one wei', [
      { field: 'gasPriceGwei', reason: `${gasPriceGwei} gwei is below 1e-9 gwei (one wei), the smallest gas price` },
    ]);
  }
  if (Math.abs(Number(fixed) - gasPriceGwei) > gasPriceGwei * 1e-12) {
    throw ApiError.validation('Gas price has a fraction of a wei', [
      {
        field: 'gasPriceGwei',
        reason: `${gasPriceGwei} gwei is not a whole number of wei; use at most 9 decimals (1e-9 gwei is one wei)`,
      },
    ]);
  }
  return wei;
}

const has = (abi: Abi, name: string, inputs?: string[]) =>
  abi.some(
    (x) =>
      x.type === 'function' &&
      x.name === name &&
      (inputs === undefined || (x.inputs.length === inputs.length && x.inputs.every((p, i) => p.type === inputs[i]))),
  );

/** What the gas measurement needs: the compiled contract and how to describe it (structured-cloneable, for a worker thread). */
export interface EvmMeasureInput {
  abi: unknown[];
  bytecode: Hex;
  /** The contract is the caller's, not the default generated one. */
  custom: boolean;
  gasPriceGwei: number;
  /** Beneficiaries the contract is deployed with, when the caller states it (a fixed-size constructor list takes precedence). */
  beneficiaries?: number;
  /** Beneficiaries read from a constructor call in the code (a deploy script or factory); before `beneficiaries`. */
  codeBeneficiaries?: { count: number; contract: string };
  /** Beneficiaries of the plan the code was generated for (its `@custom:svc-beneficiaries` tag); after `beneficiaries`. */
  taggedBeneficiaries?: number;
  /** A plan's own constructor arguments, owner and beneficiaries: deployed, updated and claimed with instead of samples. */
  plan?: PlanDeployment;
}

/** What a plan deploys its contract with (structured-cloneable). */
export interface PlanDeployment {
  owner: Hex;
  args: unknown[];
  beneficiaries: Hex[];
  shares: number[];
}

/**
 * The beneficiary count a constructor call in the code gives (`new C(owner, heirs, ...)` with `heirs` an array
 * literal or a local array of stated length), for the constructor `inputs` of C; undefined when the code does not say.
 */
export function beneficiariesInCode(
  source: string,
  call: { contract: string; args: string[] },
  inputs: readonly AbiParameter[],
): number | undefined {
  if (call.args.length !== inputs.length) return undefined;
  const at = inputs.findIndex((p) => p.type === 'address[]' && isBeneficiaryList((p.name ?? '').toLowerCase()));
  if (at < 0) return undefined;
  const k = addressArrayLength(source, call.args[at]!);
  return k !== undefined && k >= 1 && k <= MAX_FIXED_LENGTH ? k : undefined;
}

/**
 * Measures gas by executing the contract: deployment always; `update` and
 * `claim` when the contract has `updateBeneficiaries(address[],uint16[])`
 * and `claim()`. Without `contractCode`, the default generated contract is
 * measured. Costs in ETH use a stated gas price; no network is asked. The
 * compile runs in the solc pool; the execution in `deps.measure` (a worker
 * thread, see the engine) or, without it, here.
 */
export async function estimateEvmGas(
  input: { contractCode?: string; beneficiaries?: number },
  deps: {
    pool: SolcPool;
    gasPriceGwei?: number;
    signal?: AbortSignal | undefined;
    measure?: (m: EvmMeasureInput) => Promise<EvmGasEstimate>;
  },
): Promise<EvmGasEstimate> {
  const gasPriceGwei = deps.gasPriceGwei ?? DEFAULT_GAS_PRICE_GWEI;
  gasPriceWei(gasPriceGwei);
  const n = input.beneficiaries;
  if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= MAX_BENEFICIARIES)) {
    throw ApiError.validation('Invalid number of beneficiaries', [
      { field: 'beneficiaries', reason: `a whole number from 1 to ${MAX_BENEFICIARIES}` },
    ]);
  }
  const custom = input.contractCode !== undefined && input.contractCode.trim() !== '';
  const source = custom ? input.contractCode! : contractSource(DEFAULT_GAS_SHAPE);
  // Code that deploys one of its own contracts (a deploy script, a factory) names the contract to measure, and may
  // state the beneficiaries it deploys it with.
  const call = custom ? constructorCallIn(source) : undefined;
  const compiled = await deps.pool.compile(source, {
    ...(custom
      ? call
        ? { contractName: call.contract }
        : {}
      : { contractName: contractName(DEFAULT_GAS_SHAPE), persist: true }),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const ctor = (compiled.abi as Abi).find((x) => x.type === 'constructor');
  const fromCode = call && beneficiariesInCode(source, call, ctor && 'inputs' in ctor ? ctor.inputs : []);
  const tagged = custom ? taggedBeneficiaryCount(source, MAX_BENEFICIARIES) : undefined;
  const m: EvmMeasureInput = {
    abi: compiled.abi,
    bytecode: compiled.bytecode,
    custom,
    gasPriceGwei,
    ...(n !== undefined ? { beneficiaries: n } : {}),
    ...(call && fromCode !== undefined ? { codeBeneficiaries: { count: fromCode, contract: call.contract } } : {}),
    ...(tagged !== undefined ? { taggedBeneficiaries: tagged } : {}),
  };
  return deps.measure ? deps.measure(m) : measureEvmGas(m);
}

/**
 * Measures a plan's own contract without storing anything: the source generate_contract would return for the plan,
 * built in memory, compiled, and deployed, updated and claimed with the plan's constructor arguments. Returns the
 * figures and the source measured.
 */
export async function estimatePlanEvmGas(
  plan: Plan,
  deps: Omit<Parameters<typeof estimateEvmGas>[1], 'gasPriceGwei'> & { gasPriceGwei?: number | undefined },
): Promise<EvmGasEstimate & { contractCode: string }> {
  const gasPriceGwei = deps.gasPriceGwei ?? DEFAULT_GAS_PRICE_GWEI;
  gasPriceWei(gasPriceGwei);
  const shape = shapeOf(plan);
  const inputs = planInputs(plan);
  const source = contractSource(shape);
  const compiled = await deps.pool.compile(source, {
    contractName: contractName(shape),
    persist: true,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const m: EvmMeasureInput = {
    abi: compiled.abi,
    bytecode: compiled.bytecode,
    custom: true,
    gasPriceGwei,
    plan: {
      owner: inputs.owner,
      args: constructorArgs(shape, inputs),
      beneficiaries: inputs.beneficiaries,
      shares: inputs.shares,
    },
  };
  const e = await (deps.measure ? deps.measure(m) : measureEvmGas(m));
  // The code as generation answers it: tagged with the plan's beneficiary count (the tag leaves the bytecode as is).
  return { ...e, contractCode: tagBeneficiaryCount(source, contractName(shape), inputs.beneficiaries.length) };
}

/** The execution part of `estimateEvmGas`: deploys the compiled contract in @ethereumjs/vm and measures its operations. */
export async function measureEvmGas(compiled: EvmMeasureInput): Promise<EvmGasEstimate> {
  const { custom, gasPriceGwei } = compiled;
  const priceWei = gasPriceWei(gasPriceGwei);
  const abi = compiled.abi as Abi;
  const ctor = abi.find((x) => x.type === 'constructor');
  const ctorInputs = ctor && 'inputs' in ctor ? ctor.inputs : [];
  const figures: Record<string, number | null> = {
    deployment: null,
    claim: null,
    update: null,
    updateGrow: null,
    updateShrink: null,
  };
  const notes: Record<string, string> = {};
  const noteAll = (why: string) => {
    for (const k of Object.keys(figures)) notes[k] = why;
  };
  let fixed: number | undefined;
  let deployData: Hex | undefined;
  try {
    fixed = constructorBeneficiaryCount(ctorInputs);
  } catch {
    // the same refusal is reported by sampleArgs below
  }
  const inCode = compiled.codeBeneficiaries;
  const plan = compiled.plan;
  const n =
    plan?.beneficiaries.length ??
    fixed ??
    inCode?.count ??
    compiled.beneficiaries ??
    compiled.taggedBeneficiaries ??
    DEFAULT_SAMPLE_BENEFICIARIES;
  const countFrom = plan
    ? "the plan's"
    : fixed !== undefined
      ? 'fixed by the constructor'
      : inCode !== undefined
        ? `read from the code's call new ${inCode.contract}(...)`
        : compiled.beneficiaries !== undefined
          ? 'as given'
          : compiled.taggedBeneficiaries !== undefined
            ? `the plan's, read from the code's ${PLAN_COUNT_TAG} tag`
            : 'assumed; pass beneficiaries or a constructor call in the code to measure another number';
  figures['beneficiaries'] = n;
  const beneficiaries = plan?.beneficiaries ?? sampleList(SAMPLE_BASE, n);
  const shares = plan?.shares ?? evenShares(n);
  // The plan's owner deploys and updates its own contract; samples are deployed by a sample owner.
  const owner = plan?.owner ?? SAMPLE_OWNER;
  try {
    deployData = encodeDeployData({ abi, bytecode: compiled.bytecode, args: plan?.args ?? sampleArgs(ctorInputs, n) });
  } catch (e) {
    const reason =
      e instanceof ApiError ? (e.details?.[0]?.reason ?? e.message) : 'constructor arguments could not be encoded';
    noteAll(`no sample constructor arguments: ${reason}`);
  }
  const plural = (k: number) => `${k} ${k === 1 ? 'beneficiary' : 'beneficiaries'}`;
  // (a fixed-size list may be longer than the generated contracts' limit: it is then not grown)
  const grow = Math.max(n, growCount(n));
  const shrink = shrinkCount(n);
  const vm = await EvmSandbox.create();
  const dep = deployData ? await vm.send(owner, undefined, deployData, 0n, abi) : undefined;
  if (!dep) {
    // reasons noted above
  } else if (!dep.ok) {
    noteAll(`deployment reverted with sample constructor arguments (${dep.revert ?? dep.error ?? 'revert'})`);
  } else {
    figures['deployment'] = dep.gasUsed;
    const c = dep.createdAddress!;
    if (has(abi, 'updateBeneficiaries', ['address[]', 'uint16[]'])) {
      // Each update installs addresses never seen (cold, empty slots, as a real update), from the deployed list;
      // the deployed list is set again after each one (not measured).
      const updates: Array<[string, number]> = [
        ['update', n],
        ['updateGrow', grow],
        ['updateShrink', shrink],
      ];
      for (const [key, m] of updates) {
        if (key !== 'update' && m === n) {
          notes[key] =
            key === 'updateGrow' ? `${plural(n)} is the most the contract holds` : 'one beneficiary cannot shrink';
          continue;
        }
        // Later than the last owner action, as a real update comes: its proof of life changes the stored time.
        vm.warp(60n);
        const r = await vm.tx(owner, c, abi, 'updateBeneficiaries', [sampleList(SAMPLE_NEW_BASE, m), evenShares(m)]);
        if (!r.ok) {
          notes[key] = `updateBeneficiaries to ${m} reverted (${r.revert ?? r.error})`;
          continue;
        }
        figures[key] = r.gasUsed;
        const back = await vm.tx(owner, c, abi, 'updateBeneficiaries', [beneficiaries, shares]);
        if (!back.ok) break;
      }
    } else {
      for (const k of ['update', 'updateGrow', 'updateShrink'])
        notes[k] = 'the contract has no updateBeneficiaries(address[],uint16[])';
    }
    const claimants = beneficiaries;
    if (has(abi, 'claim', [])) {
      await vm.send(SAMPLE_OTHER, c, '0x', 10n ** 18n, abi);
      if (has(abi, 'release', [])) await vm.tx(owner, c, abi, 'release');
      else if (has(abi, 'releaseTime', [])) vm.timestamp = (await vm.read<bigint>(c, abi, 'releaseTime')) + 1n;
      else if (has(abi, 'deadline', [])) vm.timestamp = (await vm.read<bigint>(c, abi, 'deadline')) + 1n;
      else vm.warp(3651n * DAY);
      let max = 0;
      let reason = '';
      for (const b of claimants) {
        const r = await vm.tx(b, c, abi, 'claim');
        if (r.ok) max = Math.max(max, r.gasUsed);
        else reason = r.revert ?? r.error ?? 'revert';
      }
      if (max > 0) figures['claim'] = max;
      else notes['claim'] = `claim() reverted for the sample beneficiaries (${reason})`;
    } else notes['claim'] = 'the contract has no claim()';
  }
  const gasText = (k: string) => {
    const g = figures[k];
    if (g === null || g === undefined) return `not measured: ${notes[k] ?? 'unavailable'}`;
    return `${g.toLocaleString('en-US')} gas ≈ ${formatEther(BigInt(g) * priceWei)} ETH at ${gasPriceGwei} gwei`;
  };
  const updateText =
    figures['update'] === null
      ? gasText('update')
      : [
          `${gasText('update')} (${plural(n)} replaced by ${n} new)`,
          ...(figures['updateGrow'] !== null ? [`to ${plural(grow)}: ${gasText('updateGrow')}`] : []),
          ...(figures['updateShrink'] !== null ? [`to ${plural(shrink)}: ${gasText('updateShrink')}`] : []),
        ].join('; ');
  const what = plan
    ? "the plan's contract"
    : custom
      ? 'the given contract'
      : `the default contract (${contractName(DEFAULT_GAS_SHAPE)}: custom template, dead man's switch of 365 days, ETH only)`;
  return {
    deployment: gasText('deployment'),
    claim: gasText('claim'),
    update: updateText,
    currency: 'ETH',
    gasPriceGwei,
    method:
      (plan
        ? `Measured by executing ${what} in @ethereumjs/vm under ${VM_HARDFORK} rules, deployed with the plan's own constructor arguments (its owner, its ${plural(n)} and shares, its switch and guardians), 1 ETH deposited; `
        : `Measured by executing ${what} in @ethereumjs/vm under ${VM_HARDFORK} rules, with sample arguments (owner, ${plural(n)} (${countFrom}) with even shares, 1 ETH deposited); `) +
      `update replaces the ${plural(n)} with ${n} new addresses (cold, empty storage slots, as a real update), and is measured again growing the list to ${grow} and shrinking it to ${shrink}, each from the deployed list; ` +
      `gas per transaction includes intrinsic gas and capped refunds; claim is the highest of the ${plural(n)}' claims. ` +
      `Costs use a stated gas price of ${gasPriceGwei} gwei; no network was asked.`,
    figures,
  };
}
