/**
 * The predecessor of a rotated webhook secret (kept by regenerate with
 * `graceSeconds`, still signing during the grace) is erased from the stored
 * record once its grace has ended: a secret that no longer signs anything must
 * not stay in the data file.
 *
 * Erased on every write of the subscription (update, the dispatcher's claim of
 * a delivery, which reads the record for signing) and by the dispatcher's
 * periodic sweep, so a subscription that receives nothing is cleaned too.
 */
import type { Store, Tx } from '../store/port.js';
import { WEBHOOKS } from '../events/events.js';
import type { WebhookRecord } from './subscriptions.js';

/** Whether the record still holds a predecessor secret whose grace has ended at `nowMs`. */
export function hasExpiredSecret(r: WebhookRecord, nowMs: number): boolean {
  return r.previousSecret !== null && r.previousSecret !== undefined && (r.previousSecretExpiresAt === null || r.previousSecretExpiresAt <= nowMs);
}

/** Erases an expired predecessor secret from the record, in place; true when it changed the record. */
export function dropExpiredSecret(r: WebhookRecord, nowMs: number): boolean {
  if (!hasExpiredSecret(r, nowMs)) return false;
  r.previousSecret = null;
  r.previousSecretExpiresAt = null;
  return true;
}

/** Within a transaction: erases every expired predecessor secret; returns how many records changed. */
export async function eraseExpiredSecretsTx(tx: Tx, nowMs: number): Promise<number> {
  let n = 0;
  for await (const r of tx.scan<WebhookRecord>(WEBHOOKS)) {
    if (!dropExpiredSecret(r, nowMs)) continue; // scan hands out copies: changing one changes nothing until put
    await tx.put(WEBHOOKS, r);
    n++;
  }
  return n;
}

/** The sweep: one transaction over the subscriptions. */
export function eraseExpiredSecrets(store: Store, nowMs: number): Promise<number> {
  return store.transact((tx) => eraseExpiredSecretsTx(tx, nowMs));
}
