import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import '../../../src/contracts/ton/index.js';
import { librarySha256Sync, nativeSha256Sync } from '../../../src/contracts/ton/native-sha256.js';

const require = createRequire(import.meta.url);

describe('cell hashes through node:crypto', () => {
  it('give the bytes of the library function, for buffers and strings of every length up to two blocks', () => {
    for (let n = 0; n <= 130; n++) {
      const buf = randomBytes(n);
      expect(nativeSha256Sync(buf).equals(librarySha256Sync(buf)), `${n} bytes`).toBe(true);
      const text = `é${'x'.repeat(n)}`;
      expect(nativeSha256Sync(text).equals(librarySha256Sync(text)), `string of ${n + 1}`).toBe(true);
    }
  });

  it('are the function @ton/core calls once the TON engine is loaded', () => {
    const crypto = require('@ton/crypto') as { sha256_sync: unknown };
    expect(crypto.sha256_sync).toBe(nativeSha256Sync);
    // The hash of the empty cell, as every TON implementation gives it.
    expect(beginCell().endCell().hash().toString('hex')).toBe(
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    );
  });
});
