import { z } from 'zod';
import { readSharedItem } from '../../vaults/shared.js';
import { defineTool, READ } from '../define.js';
import { EXAMPLE_ITEM, EXAMPLE_SHARE, ItemContentFields, ItemId, ShareId } from './common.js';
import { granted, HEIR, HEIR_NOTE, SharedItemSchema } from './shared.js';

export const getSharedVaultItemTool = defineTool({
  ...HEIR,
  name: 'get_shared_vault_item',
  title: 'Read a vault item left for you',
  description:
    'One vault item left for you, with its content: the text of a letter, or the bytes of a file (base64; a sealed item exactly as its owner encrypted it: open it ' +
    `with the passphrase they gave you). Each read is recorded for the owner (vault.accessed). 404 for an item not open to you. ${HEIR_NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ shareId: ShareId, itemId: ItemId }).describe('The share and item.'),
  output: SharedItemSchema.extend(ItemContentFields).describe('The item with its content.'),
  rest: { method: 'GET', path: '/vaults/shared/:shareId/items/:itemId', shape: 'data' },
  handler: async (input, ctx) => {
    const { item, fields } = await readSharedItem(granted(ctx), ctx.keyring, ctx.clock.now(), input.itemId, {
      accountId: ctx.principal.ownerId,
      via: 'read',
      dataDir: ctx.config.dataDir,
    });
    return { ...item, ...fields };
  },
});
