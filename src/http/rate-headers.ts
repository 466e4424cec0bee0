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

export function setRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', state.remaining);
  reply.header('X-RateLimit-Reset', resetText(state.resetAt));
}
