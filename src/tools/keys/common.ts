import { z } from 'zod';
import type { Tier } from '../../accounts/scopes.js';

/** Key management needs a partner or internal key (public keys: 403 TIER_NOT_ALLOWED). */
export const KEY_MANAGER_TIERS: readonly Tier[] = ['partner', 'internal'];

export const KeyIdInput = z
  .strictObject({ id: z.string().min(1).max(64).describe('Key id, `key_<id>`.') })
  .describe('Which key.');
