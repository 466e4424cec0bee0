import { randomFillSync } from 'node:crypto';

// Crockford base32: ids sort by creation time, read unambiguously, and are URL-safe.
// Written here rather than pulled in: a ULID is twelve lines, and we want the prefix built in.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Random bytes are drawn from a pool refilled 4 KiB at a time: one syscall per ~400 ids.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function random10(): Buffer {
  if (poolOffset + 10 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + 10));
  poolOffset += 10;
  return out;
}

let lastMs = -1;
let lastRandom: Buffer = Buffer.alloc(10);

/** A 26-character ULID-like id: 48 bits of milliseconds then 80 random bits, monotonic within a millisecond. */
export function ulid(nowMs: number = Date.now()): string {
  let rand: Buffer;
  if (nowMs <= lastMs) {
    rand = Buffer.from(lastRandom);
    for (let i = rand.length - 1; i >= 0; i--) {
      rand[i] = (rand[i]! + 1) & 0xff;
      if (rand[i] !== 0) break;
    }
    nowMs = lastMs;
  } else {
    rand = random10();
  }
  lastMs = nowMs;
  lastRandom = rand;
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  // 80 bits as 16 five-bit characters: each 5-byte group gives 8 characters.
  let tail = '';
  for (let g = 0; g < 10; g += 5) {
    const hi = rand[g]! * 4 + (rand[g + 1]! >> 6); // top 10 bits
    const lo = ((rand[g + 1]! & 0x3f) * 2 ** 24 + rand[g + 2]! * 65536 + rand[g + 3]! * 256 + rand[g + 4]!); // low 30 bits
    tail += ALPHABET[hi >> 5]! + ALPHABET[hi & 31]!;
    for (let s = 25; s >= 0; s -= 5) tail += ALPHABET[Math.floor(lo / 2 ** s) & 31]!;
  }
  return time + tail;
}

export const ID_PREFIXES = {
  apiKey: 'key',
  owner: 'own',
  request: 'req',
  event: 'evt',
  webhook: 'wh',
  delivery: 'dlv',
  contract: 'ctr',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** A new prefixed id such as `key_01JD...`. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

const ID_PATTERN = /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` looks like an id of the given kind. */
export function isId(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`) && ID_PATTERN.test(value);
}
