/**
 * The wizard's `callback`: an HTTPS URL on one of the key's allowed
 * origins that also passes the webhook address guard (src/webhooks/guard.ts),
 * checked when the embed session is made and again by the dispatcher at every
 * attempt and connection. The generated contract is POSTed there through the
 * webhook outbox, signed with the key's embed secret (src/embed/secrets.ts).
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Principal } from '../accounts/principal.js';
import {
  DELIVERIES,
  EVENTS,
  newDelivery,
  notifyOutbox,
  type DeliveryRecord,
  type EventRecord,
} from '../events/events.js';
import { API_KEYS } from '../keys/keys.js';
import type { Store } from '../store/port.js';
import { resolveCheckedUrl } from '../webhooks/guard.js';
import type { CallbackTarget } from '../webhooks/targets.js';
import { parseOrigin } from '../keys/origins.js';
import { EMBED_SECRETS, hasEmbedSecret } from './secrets.js';
import { EMBED_SESSIONS, type EmbedSessionRecord } from './store.js';

/** The callback URL, normalized, or throws VALIDATION_ERROR naming `field`. */
export async function checkCallback(
  raw: string,
  allowedOrigins: readonly string[],
  opts: { allow?: string | undefined; field?: string } = {},
): Promise<string> {
  const field = opts.field ?? 'callback';
  const refuse = (reason: string) => ApiError.validation('The callback URL is not allowed.', [{ field, reason }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https://');
  const origin = parseOrigin(url.origin);
  if (!('origin' in origin) || !allowedOrigins.includes(origin.origin)) {
    throw refuse(`must be on one of the key's allowed origins (${allowedOrigins.join(', ') || 'none configured'})`);
  }
  try {
    await resolveCheckedUrl(url.href, { allow: opts.allow });
  } catch (err) {
    if (err instanceof ApiError && err.details) throw refuse(err.details[0]!.reason);
    throw err;
  }
  return url.href;
}

/** Throws VALIDATION_ERROR when the key has no embed secret yet: a callback must be signed. */
export async function requireEmbedSecret(store: Store, keyId: string, field = 'callback'): Promise<void> {
  if (await hasEmbedSecret(store, keyId)) return;
  throw ApiError.validation("A callback needs the key's embed secret, which signs it; the key has none yet.", [
    {
      field,
      reason:
        'make the secret first: POST /api/v1/embed/secret (rotate_embed_secret) with this key, and keep the secret to verify callbacks',
    },
  ]);
}

/** Event type of a wizard result POSTed to a callback. */
export const WIZARD_COMPLETED = 'embed.wizard.completed';

export interface WizardResult {
  contractCode: string;
  compiled: Record<string, unknown>;
  contractInfo: Record<string, unknown>;
}

/**
 * After a contract is generated with an embed token whose session has a
 * callback: queues the result in the webhook outbox (an event and one delivery
 * carrying the callback target), in one store write. The dispatcher POSTs it,
 * signed with the key's embed secret, with the webhook retries. `store` is the
 * caller's account view. Returns the delivery's id, or null without a callback.
 */
export async function queueWizardCallback(
  store: Store,
  principal: Principal,
  result: WizardResult,
  clock: Clock,
): Promise<string | null> {
  if (principal.kind !== 'embed' || !principal.embedSessionId) return null;
  const session = await store.get<EmbedSessionRecord>(EMBED_SESSIONS, principal.embedSessionId);
  if (!session?.callback) return null;
  const now = clock.now();
  const event: EventRecord = {
    id: newId('event'),
    type: WIZARD_COMPLETED,
    ownerId: session.ownerId,
    created: Math.floor(now.getTime() / 1000),
    createdAt: now.toISOString(),
    apiVersion: 'v1',
    data: {
      sessionId: session.id,
      origin: session.origin,
      contractCode: result.contractCode,
      compiled: result.compiled,
      contractInfo: result.contractInfo,
    },
  };
  const target: CallbackTarget = {
    url: session.callback,
    secretCollection: EMBED_SECRETS,
    secretId: session.keyId,
    // Re-checked at every attempt: the key is still there and still allows the callback's origin.
    allowedBy: { collection: API_KEYS, id: session.keyId, field: 'allowedOrigins' },
  };
  const delivery: DeliveryRecord = {
    ...newDelivery(event, session.id, now.getTime(), event.createdAt),
    callback: target,
  };
  await store.transact(async (tx) => {
    await tx.put(EVENTS, event);
    await tx.put(DELIVERIES, delivery);
  });
  notifyOutbox({ id: delivery.id, webhookId: session.id, ownerId: delivery.ownerId, due: delivery.nextAttemptAt ?? 0 });
  return delivery.id;
}
