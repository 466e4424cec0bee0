import type { IncomingHttpHeaders } from 'node:http';

/**
 * The API key a request presents, in the order of spec section 5:
 * `Authorization: Bearer`, then `X-API-Key`, then the `api_key` query parameter.
 * An Authorization header with another scheme is passed on as-is, so it fails as an invalid key.
 */
export function presentedKey(headers: IncomingHttpHeaders, query: unknown): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.trim() !== '') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1] : auth;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const q = query && typeof query === 'object' ? (query as Record<string, unknown>).api_key : undefined;
  return typeof q === 'string' && q !== '' ? q : undefined;
}
