/**
 * The EVM steps that run in a worker thread (see src/core/worker-pool.ts):
 * the execution check of a generated contract and the gas measurement, both
 * in @ethereumjs/vm. (Compiling runs in the solc pool.) Arguments and results
 * are structured-cloneable.
 */
import { measureEvmGas, type EvmMeasureInput } from './gas.js';
import type { EvmScenarioInput } from './generate.js';
// Loaded with the worker (a warmed worker has the VM ready), not on the first run.
import { runGenerationScenario } from './scenario.js';

export const tasks = {
  scenario: (s: EvmScenarioInput) => runGenerationScenario(s.compiled, s.shape, s.inputs, s.deployData, s.mocks),
  measure: (m: EvmMeasureInput) => measureEvmGas(m),
};
