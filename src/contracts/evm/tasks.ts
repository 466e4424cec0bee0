/**
 * The EVM steps that run in a worker thread (see src/core/worker-pool.ts):
 * the execution check of a generated contract and the gas measurement, both
 * in @ethereumjs/vm. (Compiling runs in the solc pool.) Arguments and results
 * are structured-cloneable.
 */
import { measureEvmGas, type EvmMeasureInput } from './gas.js';
import { runEvmScenario, type EvmScenarioInput } from './generate.js';

export const tasks = {
  scenario: (s: EvmScenarioInput) => runEvmScenario(s),
  measure: (m: EvmMeasureInput) => measureEvmGas(m),
};
