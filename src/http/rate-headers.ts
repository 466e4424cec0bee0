import type { FastifyReply } from 'fastify';
import type { RateState } from '../keys/limiter.js';

// Windows end at the same instant for every key, so the last reset time's text is kept.
let lastReset = { at: NaN, text: '' };
function resetText(resetAt: Date): string {
  const at = resetAt.getTime();
  if (at !== lastReset.at) lastReset = { at, text: resetAt.toISOString() };
  return lastReset.text;
}

/** The X-RateLimit-* headers of a bucket's state. */
export function rateHeaders(state: RateState): Record<string, string | number> {
  return {
    'X-RateLimit-Limit': state.limit,
    'X-RateLimit-Remaining': state.remaining,
    'X-RateLimit-Reset': resetText(state.resetAt),
  };
}

/**
 * The name of the first rate header, which also tells the onSend hook that a call set them (src/http/app.ts).
 * Header names are given in lower case on the hot path: Fastify lowers every name it is given (`reply.header`,
 * `hasHeader`), and a name already in lower case is returned as it is, a constant whose hash is known, where a
 * mixed-case one makes a new string per request. Node writes the names as Fastify keeps them: lower case either way.
 */
export const RATE_LIMIT = 'x-ratelimit-limit';

/** Sets a bucket's X-RateLimit-* headers on a reply. */
export function setRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header(RATE_LIMIT, state.limit);
  reply.header('x-ratelimit-remaining', state.remaining);
  reply.header('x-ratelimit-reset', resetText(state.resetAt));
}
