/**
 * The TON steps that run in a worker thread (see src/core/worker-pool.ts):
 * FunC compilation and the @ton/sandbox runs. Arguments and results are
 * structured-cloneable (plans in, strings and numbers out).
 */
import type { Plan } from '../plan.js';
import { estimateTonFees, generateTon, type TonGenerated } from './index.js';

type Progress = { progress: (value: unknown) => void };

export const tasks = {
  generate: (plan: Plan, { progress }: Progress): Promise<TonGenerated> =>
    generateTon(plan, (stage) => progress(stage)),
  estimate: (input: { contractCode?: string }) => estimateTonFees(input),
};

export type TonTasks = typeof tasks;
