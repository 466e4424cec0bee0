/**
 * Chunked authenticated encryption of vault files, so that a file of any size is encrypted as it is received and
 * decrypted as it is sent, without ever being held whole in memory. The framing follows the STREAM construction
 * (Hoang, Reyhanitabar, Rogaway, Vizár 2015), as age and Tink use it:
 *
 *   header   "svcvf1\n\0" (8 bytes) ‖ chunk size, uint32 big-endian (4) ‖ salt (32 random bytes)
 *   chunk i  AES-256-GCM(fileKey, nonce_i, plaintext_i, aad = header) ‖ 16-byte tag
 *
 * - fileKey = HKDF-SHA256(the vault's data key, salt, "svc vault file v1\0" ‖ "vault/<id>/item/<id>/content"): a key
 *   per file, bound to its vault and item, so a file moved onto another item does not open.
 * - nonce_i = i as an 11-byte big-endian counter ‖ one byte, 1 on the last chunk and 0 on the others: a chunk
 *   moved, dropped or repeated does not open, a file cut at a chunk boundary lacks its last chunk, and a file with
 *   bytes added after its last chunk has a last chunk that is no longer last.
 * - Every chunk holds `chunk size` bytes of plaintext but the last, which holds 1 to `chunk size` (0 only when the
 *   whole file is empty). The header is the associated data of every chunk, so a changed chunk size or salt fails too.
 * - The decrypting side releases a chunk's plaintext only once its tag is checked.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { DataKey } from './crypto.js';

const MAGIC = Buffer.from('svcvf1\n\0', 'latin1');
const SALT_BYTES = 32;
export const HEADER_BYTES = MAGIC.length + 4 + SALT_BYTES;
const TAG_BYTES = 16;
/** Plaintext bytes per chunk. */
export const CHUNK_BYTES = 64 * 1024;
/** Chunk sizes a reader accepts (a header is not trusted to ask for a huge buffer). */
const MIN_CHUNK = 1024;
const MAX_CHUNK = 1024 * 1024;

/** A stored file that does not open: altered, cut, extended, or not this item's. */
export class TamperedFileError extends Error {
  override name = 'TamperedFileError';
}

function nonce(index: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeBigUInt64BE(BigInt(index), 3);
  n[11] = last ? 1 : 0;
  return n;
}

/** Bytes a file of `size` plaintext bytes takes once encrypted. */
export function encryptedSize(size: number, chunk = CHUNK_BYTES): number {
  return HEADER_BYTES + size + Math.max(1, Math.ceil(size / chunk)) * TAG_BYTES;
}

/** A transform from plaintext to the framed ciphertext; `aad` names the item (crypto.ts `aad.itemContent`). */
export function encryptStream(key: DataKey, aad: string, chunk = CHUNK_BYTES): Transform {
  if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) throw new RangeError('chunk size out of range');
  const salt = randomBytes(SALT_BYTES);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(chunk, MAGIC.length);
  salt.copy(header, MAGIC.length + 4);
  const fileKey = key.fileKey(salt, aad);
  let index = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', fileKey, nonce(index++, last), { authTagLength: TAG_BYTES });
    cipher.setAAD(header);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(header);
      callback();
    },
    transform(data: Buffer, _enc, callback: TransformCallback) {
      pending.push(data);
      pendingBytes += data.length;
      // A full chunk goes out only once a byte after it has arrived: only then is it known not to be the last.
      if (pendingBytes > chunk) {
        let all = Buffer.concat(pending);
        while (all.length > chunk) {
          this.push(seal(all.subarray(0, chunk), false));
          all = all.subarray(chunk);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      this.push(seal(Buffer.concat(pending), true));
      pending = [];
      callback();
    },
  });
}

/**
 * A transform from the framed ciphertext back to the plaintext. It fails with TamperedFileError on the first chunk
 * that does not open (nothing of that chunk is released), and when the file ends early.
 */
export function decryptStream(key: DataKey, aad: string): Transform {
  let header: Buffer | undefined;
  let fileKey: Buffer | undefined;
  let chunk = 0;
  let index = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const open = (sealed: Buffer, last: boolean): Buffer => {
    if (sealed.length < TAG_BYTES || (last && sealed.length === TAG_BYTES && index > 0))
      throw new TamperedFileError('an encrypted vault file is cut short');
    const decipher = createDecipheriv('aes-256-gcm', fileKey!, nonce(index++, last), { authTagLength: TAG_BYTES });
    decipher.setAAD(header!);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new TamperedFileError(`chunk ${index - 1} of an encrypted vault file does not open`);
    }
  };
  const take = (): Buffer => {
    const all = Buffer.concat(pending);
    pending = [all];
    return all;
  };
  return new Transform({
    transform(data: Buffer, _enc, callback: TransformCallback) {
      try {
        pending.push(data);
        pendingBytes += data.length;
        if (!header) {
          if (pendingBytes < HEADER_BYTES) return callback();
          const all = take();
          header = Buffer.from(all.subarray(0, HEADER_BYTES));
          if (!header.subarray(0, MAGIC.length).equals(MAGIC))
            throw new TamperedFileError('not an encrypted vault file');
          chunk = header.readUInt32BE(MAGIC.length);
          if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) throw new TamperedFileError('bad chunk size');
          fileKey = key.fileKey(header.subarray(MAGIC.length + 4), aad);
          pending = [all.subarray(HEADER_BYTES)];
          pendingBytes -= HEADER_BYTES;
        }
        const sealedChunk = chunk + TAG_BYTES;
        // As when encrypting: a full chunk is opened as "not last" only once a byte after it is here.
        if (pendingBytes > sealedChunk) {
          let all = take();
          while (all.length > sealedChunk) {
            this.push(open(all.subarray(0, sealedChunk), false));
            all = all.subarray(sealedChunk);
          }
          pending = [all];
          pendingBytes = all.length;
        }
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (!header) throw new TamperedFileError('an encrypted vault file is cut short');
        this.push(open(Buffer.concat(pending), true));
        pending = [];
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
}
