import { z } from 'zod';
import { fileDownloadOutput } from '../file-output.js';
import { readSharedItem } from '../../vaults/shared.js';
import { defineTool, READ } from '../define.js';
import { downloadOf, EXAMPLE_ITEM, EXAMPLE_SHARE, ItemId, ITEM_FILE_SUCCESS, itemFile, ShareId } from './common.js';
import { granted, HEIR, HEIR_NOTE } from './shared.js';

export const downloadSharedVaultItemTool = defineTool({
  ...HEIR,
  mcp: false,
  name: 'download_shared_vault_item',
  title: 'Download a vault item left for you',
  description:
    'A vault item left for you as a file download, with the media type it was stored with (a letter as text/plain; a sealed item exactly as its owner encrypted it). ' +
    `Each download is recorded for the owner (vault.accessed). 404 for an item not open to you. REST only (MCP clients use get_shared_vault_item). ${HEIR_NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ shareId: ShareId, itemId: ItemId }).describe('The share and item.'),
  output: fileDownloadOutput('The content, sent as the body as it is read; never serialised.'),
  rest: {
    method: 'GET',
    path: '/vaults/shared/:shareId/items/:itemId/download',
    shape: 'data',
    extraStatuses: [404],
    file: itemFile,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'shareId',
          required: true,
          description: 'A share you hold (shr_...), open now.',
          schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_SHARE,
        },
        {
          in: 'path',
          name: 'itemId',
          required: true,
          description: 'The item (vit_...).',
          schema: { type: 'string', pattern: '^vit_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_ITEM,
        },
      ],
      success: ITEM_FILE_SUCCESS,
    },
  },
  handler: async (input, ctx) => {
    const { item, stream } = await readSharedItem(granted(ctx), ctx.keyring, ctx.clock.now(), input.itemId, {
      accountId: ctx.principal.ownerId,
      via: 'download',
      dataDir: ctx.config.dataDir,
    });
    return downloadOf(item, stream);
  },
});
