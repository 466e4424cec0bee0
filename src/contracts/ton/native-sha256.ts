/**
 * Cell hashes through Node's own SHA-256. @ton/core hashes every cell it builds or reads with `sha256_sync` from
 * @ton/crypto, which runs a pure-JavaScript SHA-256 (jssha) over a hex string: in a sandbox run of a large plan that
 * is about a fifth of the time. @ton/core looks the function up on @ton/crypto's exports at each call, and those read
 * it from the module below, so replacing it there makes every cell hash use node:crypto. The answers are the same
 * bytes (SHA-256 is SHA-256): test/contracts/ton/native-sha256.test.ts checks it against the original function and a
 * known cell hash, and fails if a new @ton/crypto moves the function (then this file needs looking at).
 *
 * Done by hand because neither package offers a hook for it; it only swaps a pure function for an equal one.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

type Sha256Sync = (source: Buffer | string) => Buffer;

const require = createRequire(import.meta.url);
const primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync: Sha256Sync };

/** The library's own function, kept for the test that compares the two. */
export const librarySha256Sync: Sha256Sync = primitives.sha256_sync;

export const nativeSha256Sync: Sha256Sync = (source) =>
  createHash('sha256')
    .update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source)
    .digest();

primitives.sha256_sync = nativeSha256Sync;
