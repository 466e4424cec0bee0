import { listWebhookEvents, ListWebhookEventsInput, ListWebhookEventsOutput } from '../../webhooks/index.js';
import { defineTool, READ } from '../define.js';
import { WEBHOOK_TIERS, webhookDeps } from './common.js';

export const listWebhookEventsTool = defineTool({
  name: 'list_webhook_events',
  example: { limit: 5 },
  title: 'Read the event log',
  description:
    "The account's event log, newest first, cursor-paged (continue with nextCursor until hasMore is false), each event with its deliveries " +
    'and every attempt (time, status, latency, error).',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: READ,
  input: ListWebhookEventsInput.strict(),
  output: ListWebhookEventsOutput,
  rest: { method: 'GET', path: '/webhooks/events', shape: 'list' },
  handler: (input, ctx) => listWebhookEvents(webhookDeps(ctx), ctx.principal.ownerId, input),
});
