import type { CompilerMessage, SolcPool } from './pool.js';

export interface CompileContractResult {
  success: true;
  contractName: string;
  compiled: { abi: unknown[]; bytecode: `0x${string}` };
  warnings: CompilerMessage[];
}

/**
 * `compile_contract` for arbitrary Solidity: ABI and bytecode plus the
 * compiler's warnings. Compile errors throw VALIDATION_ERROR with located
 * details (field `sourceCode`); an oversized source PAYLOAD_TOO_LARGE; a
 * compile over the time limit VALIDATION_ERROR (the worker is replaced).
 */
export async function compileContract(
  input: { sourceCode: string; contractName?: string },
  deps: { pool: SolcPool; signal?: AbortSignal | undefined },
): Promise<CompileContractResult> {
  const out = await deps.pool.compile(input.sourceCode, {
    ...(input.contractName ? { contractName: input.contractName } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  return {
    success: true,
    contractName: out.contractName,
    compiled: { abi: out.abi, bytecode: out.bytecode },
    warnings: out.warnings,
  };
}
