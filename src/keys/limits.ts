import type { Tier } from './scopes.js';

/** Fixed window length of every rate limit (spec section 8). */
export const RATE_WINDOW_MS = 15 * 60 * 1000;

/** The three buckets: every request, contract generation, AI chat. */
export type Bucket = 'all' | 'generation' | 'chat';

/** Requests per 15-minute window, per key and bucket (spec section 8). */
export const RATE_LIMITS: Record<Tier, Record<Bucket, number>> = {
  public: { all: 100, generation: 10, chat: 5 },
  partner: { all: 1_000, generation: 100, chat: 50 },
  internal: { all: 10_000, generation: 1_000, chat: 200 },
};

/** Requests without a valid key, per client address and window: a brute-force guard. */
export const ANONYMOUS_LIMIT = RATE_LIMITS.public.all;
