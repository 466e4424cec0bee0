import { paymentsGateway } from '../../credits/stripe.js';
import { EmptyInput, packsView, PacksOutput } from '../../credits/views.js';
import { defineTool } from '../define.js';
import { creditRoute, SESSION_CREDIT_TOOL } from './common.js';

export const listCreditPacksTool = defineTool({
  name: 'list_credit_packs',
  example: {},
  title: 'List credit packs and prices',
  description:
    'The credit packs on sale (credits, price in minor units, currency) and what each paid action costs in credits (chat message, ' +
    'media inference per minute, voice per second, avatar per second), so a user knows the cost before spending. Session; REST only.',
  ...SESSION_CREDIT_TOOL,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: EmptyInput,
  output: PacksOutput,
  rest: creditRoute('GET', 'packs'),
  handler: (_input, ctx) => packsView(ctx.config.credits, paymentsGateway(ctx.config.payments) !== undefined),
});
