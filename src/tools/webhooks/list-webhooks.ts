import { z } from 'zod';
import { listWebhooks, ListWebhooksOutput } from '../../webhooks/index.js';
import { defineTool } from '../define.js';
import { WEBHOOK_TIERS, webhookDeps } from './common.js';

export const listWebhooksTool = defineTool({
  name: 'list_webhooks',
  example: {},
  title: 'List webhook subscriptions',
  description: "Lists the account's webhook subscriptions with their status and delivery counters (never their secrets).",
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}).describe('No input.'),
  output: ListWebhooksOutput,
  rest: { method: 'GET', path: '/webhooks/subscriptions', shape: 'list' },
  handler: async (_input, ctx) => ({ items: await listWebhooks(webhookDeps(ctx), ctx.principal.ownerId) }),
});
