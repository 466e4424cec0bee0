/**
 * The master key against the store: which key the stored secrets are sealed with, the check at every start, the
 * migration of plaintext secrets, and the rotation to a new key.
 *
 * The store keeps one record, `system/keyring`: the id of the key its secrets are sealed under, a value sealed with
 * it, and which fields were all sealed under it (after which a start reads no secret). A start with another key is refused with a clear message before anything is read or written (a wrong
 * key would otherwise fail only at the first delivery, or seal new secrets under a key the others don't share).
 */
import {
  Keyring,
  MasterKeyError,
  NEXT_KEY_SUFFIX,
  keyIdOf,
  readKeyFileIfAny,
  recordAad,
  resealAll,
  SealError,
  sealedFieldsLine,
  type LoadedMasterKey,
} from '../core/keyring.js';
import { rename } from 'node:fs/promises';
import type { Store, Tx } from './port.js';

const SYSTEM = 'system';
const KEYRING_ID = 'keyring';
const CHECK_TEXT = 'svc master key check';

interface KeyringRecord {
  [field: string]: unknown;
  id: typeof KEYRING_ID;
  /** Id of the master key every sealed value is under. */
  keyId: string;
  /** CHECK_TEXT sealed with that key. */
  check: string;
  /**
   * The sealed fields (`sealedFieldsLine`) every stored value of which was last brought under `keyId` in one
   * transaction (a start's migration or a rotation); absent before. Every writer seals what it writes, so while the
   * key and the fields are these, a start has nothing to migrate and reads no secret.
   */
  sealed?: string;
  updatedAt: string;
}

function keyringRecord(keyring: Keyring, now: Date): KeyringRecord {
  return {
    id: KEYRING_ID,
    keyId: keyring.keyId,
    check: keyring.seal(CHECK_TEXT, recordAad(SYSTEM, KEYRING_ID)),
    sealed: sealedFieldsLine(),
    updatedAt: now.toISOString(),
  };
}

/** The id of the key the store's secrets are sealed under; undefined before the first start with a key. */
export async function storedKeyId(store: Store): Promise<string | undefined> {
  return (await store.get<KeyringRecord>(SYSTEM, KEYRING_ID))?.keyId;
}

async function resealTx(tx: Tx, keyring: Keyring, origin: string): Promise<number> {
  try {
    return await resealAll(tx, keyring);
  } catch (err) {
    if (err instanceof SealError)
      throw new MasterKeyError(`a stored secret does not open with the master key from ${origin}: ${err.message}`);
    throw err;
  }
}

/**
 * The keyring for a store opened at start: refuses a key other than the one the store's secrets are sealed under,
 * records the key on the first start, and seals every plaintext secret left by an earlier version (migration on
 * start; returns how many records it sealed). A rotation interrupted after its database commit (the new key still in
 * `<key file>.next`) is completed here.
 */
export async function attachKeyring(
  store: Store,
  loaded: LoadedMasterKey,
  now: Date,
): Promise<{ keyring: Keyring; key: Buffer; migrated: number }> {
  let key = loaded.key;
  const stored = await storedKeyId(store);
  if (stored !== undefined && stored !== keyIdOf(key)) {
    const next = loaded.file ? await readKeyFileIfAny(loaded.file + NEXT_KEY_SUFFIX) : undefined;
    if (!next || keyIdOf(next) !== stored) {
      throw new MasterKeyError(
        `the master key from ${loaded.origin} is not the one this data's secrets are sealed with (its key id is ${keyIdOf(key)}, the data's is ${stored}); ` +
          'start with the right SVC_MASTER_KEY or SVC_MASTER_KEY_FILE',
      );
    }
    // The rotation committed the store under the next key but did not get to replace the key file.
    await rename(loaded.file + NEXT_KEY_SUFFIX, loaded.file!);
    key = next;
  }
  const keyring = new Keyring(key);
  const migrated = await store.transact(async (tx) => {
    const record = await tx.get<KeyringRecord>(SYSTEM, KEYRING_ID);
    if (record) {
      if (record.keyId !== keyring.keyId)
        throw new MasterKeyError(`the data's master key changed while starting (key id ${record.keyId}); start again`);
      try {
        keyring.open(record.check, recordAad(SYSTEM, KEYRING_ID));
      } catch {
        throw new MasterKeyError(
          `the master key from ${loaded.origin} does not open this data's key check; start with the right key`,
        );
      }
      // Every secret is under this key already: reading them all at every start grew the start with the data.
      if (record.sealed === sealedFieldsLine()) return 0;
    }
    const changed = await resealTx(tx, keyring, loaded.origin);
    await tx.put(
      SYSTEM,
      record ? { ...record, sealed: sealedFieldsLine(), updatedAt: now.toISOString() } : keyringRecord(keyring, now),
    );
    return changed;
  });
  // The plaintext the migration sealed must not stay in the store's files (the lowdb journal, an older snapshot).
  if (migrated > 0) await store.compactNow();
  return { keyring, key, migrated };
}

/**
 * Re-seals every secret of the store from `oldKey` to `newKey` in one transaction (all or nothing) and records the
 * new key. Returns how many records changed. Refuses when `oldKey` is not the store's key.
 */
export async function rotateStoreKey(store: Store, oldKey: Buffer, newKey: Buffer, now: Date): Promise<number> {
  const fresh = new Keyring(newKey, [oldKey]);
  if (keyIdOf(oldKey) === fresh.keyId) throw new MasterKeyError('the new master key is the current one');
  const changed = await store.transact(async (tx) => {
    const record = await tx.get<KeyringRecord>(SYSTEM, KEYRING_ID);
    if (record && record.keyId !== keyIdOf(oldKey)) {
      throw new MasterKeyError(
        `the current master key (key id ${keyIdOf(oldKey)}) is not the one this data's secrets are sealed with (${record.keyId})`,
      );
    }
    const n = await resealTx(tx, fresh, 'the old or the new key');
    await tx.put(SYSTEM, keyringRecord(fresh, now));
    return n;
  });
  // Values sealed under the old key must not stay in the store's files: the old key may be what leaked.
  await store.compactNow();
  return changed;
}
