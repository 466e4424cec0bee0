import { z } from 'zod';
import { updateItem } from '../../vaults/vaults.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';
import {
  EXAMPLE_HEIR,
  EXAMPLE_ITEM,
  EXAMPLE_VAULT,
  Heirs,
  ItemId,
  ItemSummarySchema,
  OWNER,
  Text,
  Title,
  VaultId,
  vaultDeps,
} from './common.js';

export const updateVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'update_vault_item',
  title: 'Change a vault item',
  description:
    "Changes an item's title, its heirs, or the text of a text item (a file is replaced by deleting it and adding another: 400 for text on a file). " +
    'Fields left out stay as they are. Sends vault.updated. 404 for a vault or item not in your account. Keys need scope `vaults`.',
  annotations: WRITE_IDEMPOTENT,
  example: { vaultId: EXAMPLE_VAULT, itemId: EXAMPLE_ITEM, title: 'To Ana, with love', heirs: [EXAMPLE_HEIR] },
  input: z
    .strictObject({
      vaultId: VaultId,
      itemId: ItemId,
      title: Title.optional(),
      text: Text.optional(),
      heirs: Heirs.optional(),
    })
    .describe('The item and what changes.'),
  output: ItemSummarySchema,
  rest: { method: 'PATCH', path: '/vaults/:vaultId/items/:itemId', shape: 'data' },
  handler: (input, ctx) => updateItem(vaultDeps(ctx), input.vaultId, input.itemId, input),
});
