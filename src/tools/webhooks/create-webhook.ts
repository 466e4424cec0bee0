import { createWebhook, CreateWebhookInput, CreateWebhookOutput } from '../../webhooks/index.js';
import { defineTool, OUTBOUND } from '../define.js';
import { WEBHOOK_TIERS, webhookDeps } from './common.js';

export const createWebhookTool = defineTool({
  name: 'create_webhook',
  example: {
    url: 'https://hooks.example.com/svc',
    name: 'contract events',
    events: ['contract.generated', 'api_key.created'],
  },
  title: 'Subscribe to events with a webhook',
  description:
    'Creates a webhook subscription: signed HTTPS POSTs for the chosen events (or `*` for all), retried 5 times (0, 1, 2, 4, 8 s) and ' +
    'never lost. Accepts shape A (url, name, events) or shape B (event, url, secret?, status?). The generated secret (whsec_...) is ' +
    'returned once; over REST it is in meta.secret. The URL must be HTTPS and resolve to a public address.',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: OUTBOUND,
  input: CreateWebhookInput.strict(),
  output: CreateWebhookOutput,
  // `accounts: "*"` (every account's events) is for operators only: checked by the shared wrapper (403).
  operatorInput: (input) => input.accounts === '*',
  rest: {
    method: 'POST',
    path: '/webhooks/subscriptions',
    shape: 'data',
    status: 201,
    dataField: 'webhook',
    metaFields: ['secret', 'warning'],
  },
  handler: (input, ctx) => createWebhook(webhookDeps(ctx), ctx.principal.ownerId, input),
});
