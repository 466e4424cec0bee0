import { grantCredits, GrantCreditsInput, GrantCreditsOutput } from '../../credits/ledger.js';
import { defineTool, OPERATOR_TOOL, WRITE } from '../define.js';
import { accountDeps } from '../accounts/common.js';

export const grantCreditsTool = defineTool({
  name: 'grant_credits',
  example: { id: 'acct_01JD0000000000000000000000', amount: 100, reason: 'goodwill after an outage' },
  title: 'Grant or adjust credits',
  description:
    'Adds credits to an account (or takes them away with a negative amount, never below zero: 402 INSUFFICIENT_CREDITS) with a reason; ' +
    'every grant is a ledger entry. Works without Stripe. idempotencyKey makes a retry safe (the same key for another amount or reason is a 409). Operator only (internal key, scope users).',
  ...OPERATOR_TOOL,
  domain: 'credits',
  scope: 'users',
  annotations: WRITE,
  input: GrantCreditsInput,
  output: GrantCreditsOutput,
  rest: { method: 'POST', path: '/accounts/:id/credits', shape: 'data', status: 201, extraStatuses: [402, 409] },
  handler: (input, ctx) => grantCredits(accountDeps(ctx).system, ctx.clock, input, ctx.principal.keyId),
});
