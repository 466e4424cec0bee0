import type { Tier } from '../../accounts/scopes.js';
import type { WebhookDeps } from '../../webhooks/index.js';
import type { ToolContext } from '../define.js';

/** Webhooks need the webhooks scope and a partner or internal key. */
export const WEBHOOK_TIERS: readonly Tier[] = ['partner', 'internal'];

export function webhookDeps(ctx: ToolContext): WebhookDeps {
  return {
    store: ctx.store,
    clock: ctx.clock,
    keyring: ctx.keyring,
    cursors: ctx.cursors,
    log: ctx.log,
    allow: ctx.config.webhookAllow,
  };
}
