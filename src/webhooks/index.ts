/**
 * The webhook domain: subscriptions, the outbox (src/events), the dispatcher,
 * signatures and the address guard. Transport-free: the tools in src/tools map
 * these functions to MCP and REST.
 */
export { EVENT_CATALOGUE, EVENT_TYPES, WILDCARD, subscribes, type EventType } from './catalogue.js';
export {
  CreateWebhookInput,
  CreateWebhookOutput,
  DeleteWebhookOutput,
  DeliveryAttemptSchema,
  DeliverySchema,
  EventTypeSchema,
  EventTypesOutput,
  ListWebhookEventsInput,
  ListWebhookEventsOutput,
  ListWebhooksOutput,
  RegenerateSecretInput,
  RegenerateSecretOutput,
  TestWebhookOutput,
  UpdateWebhookInput,
  WebhookEventSchema,
  WebhookIdInput,
  WebhookPayloadSchema,
  WebhookSchema,
  WebhookStatusSchema,
  type TestWebhookResult,
  type Webhook,
  type WebhookEvent,
  type WebhookPayload,
} from './schemas.js';
export {
  DELIVERIES,
  MAX_TESTS_PER_ACCOUNT,
  MAX_WEBHOOKS_PER_OWNER,
  SECRET_WARNING,
  WEBHOOKS,
  WEBHOOK_INDEXES,
  buildPayload,
  buildRequest,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listEventTypes,
  listWebhookEvents,
  listWebhooks,
  regenerateSecret,
  testWebhook,
  updateWebhook,
  type WebhookDeps,
  type WebhookRecord,
} from './subscriptions.js';
export { Dispatcher } from './dispatcher.js';
export {
  DEFAULT_CLAIM_AHEAD,
  realScheduler,
  type DispatcherOptions,
  type DispatcherStats,
  type Scheduler,
} from './dispatcher-options.js';
export { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './recorder.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SECRET_PREFIX,
  generateSecret,
  parseSignatureHeader,
  signPayload,
  signWithSecrets,
  verifyWebhookSignature,
  type VerifyOptions,
} from './signature.js';
export {
  blockedReason,
  checkUrl,
  parseAllowList,
  resolveCheckedUrl,
  systemResolver,
  type CheckUrlOptions,
  type Resolver,
} from './guard.js';
export { DEFAULT_TIMEOUT_MS } from './send.js';
