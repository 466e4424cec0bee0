import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '../accounts/sessions.js';
import type { CallInfo } from '../access/call.js';
import { conflictingKeys, presentedKey } from './credentials.js';

/**
 * What a REST request presents to the shared admission (src/access/): its key, session cookie and CSRF
 * header. Two different keys in one request are refused here (400), before anything is counted.
 */
export function restCall(req: FastifyRequest): CallInfo {
  const conflict = conflictingKeys(req.headers, req.query);
  if (conflict) throw conflict;
  const csrf = req.headers[CSRF_HEADER];
  const language = req.headers['accept-language'];
  return {
    apiKey: presentedKey(req.headers, req.query),
    requestId: String(req.id),
    transport: 'rest',
    clientIp: req.ip,
    rate: undefined,
    sessionToken: req.cookies[SESSION_COOKIE] || undefined,
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    method: req.method,
    acceptLanguage: typeof language === 'string' ? language : undefined,
    cookie: undefined,
  };
}
