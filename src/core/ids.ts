import { randomBytes } from 'node:crypto';

// Crockford base32: ids sort by creation time, read unambiguously, and are URL-safe.
// Written here rather than pulled in: a ULID is twelve lines, and we want the prefix built in.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

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
    rand = randomBytes(10);
  }
  lastMs = nowMs;
  lastRandom = rand;
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  let bits = 0n;
  for (const b of rand) bits = (bits << 8n) | BigInt(b);
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = ALPHABET[Number(bits & 31n)]! + tail;
    bits >>= 5n;
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
