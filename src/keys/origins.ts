import type { ErrorDetail } from '../core/errors.js';

/**
 * Allowed origins of a key: the sites that may frame the wizard.
 * Each entry is exactly `scheme://host[:port]`, as a browser writes
 * `location.origin`: no path, query, fragment, user or wildcard. HTTPS for
 * every host; plain HTTP only for loopback hosts (local development).
 */

export const MAX_ALLOWED_ORIGINS = 20;

function isLoopbackHostname(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The normalized origin (lower-case host, default port dropped), or why the text is not one. */
export function parseOrigin(raw: string): { origin: string } | { reason: string } {
  const text = raw.trim();
  if (text === '' || text.length > 200)
    return { reason: 'must be an origin such as https://app.example.com (1 to 200 characters)' };
  if (text.includes('*')) return { reason: 'wildcards are not allowed: list each origin exactly' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { reason: 'not an origin: write scheme://host[:port], e.g. https://app.example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { reason: 'the scheme must be https (or http for localhost)' };
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname))
    return { reason: 'must use https (plain http is allowed for localhost and 127.0.0.1 only)' };
  if (url.username || url.password) return { reason: 'must not contain a user name or password' };
  // `new URL` adds a `/` path to a bare origin; anything more is a path, query or fragment.
  const bare = text.replace(/\/$/, '');
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(bare)) {
    return { reason: `must be an origin without path, query or fragment: ${url.origin}` };
  }
  return { origin: url.origin };
}

/** Validates and normalizes a key's allowedOrigins; problems are pushed to `details` (field `field.<index>`). */
export function normalizeAllowedOrigins(list: readonly string[], field: string, details: ErrorDetail[]): string[] {
  if (list.length > MAX_ALLOWED_ORIGINS) details.push({ field, reason: `at most ${MAX_ALLOWED_ORIGINS} origins` });
  const out: string[] = [];
  list.forEach((raw, i) => {
    const parsed = parseOrigin(raw);
    if ('reason' in parsed) details.push({ field: `${field}.${i}`, reason: parsed.reason });
    else if (!out.includes(parsed.origin)) out.push(parsed.origin);
  });
  return out;
}

/** Whether `origin` (as a browser sends it) is one of `allowed` (already normalized). */
export function originAllowed(allowed: readonly string[], origin: string | undefined): origin is string {
  if (!origin) return false;
  const parsed = parseOrigin(origin);
  return 'origin' in parsed && allowed.includes(parsed.origin);
}
