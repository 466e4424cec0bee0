/**
 * estimate_gas on a plan: the plan's own contract is built in memory (the source generate_contract would return) and
 * measured, with no record stored and no event sent, so a form can show a plan's true costs before it is generated.
 */
import { ApiError } from '../core/errors.js';
import type { WorkerPool } from '../core/worker-pool.js';
import type { EvmGasEstimate, EvmMeasureInput } from './evm/gas.js';
import type { SolcPool } from './evm/pool.js';
import type { GenerateInput, EstimateOutput } from './engine-schemas.js';
import type { Plan } from './plan.js';
import { validatePlan, withPlanDefaults } from './validate.js';

export interface PlanEstimateDeps {
  pool: SolcPool;
  evm: WorkerPool;
  signal?: AbortSignal | undefined;
  gasPriceGwei?: number | undefined;
  /** Measures other source (the TON and Solana estimates of a generated shape), as estimate_gas does for contractCode. */
  estimateSource: (
    blockchain: 'ton' | 'solana',
    contractCode: string,
    beneficiaries: number,
  ) => Promise<EstimateOutput>;
}

/** A plan problem names its field under `plan.` (the input's own path). */
function underPlan(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR' || !err.details) return err;
  return new ApiError(
    err.code,
    err.message,
    err.details.map((d) => ({ ...d, field: d.field ? `plan.${d.field}` : 'plan' })),
    err.retryAfter,
  );
}

/** The plan as generate_contract builds it (defaults applied), refused with the same problems. */
function planToBuild(input: GenerateInput): Plan {
  try {
    const { plan } = withPlanDefaults<GenerateInput>(input);
    validatePlan(plan);
    return plan;
  } catch (err) {
    throw underPlan(err);
  }
}

export async function estimatePlanCosts(input: GenerateInput, deps: PlanEstimateDeps): Promise<EstimateOutput> {
  const plan = planToBuild(input);
  switch (plan.blockchain) {
    case 'evm': {
      // Loaded on first use, as generation loads them: viem, @ethereumjs and the Solidity model.
      const { estimatePlanEvmGas } = await import('./evm/gas.js');
      let e: Awaited<ReturnType<typeof estimatePlanEvmGas>>;
      try {
        e = await estimatePlanEvmGas(plan, {
          pool: deps.pool,
          signal: deps.signal,
          gasPriceGwei: deps.gasPriceGwei,
          measure: (m: EvmMeasureInput) =>
            deps.evm.run<EvmGasEstimate>('measure', m, {
              signal: deps.signal,
              timeoutMs: Math.min(deps.evm.timeoutMs, 15_000),
              onLimit: (kind, limit) =>
                new ApiError(
                  'SERVICE_BUSY',
                  `Executing the plan's contract ${kind === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`} and was stopped; the service is overloaded, retry later`,
                  undefined,
                  new Date(Date.now() + 30_000).toISOString(),
                ),
            }),
        });
      } catch (err) {
        throw underPlan(err);
      }
      return {
        estimate: { deployment: e.deployment, claim: e.claim, update: e.update, currency: e.currency },
        method: e.method,
        gasPriceGwei: e.gasPriceGwei,
        figures: e.figures,
        contractCode: e.contractCode,
      };
    }
    case 'ton': {
      const { shapeOf } = await import('./ton/shape.js');
      const { tonContractSource } = await import('./ton/contract.js');
      const source = tonContractSource(shapeOf(plan));
      return { ...(await deps.estimateSource('ton', source, plan.beneficiaries.length)), contractCode: source };
    }
    case 'solana': {
      const { buildProgramModel } = await import('./solana/program.js');
      const { printProgram } = await import('./solana/model.js');
      const { solanaShape } = await import('./solana/index.js');
      const source = printProgram(buildProgramModel(solanaShape(plan)));
      return { ...(await deps.estimateSource('solana', source, plan.beneficiaries.length)), contractCode: source };
    }
  }
}
