import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../accounts/sessions.js';
import type { CallInfo } from '../access/call.js';
import { singleKey } from './credentials.js';
import { type CookieOptions, sessionToken } from './session-cookie.js';

/**
 * What a REST request presents to the shared admission (src/access/): its key, session cookie (named as
 * `cookies` says) and CSRF header. Two different keys in one request are refused here (400), before anything is counted.
 */
export function restCall(req: FastifyRequest, cookies: CookieOptions): CallInfo {
  const apiKey = singleKey(req.headers, req.query);
  const csrf = req.headers[CSRF_HEADER];
  const language = req.headers['accept-language'];
  return {
    apiKey,
    requestId: String(req.id),
    transport: 'rest',
    clientIp: req.ip,
    connection: req.raw.socket,
    rate: undefined,
    sessionToken: sessionToken(req.headers, cookies),
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    method: req.method,
    acceptLanguage: typeof language === 'string' ? language : undefined,
    cookie: undefined,
  };
}
