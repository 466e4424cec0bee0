import { ApiError } from '../core/errors.js';
import type { SessionAuthority } from '../accounts/sessions.js';
import type { CallInfo } from './call.js';

/**
 * A request authenticated by the session cookie changes nothing without the CSRF token bound to its session:
 * every method but GET and HEAD must carry it in the X-CSRF-Token header.
 */
export function requireCsrf(
  sessions: SessionAuthority,
  call: Pick<CallInfo, 'method' | 'csrfToken'>,
  sessionId: string,
): void {
  if (call.method === 'GET' || call.method === 'HEAD' || sessions.csrfValid(sessionId, call.csrfToken)) return;
  throw new ApiError(
    'CSRF_FAILED',
    'This request is authenticated by the session cookie and needs the X-CSRF-Token header with the csrfToken returned by login or GET /api/auth/session.',
  );
}
