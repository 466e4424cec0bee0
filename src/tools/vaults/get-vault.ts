import { z } from 'zod';
import { getVault } from '../../vaults/vaults.js';
import { defineTool, READ } from '../define.js';
import { EXAMPLE_VAULT, OWNER, VaultId, VaultSchema, vaultDeps } from './common.js';

export const getVaultTool = defineTool({
  ...OWNER,
  scope: 'vaults:read',
  name: 'get_vault',
  title: 'Read a vault',
  description:
    "A vault with its items (titles, heirs, types and sizes; read an item's content with get_vault_item) and, once its plan has released it, " +
    "the log of the heirs' reads. 404 for a vault not in your account. Keys need scope `vaults:read`.",
  annotations: READ,
  example: { vaultId: EXAMPLE_VAULT },
  input: z.strictObject({ vaultId: VaultId }).describe('The vault.'),
  output: VaultSchema,
  rest: { method: 'GET', path: '/vaults/:vaultId', shape: 'data' },
  handler: (input, ctx) => getVault(vaultDeps(ctx), input.vaultId),
});
