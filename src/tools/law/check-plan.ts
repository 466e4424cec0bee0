import { checkPlan, CheckPlanInput, CheckPlanOutput } from '../../law/check-plan.js';
import { defineTool, READ } from '../define.js';

export const checkPlanTool = defineTool({
  name: 'check_plan',
  example: {
    jurisdiction: 'fr',
    template: 'civil-law',
    beneficiaries: [
      { name: 'Anne', percentage: 30, relationship: 'daughter' },
      { name: 'Paul', percentage: 30, relationship: 'son' },
      { name: 'A friend', percentage: 40, relationship: 'friend' },
    ],
  },
  title: 'Check a plan against inheritance law',
  description:
    "Checks beneficiaries and their percentages against a jurisdiction's law and the plan's template: forced-heirship reserves, a spouse's " +
    "elective or community-property share, where Islamic law applies, and for the Islamic templates the fara'id shares and the one-third " +
    'limit on bequests. Each finding has a severity, the rule and its legal source. generate_contract applies the same checks.',
  domain: 'inheritance',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: CheckPlanInput,
  output: CheckPlanOutput,
  rest: { method: 'POST', path: '/inheritance/check', shape: 'data' },
  handler: (input, ctx) => checkPlan(ctx.jurisdictions, input),
});
