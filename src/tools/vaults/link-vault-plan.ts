import { z } from 'zod';
import { linkVaultPlan } from '../../vaults/vaults.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';
import { EXAMPLE_VAULT, OWNER, PlanId, VaultId, VaultSchema, vaultDeps } from './common.js';

export const linkVaultPlanTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'link_vault_plan',
  title: 'Link a vault to a plan',
  description:
    "Links the vault to an inheritance plan linked for heirs' access (link_memoir_plan), or unlinks it (planId null). Its items then open through that plan's " +
    "shares, item by item to the heirs each names, once the plan's trigger is confirmed (its verification completed, or the chain's trigger of a watched plan); " +
    'a reported trigger alone opens nothing. Every item must name heirs of the plan (400 naming them). 404 for a vault or plan not in your account. ' +
    'Sends vault.updated. Keys need scope `vaults`.',
  annotations: WRITE_IDEMPOTENT,
  example: { vaultId: EXAMPLE_VAULT, planId: 'mhp_01JD0000000000000000000000' },
  input: z
    .strictObject({ vaultId: VaultId, planId: PlanId.nullable().describe('The plan (mhp_...), or null to unlink.') })
    .describe('The vault and plan.'),
  output: VaultSchema,
  rest: { method: 'PUT', path: '/vaults/:vaultId/plan', shape: 'data' },
  handler: (input, ctx) => linkVaultPlan(vaultDeps(ctx), input.vaultId, input.planId),
});
