import { regenerateSecret, RegenerateSecretInput, RegenerateSecretOutput } from '../../webhooks/index.js';
import { defineTool, DESTRUCTIVE } from '../define.js';
import { everyAccountSubscription, WEBHOOK_TIERS, webhookDeps } from './common.js';

export const regenerateWebhookSecretTool = defineTool({
  name: 'regenerate_webhook_secret',
  example: { id: 'wh_01M89NZVSK4RA0343PNJQFCVBG' },
  title: "Regenerate a webhook's signing secret",
  description:
    'Replaces the signing secret and returns the new one once (over REST in meta.secret). With graceSeconds, deliveries carry signatures ' +
    'with both secrets for that long, so receivers can switch without losing events.',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: DESTRUCTIVE,
  input: RegenerateSecretInput.strict(),
  output: RegenerateSecretOutput,
  rest: {
    method: 'POST',
    path: '/webhooks/subscriptions/:id/regenerate-secret',
    shape: 'data',
    dataField: 'webhook',
    metaFields: ['secret', 'warning'],
  },
  operatorInput: everyAccountSubscription,
  handler: ({ id, graceSeconds }, ctx) =>
    regenerateSecret(webhookDeps(ctx), ctx.principal.ownerId, id, graceSeconds !== undefined ? { graceSeconds } : {}),
});
