/**
 * The wizard's `callback` (spec 4.4): an HTTPS URL on one of the key's allowed
 * origins that also passes the webhook address guard (src/webhooks/guard.ts).
 */
import { ApiError } from '../core/errors.js';
import { resolveCheckedUrl } from '../webhooks/guard.js';
import { parseOrigin } from './origins.js';

/** The callback URL, normalized, or throws VALIDATION_ERROR naming `field`. */
export async function checkCallback(raw: string, allowedOrigins: readonly string[], opts: { allow?: string | undefined; field?: string } = {}): Promise<string> {
  const field = opts.field ?? 'callback';
  const refuse = (reason: string) => ApiError.validation('The callback URL is not allowed.', [{ field, reason }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https://');
  const origin = parseOrigin(url.origin);
  if (!('origin' in origin) || !allowedOrigins.includes(origin.origin)) {
    throw refuse(`must be on one of the key's allowed origins (${allowedOrigins.join(', ') || 'none configured'})`);
  }
  try {
    await resolveCheckedUrl(url.href, { allow: opts.allow });
  } catch (err) {
    if (err instanceof ApiError && err.details) throw refuse(err.details[0]!.reason);
    throw err;
  }
  return url.href;
}
