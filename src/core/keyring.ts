/**
 * The service's key service: one master key that seals every secret the service
 * keeps (webhook and embed signing secrets today; data keys of other features
 * later, wrapped with `wrapKey`).
 *
 * Sealing is AES-256-GCM from node:crypto (no library: the platform's
 * implementation is the well-kept one), a fresh random 96-bit nonce for every
 * seal, and additional authenticated data (AAD) naming what the value belongs to
 * (e.g. `webhooks/<id>`), so a sealed value copied onto another record does not
 * open. A sealed value is one string:
 *
 *   svcenc1.<key id>.<base64url(nonce ‖ ciphertext ‖ 16-byte tag)>
 *
 * The key id (16 hex digits derived from the key by SHA-256, revealing nothing
 * usable about it) lets a rotation find values sealed under the old key, and
 * lets a start with the wrong key be refused before anything is read.
 *
 * Where the master key comes from (`loadMasterKey`): SVC_MASTER_KEY (base64 of
 * 32 bytes), or SVC_MASTER_KEY_FILE (a file holding that base64 text); with
 * neither, the embedded setup creates `<data dir>/master.key` (mode 0600) and
 * warns once that production should keep the key elsewhere. With PostgreSQL
 * (several instances) one of the two is required: each instance creating a key
 * of its own would make the others' secrets unreadable.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config.js';

export const MASTER_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SEALED_PREFIX = 'svcenc1.';
/** The key file the embedded setup creates in the data directory when no key is configured. */
export const DEFAULT_KEY_FILE = 'master.key';
/** Beside a key file: the next key during a rotation (see `svc secrets rotate-master`). */
export const NEXT_KEY_SUFFIX = '.next';

/** A master key that cannot be loaded or does not open the data: the service refuses to start (exit code 2). */
export class MasterKeyError extends ConfigError {
  override name = 'MasterKeyError';
}

/** A sealed value that does not open: unknown key, altered bytes, or another record's value. */
export class SealError extends Error {
  override name = 'SealError';
}

/** The public id of a key: 16 hex digits of SHA-256 over a label and the key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('svc master key id\0').update(key).digest('hex').slice(0, 16);
}

/** A new random master key. */
export function generateMasterKey(): Buffer {
  return randomBytes(MASTER_KEY_BYTES);
}

/** Whether a stored value is sealed (as opposed to plaintext written by an older version). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

/** The key id a sealed value names, or undefined when it is not sealed. */
export function sealedKeyId(value: unknown): string | undefined {
  if (!isSealed(value)) return undefined;
  const end = value.indexOf('.', SEALED_PREFIX.length);
  return end < 0 ? undefined : value.slice(SEALED_PREFIX.length, end);
}

/**
 * Seals and opens values with the current master key; older keys (given only
 * during a rotation) still open what they sealed, and `reseal` moves a value
 * onto the current key.
 */
export class Keyring {
  readonly keyId: string;
  readonly #current: Buffer;
  readonly #keys = new Map<string, Buffer>();

  constructor(current: Buffer, older: readonly Buffer[] = []) {
    if (current.length !== MASTER_KEY_BYTES) throw new RangeError(`a master key has ${MASTER_KEY_BYTES} bytes`);
    this.#current = Buffer.from(current);
    this.keyId = keyIdOf(current);
    for (const k of older) this.#keys.set(keyIdOf(k), Buffer.from(k));
    this.#keys.set(this.keyId, this.#current);
  }

  /** Encrypts `plaintext` for the record named by `aad`, under the current key. */
  seal(plaintext: string | Buffer, aad: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([
      cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext),
      cipher.final(),
    ]);
    return `${SEALED_PREFIX}${this.keyId}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Decrypts a sealed value; throws SealError when it does not open with a known key and this `aad`. */
  open(sealed: string, aad: string): Buffer {
    const id = sealedKeyId(sealed);
    if (id === undefined) throw new SealError('not a sealed value');
    const key = this.#keys.get(id);
    if (!key) throw new SealError(`sealed under another master key (key id ${id}; this one is ${this.keyId})`);
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length + id.length + 1), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SealError('sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SealError('sealed value does not authenticate (altered, or sealed for another record)');
    }
  }

  openString(sealed: string, aad: string): string {
    return this.open(sealed, aad).toString('utf8');
  }

  /**
   * A stored secret as plaintext: sealed values are opened; a plaintext value (written before secrets were sealed,
   * not yet migrated) is returned as it is.
   */
  reveal(stored: string, aad: string): string {
    return isSealed(stored) ? this.openString(stored, aad) : stored;
  }

  /** The value sealed under the current key: plaintext is sealed, an older key's value re-sealed, a current one kept. */
  reseal(stored: string, aad: string): string {
    if (!isSealed(stored)) return this.seal(stored, aad);
    if (sealedKeyId(stored) === this.keyId) return stored;
    return this.seal(this.open(stored, aad), aad);
  }

  /** Envelope encryption: a data key wrapped by the master key (re-wrapped by a rotation like any sealed value). */
  wrapKey(dataKey: Buffer, aad: string): string {
    return this.seal(dataKey, `key:${aad}`);
  }

  unwrapKey(wrapped: string, aad: string): Buffer {
    return this.open(wrapped, `key:${aad}`);
  }

  /** Whether the current key is the one a stored key id names. */
  isCurrent(keyId: string): boolean {
    return keyId === this.keyId;
  }
}

// --- which stored fields are sealed -------------------------------------------------------------------------------

/** The little a re-seal needs of a store transaction (the store port's Tx satisfies it). */
export interface SealableTx {
  scan<T extends { id: string; [field: string]: unknown }>(collection: string): AsyncIterable<T>;
  put<T extends { id: string; [field: string]: unknown }>(collection: string, doc: T): Promise<void>;
}

/**
 * Sealed fields per collection, declared by the domains that own them. A field's AAD is `<collection>/<record id>`
 * (plus `key:` for wrapped keys), so a value may move between the fields of one record (a secret becoming the
 * previous secret) without being re-sealed, but not to another record.
 */
const SEALED_FIELDS = new Map<string, { fields: string[]; wrapped: string[] }>();

export function declareSealedFields(collection: string, fields: string[], opts: { wrappedKeys?: string[] } = {}): void {
  SEALED_FIELDS.set(collection, { fields: [...fields], wrapped: [...(opts.wrappedKeys ?? [])] });
}

export function sealedCollections(): ReadonlyMap<string, { fields: string[]; wrapped: string[] }> {
  return SEALED_FIELDS;
}

/**
 * The declared sealed fields as one line (`collection:field,field|wrapped;...`, sorted): the store's keyring record
 * keeps the one a complete re-seal ran under, so a start that finds the same line (and the same key) need not read
 * every secret again, and a version declaring a new sealed field does, once.
 */
export function sealedFieldsLine(): string {
  return [...SEALED_FIELDS]
    .map(([c, { fields, wrapped }]) => `${c}:${[...fields].sort().join(',')}|${[...wrapped].sort().join(',')}`)
    .sort()
    .join(';');
}

/** The AAD of a sealed field of a record. */
export function recordAad(collection: string, id: string): string {
  return `${collection}/${id}`;
}

/**
 * Within one transaction: every declared sealed field of every record is brought under the keyring's current key
 * (plaintext sealed, older keys' values re-sealed, wrapped keys re-wrapped). Returns how many records changed.
 * A value no key of the keyring opens makes the whole transaction fail (nothing is half-rotated).
 */
export async function resealAll(tx: SealableTx, keyring: Keyring): Promise<number> {
  let changed = 0;
  for (const [collection, { fields, wrapped }] of SEALED_FIELDS) {
    for await (const doc of tx.scan<{ id: string; [field: string]: unknown }>(collection)) {
      const aad = recordAad(collection, doc.id);
      let dirty = false;
      for (const field of fields) {
        const v = doc[field];
        if (typeof v !== 'string') continue;
        const next = keyring.reseal(v, aad);
        if (next !== v) {
          doc[field] = next;
          dirty = true;
        }
      }
      for (const field of wrapped) {
        const v = doc[field];
        if (!isSealed(v) || sealedKeyId(v) === keyring.keyId) continue;
        doc[field] = keyring.wrapKey(keyring.unwrapKey(v, aad), aad);
        dirty = true;
      }
      if (dirty) {
        await tx.put(collection, doc);
        changed++;
      }
    }
  }
  return changed;
}

// --- loading the master key ---------------------------------------------------------------------------------------

export interface MasterKeySource {
  /** SVC_MASTER_KEY: base64 of 32 bytes. */
  value?: string | undefined;
  /** SVC_MASTER_KEY_FILE: a file holding that base64 text. */
  file?: string | undefined;
  dataDir: string;
  /** Several instances share the store (PostgreSQL): a configured key is required. */
  shared: boolean;
}

export interface LoadedMasterKey {
  key: Buffer;
  /** The file it was read from (the configured one or the data directory's), undefined for SVC_MASTER_KEY. */
  file: string | undefined;
  /** Where it came from, for messages (never the key). */
  origin: string;
  /** The embedded setup created it just now. */
  created: boolean;
}

const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/;

/** Decodes a base64 master key, or throws MasterKeyError naming `origin` (never the value). */
export function parseMasterKey(text: string, origin: string): Buffer {
  const t = text.trim();
  if (!BASE64_KEY.test(t)) {
    throw new MasterKeyError(
      `${origin} must hold a master key: 32 random bytes in base64 (44 characters), e.g. from \`openssl rand -base64 32\``,
    );
  }
  return Buffer.from(t, 'base64');
}

async function readKeyFile(file: string, origin: string): Promise<Buffer> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new MasterKeyError(
      `cannot read the master key file ${file} (${origin}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return parseMasterKey(text, `the master key file ${file}`);
}

/** Writes a key file that must not exist yet, readable by its owner only. */
export async function writeKeyFile(file: string, key: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
}

/** Reads a key file if it exists; undefined when it does not. */
export async function readKeyFileIfAny(file: string): Promise<Buffer | undefined> {
  try {
    return parseMasterKey(await readFile(file, 'utf8'), `the master key file ${file}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

let warnedCreated = false;

/**
 * The configured master key (see the module comment). `warn` receives the one-time notice that the embedded setup
 * created a key file in the data directory.
 */
export async function loadMasterKey(
  src: MasterKeySource,
  warn: (message: string) => void = (m) => process.stderr.write(m + '\n'),
): Promise<LoadedMasterKey> {
  if (src.value !== undefined && src.file !== undefined)
    throw new MasterKeyError('set SVC_MASTER_KEY or SVC_MASTER_KEY_FILE, not both');
  if (src.value !== undefined)
    return {
      key: parseMasterKey(src.value, 'SVC_MASTER_KEY'),
      file: undefined,
      origin: 'SVC_MASTER_KEY',
      created: false,
    };
  if (src.file !== undefined) {
    const file = path.resolve(src.file);
    return {
      key: await readKeyFile(file, 'SVC_MASTER_KEY_FILE'),
      file,
      origin: `SVC_MASTER_KEY_FILE (${file})`,
      created: false,
    };
  }
  if (src.shared) {
    throw new MasterKeyError(
      'SVC_DATABASE_URL is set, so every instance must use the same master key: set SVC_MASTER_KEY (base64 of 32 bytes) or ' +
        'SVC_MASTER_KEY_FILE on every instance (make one with `openssl rand -base64 32`)',
    );
  }
  const file = path.join(src.dataDir, DEFAULT_KEY_FILE);
  const existing = await readKeyFileIfAny(file);
  if (existing) return { key: existing, file, origin: `the data directory's key file (${file})`, created: false };
  const key = generateMasterKey();
  try {
    await writeKeyFile(file, key);
  } catch (err) {
    // Another process created it meanwhile: use that one.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      return {
        key: await readKeyFile(file, 'data directory'),
        file,
        origin: `the data directory's key file (${file})`,
        created: false,
      };
    throw new MasterKeyError(
      `cannot create the master key file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (!warnedCreated) {
    warnedCreated = true;
    warn(
      `svc: created a master key in ${file}; it seals the secrets stored in this data directory. ` +
        'In production keep it elsewhere (SVC_MASTER_KEY or SVC_MASTER_KEY_FILE) and back it up: without it the stored secrets cannot be read.',
    );
  }
  return { key, file, origin: `the data directory's key file (${file})`, created: true };
}
