import os from 'node:os';
import { z } from 'zod';
import { jurisdictionName } from '../law/names.js';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { recordEvent } from '../events/events.js';
import { checkPlan } from '../law/check-plan.js';
import { checkIslamicPlan } from '../law/islamic.js';
import type { JurisdictionIndex } from '../law/jurisdictions.js';
import { MADHHABS, type Madhhab } from '../law/faraid/index.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import { taskModule, WorkerPool, type LimitKind, type WorkerPoolOptions } from '../core/worker-pool.js';
import { SolcPool, type SolcPoolOptions } from './evm/pool.js';
import type { EvmGasEstimate, EvmMeasureInput } from './evm/gas.js';
import type { EvmScenarioInput } from './evm/generate.js';
import type { ScenarioResult } from './evm/scenario.js';
import { PlanSchema, type Plan } from './plan.js';
import type { SolanaEstimate, SolanaGenerated } from './solana/index.js';
import { assertRustShape, MAX_RUST_SOURCE } from './solana/parser.js';
import type { TonGenerated } from './ton/index.js';
import type { estimateTonFees } from './ton/index.js';
import { assertFuncShape, MAX_FUNC_SOURCE } from './ton/compile.js';
import { validatePlan, withPlanDefaults } from './validate.js';
import { assertContractRoom, saveContract } from './stored.js';

/** Options of the engine's worker pools (tests give tiny limits; the defaults suit a 2-core machine). */
export interface ContractEngineOptions {
  solc?: SolcPoolOptions;
  ton?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
  evm?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
  solana?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
}

/**
 * Per-chain limits on client source given to estimate_gas, checked before
 * anything parses it (the compile tools have the same limits).
 */
export const MAX_CONTRACT_CODE = { evm: 512 * 1024, solana: MAX_RUST_SOURCE, ton: MAX_FUNC_SOURCE } as const;

/**
 * The contract engine: validates a plan, applies its template's law, generates
 * the chain's contract (compiled and executed where the chain allows) and
 * records the events. Owns the worker pools every CPU-heavy step runs in, so
 * that no request holds the event loop: solc, the EVM executions, the TON
 * compile and sandbox, the Solana parse and checks. Pools start on first use.
 */
export class ContractEngine {
  #pool: SolcPool | undefined;
  #ton: WorkerPool | undefined;
  #evm: WorkerPool | undefined;
  #solana: WorkerPool | undefined;
  readonly #opts: ContractEngineOptions;

  constructor(opts: ContractEngineOptions = {}) {
    this.#opts = opts;
  }

  /** The solc pool, started on first use (one worker per core). */
  get pool(): SolcPool {
    this.#pool ??= new SolcPool({ size: Math.max(1, os.availableParallelism()), ...this.#opts.solc });
    return this.#pool;
  }

  /** FunC compiles and @ton/sandbox runs. */
  get ton(): WorkerPool {
    this.#ton ??= new WorkerPool({
      name: 'The TON compiler and sandbox',
      module: taskModule('./ton/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 30_000,
      maxQueue: 100,
      typicalMs: 300,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      ...this.#opts.ton,
    });
    return this.#ton;
  }

  /** @ethereumjs/vm executions: the generation check and the gas measurement. */
  get evm(): WorkerPool {
    this.#evm ??= new WorkerPool({
      name: 'The EVM execution',
      module: taskModule('./evm/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 30_000,
      maxQueue: 100,
      typicalMs: 300,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      ...this.#opts.evm,
    });
    return this.#evm;
  }

  /** tree-sitter parses and checks of Rust (generation and estimates). */
  get solana(): WorkerPool {
    this.#solana ??= new WorkerPool({
      name: 'The Rust parser',
      module: taskModule('./solana/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 20_000,
      maxQueue: 100,
      typicalMs: 100,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      ...this.#opts.solana,
    });
    return this.#solana;
  }

  async close(): Promise<void> {
    const pools = [this.#pool, this.#ton, this.#evm, this.#solana];
    this.#pool = this.#ton = this.#evm = this.#solana = undefined;
    await Promise.all(pools.map((p) => p?.close()));
  }
}

/** A generation step stopped by its limit: the plan is valid and bounded, so the machine is overloaded (503, retry). */
function overloaded(what: string) {
  return (kind: LimitKind, limit: string) =>
    new ApiError(
      'SERVICE_BUSY',
      `${what} ${kind === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`} and was stopped; the service is overloaded, retry later`,
      undefined,
      new Date(Date.now() + 30_000).toISOString(),
    );
}

/** A step on client source stopped by its limit: the source is too complex (400, not worth retrying). */
function tooComplex(what: string) {
  return (kind: LimitKind, limit: string) =>
    ApiError.validation(
      `Input too complex: ${what} ${kind === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`} and was stopped`,
      [{ field: 'contractCode', reason: `${kind} limit of ${limit} exceeded` }],
    );
}

export const WarningSchema = z
  .object({
    id: z.string().describe('Stable identifier of the check that raised it.'),
    severity: z.enum(['high', 'medium', 'low', 'info']).describe('How much it matters.'),
    message: z.string().describe('What was found and what to do.'),
  })
  .describe('An analysis warning.');

export const GenerateInput = PlanSchema.extend({
  jurisdiction: jurisdictionName()
    .optional()
    .describe(
      'Optional jurisdiction id or name: its law is checked too (errors refuse the plan; warnings appear in analysis).',
    ),
  madhhab: z
    .enum(MADHHABS)
    .optional()
    .describe("School of Islamic law for the fara'id checks of the Islamic templates."),
})
  .strict()
  .describe('Plan of the contract to generate.');
export type GenerateInput = z.infer<typeof GenerateInput>;

export const GenerateOutput = z
  .object({
    id: z.string().describe('Id of the stored contract (ctr_...): get_contract and list_contracts read it again.'),
    contractCode: z.string().describe('Source: Solidity (evm), Rust/Anchor lib.rs (solana) or FunC (ton).'),
    contractInfo: z
      .object({
        blockchain: z.enum(['evm', 'solana', 'ton']).describe('Chain family.'),
        network: z.string().describe('Network the figures refer to.'),
        template: z.string().describe('Inheritance template applied.'),
        distribution: z
          .record(z.string(), z.number().describe('Percentage.'))
          .describe('Beneficiary address → percentage.'),
        features: z
          .array(z.string().describe('A feature.'))
          .describe('Features of the contract, e.g. deadMansSwitch, multiSig.'),
        estimatedGas: z.string().describe('Measured (evm, ton) or computed (solana) costs, naming the method.'),
        verified: z
          .array(z.string().describe('A check.'))
          .describe('What was verified before the contract was returned.'),
      })
      .describe('About the contract.'),
    compiled: z
      .object({
        abi: z.array(z.unknown().describe('ABI entry.')).optional().describe('evm: the ABI.'),
        bytecode: z.string().optional().describe('evm: creation bytecode, 0x-prefixed.'),
        deployData: z
          .string()
          .optional()
          .describe('evm: bytecode plus the ABI-encoded constructor arguments for this plan, ready to send.'),
        codeBoc: z.string().optional().describe('ton: the code cell as base64 BOC.'),
        codeHash: z.string().optional().describe('ton: hash of the code cell, hex.'),
        dataBoc: z.string().optional().describe("ton: the initial data cell (the plan's values) as base64 BOC."),
        stateInit: z
          .string()
          .optional()
          .describe(
            'ton: the StateInit (code and data cells) as base64 BOC: send it with the first message to deploy.',
          ),
        address: z
          .string()
          .optional()
          .describe('ton: the address the StateInit deploys to (workchain 0), user-friendly bounceable form.'),
        deployScript: z
          .string()
          .optional()
          .describe('ton: TypeScript (@ton/core) building the initial data and computing the address.'),
        buildRequired: z.string().optional().describe('solana: the build the user must run ("anchor build").'),
        commands: z
          .array(z.string().describe('A shell command.'))
          .optional()
          .describe('solana: exact commands to build and deploy.'),
        note: z.string().optional().describe('solana: what was and was not checked here.'),
        idl: z.record(z.string(), z.unknown()).optional().describe('solana: the Anchor IDL.'),
        clientSnippet: z.string().optional().describe('solana: TypeScript calling initialize with this plan.'),
        cargoToml: z.string().optional().describe('solana: Cargo.toml of the program.'),
        anchorToml: z.string().optional().describe('solana: Anchor.toml of the workspace.'),
      })
      .describe('Compilation output (evm, ton) or build instructions (solana).'),
    analysis: z
      .object({
        securityScore: z.number().describe('0 to 100, from real checks of the source and of its execution.'),
        warnings: z.array(WarningSchema).describe('Findings of the analysis and of the law checks.'),
        suggestions: z.array(z.string().describe('A suggestion.')).describe('What to consider before deploying.'),
      })
      .describe('Security and plan analysis.'),
  })
  .describe('A generated inheritance contract.');
export type GenerateOutput = z.infer<typeof GenerateOutput>;

export interface EngineDeps {
  engine: ContractEngine;
  store: Store;
  clock: Clock;
  log: Logger;
  jurisdictions: JurisdictionIndex;
  /** Aborted when the caller has gone away: a queued job is dropped, a running one stopped. */
  signal?: AbortSignal | undefined;
  /**
   * Called as each stage of a generation starts, in this order: validate,
   * law, compile, execute, measure. Solana skips `execute` (nothing runs a
   * Solana program here).
   */
  onStage?: (stage: GenerateStage) => void;
}

export type GenerateStage = 'validate' | 'law' | 'compile' | 'execute' | 'measure';

const LAW_SEVERITY = { error: 'high', warning: 'medium', info: 'info' } as const;

/** The template's (and optional jurisdiction's) law: errors refuse the plan, the rest become analysis warnings. */
function lawWarnings(input: GenerateInput, jurisdictions: JurisdictionIndex): z.infer<typeof WarningSchema>[] {
  const beneficiaries = input.beneficiaries.map((b) => ({
    name: b.name,
    percentage: b.percentage,
    relationship: b.relationship,
  }));
  const madhhab = input.madhhab as Madhhab | undefined;
  const findings = input.jurisdiction
    ? checkPlan(jurisdictions, {
        jurisdiction: input.jurisdiction,
        template: input.inheritanceTemplate,
        beneficiaries,
        ...(madhhab ? { madhhab } : {}),
      }).findings
    : input.inheritanceTemplate === 'islamic-mirth' || input.inheritanceTemplate === 'islamic-wasiyyah'
      ? checkIslamicPlan(input.inheritanceTemplate, beneficiaries, madhhab ? { madhhab } : {}).findings
      : [];
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length) {
    throw ApiError.validation(
      `The plan does not satisfy the ${input.inheritanceTemplate} template${input.jurisdiction ? ` in ${input.jurisdiction}` : ''}.`,
      errors.map((f) => ({
        field: f.beneficiaryIndex !== undefined ? `beneficiaries.${f.beneficiaryIndex}.percentage` : 'beneficiaries',
        reason: `${f.message} (${f.rule}; ${f.source.title})`,
        ...(f.expected !== undefined ? { expected: f.expected } : {}),
      })),
    );
  }
  return findings.map((f) => ({
    id: f.rule,
    severity: LAW_SEVERITY[f.severity],
    message: `${f.message} (${f.source.title})`,
  }));
}

function distribution(plan: Plan): Record<string, number> {
  return Object.fromEntries(plan.beneficiaries.map((b) => [b.address, b.percentage]));
}

async function build(
  plan: Plan,
  deps: EngineDeps,
): Promise<
  Omit<GenerateOutput, 'contractInfo' | 'id'> & {
    info: Omit<GenerateOutput['contractInfo'], 'blockchain' | 'template' | 'distribution'>;
  }
> {
  const stage = (value: unknown) => {
    if (value === 'compile' || value === 'execute' || value === 'measure') deps.onStage?.(value);
  };
  const { engine, signal } = deps;
  switch (plan.blockchain) {
    case 'evm': {
      // Loaded on first use: viem, @ethereumjs and the Solidity model are not needed until a contract is built.
      const { generateEvm } = await import('./evm/generate.js');
      const g = await generateEvm(plan, {
        pool: engine.pool,
        signal,
        onStage: stage,
        execute: (s: EvmScenarioInput) =>
          engine.evm.run<ScenarioResult>('scenario', s, {
            signal,
            onLimit: overloaded('The execution check of the EVM contract'),
          }),
      });
      return {
        contractCode: g.contractCode,
        info: { network: g.network, features: g.features, estimatedGas: g.estimatedGas, verified: g.verified },
        compiled: { abi: g.abi, bytecode: g.bytecode, deployData: g.deployData },
        analysis: g.analysis,
      };
    }
    case 'ton': {
      const g = await engine.ton.run<TonGenerated>('generate', plan, {
        signal,
        onProgress: stage,
        onLimit: overloaded('The TON compile and sandbox run'),
      });
      return {
        contractCode: g.contractCode,
        info: {
          network: g.network,
          features: g.features,
          estimatedGas: g.estimatedGas,
          verified: ['compiled with func-js', 'deployed and run through the full scenario in @ton/sandbox'],
        },
        compiled: {
          codeBoc: g.codeBoc,
          codeHash: g.codeHash,
          dataBoc: g.dataBoc,
          stateInit: g.stateInitBoc,
          address: g.address,
          deployScript: g.deployScript,
        },
        analysis: g.analysis,
      };
    }
    case 'solana': {
      const g = await engine.solana.run<SolanaGenerated>('generate', plan, {
        signal,
        onProgress: stage,
        onLimit: overloaded('The Solana program checks'),
      });
      return {
        contractCode: g.contractCode,
        info: {
          network: g.network,
          features: g.features,
          estimatedGas: g.estimatedGas,
          verified: g.checks.filter((c) => c.passed).map((c) => `check ${c.name}`),
        },
        compiled: {
          buildRequired: g.buildInstructions.required,
          commands: g.buildInstructions.commands,
          note: g.buildInstructions.note,
          idl: g.idl,
          clientSnippet: g.clientSnippet,
          cargoToml: g.cargoToml,
          anchorToml: g.anchorToml,
        },
        analysis: g.analysis,
      };
    }
  }
}

export const ValidatePlanOutput = z
  .object({
    valid: z
      .literal(true)
      .describe('Always true: a plan with problems is answered with VALIDATION_ERROR and one detail per problem.'),
    warnings: z
      .array(WarningSchema)
      .describe('Law findings and defaults that generate_contract would report in its analysis.'),
  })
  .describe('The plan passes every check generate_contract makes before building.');

/** Every check generate_contract makes before building (plan rules, template and jurisdiction law), without building. */
export function validateForGeneration(
  input: GenerateInput,
  jurisdictions: JurisdictionIndex,
): z.input<typeof ValidatePlanOutput> {
  const { plan, notes } = withPlanDefaults<GenerateInput>(input);
  validatePlan(plan);
  const law = lawWarnings(input, jurisdictions);
  return { valid: true, warnings: [...law, ...notes.map(({ id, severity, message }) => ({ id, severity, message }))] };
}

/** Generates a contract for `input` on behalf of `ownerId`, recording contract.* events. */
export async function generateContract(
  input: GenerateInput,
  ownerId: string,
  deps: EngineDeps,
): Promise<GenerateOutput> {
  deps.onStage?.('validate');
  const { plan, notes } = withPlanDefaults<GenerateInput>(input);
  validatePlan(plan);
  deps.onStage?.('law');
  const law = lawWarnings(input, deps.jurisdictions);
  await assertContractRoom(deps.store, ownerId);
  let built: Awaited<ReturnType<typeof build>>;
  try {
    built = await build(plan, deps);
  } catch (err) {
    const apiErr = err instanceof ApiError ? err : ApiError.internal();
    if (!(err instanceof ApiError)) deps.log.error({ err, blockchain: plan.blockchain }, 'contract generation failed');
    await deps.store.transact((tx) =>
      recordEvent(
        tx,
        {
          type: 'contract.error',
          ownerId,
          data: {
            blockchain: plan.blockchain,
            template: plan.inheritanceTemplate,
            code: apiErr.code,
            message: apiErr.message,
          },
        },
        deps.clock,
      ),
    );
    throw apiErr;
  }
  const output: Omit<GenerateOutput, 'id'> = {
    contractCode: built.contractCode,
    contractInfo: {
      blockchain: plan.blockchain,
      template: plan.inheritanceTemplate,
      distribution: distribution(plan),
      ...built.info,
    },
    compiled: built.compiled,
    analysis: {
      ...built.analysis,
      warnings: [
        ...law,
        ...notes.map(({ id, severity, message }) => ({ id, severity, message })),
        ...built.analysis.warnings,
      ],
      suggestions: [...notes.map((n) => n.suggestion), ...built.analysis.suggestions],
    },
  };
  // Events carry no names or e-mails: only the chain, template, features and counts.
  const data = {
    blockchain: plan.blockchain,
    network: output.contractInfo.network,
    template: plan.inheritanceTemplate,
    features: output.contractInfo.features,
    beneficiaries: plan.beneficiaries.length,
  };
  const id = await deps.store.transact(async (tx) => {
    const stored = await saveContract(
      tx,
      {
        ownerId,
        chain: plan.blockchain,
        plan,
        source: output.contractCode,
        compiled: output.compiled,
        deployData: output.compiled.deployData,
        advice: output.analysis,
      },
      deps.clock,
    );
    if (plan.blockchain !== 'solana') await recordEvent(tx, { type: 'contract.compiled', ownerId, data }, deps.clock);
    await recordEvent(tx, { type: 'contract.generated', ownerId, data }, deps.clock);
    return stored;
  });
  return { id, ...output };
}

export const EstimateInput = z
  .strictObject({
    blockchain: z.enum(['evm', 'solana', 'ton']).describe('Chain family: evm, solana or ton.'),
    contractCode: z
      .string()
      .max(MAX_CONTRACT_CODE.evm, {
        error: `too long: at most ${MAX_CONTRACT_CODE.solana} characters for solana, ${MAX_CONTRACT_CODE.ton} for ton, ${MAX_CONTRACT_CODE.evm} for evm`,
      })
      .optional()
      .describe(
        `Source to measure; the default contract is measured when omitted. At most ${MAX_CONTRACT_CODE.evm} characters for evm, ${MAX_CONTRACT_CODE.ton} for ton, ${MAX_CONTRACT_CODE.solana} for solana.`,
      ),
    gasPriceGwei: z
      .number()
      .positive()
      .max(100_000)
      .optional()
      .describe('evm: gas price for the cost in ETH (default stated in the answer).'),
    beneficiaries: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe(
        'Number of beneficiaries: solana, for account sizes; evm, the sample list the contract is deployed, claimed and updated with (default 3; a fixed-size beneficiary array in the constructor takes its own length).',
      ),
  })
  .superRefine((v, ctx) => {
    const max = MAX_CONTRACT_CODE[v.blockchain];
    // (beyond the largest limit, the field's own check has said so)
    if (v.contractCode !== undefined && v.contractCode.length > max && v.contractCode.length <= MAX_CONTRACT_CODE.evm) {
      ctx.addIssue({
        code: 'custom',
        path: ['contractCode'],
        message: `at most ${max} characters for ${v.blockchain} (got ${v.contractCode.length})`,
      });
    }
  })
  .describe('What to estimate.');

export const EstimateOutput = z
  .object({
    estimate: z
      .object({
        deployment: z.string().describe('Cost of deployment.'),
        claim: z.string().describe('Cost of one beneficiary claim.'),
        update: z.string().describe('Cost of updating the beneficiaries.'),
        currency: z.string().describe('ETH, SOL or TON.'),
      })
      .describe('Estimate, from measured or computed figures.'),
    method: z.string().describe('How the figures were obtained (no network is asked).'),
    gasPriceGwei: z.number().optional().describe('evm: the gas price used.'),
    figures: z.record(z.string(), z.unknown().describe('A figure.')).describe('The raw figures behind the estimate.'),
  })
  .describe('A cost estimate.');
export type EstimateOutput = z.infer<typeof EstimateOutput>;

export async function estimateCosts(
  input: z.infer<typeof EstimateInput>,
  deps: { engine: ContractEngine; signal?: AbortSignal | undefined },
): Promise<EstimateOutput> {
  const max = MAX_CONTRACT_CODE[input.blockchain];
  if (input.contractCode !== undefined && input.contractCode.length > max) {
    throw ApiError.validation('Contract code too large', [
      {
        field: 'contractCode',
        reason: `at most ${max} characters for ${input.blockchain} (got ${input.contractCode.length})`,
      },
    ]);
  }
  try {
    return await estimateFor(input, deps);
  } catch (err) {
    // The compilers name the source `sourceCode`; here the input field is `contractCode`.
    if (err instanceof ApiError && err.details?.some((d) => d.field === 'sourceCode')) {
      throw new ApiError(
        err.code,
        err.message,
        err.details.map((d) => (d.field === 'sourceCode' ? { ...d, field: 'contractCode' } : d)),
        err.retryAfter,
      );
    }
    throw err;
  }
}

async function estimateFor(
  input: z.infer<typeof EstimateInput>,
  deps: { engine: ContractEngine; signal?: AbortSignal | undefined },
): Promise<EstimateOutput> {
  switch (input.blockchain) {
    case 'evm': {
      const { estimateEvmGas } = await import('./evm/gas.js');
      const e = await estimateEvmGas(
        {
          ...(input.contractCode !== undefined ? { contractCode: input.contractCode } : {}),
          ...(input.beneficiaries !== undefined ? { beneficiaries: input.beneficiaries } : {}),
        },
        {
          pool: deps.engine.pool,
          signal: deps.signal,
          measure: (m: EvmMeasureInput) =>
            deps.engine.evm.run<EvmGasEstimate>('measure', m, {
              signal: deps.signal,
              timeoutMs: Math.min(deps.engine.evm.timeoutMs, 15_000),
              onLimit: m.custom ? tooComplex('Executing the contract') : overloaded('Executing the default contract'),
            }),
          ...(input.gasPriceGwei !== undefined ? { gasPriceGwei: input.gasPriceGwei } : {}),
        },
      );
      return {
        estimate: { deployment: e.deployment, claim: e.claim, update: e.update, currency: e.currency },
        method: e.method,
        gasPriceGwei: e.gasPriceGwei,
        figures: e.figures,
      };
    }
    case 'ton': {
      // Length and nesting are checked here, before the job is queued: a refusal never waits for a worker.
      if (input.contractCode !== undefined) assertFuncShape(input.contractCode);
      const e = await deps.engine.ton.run<Awaited<ReturnType<typeof estimateTonFees>>>(
        'estimate',
        input.contractCode !== undefined ? { contractCode: input.contractCode } : {},
        {
          signal: deps.signal,
          timeoutMs: Math.min(deps.engine.ton.timeoutMs, 15_000),
          onLimit: input.contractCode?.trim()
            ? tooComplex('Compiling and running the FunC code')
            : overloaded('Running the reference contract'),
        },
      );
      const { deployment, claim, update, currency, method, ...rest } = e as typeof e & Record<string, unknown>;
      return { estimate: { deployment, claim, update, currency }, method, figures: rest };
    }
    case 'solana': {
      if (input.contractCode !== undefined) assertRustShape(input.contractCode, 'contractCode');
      const e = await deps.engine.solana.run<SolanaEstimate>(
        'estimate',
        {
          ...(input.contractCode !== undefined ? { contractCode: input.contractCode } : {}),
          ...(input.beneficiaries !== undefined ? { beneficiaries: input.beneficiaries } : {}),
        },
        {
          signal: deps.signal,
          timeoutMs: Math.min(deps.engine.solana.timeoutMs, 5_000),
          onLimit: tooComplex('Reading the Rust source'),
        },
      );
      return {
        estimate: { deployment: e.deployment, claim: e.claim, update: e.update, currency: e.currency },
        method: e.method,
        figures: { items: e.items },
      };
    }
  }
}
