import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { listVaults } from '../../vaults/vaults.js';
import { defineTool, READ } from '../define.js';
import { OWNER, VaultSummarySchema, vaultDeps } from './common.js';

export const listVaultsTool = defineTool({
  ...OWNER,
  scope: 'vaults:read',
  name: 'list_vaults',
  title: 'List your vaults',
  description:
    "Your account's vaults, newest first, offset-paged, with their linked plan and whether they are released. Keys need scope `vaults:read`.",
  annotations: READ,
  example: { page: 1, limit: 20 },
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({
      items: z.array(VaultSummarySchema).describe('The vaults on this page.'),
      pagination: OffsetPageMetaSchema,
    })
    .describe('A page of vaults.'),
  rest: { method: 'GET', path: '/vaults', shape: 'list' },
  handler: async (input, ctx) => paginateOffset(await listVaults(vaultDeps(ctx)), input.page, input.limit),
});
