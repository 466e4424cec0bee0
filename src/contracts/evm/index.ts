/**
 * EVM contract engine (domain layer): Solidity built from a model per shape,
 * compiled in a solc worker pool, executed in @ethereumjs/vm before delivery,
 * gas measured by execution.
 */
export { SolcPool, COMPILER_SETTINGS } from './pool.js';
export type { SolcCompileOutput, CompilerMessage, SolcPoolOptions, CompileOptions } from './pool.js';
export { compileContract } from './compile.js';
export type { CompileContractResult } from './compile.js';
export { generateEvm, warmUpEvm, describeGas, EVM_NETWORK } from './generate.js';
export type { EvmGenerated } from './generate.js';
export { estimateEvmGas, sampleArgs, DEFAULT_GAS_PRICE_GWEI, DEFAULT_GAS_SHAPE } from './gas.js';
export type { EvmGasEstimate } from './gas.js';
export { shapeOf, shapeKey, allShapes, shapeFeatures } from './shape.js';
export type { EvmShape } from './shape.js';
export { contractSource, contractName, buildContractModel, SOLC_VERSION, MAX_BENEFICIARIES } from './contract.js';
export { planInputs, constructorArgs, toBasisPoints } from './inputs.js';
export type { ConstructorInputs } from './inputs.js';
export { analyzeAst, securityScore } from './analysis.js';
export type { Finding } from './analysis.js';
export { EvmSandbox, intrinsicGas } from './vm.js';
export { VM_HARDFORK } from './hardfork.js';
export { printSource } from './solidity.js';
