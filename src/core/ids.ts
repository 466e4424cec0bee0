import { randomFillSync } from 'node:crypto';

// Crockford base32: ids sort by creation time, read unambiguously, and are URL-safe.
// Written here rather than pulled in: a ULID is twelve lines, and we want the prefix built in.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Random bytes are drawn from a pool refilled 4 KiB at a time: one syscall per ~400 ids.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

let lastMs = -1;
/** The 80 random bits of the last id, updated in place (ids are made once per request, so no allocation here). */
const lastRandom = new Uint8Array(10);

/** Fills `target` with random bytes from the pool. */
function drawInto(target: Uint8Array): void {
  if (poolOffset + target.length > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  target.set(pool.subarray(poolOffset, poolOffset + target.length));
  poolOffset += target.length;
}

function drawRandom(): void {
  drawInto(lastRandom);
}

/** Adds one to the 80-bit random part, so ids made within one millisecond still sort in order. */
function incrementRandom(): void {
  for (let i = 9; i >= 0; i--) {
    lastRandom[i] = (lastRandom[i]! + 1) & 0xff;
    if (lastRandom[i] !== 0) break;
  }
}

/** Character codes of the alphabet: an id is built with one String.fromCharCode, one allocation. */
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

/** A 26-character ULID-like id: 48 bits of milliseconds then 80 random bits, monotonic within a millisecond. */
export function ulid(nowMs: number = Date.now()): string {
  if (nowMs <= lastMs) {
    incrementRandom();
    nowMs = lastMs;
  } else {
    drawRandom();
  }
  lastMs = nowMs;
  return encodeUlid(nowMs, lastRandom);
}

/** The 26 characters of a ULID: `ms` (48 bits) then the 10 bytes of `random`, in Crockford base32. */
export function encodeUlid(ms: number, random: Uint8Array): string {
  // 50 bits of time as 10 characters (the top two bits are zero): two 25-bit halves.
  const hi = Math.floor(ms / 0x2000000);
  const lo = ms - hi * 0x2000000;
  const r = random;
  // 80 random bits as 16 characters: four 20-bit quarters.
  const q0 = (r[0]! << 12) | (r[1]! << 4) | (r[2]! >>> 4);
  const q1 = ((r[2]! & 0x0f) << 16) | (r[3]! << 8) | r[4]!;
  const q2 = (r[5]! << 12) | (r[6]! << 4) | (r[7]! >>> 4);
  const q3 = ((r[7]! & 0x0f) << 16) | (r[8]! << 8) | r[9]!;
  const c = CODES;
  // prettier-ignore
  return String.fromCharCode(
    c[(hi >>> 20) & 31]!,
    c[(hi >>> 15) & 31]!,
    c[(hi >>> 10) & 31]!,
    c[(hi >>> 5) & 31]!,
    c[hi & 31]!,
    c[(lo >>> 20) & 31]!,
    c[(lo >>> 15) & 31]!,
    c[(lo >>> 10) & 31]!,
    c[(lo >>> 5) & 31]!,
    c[lo & 31]!,
    c[(q0 >>> 15) & 31]!,
    c[(q0 >>> 10) & 31]!,
    c[(q0 >>> 5) & 31]!,
    c[q0 & 31]!,
    c[(q1 >>> 15) & 31]!,
    c[(q1 >>> 10) & 31]!,
    c[(q1 >>> 5) & 31]!,
    c[q1 & 31]!,
    c[(q2 >>> 15) & 31]!,
    c[(q2 >>> 10) & 31]!,
    c[(q2 >>> 5) & 31]!,
    c[q2 & 31]!,
    c[(q3 >>> 15) & 31]!,
    c[(q3 >>> 10) & 31]!,
    c[(q3 >>> 5) & 31]!,
    c[q3 & 31]!,
  );
}

const scattered = new Uint8Array(16);

/**
 * 26 characters in the same alphabet and shape as a ULID, all of them random: for records whose ids should spread
 * over an index rather than follow time. Webhook deliveries are such records: several instances on PostgreSQL record
 * the outcomes of neighbouring deliveries at once in SERIALIZABLE transactions, and with time-ordered ids those reads
 * shared the leaf pages of the primary key's index, where PostgreSQL's predicate locks are kept per page; the outbox
 * bench had three to six times the conflicts (0.04 per delivery, against 0.006 to 0.007 with these).
 */
export function scatteredId(): string {
  drawInto(scattered);
  // 48 bits where a ULID keeps its milliseconds, then 80 more.
  const s = scattered;
  const ms = (s[10]! * 256 + s[11]!) * 2 ** 32 + ((s[12]! << 24) >>> 0) + (s[13]! << 16) + (s[14]! << 8) + s[15]!;
  return encodeUlid(ms, scattered.subarray(0, 10));
}

export const ID_PREFIXES = {
  apiKey: 'key',
  owner: 'own',
  account: 'acct',
  user: 'usr',
  session: 'ses',
  request: 'req',
  event: 'evt',
  webhook: 'wh',
  delivery: 'dlv',
  contract: 'ctr',
  deployment: 'dep',
  mail: 'mail',
  emailToken: 'emt',
  vault: 'vlt',
  vaultItem: 'vit',
  vaultAccess: 'vac',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Kinds whose ids are scattered (scatteredId) rather than time-ordered. */
const SCATTERED: ReadonlySet<IdKind> = new Set<IdKind>(['delivery']);

/** A new prefixed id such as `key_01JD...`: time-ordered, but for the kinds in SCATTERED. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${SCATTERED.has(kind) ? scatteredId() : ulid()}`;
}

const ID_PATTERN = /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` looks like an id of the given kind. */
export function isId(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`) && ID_PATTERN.test(value);
}

/**
 * Time-ordered ids (ULIDs) sorted from the greatest, the newest, down, in place; those an index hands out in
 * ascending order (the usual case) are only reversed.
 */
export function newestFirst(ids: string[]): string[] {
  return isAscending(ids) ? ids.reverse() : ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** Whether `ids` are in ascending order, each greater than the one before. */
export function isAscending(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i - 1]! >= ids[i]!) return false;
  return true;
}

/**
 * Time-ordered ids (ULIDs) of several lists in one, oldest first: the lists an index hands out in ascending order (the
 * usual case) are merged as they are, the others sorted first.
 */
export function oldestFirst(lists: readonly (readonly string[])[]): string[] {
  let out: string[] = [];
  for (const list of lists) {
    const ids = isAscending(list) ? list : [...list].sort();
    if (out.length === 0) {
      out = [...ids];
      continue;
    }
    const merged: string[] = new Array(out.length + ids.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < out.length && j < ids.length) merged[k++] = out[i]! <= ids[j]! ? out[i++]! : ids[j++]!;
    while (i < out.length) merged[k++] = out[i++]!;
    while (j < ids.length) merged[k++] = ids[j++]!;
    out = merged;
  }
  return out;
}
