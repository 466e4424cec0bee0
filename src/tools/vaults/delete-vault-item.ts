import { z } from 'zod';
import { deleteItem } from '../../vaults/vaults.js';
import { DELETE, defineTool } from '../define.js';
import { EXAMPLE_ITEM, EXAMPLE_VAULT, ItemId, OWNER, VaultId, vaultDeps } from './common.js';

export const deleteVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'delete_vault_item',
  title: 'Delete a vault item',
  description:
    'Deletes one item for good; the storage a file took is free at once. Sends vault.updated. 404 for a vault or item not in your account. Keys need scope `vaults`.',
  annotations: DELETE,
  example: { vaultId: EXAMPLE_VAULT, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ vaultId: VaultId, itemId: ItemId }).describe('The vault and item.'),
  output: z.object({ deleted: z.literal(true).describe('Always true.') }).describe('The item is gone.'),
  rest: { method: 'DELETE', path: '/vaults/:vaultId/items/:itemId', shape: 'data' },
  handler: (input, ctx) => deleteItem(vaultDeps(ctx), input.vaultId, input.itemId),
});
