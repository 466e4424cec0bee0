import { z } from 'zod';
import { createVault, VAULT_LIMITS } from '../../vaults/vaults.js';
import { defineTool, WRITE } from '../define.js';
import { OWNER, VaultSchema, vaultDeps } from './common.js';

export const createVaultTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'create_vault',
  title: 'Create a vault',
  description:
    'Creates a vault for letters, documents and instructions to leave to heirs. Everything in it is encrypted at rest with a key of its own. ' +
    `Link it to a plan with link_vault_plan so its items open to their heirs after the plan's trigger is confirmed. At most ${VAULT_LIMITS.vaultsPerAccount} vaults (409). ` +
    'Sends vault.created. Keys need scope `vaults`.',
  annotations: WRITE,
  example: { name: 'For the children' },
  input: z
    .strictObject({
      name: z.string().min(1).max(VAULT_LIMITS.name).describe(`Name, 1 to ${VAULT_LIMITS.name} characters.`),
    })
    .describe('The new vault.'),
  output: VaultSchema,
  rest: { method: 'POST', path: '/vaults', shape: 'data', status: 201, extraStatuses: [409] },
  handler: (input, ctx) => createVault(vaultDeps(ctx), input),
});
