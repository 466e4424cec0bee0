import { z } from 'zod';
import { cataloguePageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { catalogueOf } from '../../credits/catalogue.js';
import { paymentsGateway } from '../../credits/stripe.js';
import { packsView, PacksOutput } from '../../credits/views.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';
import { creditRoute } from './common.js';

export const listCreditPacksTool = defineTool({
  name: 'list_credit_packs',
  example: {},
  title: 'List credit packs and prices',
  description:
    'The credit packs on sale (credits, price in minor units, currency) and what each paid action costs in credits (chat message, ' +
    'media inference per minute, voice per second, animated portrait per second), so a user knows the cost before spending. Session; REST only.',
  domain: 'credits',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({ ...cataloguePageInput }).describe('Paging of the packs (all of them by default).'),
  output: PacksOutput.extend({ pagination: OffsetPageMetaSchema }).describe(
    'Credit packs (of this page) and the whole price list.',
  ),
  rest: creditRoute('GET', 'packs', { metaFields: ['pagination'] }),
  handler: (input, ctx) => {
    // A photo description is on the price list only where a vision model (the configured LLM provider) can give one.
    const view = packsView(
      catalogueOf(ctx.config),
      paymentsGateway(ctx.config.payments) !== undefined,
      ctx.config.llm !== undefined,
    );
    const page = paginateOffset(view.packs, input.page, input.limit);
    return { ...view, packs: page.items, pagination: page.pagination };
  },
});
