import type { Tier } from '../../accounts/scopes.js';
import { WEBHOOKS, type WebhookDeps, type WebhookRecord } from '../../webhooks/index.js';
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

/**
 * Whether `id` names one of the caller's subscriptions to every account's events (`accounts: "*"`): changing,
 * rotating or deleting it is an operator's act like creating it, so the wrapper then asks for scope `all`
 * (`operatorInput`). Another account's id reads as nothing here and answers 404 in the handler.
 */
export async function everyAccountSubscription(input: { id: string }, ctx: ToolContext): Promise<boolean> {
  return (await ctx.store.get<WebhookRecord>(WEBHOOKS, input.id))?.accounts === '*';
}
