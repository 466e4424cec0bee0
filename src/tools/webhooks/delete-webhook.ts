import { deleteWebhook, DeleteWebhookOutput, WebhookIdInput } from '../../webhooks/index.js';
import { defineTool, DELETE } from '../define.js';
import { everyAccountSubscription, WEBHOOK_TIERS, webhookDeps } from './common.js';

export const deleteWebhookTool = defineTool({
  name: 'delete_webhook',
  example: { id: 'wh_01M89NZVSK4RA0343PNJQFCVBG' },
  title: 'Delete a webhook subscription',
  description: 'Deletes a subscription; its pending deliveries are cancelled.',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: DELETE,
  input: WebhookIdInput.strict(),
  output: DeleteWebhookOutput,
  rest: { method: 'DELETE', path: '/webhooks/subscriptions/:id', shape: 'data' },
  operatorInput: everyAccountSubscription,
  handler: (input, ctx) => deleteWebhook(webhookDeps(ctx), ctx.principal.ownerId, input.id),
});
