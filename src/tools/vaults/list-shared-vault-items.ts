import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { sharedItems } from '../../vaults/shared.js';
import { defineTool, READ } from '../define.js';
import { EXAMPLE_SHARE, ShareId } from './common.js';
import { granted, HEIR, HEIR_NOTE, SharedItemSchema } from './shared.js';

export const listSharedVaultItemsTool = defineTool({
  ...HEIR,
  name: 'list_shared_vault_items',
  title: 'List the vault items left for you',
  description: `The vault items the owner of a share you hold left for you, offset-paged (titles, types and sizes; read one with get_shared_vault_item). Empty before release. ${HEIR_NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, page: 1, limit: 20 },
  input: z.strictObject({ shareId: ShareId, ...offsetPageInput }).describe('The share and paging.'),
  output: z
    .object({ items: z.array(SharedItemSchema).describe('The items on this page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of items.'),
  rest: { method: 'GET', path: '/vaults/shared/:shareId/items', shape: 'list' },
  handler: async (input, ctx) =>
    paginateOffset(await sharedItems(granted(ctx), ctx.keyring, ctx.clock.now()), input.page, input.limit),
});
