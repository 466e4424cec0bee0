import { testWebhook, TestWebhookOutput, WebhookIdInput } from '../../webhooks/index.js';
import { defineTool, OUTBOUND } from '../define.js';
import { WEBHOOK_TIERS, webhookDeps } from './common.js';

export const testWebhookTool = defineTool({
  name: 'test_webhook',
  example: { id: 'wh_01M89NZVSK4RA0343PNJQFCVBG' },
  title: 'Send a test delivery',
  description:
    'Sends one real, signed `test.webhook` delivery to the subscription URL and reports whether it was delivered, the status code, the ' +
    'payload and the response time. It does not change the failure counters. An account has at most two tests under way at once (409).',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: OUTBOUND,
  input: WebhookIdInput.strict(),
  output: TestWebhookOutput,
  rest: { method: 'POST', path: '/webhooks/subscriptions/:id/test', shape: 'data', extraStatuses: [409] },
  handler: (input, ctx) => testWebhook(webhookDeps(ctx), ctx.principal.ownerId, input.id),
});
