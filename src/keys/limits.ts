import type { Tier } from '../accounts/scopes.js';

/** Fixed window length of every rate limit. */
export const RATE_WINDOW_MS = 15 * 60 * 1000;

/** The three buckets: every request, contract generation, AI chat. */
export type Bucket = 'all' | 'generation' | 'chat';

export const BUCKETS: readonly Bucket[] = ['all', 'generation', 'chat'];

/**
 * Requests per 15-minute window and bucket, per account: every key and every user session of an
 * account count against one budget of the account's tier. A key never gets more than its own tier's figures either
 * (a public key of a partner account: at most the public figures, within the account's budget).
 */
export const RATE_LIMITS: Record<Tier, Record<Bucket, number>> = {
  public: { all: 100, generation: 10, chat: 5 },
  partner: { all: 1_000, generation: 100, chat: 50 },
  internal: { all: 10_000, generation: 1_000, chat: 200 },
};

/** Requests without a valid key, per client address and window: a brute-force guard. */
export const ANONYMOUS_LIMIT = RATE_LIMITS.public.all;

/** A key's own limits, lower than its account's, per bucket; a bucket left out has none of its own. */
export type KeyRateLimit = Partial<Record<Bucket, number>>;

/**
 * The limits a key counts against besides its account's budget: per bucket, the lower of its own `rateLimit` and
 * its tier's figure, kept only where that is below the account's figure (elsewhere the account's budget is the
 * whole limit, and no counter of the key's own is needed). Undefined when the key has none.
 */
export function keyLimitsWithin(
  keyTier: Tier,
  own: KeyRateLimit | null | undefined,
  accountTier: Tier,
): KeyRateLimit | undefined {
  let out: KeyRateLimit | undefined;
  for (const b of BUCKETS) {
    const mine = Math.min(RATE_LIMITS[keyTier][b], own?.[b] ?? Infinity);
    if (mine < RATE_LIMITS[accountTier][b]) (out ??= {})[b] = mine;
  }
  return out;
}
