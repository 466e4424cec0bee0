/**
 * Webhook signatures (docs/decisions.md, Webhooks).
 *
 *   X-Webhook-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]
 *
 * `v1` is the lowercase hex HMAC-SHA256, keyed with the subscription secret
 * (the whole `whsec_...` string, as UTF-8), of `<t>.<raw body>` — the exact
 * bytes sent. Several `v1` values appear while an old secret is still valid
 * after a rotation; a receiver accepts the request when any of them matches.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new secret: `whsec_` + 32 random bytes, base64url. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Key objects of recently used secrets: building one costs more than the HMAC of a small body. */
const keys = new Map<string, KeyObject>();
const KEY_CACHE_SIZE = 256;

function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= KEY_CACHE_SIZE) keys.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

function hmacHex(secret: string, t: number, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${t}.`, 'utf8');
  mac.update(rawBody);
  return mac.digest('hex');
}

/** The `X-Webhook-Signature` value for one secret: `t=<t>,v1=<hex>`. */
export function signPayload(rawBody: string | Buffer, secret: string, t: number): string {
  return `t=${t},v1=${hmacHex(secret, t, rawBody)}`;
}

/** The header value signed with every currently valid secret (newest first). */
export function signWithSecrets(rawBody: string | Buffer, secrets: readonly string[], t: number): string {
  let header = `t=${t}`;
  for (const secret of secrets) header += `,v1=${hmacHex(secret, t, rawBody)}`;
  return header;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Parses a signature header; undefined when malformed (no or several `t`, non-numeric `t`, no `v1`). */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | undefined {
  if (typeof header !== 'string' || header.length === 0 || header.length > 4096) return undefined;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      t = Number(value);
    } else if (key === 'v1') {
      v1.push(value);
    }
    // Other schemes (v0, future versions) are ignored.
  }
  if (t === undefined || v1.length === 0) return undefined;
  return { t, v1 };
}

export interface VerifyOptions {
  /** Largest allowed distance between `t` and now, in seconds, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's current time in unix seconds (default: the system clock). */
  now?: number;
}

/**
 * Receiver side: true when `header` carries a fresh, valid signature of
 * `rawBody` (the raw request bytes, before any JSON parsing) for `secret`.
 * Timestamps more than `toleranceSeconds` away from now (past or future) fail;
 * every `v1` value is compared in constant time and any match passes.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string,
  secret: string,
  opts: VerifyOptions = {},
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed || typeof secret !== 'string' || secret.length === 0) return false;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.t) > tolerance) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.t, rawBody), 'utf8');
  let ok = false;
  for (const candidate of parsed.v1) {
    if (!HEX64.test(candidate)) continue;
    // No early exit: every candidate is compared.
    if (timingSafeEqual(Buffer.from(candidate, 'utf8'), expected)) ok = true;
  }
  return ok;
}
