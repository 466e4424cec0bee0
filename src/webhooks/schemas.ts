/** Zod schemas of the webhook tools' inputs and outputs (docs/decisions.md, Webhooks). */
import { z } from 'zod';
import { CursorPageMetaSchema, cursorPageInput } from '../core/pagination.js';

const webhookId = z
  .string()
  .regex(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Subscription id, `wh_<id>`.');
const eventName = z
  .string()
  .min(1)
  .max(100)
  .describe('An event name from the catalogue (GET /webhooks/event-types), or `*` for every event.');
const url = z
  .string()
  .min(1)
  .max(2048)
  .describe(
    'HTTPS address that receives the deliveries, without credentials (no user:pass@). Its host must resolve to public addresses only.',
  );
const name = z.string().min(1).max(200).describe('A label for the subscription.');
const events = z.array(eventName).min(1).max(100).describe('Event names to receive, or `["*"]` for all (shape A).');

export const WebhookStatusSchema = z
  .enum(['active', 'paused', 'disabled'])
  .describe(
    '`active` receives deliveries; `paused` was requested by the client; `disabled` after 50 consecutive failed deliveries.',
  );

export const WebhookSchema = z
  .object({
    id: webhookId,
    _id: webhookId.describe('Same value as `id` (shape B name).'),
    accounts: z
      .literal('*')
      .optional()
      .describe(
        '`*`: an operator subscription receiving the events of every account (each payload names its `accountId`); absent: this account only.',
      ),
    url: url,
    name: z.string().describe('The subscription label.'),
    events: z.array(z.string().describe('Event name or `*`.')).describe('Event names this subscription receives.'),
    status: WebhookStatusSchema,
    failures: z.number().int().describe('Deliveries that failed after all attempts, in total.'),
    consecutiveFailures: z
      .number()
      .int()
      .describe('Failed deliveries since the last success; 50 disables the subscription.'),
    lastDeliveryAttempt: z.string().nullable().describe('When the last delivery attempt started (ISO 8601), or null.'),
    lastDeliveryStatus: z
      .number()
      .int()
      .nullable()
      .describe('HTTP status of the last attempt, or null when none arrived.'),
    createdAt: z.string().describe('Creation time (ISO 8601).'),
    updatedAt: z.string().describe('Last change of the subscription settings (ISO 8601).'),
  })
  .describe('A webhook subscription. The secret is never part of it.');
export type Webhook = z.infer<typeof WebhookSchema>;

export const CreateWebhookInput = z
  .object({
    url,
    name: name.optional().describe('A label for the subscription (shape A); defaults to the URL host.'),
    events: events.optional(),
    event: eventName.optional().describe('A single event name (shape B); becomes `events: [event]`.'),
    secret: z
      .string()
      .min(16)
      .max(256)
      .optional()
      .describe('Signing secret to use (shape B), at least 16 characters; generated (`whsec_...`) when omitted.'),
    status: z.enum(['active', 'paused']).optional().describe('Initial status (shape B), default `active`.'),
    accounts: z
      .literal('*')
      .optional()
      .describe(
        'Operators only (an internal key with scope `all`; others get 403): `*` receives the matching events of every account, ' +
          "each payload naming its `accountId`. Omit for this account's events only.",
      ),
  })
  .describe(
    'Shape A (`url`, `name`, `events`) or shape B (`event`, `url`, `secret?`, `status?`); give `events` or `event`, not both.',
  );
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const CreateWebhookOutput = z
  .object({
    webhook: WebhookSchema,
    secret: z
      .string()
      .optional()
      .describe('The generated signing secret, shown this once (absent when the caller supplied it).'),
    warning: z.string().optional().describe('Reminder that the secret is not shown again.'),
  })
  .describe('The new subscription, and its secret when generated.');

export const WebhookIdInput = z.object({ id: webhookId }).describe('Names one subscription of the caller.');

export const UpdateWebhookInput = z
  .object({
    id: webhookId,
    url: url.optional(),
    name: name.optional(),
    events: events.optional(),
    event: eventName.optional().describe('A single event name (shape B); replaces `events` with `[event]`.'),
    status: z
      .enum(['active', 'paused'])
      .optional()
      .describe('`paused` stops deliveries; `active` resumes them and re-enables a disabled subscription.'),
  })
  .describe('Fields to change; omitted fields stay as they are.');
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const RegenerateSecretInput = z
  .object({
    id: webhookId,
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .optional()
      .describe(
        'How long the old secret keeps signing too (a second `v1` value), in seconds; default 0 (replaced at once).',
      ),
  })
  .describe('Which subscription gets a new secret.');

export const RegenerateSecretOutput = z
  .object({
    webhook: WebhookSchema,
    secret: z.string().describe('The new signing secret, shown this once.'),
    warning: z.string().describe('Reminder that the secret is not shown again.'),
  })
  .describe('The subscription and its new secret.');

export const DeleteWebhookOutput = z
  .object({ id: webhookId, deleted: z.literal(true).describe('Always true: the subscription is gone.') })
  .describe('Confirms the deletion; pending deliveries of the subscription are cancelled.');

export const WebhookPayloadSchema = z
  .object({
    id: z.string().describe('Event id, `evt_<id>`; receivers deduplicate on it.'),
    type: z.string().describe('Event name.'),
    created: z.number().int().describe('Event time, unix seconds.'),
    apiVersion: z.literal('v1').describe('API version of the payload.'),
    accountId: z
      .string()
      .describe(
        'The account the event belongs to (the subscriber\'s own, or any account for an operator subscription with `accounts: "*"`).',
      ),
    data: z.record(z.string(), z.unknown()).describe('Event data.'),
    event: z.string().describe('Event name again (shape B).'),
    timestamp: z.string().describe('Event time, ISO 8601 (shape B).'),
    webhookId: z.string().describe('Subscription the delivery is for (shape B).'),
  })
  .describe('The JSON body POSTed to the subscription URL.');
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

export const TestWebhookOutput = z
  .object({
    delivered: z.boolean().describe('Whether the receiver answered 2xx within the timeout.'),
    statusCode: z.number().int().nullable().describe('HTTP status received, or null when none arrived.'),
    payload: WebhookPayloadSchema,
    responseTime: z.number().describe('Milliseconds until the answer (or the failure).'),
    error: z.string().optional().describe('Why the delivery failed, when it did.'),
  })
  .describe('Outcome of one real `test.webhook` delivery.');
export type TestWebhookResult = z.infer<typeof TestWebhookOutput>;

export const DeliveryAttemptSchema = z
  .object({
    attempt: z.number().int().describe('Attempt number, 1 to 5.'),
    at: z.string().describe('When the attempt started (ISO 8601).'),
    finishedAt: z.string().nullable().describe('When its outcome was recorded; null while in flight.'),
    statusCode: z.number().int().nullable().describe('HTTP status received, or null.'),
    latencyMs: z.number().nullable().describe('Milliseconds until the answer or the failure.'),
    error: z.string().nullable().describe('Why the attempt failed, or null.'),
    interrupted: z
      .boolean()
      .optional()
      .describe('True when the server stopped before the outcome was known; such an attempt is sent again.'),
  })
  .describe('One attempt of a delivery.');

export const DeliverySchema = z
  .object({
    id: z.string().describe('Delivery id, `dlv_<id>`.'),
    webhookId: z.string().describe('The subscription delivered to.'),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed', 'cancelled']).describe('Delivery state.'),
    nextAttemptAt: z.string().nullable().describe('When the next attempt is due (ISO 8601), for pending deliveries.'),
    attempts: z.array(DeliveryAttemptSchema).describe('Attempts so far, oldest first.'),
    completedAt: z.string().nullable().describe('When the delivery reached a final state.'),
    reason: z.string().optional().describe('Why it was cancelled.'),
  })
  .describe('The delivery of one event to one subscription.');

export const WebhookEventSchema = z
  .object({
    id: z.string().describe('Event id, `evt_<id>`.'),
    type: z.string().describe('Event name.'),
    created: z.number().int().describe('Unix seconds.'),
    createdAt: z.string().describe('ISO 8601.'),
    apiVersion: z.literal('v1').describe('API version.'),
    data: z.record(z.string(), z.unknown()).describe('Event data.'),
    deliveries: z.array(DeliverySchema).describe("Deliveries of this event to the caller's subscriptions."),
  })
  .describe("An event of the caller's account with its deliveries.");
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const ListWebhookEventsInput = z
  .object({ ...cursorPageInput })
  .describe('Cursor paging over the event log, newest first.');
export const ListWebhookEventsOutput = z
  .object({ items: z.array(WebhookEventSchema).describe('Events, newest first.'), pagination: CursorPageMetaSchema })
  .describe("One page of the caller's event log.");

export const ListWebhooksOutput = z
  .object({ items: z.array(WebhookSchema).describe("The caller's subscriptions, oldest first.") })
  .describe('Subscriptions.');

export const EventTypeSchema = z
  .object({
    type: z.string().describe('Event name.'),
    group: z.string().describe('Group of the event (contract, vault, verification, payment, deadman, account, test).'),
    description: z.string().describe('What the event means.'),
    emitted: z
      .boolean()
      .describe('Whether an operation of this service emits it today (others can be subscribed to ahead of time).'),
  })
  .describe('One catalogue entry.');
export const EventTypesOutput = z
  .object({
    types: z.array(EventTypeSchema).describe('Every event name.'),
    wildcard: z.literal('*').describe('Subscribe with this to receive every event.'),
  })
  .describe('The event catalogue.');
