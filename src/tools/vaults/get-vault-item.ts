import { z } from 'zod';
import { getItem } from '../../vaults/vaults.js';
import { defineTool, READ } from '../define.js';
import {
  EXAMPLE_ITEM,
  EXAMPLE_VAULT,
  ItemContentFields,
  ItemId,
  ItemSummarySchema,
  OWNER,
  VaultId,
  vaultDeps,
} from './common.js';

export const getVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults:read',
  name: 'get_vault_item',
  title: 'Read a vault item',
  description:
    'One item of your vault with its content: the text of a letter, or the bytes of a file (base64; a sealed item as the owner encrypted it). ' +
    '404 for a vault or item not in your account. Keys need scope `vaults:read`.',
  annotations: READ,
  example: { vaultId: EXAMPLE_VAULT, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ vaultId: VaultId, itemId: ItemId }).describe('The vault and item.'),
  output: ItemSummarySchema.extend(ItemContentFields).describe('The item with its content.'),
  rest: { method: 'GET', path: '/vaults/:vaultId/items/:itemId', shape: 'data' },
  handler: (input, ctx) => getItem(vaultDeps(ctx), input.vaultId, input.itemId),
});
