/**
 * The embed secret of a key: what signs the wizard's `callback`
 * deliveries, exactly like a webhook subscription's secret signs its
 * deliveries (src/webhooks/signature.ts, `X-Webhook-Signature`).
 *
 * One record per key, id = the key's id, stored like webhook secrets: the
 * value itself (it must sign), sealed under the master key, plus the
 * predecessor kept for a grace period after a rotation, so the partner can
 * switch without losing a delivery; the predecessor is erased when its grace
 * ends (src/webhooks/secrets.ts). The value is shown once, by
 * rotate_embed_secret, which also makes the first one.
 */
import type { Clock } from '../core/clock.js';
import type { Keyring } from '../core/keyring.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import type { Store } from '../store/port.js';
import { generateSecret } from '../webhooks/signature.js';
import { declareSigningSecrets, IN_GRACE, sealSecret, type SigningSecrets } from '../webhooks/secrets.js';

export const EMBED_SECRETS = 'embed_secrets';
export const EMBED_SECRET_INDEXES = ['ownerId', IN_GRACE];
declareTenantCollection(EMBED_SECRETS);
declareSigningSecrets(EMBED_SECRETS);

/** Longest grace for the previous secret after a rotation (7 days). */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;

export interface EmbedSecretRecord extends SigningSecrets {
  [field: string]: unknown;
  /** The key's id. */
  id: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
}

export const EMBED_SECRET_WARNING =
  'Store this secret now: it is shown only once. It verifies the X-Webhook-Signature header of every wizard callback made with this key.';

/** Makes the key's first embed secret or replaces it; the old one keeps signing for `graceSeconds` (0: stops at once). */
export async function rotateEmbedSecret(
  store: Store,
  key: { id: string; ownerId: string },
  graceSeconds: number,
  clock: Clock,
  keyring: Keyring,
): Promise<{ secret: string; record: EmbedSecretRecord; rotated: boolean }> {
  const secret = generateSecret();
  let dropped = false;
  const made = await store.transact(async (tx) => {
    const now = clock.now();
    const old = await tx.get<EmbedSecretRecord>(EMBED_SECRETS, key.id);
    const keepOld = old !== undefined && graceSeconds > 0;
    // A value leaves the record: the current secret (no grace), or a predecessor still in its grace.
    dropped = old !== undefined && (!keepOld || Boolean(old.previousSecret));
    const record: EmbedSecretRecord = {
      id: key.id,
      ownerId: key.ownerId,
      secret: sealSecret(keyring, EMBED_SECRETS, key.id, secret),
      // Sealed for this same record: it moves as it is.
      previousSecret: keepOld ? old.secret : null,
      previousSecretExpiresAt: keepOld ? now.getTime() + graceSeconds * 1000 : null,
      inGrace: keepOld,
      createdAt: old?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await tx.put(EMBED_SECRETS, record);
    return { secret, record, rotated: old !== undefined };
  });
  // A secret that left the record must not stay in the store's files (the lowdb journal) until a later compaction.
  // (One kept as previousSecret during a grace stays, and is erased by the sweep when the grace ends.)
  if (dropped) await store.compactNow();
  return made;
}

/** Whether the key has an embed secret (a callback needs one). */
export async function hasEmbedSecret(store: Store, keyId: string): Promise<boolean> {
  return (await store.get<EmbedSecretRecord>(EMBED_SECRETS, keyId)) !== undefined;
}
