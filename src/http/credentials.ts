import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../core/errors.js';

/**
 * The API key a request presents, from three places:
 * `Authorization: Bearer`, `X-API-Key`, and the `api_key` query parameter.
 * An Authorization header with another scheme (Basic, ...) does not hide a key
 * sent in X-API-Key; alone, it is passed on as-is so it fails as an invalid key.
 * Two different keys in one request are refused (`conflictingKeys`).
 */
export function presentedKey(headers: IncomingHttpHeaders, query: unknown): string | undefined {
  const found = keysIn(headers, query);
  return found.bearer ?? found.header ?? found.query ?? found.other;
}

interface Found {
  bearer?: string | undefined;
  header?: string | undefined;
  query?: string | undefined;
  /** An Authorization header that is not a Bearer token. */
  other?: string | undefined;
}

function keysIn(headers: IncomingHttpHeaders, query: unknown): Found {
  const found: Found = {};
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.trim() !== '') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) found.bearer = m[1];
    else found.other = auth;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header !== '') found.header = header;
  const q = query && typeof query === 'object' ? (query as Record<string, unknown>).api_key : undefined;
  if (typeof q === 'string' && q !== '') found.query = q;
  return found;
}

/**
 * The key a request presents, from one reading of its headers and query; throws the VALIDATION_ERROR of
 * conflictingKeys when it carries two different ones.
 */
export function singleKey(headers: IncomingHttpHeaders, query: unknown): string | undefined {
  const found = keysIn(headers, query);
  const key = found.bearer ?? found.header ?? found.query;
  if (
    (found.bearer !== undefined && found.bearer !== key) ||
    (found.header !== undefined && found.header !== key) ||
    (found.query !== undefined && found.query !== key)
  )
    throw conflict();
  return key ?? found.other;
}

function conflict(): ApiError {
  return ApiError.validation(
    'The request carries two different API keys; send exactly one (Authorization: Bearer, X-API-Key or api_key).',
    [{ field: '', reason: 'conflicting API keys' }],
  );
}

/** A VALIDATION_ERROR when a request carries two different keys (which one would it be?), else undefined. */
export function conflictingKeys(headers: IncomingHttpHeaders, query: unknown): ApiError | undefined {
  const found = keysIn(headers, query);
  const values = new Set([found.bearer, found.header, found.query].filter((v) => v !== undefined));
  if (values.size <= 1) return undefined;
  return conflict();
}
