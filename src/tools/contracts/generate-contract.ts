import { generateContract, GenerateInput, GenerateOutput } from '../../contracts/engine.js';
import { defineTool } from '../define.js';

export const generateContractTool = defineTool({
  name: 'generate_contract',
  title: 'Generate an inheritance contract',
  description:
    "Generates an inheritance smart contract for evm (Solidity), solana (Anchor) or ton (FunC) from an owner, beneficiaries with percentages " +
    "summing to 100, a template and an optional dead man's switch, guardians and assets. The plan is validated and checked against its " +
    "template's law (islamic-mirth shares must equal the fara'id result). EVM contracts are compiled and executed in an in-process EVM, TON " +
    'contracts compiled and run in the TON sandbox, Solana programs parsed and structurally checked, before anything is returned; gas and ' +
    'fees are measured.',
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'generation',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: GenerateInput,
  output: GenerateOutput,
  rest: { method: 'POST', path: '/contracts/generate', shape: 'top-level' },
  handler: (input, ctx) => generateContract(input, ctx.principal.ownerId, { engine: ctx.contracts, store: ctx.store, clock: ctx.clock, log: ctx.log, jurisdictions: ctx.jurisdictions }),
});
