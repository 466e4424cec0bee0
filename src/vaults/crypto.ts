/**
 * Envelope encryption of vault items. Each vault has its own data key (32 random bytes) that is stored only wrapped
 * by the service's master key (Keyring.wrapKey, AES-256-GCM); each value of the vault is encrypted with the data key
 * (AES-256-GCM from node:crypto, a fresh random 96-bit nonce per value) with associated data naming the value (the
 * vault or item id and the part), so an encrypted value copied onto another item or part does not open. A stored
 * value is one string:
 *
 *   vk1.<base64url(nonce ‖ ciphertext ‖ 16-byte tag)>
 *
 * A master-key rotation re-wraps the data keys and leaves these values as they are.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type Keyring, recordAad } from '../core/keyring.js';
import { VAULTS } from './records.js';

const PREFIX = 'vk1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const DATA_KEY_BYTES = 32;

/** A vault's data key, open in memory while a call uses it. */
export class DataKey {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== DATA_KEY_BYTES) throw new RangeError('a vault data key has 32 bytes');
    this.#key = key;
  }

  encrypt(plaintext: Buffer | string, aad: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([
      cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext),
      cipher.final(),
    ]);
    return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Throws when the value was altered, or belongs to another item, part or vault. */
  decrypt(stored: string, aad: string): Buffer {
    if (!stored.startsWith(PREFIX)) throw new Error('not a vault-encrypted value');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('vault-encrypted value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  }

  /**
   * The key of one streamed file (src/vaults/stream.ts): HKDF-SHA256 of the data key with the file's random salt,
   * and the value's associated data as the info, so each file has a key of its own, bound to its item.
   */
  fileKey(salt: Buffer, aad: string): Buffer {
    const info = Buffer.concat([Buffer.from('svc vault file v1\0', 'utf8'), Buffer.from(aad, 'utf8')]);
    return Buffer.from(hkdfSync('sha256', this.#key, salt, info, DATA_KEY_BYTES));
  }
}

/** The AAD of a wrapped data key: the vault record's, as the master-key rotation computes it. */
const keyAad = (vaultId: string) => recordAad(VAULTS, vaultId);

/** A new data key for a vault, and its wrapped form to store. */
export function newDataKey(keyring: Keyring, vaultId: string): { key: DataKey; wrapped: string } {
  const raw = randomBytes(DATA_KEY_BYTES);
  return { key: new DataKey(raw), wrapped: keyring.wrapKey(raw, keyAad(vaultId)) };
}

export function openDataKey(keyring: Keyring, vaultId: string, wrapped: string): DataKey {
  return new DataKey(keyring.unwrapKey(wrapped, keyAad(vaultId)));
}

/** Associated data of the parts of vaults and items. */
export const aad = {
  vaultName: (vaultId: string) => `vault/${vaultId}/name`,
  itemMeta: (vaultId: string, itemId: string) => `vault/${vaultId}/item/${itemId}/meta`,
  itemContent: (vaultId: string, itemId: string) => `vault/${vaultId}/item/${itemId}/content`,
};
