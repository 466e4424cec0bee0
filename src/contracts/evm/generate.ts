import type { Abi, Hex } from 'viem';
import { encodeDeployData } from 'viem/utils';
import { ApiError } from '../../core/errors.js';
import type { Plan } from '../plan.js';
import { analyzeAst, planFindings, securityScore, type Advice, type Finding } from './analysis.js';
import { tagBeneficiaryCount } from './code-count.js';
import { contractName, contractSource } from './contract.js';
import { MOCK_ERC20_SOURCE, REAL_ERC721_SOURCE } from './mocks.js';
import type { SolcCompileOutput, SolcPool } from './pool.js';
import {
  constructorArgs,
  growCount,
  planInputs,
  shrinkCount,
  type Compiled,
  type ConstructorInputs,
  type Mocks,
  type ScenarioResult,
} from './inputs.js';
import { TEMPLATE_TYPES } from '../../law/templates.js';
import type { EvmShape } from './shape.js';
import { shapeFeatures, shapeOf } from './shape.js';
import { VM_HARDFORK } from './hardfork.js';

export interface EvmGenerated {
  contractName: string;
  contractCode: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployData: `0x${string}`;
  features: string[];
  gas: Record<string, number>;
  estimatedGas: string;
  /** What the execution check verified before the contract was returned. */
  verified: string[];
  network: string;
  analysis: {
    securityScore: number;
    warnings: Finding[];
    suggestions: string[];
    /** The suggestions again, coded, in the same order. */
    advice: Advice[];
  };
}

/** Network named in `contractInfo.network`: bytecode targets Cancun, runs on any EVM chain with Cancun or later. */
export const EVM_NETWORK = 'ethereum';

const astFindings = new WeakMap<SolcCompileOutput, Finding[]>();

function findingsOf(compiled: SolcCompileOutput): Finding[] {
  let f = astFindings.get(compiled);
  if (!f) {
    f = analyzeAst(compiled.ast);
    astFindings.set(compiled, f);
  }
  return f;
}

/** Compiles the tokens used by the execution check (cached by the pool): a minimal ERC-20, OpenZeppelin's ERC-721. */
async function loadMocks(pool: SolcPool, erc20: boolean, erc721: boolean): Promise<Mocks> {
  const [a, b] = await Promise.all([
    erc20 ? pool.compile(MOCK_ERC20_SOURCE, { persist: true }) : undefined,
    erc721 ? pool.compile(REAL_ERC721_SOURCE, { persist: true }) : undefined,
  ]);
  const m: Mocks = {};
  if (a) Object.assign(m, { erc20Runtime: a.deployedBytecode, erc20Abi: a.abi as Abi });
  if (b) Object.assign(m, { erc721Runtime: b.deployedBytecode, erc721Abi: b.abi as Abi });
  return m;
}

/**
 * The shapes a first generation most likely asks for: every template with the default switch and nothing else, the
 * one of a plan that names no template first.
 */
export function commonShapes(): EvmShape[] {
  const templates = ['custom' as const, ...TEMPLATE_TYPES.filter((t) => t !== 'custom')];
  return templates.map((template) => ({
    template,
    deadMansSwitch: true,
    gracePeriod: false,
    guardians: false,
    erc20: false,
    erc721: false,
  }));
}

/**
 * Warms a pool for EVM generation (at startup): every worker compiled once, the common shapes compiled as a
 * generation compiles them (while the disk cache keeps them: after the first start of all, a generation of those
 * shapes needs no compile) and the token doubles.
 */
export async function warmUpEvm(pool: SolcPool): Promise<void> {
  await pool.warmUp([
    ...commonShapes().map((shape) => ({
      source: contractSource(shape),
      options: { contractName: contractName(shape), ast: true },
      ifKept: true,
    })),
    { source: MOCK_ERC20_SOURCE },
    { source: REAL_ERC721_SOURCE },
  ]);
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function describeGas(gas: Record<string, number>, beneficiaries: number): string {
  const parts = [
    `deployment ${fmt(gas['deployment'] ?? 0)} gas`,
    `claim ${fmt(gas['claim'] ?? 0)} gas (highest of ${beneficiaries} beneficiaries)`,
    `update ${fmt(gas['update'] ?? 0)} gas (${beneficiaries} new addresses)`,
  ];
  if (gas['updateGrow'])
    parts.push(`update to ${growCount(beneficiaries)} beneficiaries ${fmt(gas['updateGrow'])} gas`);
  if (gas['updateShrink'])
    parts.push(
      `update to ${shrinkCount(beneficiaries)} ${shrinkCount(beneficiaries) === 1 ? 'beneficiary' : 'beneficiaries'} ${fmt(gas['updateShrink'])} gas`,
    );
  parts.push(`check-in ${fmt(gas['checkIn'] ?? 0)} gas`);
  if (gas['claimToken']) parts.push(`token claim ${fmt(gas['claimToken'])} gas`);
  if (gas['claimNft']) parts.push(`NFT claim ${fmt(gas['claimNft'])} gas`);
  return `Measured by executing the contract in @ethereumjs/vm (${VM_HARDFORK} rules, per transaction including intrinsic gas): ${parts.join('; ')}.`;
}

/**
 * Generates the EVM contract for a validated plan: the fixed source of its
 * shape, compiled (no warnings allowed), then executed with the plan's real
 * constructor arguments. Throws rather than return an unverified contract.
 */
/** What the execution check needs (structured-cloneable, for a worker thread). */
export interface EvmScenarioInput {
  compiled: Compiled;
  shape: EvmShape;
  inputs: ConstructorInputs;
  deployData: Hex;
  mocks: Mocks;
}

export interface EvmGenerateDeps {
  pool: SolcPool;
  signal?: AbortSignal | undefined;
  /** Runs the execution check (a worker thread, see the engine); without it, it runs here. */
  execute?: (s: EvmScenarioInput) => Promise<ScenarioResult>;
  /** Called as each step starts. */
  onStage?: (stage: 'compile' | 'execute' | 'measure') => void;
}

/** The execution check, in this thread (the VM is loaded on first use: the service's own run it in a worker). */
export async function runEvmScenario(s: EvmScenarioInput): Promise<ScenarioResult> {
  const { runGenerationScenario } = await import('./scenario.js');
  return runGenerationScenario(s.compiled, s.shape, s.inputs, s.deployData, s.mocks);
}

export async function generateEvm(plan: Plan, deps: EvmGenerateDeps): Promise<EvmGenerated> {
  if (plan.blockchain !== 'evm')
    throw ApiError.validation('Not an EVM plan', [{ field: 'blockchain', reason: 'expected evm' }]);
  const shape = shapeOf(plan);
  const inputs = planInputs(plan);
  const source = contractSource(shape);
  const name = contractName(shape);
  deps.onStage?.('compile');
  const mocksP = shape.erc20 || shape.erc721 ? loadMocks(deps.pool, shape.erc20, shape.erc721) : Promise.resolve({});
  mocksP.catch(() => undefined);
  const compiled = await deps.pool.compile(source, {
    contractName: name,
    ast: true,
    persist: true,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if (compiled.warnings.length > 0) {
    throw new ApiError(
      'INTERNAL_ERROR',
      `The generated contract compiled with ${compiled.warnings.length} warning(s); warnings are errors for generated contracts.`,
    );
  }
  const abi = compiled.abi as Abi;
  let deployData: Hex;
  try {
    deployData = encodeDeployData({ abi, bytecode: compiled.bytecode, args: constructorArgs(shape, inputs) });
  } catch (e) {
    throw ApiError.validation('The plan cannot be encoded as constructor arguments', [
      { field: '', reason: e instanceof Error ? e.message.split('\n')[0]! : String(e) },
    ]);
  }
  const mocks = await mocksP;
  deps.onStage?.('execute');
  const scenario: EvmScenarioInput = {
    compiled: { abi, bytecode: compiled.bytecode },
    shape,
    inputs,
    deployData,
    mocks,
  };
  const run = await (deps.execute ? deps.execute(scenario) : runEvmScenario(scenario));
  deps.onStage?.('measure');
  const runtimeSize = ((compiled.deployedBytecode?.length ?? 2) - 2) / 2;
  const fromPlan = planFindings(plan, shape, inputs, runtimeSize, run.gas);
  const warnings = [...findingsOf(compiled), ...fromPlan.warnings];
  return {
    contractName: name,
    // the plan's count, for estimate_gas on the bare source (a comment: the bytecode is the same, see pool.ts)
    contractCode: tagBeneficiaryCount(source, name, inputs.beneficiaries.length),
    abi: compiled.abi,
    bytecode: compiled.bytecode,
    deployData,
    features: shapeFeatures(shape),
    gas: run.gas,
    estimatedGas: describeGas(run.gas, inputs.beneficiaries.length),
    network: EVM_NETWORK,
    verified: run.checks,
    analysis: {
      securityScore: securityScore(warnings),
      warnings,
      suggestions: fromPlan.suggestions,
      advice: fromPlan.advice,
    },
  };
}
