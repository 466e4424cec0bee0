/**
 * The time a contract job may run, scaled with its plan. A pool's configured limit (30 s for the EVM execution and
 * the TON compile-and-run) is meant for plans of the usual size: up to 10 beneficiaries and 2 assets. Each
 * beneficiary and asset beyond that adds its own messages to the scenario the job runs (a payout per beneficiary, a
 * transfer per asset and beneficiary), so one constant either cuts the largest plans off on a busy machine or lets a
 * stuck small job hold a worker for long. The limit grows with the plan, to 3 times the pool's at the largest plan
 * the schema accepts (50 beneficiaries, 10 assets), and never below the pool's own.
 */

/** Beneficiaries and assets the pool's own limit is meant for. */
export const USUAL_BENEFICIARIES = 10;
export const USUAL_ASSETS = 2;
/** Share of the pool's limit added per beneficiary and per asset beyond the usual plan. */
const PER_BENEFICIARY = 1 / 40;
const PER_ASSET = 1 / 8;

interface SizedPlan {
  beneficiaries: readonly unknown[];
  assets?: readonly unknown[] | undefined;
}

/** The time limit in ms for a job on `plan`, from the pool's limit `baseMs`. */
export function planTimeLimitMs(baseMs: number, plan: SizedPlan): number {
  const extraBeneficiaries = Math.max(0, plan.beneficiaries.length - USUAL_BENEFICIARIES);
  const extraAssets = Math.max(0, (plan.assets?.length ?? 0) - USUAL_ASSETS);
  return Math.round(baseMs * (1 + extraBeneficiaries * PER_BENEFICIARY + extraAssets * PER_ASSET));
}
