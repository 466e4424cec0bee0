/**
 * The Solana steps that run in a worker thread (see src/core/worker-pool.ts):
 * generation (tree-sitter parse and checks of the program) and the estimate
 * of client Rust source. Arguments and results are structured-cloneable.
 */
import type { Plan } from '../plan.js';
import { estimateSolana, generateSolana, type SolanaGenerated } from './index.js';

type Progress = { progress: (value: unknown) => void };

export const tasks = {
  generate: (plan: Plan, { progress }: Progress): Promise<SolanaGenerated> =>
    generateSolana(plan, (stage) => progress(stage)),
  estimate: (input: { contractCode?: string; beneficiaries?: number }) => estimateSolana(input),
};
