import { encodeDeployData, formatEther, parseGwei, type Abi, type AbiParameter, type Hex } from 'viem';
import { ApiError } from '../../core/errors.js';
import { contractName, contractSource } from './contract.js';
import type { SolcPool } from './pool.js';
import type { EvmShape } from './shape.js';
import { EvmSandbox, VM_HARDFORK } from './vm.js';

/** Gas price used when the caller gives none (configurable by the caller through `deps.gasPriceGwei`). */
export const DEFAULT_GAS_PRICE_GWEI = 20;

/** The contract measured when no `contractCode` is given: custom template, dead man's switch of 365 days, ETH only. */
export const DEFAULT_GAS_SHAPE: EvmShape = { template: 'custom', deadMansSwitch: true, gracePeriod: false, guardians: false, erc20: false, erc721: false };

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
const SAMPLE_BENEFICIARIES = ['0x2000000000000000000000000000000000000002', '0x2000000000000000000000000000000000000003', '0x2000000000000000000000000000000000000004'] as Hex[];
const SAMPLE_SHARES = [3334, 3333, 3333];
/** The beneficiaries an update installs: new addresses, so the measured update writes cold, empty slots as a real one does. */
const SAMPLE_NEW_BENEFICIARIES = ['0x2100000000000000000000000000000000000012', '0x2100000000000000000000000000000000000013', '0x2100000000000000000000000000000000000014'] as Hex[];
const SAMPLE_GUARDIANS = ['0x3000000000000000000000000000000000000005', '0x3000000000000000000000000000000000000006'] as Hex[];
const SAMPLE_OTHER = '0x4000000000000000000000000000000000000007' as Hex;
const DAY = 86_400n;

/** Sample constructor arguments, chosen by parameter type and name (owner, beneficiaries, shares, interval...). */
export function sampleArgs(inputs: readonly AbiParameter[]): unknown[] {
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
      return SAMPLE_BENEFICIARIES;
    }
    if (/^uint\d*\[\]$/.test(t)) return /nft|id/.test(name) ? [] : t === 'uint256[]' ? SAMPLE_SHARES.map(BigInt) : SAMPLE_SHARES;
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
    throw ApiError.validation('Cannot pick sample constructor arguments for this contract', [{ field: 'contractCode', reason: `constructor parameter ${p.name || '?'} of type ${t}` }]);
  });
}

/**
 * The gas price in wei, exactly. Prices are stated to the wei: below 1e-9 gwei
 * (one wei), or with a fraction of a wei, is a VALIDATION_ERROR naming the field.
 */
export function gasPriceWei(gasPriceGwei: number): bigint {
  if (!(gasPriceGwei > 0) || !Number.isFinite(gasPriceGwei)) throw ApiError.validation('Gas price must be positive', [{ field: 'gasPriceGwei', reason: 'must be > 0' }]);
  if (gasPriceGwei > 1e9) throw ApiError.validation('Gas price is too high', [{ field: 'gasPriceGwei', reason: 'at most 1,000,000,000 gwei' }]);
  const fixed = gasPriceGwei.toFixed(9);
  const wei = parseGwei(fixed);
  if (wei === 0n) {
    throw ApiError.validation('Gas price is below one wei', [{ field: 'gasPriceGwei', reason: `${gasPriceGwei} gwei is below 1e-9 gwei (one wei), the smallest gas price` }]);
  }
  if (Math.abs(Number(fixed) - gasPriceGwei) > gasPriceGwei * 1e-12) {
    throw ApiError.validation('Gas price has a fraction of a wei', [{ field: 'gasPriceGwei', reason: `${gasPriceGwei} gwei is not a whole number of wei; use at most 9 decimals (1e-9 gwei is one wei)` }]);
  }
  return wei;
}

const has = (abi: Abi, name: string, inputs?: string[]) =>
  abi.some((x) => x.type === 'function' && x.name === name && (inputs === undefined || (x.inputs.length === inputs.length && x.inputs.every((p, i) => p.type === inputs[i]))));

/** What the gas measurement needs: the compiled contract and how to describe it (structured-cloneable, for a worker thread). */
export interface EvmMeasureInput {
  abi: unknown[];
  bytecode: Hex;
  /** The contract is the caller's, not the default generated one. */
  custom: boolean;
  gasPriceGwei: number;
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
  input: { contractCode?: string },
  deps: { pool: SolcPool; gasPriceGwei?: number; signal?: AbortSignal | undefined; measure?: (m: EvmMeasureInput) => Promise<EvmGasEstimate> },
): Promise<EvmGasEstimate> {
  const gasPriceGwei = deps.gasPriceGwei ?? DEFAULT_GAS_PRICE_GWEI;
  gasPriceWei(gasPriceGwei);
  const custom = input.contractCode !== undefined && input.contractCode.trim() !== '';
  const source = custom ? input.contractCode! : contractSource(DEFAULT_GAS_SHAPE);
  const compiled = await deps.pool.compile(source, {
    ...(custom ? {} : { contractName: contractName(DEFAULT_GAS_SHAPE) }),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const m: EvmMeasureInput = { abi: compiled.abi, bytecode: compiled.bytecode, custom, gasPriceGwei };
  return deps.measure ? deps.measure(m) : measureEvmGas(m);
}

/** The execution part of `estimateEvmGas`: deploys the compiled contract in @ethereumjs/vm and measures its operations. */
export async function measureEvmGas(compiled: EvmMeasureInput): Promise<EvmGasEstimate> {
  const { custom, gasPriceGwei } = compiled;
  const priceWei = gasPriceWei(gasPriceGwei);
  const abi = compiled.abi as Abi;
  const ctor = abi.find((x) => x.type === 'constructor');
  const figures: Record<string, number | null> = { deployment: null, claim: null, update: null };
  const notes: Record<string, string> = {};
  let deployData: Hex | undefined;
  try {
    deployData = encodeDeployData({ abi, bytecode: compiled.bytecode, args: ctor && 'inputs' in ctor ? sampleArgs(ctor.inputs) : [] });
  } catch (e) {
    const reason = e instanceof ApiError ? (e.details?.[0]?.reason ?? e.message) : 'constructor arguments could not be encoded';
    notes['deployment'] = notes['claim'] = notes['update'] = `no sample constructor arguments: ${reason}`;
  }
  const vm = await EvmSandbox.create();
  const dep = deployData ? await vm.send(SAMPLE_OWNER, undefined, deployData, 0n, abi) : undefined;
  if (!dep) {
    // reasons noted above
  } else if (!dep.ok) {
    notes['deployment'] = notes['claim'] = notes['update'] = `deployment reverted with sample constructor arguments (${dep.revert ?? dep.error ?? 'revert'})`;
  } else {
    figures['deployment'] = dep.gasUsed;
    const c = dep.createdAddress!;
    if (has(abi, 'updateBeneficiaries', ['address[]', 'uint16[]'])) {
      const r = await vm.tx(SAMPLE_OWNER, c, abi, 'updateBeneficiaries', [SAMPLE_NEW_BENEFICIARIES, SAMPLE_SHARES]);
      if (r.ok) figures['update'] = r.gasUsed;
      else notes['update'] = `updateBeneficiaries reverted (${r.revert ?? r.error})`;
    } else notes['update'] = 'the contract has no updateBeneficiaries(address[],uint16[])';
    const claimants = figures['update'] !== null ? SAMPLE_NEW_BENEFICIARIES : SAMPLE_BENEFICIARIES;
    if (has(abi, 'claim', [])) {
      await vm.send(SAMPLE_OTHER, c, '0x', 10n ** 18n, abi);
      if (has(abi, 'release', [])) await vm.tx(SAMPLE_OWNER, c, abi, 'release');
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
  const text = (k: string) => {
    const g = figures[k];
    if (g === null || g === undefined) return `not measured: ${notes[k] ?? 'unavailable'}`;
    return `${g.toLocaleString('en-US')} gas ≈ ${formatEther(BigInt(g) * priceWei)} ETH at ${gasPriceGwei} gwei`;
  };
  const what = custom ? 'the given contract' : `the default contract (${contractName(DEFAULT_GAS_SHAPE)}: custom template, dead man's switch of 365 days, ETH only)`;
  return {
    deployment: text('deployment'),
    claim: text('claim'),
    update: text('update'),
    currency: 'ETH',
    gasPriceGwei,
    method:
      `Measured by executing ${what} in @ethereumjs/vm under ${VM_HARDFORK} rules, with sample arguments (owner, 3 beneficiaries at 33.34/33.33/33.33%, 1 ETH deposited); ` +
      `update replaces the 3 beneficiaries with 3 new addresses (cold, empty storage slots, as a real update); ` +
      `gas per transaction includes intrinsic gas and capped refunds; claim is the highest of the 3 beneficiaries' claims. ` +
      `Costs use a stated gas price of ${gasPriceGwei} gwei; no network was asked.`,
    figures,
  };
}
