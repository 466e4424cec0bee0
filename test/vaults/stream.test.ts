/**
 * The chunked encryption of vault files: any plaintext, cut into any pieces on the way in or out, comes back byte
 * for byte; a changed, dropped, moved or added chunk, a file cut short, a changed header and another item's key
 * all fail, and no plaintext of a failing chunk is released.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DataKey } from '../../src/vaults/crypto.js';
import { CHUNK_BYTES, decryptStream, encryptedSize, encryptStream, HEADER_BYTES } from '../../src/vaults/stream.js';

const key = new DataKey(randomBytes(32));
const AAD = 'vault/vlt_A/item/vit_A/content';

// Buffers are compared with equals(): a deep toEqual of a large Buffer takes seconds.

/** Feeds `data` in pieces of the given sizes (cycled) through `transform` and collects what comes out. */
async function through(transform: NodeJS.ReadWriteStream, data: Buffer, pieces = [data.length || 1]) {
  const parts: Buffer[] = [];
  let at = 0;
  let i = 0;
  while (at < data.length) {
    const n = pieces[i++ % pieces.length]!;
    parts.push(data.subarray(at, at + n));
    at += n;
  }
  const out: Buffer[] = [];
  for await (const c of Readable.from(parts).pipe(transform as never) as AsyncIterable<Buffer>) out.push(c);
  return Buffer.concat(out);
}

const seal = (plain: Buffer, pieces?: number[], aad = AAD) => through(encryptStream(key, aad), plain, pieces);
const open = (sealed: Buffer, pieces?: number[], aad = AAD, k = key) => through(decryptStream(k, aad), sealed, pieces);

describe('vault file stream', () => {
  it('round-trips sizes around the chunk boundaries, whatever the pieces', async () => {
    for (const size of [0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 17]) {
      const plain = randomBytes(size);
      const sealed = await seal(plain, [1000, 70_000, 13]);
      expect(sealed.length, `size ${size}`).toBe(encryptedSize(size));
      expect((await open(sealed, [7, 65_553, 100_000])).equals(plain), `size ${size}`).toBe(true);
      expect((await open(sealed)).equals(plain), `size ${size}`).toBe(true);
    }
  });

  it('the same plaintext encrypts differently each time (a fresh salt, so a fresh file key)', async () => {
    const plain = Buffer.alloc(1000, 1);
    const [a, b] = [await seal(plain), await seal(plain)];
    expect(a.equals(b)).toBe(false);
    expect(a.includes(plain.subarray(0, 64))).toBe(false);
  });

  it('refuses any change, and releases nothing of a failing chunk', async () => {
    const plain = randomBytes(4 * CHUNK_BYTES + 100);
    const sealed = await seal(plain);
    const sealedChunk = CHUNK_BYTES + 16;
    const chunkAt = (i: number) => HEADER_BYTES + i * sealedChunk;
    const flipped = Buffer.from(sealed);
    flipped[chunkAt(2) + 5]! ^= 1;
    // What comes out before the failure is the chunks before the changed one, never a byte of it.
    const released: Buffer[] = [];
    const dec = decryptStream(key, AAD);
    dec.on('data', (c: Buffer) => released.push(c));
    await expect(
      new Promise((resolve, reject) => {
        dec.on('error', reject);
        dec.on('end', resolve);
        dec.end(flipped);
      }),
    ).rejects.toThrow(/chunk 2 .*does not open/);
    expect(Buffer.concat(released).equals(plain.subarray(0, 2 * CHUNK_BYTES))).toBe(true);

    const swapped = Buffer.concat([
      sealed.subarray(0, chunkAt(1)),
      sealed.subarray(chunkAt(2), chunkAt(3)),
      sealed.subarray(chunkAt(1), chunkAt(2)),
      sealed.subarray(chunkAt(3)),
    ]);
    const cases: Array<[string, Buffer]> = [
      ['chunks swapped', swapped],
      ['a chunk dropped', Buffer.concat([sealed.subarray(0, chunkAt(1)), sealed.subarray(chunkAt(2))])],
      ['cut at a chunk boundary', sealed.subarray(0, chunkAt(4))],
      ['cut inside a chunk', sealed.subarray(0, sealed.length - 3)],
      ['bytes added after the end', Buffer.concat([sealed, Buffer.alloc(20)])],
      ['the last chunk repeated', Buffer.concat([sealed, sealed.subarray(chunkAt(4))])],
      ['only the header', sealed.subarray(0, HEADER_BYTES)],
      ['half a header', sealed.subarray(0, 10)],
    ];
    for (const [what, bad] of cases) await expect(open(bad), what).rejects.toThrow();
    const header = Buffer.from(sealed);
    header[HEADER_BYTES - 1]! ^= 1; // the salt: another file key
    await expect(open(header)).rejects.toThrow();
    const size = Buffer.from(sealed);
    size.writeUInt32BE(CHUNK_BYTES * 2, 8);
    await expect(open(size)).rejects.toThrow();
    // Another item's file, or another vault's key, does not open.
    await expect(open(sealed, undefined, 'vault/vlt_A/item/vit_B/content')).rejects.toThrow();
    await expect(open(sealed, undefined, AAD, new DataKey(randomBytes(32)))).rejects.toThrow();
    // And the untouched file still does.
    expect((await open(sealed)).equals(plain)).toBe(true);
  });
});
