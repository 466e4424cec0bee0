/**
 * Where a delivery goes and what signs it, for the dispatcher's claim.
 *
 * Most deliveries belong to a subscription (`webhookId` names a record of
 * WEBHOOKS). A delivery may instead carry a `callback` target: a one-off URL
 * (the contract wizard's `callback`, src/embed/callback.ts) whose signing
 * secrets are kept in a record of another collection, shaped like a
 * subscription's (secret, previousSecret, previousSecretExpiresAt). Either way
 * the dispatcher gets a subscription-shaped record and sends, retries and
 * records the delivery the same way; the URL goes through the address guard at
 * every attempt and every connection.
 */
import type { Keyring } from '../core/keyring.js';
import { WEBHOOKS, type DeliveryRecord } from '../events/events.js';
import type { Tx } from '../store/port.js';
import { dropExpiredSecret, openSecrets, type OpenedSecrets, type SigningSecrets } from './secrets.js';
import type { WebhookRecord } from './subscriptions.js';

/** The signing secrets of a callback target, stored like a subscription's (sealed: src/webhooks/secrets.ts). */
export type { SigningSecrets };

/** A delivery's own target, instead of a subscription. */
export interface CallbackTarget {
  url: string;
  /** Collection and id of the record holding the SigningSecrets. */
  secretCollection: string;
  secretId: string;
  /**
   * Checked at every claim: the delivery is cancelled unless this record still
   * exists, is not revoked (`revokedAt`), and its `field` lists the URL's
   * origin (the wizard's key and its allowedOrigins).
   */
  allowedBy?: { collection: string; id: string; field: string } | undefined;
}

/** The callback target a delivery carries, if any. */
export function callbackTarget(d: DeliveryRecord): CallbackTarget | undefined {
  const t = d.callback as Partial<CallbackTarget> | undefined;
  if (!t || typeof t.url !== 'string' || typeof t.secretCollection !== 'string' || typeof t.secretId !== 'string')
    return undefined;
  return { url: t.url, secretCollection: t.secretCollection, secretId: t.secretId, allowedBy: t.allowedBy };
}

/**
 * Within the claim's transaction: the record to send the delivery with, or why
 * it is cancelled (`opened` keeps opened secrets for the next claim). An ended grace secret is dropped from the record read for
 * signing, and erased from the store unless `persistSecrets` is false (a claim
 * under row locks, where the write could overwrite a concurrent change).
 *
 * The returned record is a copy holding the secrets opened with `keyring`, for
 * signing in memory; it must never be stored.
 */
export async function deliveryTarget(
  tx: Tx,
  d: DeliveryRecord,
  nowMs: number,
  opts: { persistSecrets: boolean; keyring: Keyring; opened?: OpenedSecrets | undefined },
): Promise<{ webhook: WebhookRecord } | { cancel: string }> {
  const callback = callbackTarget(d);
  if (!callback) {
    const webhook = await tx.get<WebhookRecord>(WEBHOOKS, d.webhookId);
    if (!webhook) return { cancel: 'subscription deleted' };
    if (dropExpiredSecret(webhook, nowMs) && opts.persistSecrets) await tx.put(WEBHOOKS, webhook);
    if (webhook.status !== 'active') return { cancel: `subscription ${webhook.status}` };
    return { webhook: { ...webhook, ...openSecrets(opts.keyring, WEBHOOKS, webhook, opts.opened) } };
  }
  if (callback.allowedBy) {
    const { collection, id, field } = callback.allowedBy;
    const owner = await tx.get<{ [field: string]: unknown; id: string }>(collection, id);
    if (!owner || owner.revokedAt) return { cancel: 'callback no longer allowed: its key is revoked or deleted' };
    const list = owner[field];
    if (!Array.isArray(list) || !list.includes(new URL(callback.url).origin))
      return { cancel: "callback no longer allowed: its origin left the key's allowed origins" };
  }
  const secrets = await tx.get<SigningSecrets & { [field: string]: unknown; id: string }>(
    callback.secretCollection,
    callback.secretId,
  );
  if (!secrets) return { cancel: 'signing secret deleted' };
  if (dropExpiredSecret(secrets, nowMs) && opts.persistSecrets) await tx.put(callback.secretCollection, secrets);
  const open = openSecrets(opts.keyring, callback.secretCollection, secrets, opts.opened);
  const at = new Date(nowMs).toISOString();
  return {
    webhook: {
      id: d.webhookId,
      _id: d.webhookId,
      ownerId: d.ownerId,
      url: callback.url,
      name: 'callback',
      events: [d.type],
      status: 'active',
      secret: open.secret,
      previousSecret: open.previousSecret,
      previousSecretExpiresAt: open.previousSecretExpiresAt,
      failures: 0,
      consecutiveFailures: 0,
      lastDeliveryAttempt: null,
      lastDeliveryStatus: null,
      createdAt: at,
      updatedAt: at,
    },
  };
}
