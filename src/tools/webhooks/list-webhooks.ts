import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { listWebhooks, ListWebhooksOutput } from '../../webhooks/index.js';
import { defineTool, READ } from '../define.js';
import { WEBHOOK_TIERS, webhookDeps } from './common.js';

export const listWebhooksTool = defineTool({
  name: 'list_webhooks',
  example: { page: 1, limit: 20 },
  title: 'List webhook subscriptions',
  description:
    "Lists the account's webhook subscriptions with their status and delivery counters (never their secrets), oldest first, paged.",
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: ListWebhooksOutput.extend({ pagination: OffsetPageMetaSchema }).describe('A page of subscriptions.'),
  rest: { method: 'GET', path: '/webhooks/subscriptions', shape: 'list' },
  handler: async (input, ctx) =>
    paginateOffset(await listWebhooks(webhookDeps(ctx), ctx.principal.ownerId), input.page, input.limit),
});
