import { GenerateInput, ValidatePlanOutput, validateForGeneration } from '../../contracts/engine.js';
import { defineTool, READ } from '../define.js';

export const validatePlanTool = defineTool({
  name: 'validate_plan',
  example: {
    blockchain: 'evm',
    ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
    beneficiaries: [
      { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
      { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
    ],
  },
  title: 'Validate a plan without generating',
  description:
    'Runs every check generate_contract makes before building, and nothing else: addresses valid for the chain, percentages summing to ' +
    "100, the dead man's switch or guardians, and the template's (and optional jurisdiction's) law. Problems answer VALIDATION_ERROR " +
    'with one detail per field, exactly as generate_contract would; a valid plan answers its warnings. Cheap: nothing is compiled. ' +
    'The contract wizard checks shares with it as they are typed.',
  domain: 'contracts',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: GenerateInput,
  output: ValidatePlanOutput,
  rest: { method: 'POST', path: '/contracts/validate', shape: 'data' },
  handler: (input, ctx) => validateForGeneration(input, ctx.jurisdictions),
});
