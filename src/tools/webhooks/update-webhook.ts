import { updateWebhook, UpdateWebhookInput, WebhookSchema } from '../../webhooks/index.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';
import { everyAccountSubscription, WEBHOOK_TIERS, webhookDeps } from './common.js';

export const updateWebhookTool = defineTool({
  name: 'update_webhook',
  example: { id: 'wh_01M89NZVSK4RA0343PNJQFCVBG', events: ['*'], status: 'paused' },
  title: 'Update a webhook subscription',
  description:
    'Changes the events, URL, name or status of a subscription. `status: active` resumes a paused one and re-enables a disabled one.',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: WRITE_IDEMPOTENT,
  input: UpdateWebhookInput.strict(),
  output: WebhookSchema,
  rest: { method: 'PATCH', path: '/webhooks/subscriptions/:id', shape: 'data' },
  operatorInput: everyAccountSubscription,
  handler: ({ id, ...patch }, ctx) => updateWebhook(webhookDeps(ctx), ctx.principal.ownerId, id, patch),
});
