import { z } from 'zod';
import { compileContract as compileSolidity } from '../../contracts/evm/compile.js';
import { defineTool, READ } from '../define.js';

const MessageSchema = z
  .object({
    severity: z.enum(['error', 'warning', 'info']).describe('Severity given by solc.'),
    message: z.string().describe('The compiler message.'),
    line: z.number().int().optional().describe('Line, 1-based.'),
    column: z.number().int().optional().describe('Column, 1-based.'),
  })
  .describe('A compiler message.');

export const compileContract = defineTool({
  name: 'compile_contract',
  example: {
    blockchain: 'evm',
    sourceCode:
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Hello { function hi() external pure returns (uint256) { return 42; } }\n',
  },
  title: 'Compile Solidity',
  description:
    'Compiles Solidity (solc 0.8, optimizer on) to ABI and bytecode. Only @openzeppelin/contracts imports resolve. Compile errors answer ' +
    'VALIDATION_ERROR with line, column and message in details; warnings are returned alongside the result.',
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({
      sourceCode: z.string().min(1).max(500_000).describe('Solidity source (at most 500 kB).'),
      blockchain: z.literal('evm').describe('Must be "evm".'),
      contractName: z
        .string()
        .max(100)
        .optional()
        .describe('Which contract to return when the source has several (default: the last one).'),
    })
    .describe('Source to compile.'),
  output: z
    .object({
      compiled: z
        .object({
          contractName: z.string().describe('The compiled contract.'),
          abi: z.array(z.unknown().describe('ABI entry.')).describe('The ABI.'),
          bytecode: z.string().describe('Creation bytecode, 0x-prefixed.'),
        })
        .describe('Compiler output.'),
      warnings: z.array(MessageSchema).describe("The compiler's warnings."),
    })
    .describe('Compilation result.'),
  cancellable: true,
  rest: { method: 'POST', path: '/contracts/compile', shape: 'top-level', extraStatuses: [503] },
  handler: async (input, ctx) => {
    const out = await compileSolidity(input, { pool: ctx.contracts.pool, signal: ctx.signal });
    return {
      compiled: { contractName: out.contractName, ...out.compiled },
      warnings: out.warnings.map(({ formatted: _f, ...w }) => w),
    };
  },
});
