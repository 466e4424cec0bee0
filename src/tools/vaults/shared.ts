/** What the heir's vault tools share: the opened share, and an item as an heir sees it. */
import { z } from 'zod';
import type { GrantedAccess } from '../../accounts/grants.js';
import type { ToolContext } from '../define.js';
import { ItemSummarySchema } from './common.js';

/** Heirs read with a session, or a key with scope `vaults:read`, through a share they hold (the wrapper opens it). */
export const HEIR = {
  domain: 'vaults',
  scope: 'vaults:read',
  principals: ['session', 'key'],
  bucket: 'default',
  grant: 'read',
} as const;

export const HEIR_NOTE =
  'Needs an open share claimed by your account (claim_memoir_share; 404 unknown share, 403 SHARE_NOT_AVAILABLE while it is not open). ' +
  "Items show only once the owner's plan is released, and only those meant for your share's heir. Keys need scope `vaults:read`.";

/** The share the wrapper opened (always set for tools declaring `grant`). */
export function granted(ctx: ToolContext): GrantedAccess {
  if (!ctx.granted) throw new Error('a shared-vault tool must declare grant');
  return ctx.granted;
}

export const SharedItemSchema = ItemSummarySchema.omit({ heirs: true })
  .extend({ vaultName: z.string().describe("The vault's name.") })
  .describe('An item left for you.');
