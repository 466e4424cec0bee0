import { z } from 'zod';
import { deleteVault } from '../../vaults/vaults.js';
import { DELETE, defineTool } from '../define.js';
import { EXAMPLE_VAULT, OWNER, VaultId, vaultDeps } from './common.js';

export const deleteVaultTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'delete_vault',
  title: 'Delete a vault',
  description:
    'Deletes a vault with all its items and its access log, for good; the storage its files took is free at once. Sends vault.deleted. ' +
    '404 for a vault not in your account. Keys need scope `vaults`.',
  annotations: DELETE,
  example: { vaultId: EXAMPLE_VAULT },
  input: z.strictObject({ vaultId: VaultId }).describe('The vault.'),
  output: z
    .object({
      deleted: z.literal(true).describe('Always true.'),
      itemsDeleted: z.number().int().describe('Items deleted with it.'),
    })
    .describe('The vault is gone.'),
  rest: { method: 'DELETE', path: '/vaults/:vaultId', shape: 'data' },
  handler: (input, ctx) => deleteVault(vaultDeps(ctx), input.vaultId),
});
