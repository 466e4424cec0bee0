import { generateContract, GenerateInput, GenerateOutput, type EngineDeps } from '../../contracts/engine.js';
import { MAX_CONTRACTS_PER_ACCOUNT } from '../../contracts/stored.js';
import { queueWizardCallback } from '../../embed/callback.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';

export const generateContractTool = defineTool({
  name: 'generate_contract',
  example: {
    blockchain: 'evm',
    ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
    beneficiaries: [
      { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
      { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
    ],
    deadMansSwitch: { enabled: true, intervalDays: 180 },
  },
  title: 'Generate an inheritance contract',
  description:
    'Generates an inheritance smart contract for evm (Solidity), solana (Anchor) or ton (FunC) from an owner, beneficiaries with percentages ' +
    "summing to 100, a template and an optional dead man's switch, guardians and assets. The plan is validated and checked against its " +
    "template's law (islamic-mirth shares must equal the fara'id result). EVM contracts are compiled and executed in an in-process EVM, TON " +
    'contracts compiled and run in the TON sandbox, Solana programs parsed and structurally checked, before anything is returned; gas and ' +
    'fees are measured. The contract is stored for the account and the answer carries its id (ctr_...), for get_contract and ' +
    `list_contracts; an account keeps at most ${MAX_CONTRACTS_PER_ACCOUNT} contracts (one more answers 409 CONFLICT).`,
  domain: 'contracts',
  scope: 'contracts',
  principals: ['key', 'embed'],
  bucket: 'generation',
  annotations: WRITE_IDEMPOTENT,
  input: GenerateInput,
  output: GenerateOutput,
  rest: { method: 'POST', path: '/contracts/generate', shape: 'top-level', extraStatuses: [409, 503] },
  cancellable: true,
  handler: async (input, ctx) => {
    // Stages as progress (validate, law check, compile, execute, measure): the
    // first is seen here, the rest come from the engine's onStage; a stage the
    // engine repeats is reported once.
    let last: string | undefined;
    const stage = (s: string) => {
      if (s === last) return;
      last = s;
      ctx.progress(s);
    };
    stage('validate');
    const deps: EngineDeps & { onStage?: (stage: string) => void } = {
      engine: ctx.contracts,
      store: ctx.store,
      clock: ctx.clock,
      log: ctx.log,
      jurisdictions: ctx.jurisdictions,
      signal: ctx.signal,
      embedSessionId: ctx.principal.kind === 'embed' ? ctx.principal.embedSessionId : undefined,
      onStage: stage,
    };
    const output = await generateContract(input, ctx.principal.ownerId, deps);
    // A wizard session with a callback: the result is also POSTed there, through the webhook outbox (src/embed/callback.ts).
    await queueWizardCallback(ctx.store, ctx.principal, output, ctx.clock);
    return output;
  },
});
