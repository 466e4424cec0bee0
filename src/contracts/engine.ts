import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { recordEvent } from '../events/events.js';
import { checkPlan } from '../law/check-plan.js';
import { checkIslamicPlan } from '../law/islamic.js';
import { TEMPLATES } from '../law/templates.js';
import { thePlace } from '../core/messages/place-en.js';
import type { JurisdictionIndex } from '../law/jurisdictions.js';
import type { Madhhab } from '../law/faraid/index.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import type { LimitKind } from '../core/worker-pool.js';
import type { ContractEngine } from './pools.js';
import type { EvmGasEstimate, EvmMeasureInput } from './evm/gas.js';
import type { EvmScenarioInput } from './evm/generate.js';
import type { ScenarioResult } from './evm/inputs.js';
import type { Plan } from './plan.js';
import type { SolanaEstimate, SolanaGenerated } from './solana/index.js';
import { assertRustShape } from './solana/parser.js';
import type { TonGenerated } from './ton/index.js';
import type { estimateTonFees } from './ton/index.js';
import { assertFuncShape } from './ton/compile.js';
import { validatePlan, withPlanDefaults } from './validate.js';
import {
  EstimateInput,
  EstimateOutput,
  GenerateInput,
  GenerateOutput,
  MAX_CONTRACT_CODE,
  ValidatePlanOutput,
  WarningSchema,
} from './engine-schemas.js';

export {
  EstimateInput,
  EstimateOutput,
  GenerateInput,
  GenerateOutput,
  MAX_CONTRACT_CODE,
  ValidatePlanOutput,
  WarningSchema,
};
import { assertContractRoom, saveContract } from './stored.js';
import { anchorWorkspace } from './solana/anchor-workspace.js';
import { planTimeLimitMs } from './time-limits.js';

export { ContractEngine, type ContractEngineOptions } from './pools.js';

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

export interface EngineDeps {
  engine: ContractEngine;
  store: Store;
  clock: Clock;
  log: Logger;
  jurisdictions: JurisdictionIndex;
  /** The wizard session (embed token) generating it: only that session may register its deployment. */
  embedSessionId?: string | undefined;
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

const templateName = (type: string): string => TEMPLATES.find((t) => t.type === type)?.name ?? type;

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
      `The plan does not follow the “${templateName(input.inheritanceTemplate)}” template${input.jurisdiction ? ` in ${thePlace(jurisdictions.get(input.jurisdiction)?.name ?? input.jurisdiction)}` : ''}.`,
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
    // The rule is the sentence's code: a reader's language says it from the params (core/messages/law-words.ts).
    code: f.rule,
    ...(f.params ? { params: f.params } : {}),
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
      // The execution check's worker loads @ethereumjs while this thread loads the generator and compiles (or reads
      // the compiled shape from the disk cache): in a fresh process, its start is most of the first build's wait.
      void engine.evm.warm(1).catch(() => undefined);
      // Loaded on first use: viem, @ethereumjs and the Solidity model are not needed until a contract is built.
      const { generateEvm } = await import('./evm/generate.js');
      const g = await generateEvm(plan, {
        pool: engine.pool,
        signal,
        onStage: stage,
        execute: (s: EvmScenarioInput) =>
          engine.evm.run<ScenarioResult>('scenario', s, {
            signal,
            timeoutMs: planTimeLimitMs(engine.evm.timeoutMs, plan),
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
        timeoutMs: planTimeLimitMs(engine.ton.timeoutMs, plan),
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
          workspace: anchorWorkspace(g),
        },
        analysis: g.analysis,
      };
    }
  }
}

export function validateForGeneration(
  input: GenerateInput,
  jurisdictions: JurisdictionIndex,
): z.input<typeof ValidatePlanOutput> {
  const { plan, notes } = withPlanDefaults<GenerateInput>(input);
  validatePlan(plan);
  const law = lawWarnings(input, jurisdictions);
  return {
    valid: true,
    warnings: [
      ...law,
      ...notes.map(({ id, severity, message, code, params }) => ({ id, severity, message, code, params })),
    ],
  };
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
    // Cancelled by its caller: no failure of the contract to tell the owner's webhooks about.
    if (deps.signal?.aborted) throw err;
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
        ...notes.map(({ id, severity, message, code, params }) => ({ id, severity, message, code, params })),
        ...built.analysis.warnings,
      ],
      suggestions: [...notes.map((n) => n.suggestion), ...built.analysis.suggestions],
      advice: [
        ...notes.map((n) => ({ code: n.suggestionCode, params: n.params, message: n.suggestion })),
        ...(built.analysis.advice ?? []),
      ],
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
        ...(deps.embedSessionId ? { embedSessionId: deps.embedSessionId } : {}),
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
    if (input.plan !== undefined) {
      const { estimatePlanCosts } = await import('./estimate-plan.js');
      return await estimatePlanCosts(input.plan, {
        pool: deps.engine.pool,
        evm: deps.engine.evm,
        signal: deps.signal,
        gasPriceGwei: input.gasPriceGwei,
        estimateSource: (blockchain, contractCode, beneficiaries) =>
          estimateFor({ blockchain, contractCode, beneficiaries }, deps),
      });
    }
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
        figures: { items: e.items, ...e.figures },
      };
    }
  }
}
