import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../accounts/sessions.js';
import type { CallInfo } from '../access/call.js';
import { singleKey } from './credentials.js';
import { sessionToken } from './session-cookie.js';

/**
 * What a REST request presents to the shared admission (src/access/): its key, session cookie and CSRF
 * header. Two different keys in one request are refused here (400), before anything is counted.
 */
export function restCall(req: FastifyRequest): CallInfo {
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
    sessionToken: sessionToken(req.headers),
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    method: req.method,
    acceptLanguage: typeof language === 'string' ? language : undefined,
    cookie: undefined,
  };
}
