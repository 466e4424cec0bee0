import { estimateCosts, EstimateInput, EstimateOutput } from '../../contracts/engine.js';
import { defineTool, READ } from '../define.js';

export const estimateGas = defineTool({
  name: 'estimate_gas',
  example: { blockchain: 'solana', beneficiaries: 3 },
  title: 'Estimate gas and fees',
  description:
    'Estimates the cost of deploying a contract, of one claim and of an update. evm: compiles and runs the contract in an in-process EVM ' +
    'and prices the measured gas (deployed with as many sample beneficiaries as the code fixes or deploys it with (a fixed-size constructor list, or a constructor call in the code such as a deploy script), else `beneficiaries`, default 3, and `method` says which; updates to as many, twice as many and half as many new ones); ton: measured in the TON sandbox; solana: rent-exempt deposits from account sizes, signature fees and ' +
    "compute units, each marked computed or assumed. With plan (the input generate_contract takes), the plan's own contract is built in " +
    "memory and measured, on evm with the plan's own constructor arguments, and its source is answered: nothing is stored and no event " +
    'is sent. Without contractCode or plan the default contract is measured. No network is asked.',
  domain: 'contracts',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: EstimateInput,
  output: EstimateOutput,
  rest: { method: 'POST', path: '/contracts/estimate-gas', shape: 'top-level', extraStatuses: [503] },
  cancellable: true,
  handler: (input, ctx) => estimateCosts(input, { engine: ctx.contracts, signal: ctx.signal }),
});
