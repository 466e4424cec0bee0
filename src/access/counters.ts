/**
 * Counting requests in the rate limiter: the one place a count is made (so failing open or closed is decided once),
 * the 429 it leads to, and the per-address guard for requests without a valid credential.
 */
import { ApiError } from '../core/errors.js';
import { addressGroup } from '../accounts/address-group.js';
import { LimiterUnavailableError, type RateState } from '../core/limiter-port.js';
import { ANONYMOUS_LIMIT, RATE_WINDOW_MS, type Bucket } from '../keys/limits.js';
import type { CallInfo } from './call.js';
import type { AccessServices } from './services.js';

const BUCKET_NAMES: Record<Bucket, string> = {
  all: 'all requests',
  generation: 'contract generation',
  chat: 'AI chat',
};

/** The 429: `who` names whose limit it is ("public tier", "API key's own"), `whole` what it covers. */
export function rateLimited(who: string, bucket: Bucket, state: RateState, whole = ''): ApiError {
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `Rate limit exceeded: the ${who} limit for ${BUCKET_NAMES[bucket]} is ${state.limit} requests per 15 minutes${whole}. ` +
      `Retry after ${state.resetAt.toISOString()}.`,
    undefined,
    state.resetAt.toISOString(),
  );
}

/** Limiters that are failing open now (SVC_RATE_LIMIT_FAIL_OPEN): the warning is logged once per outage. */
const openOutages = new WeakSet<object>();
/**
 * How many limiters are in `openOutages`, so that a limiter answering, every request, skips the set's lookup when none
 * is. A limiter dropped while in an outage keeps its count here: the lookup then runs, and finds nothing.
 */
let outagesOpen = 0;

/**
 * Counts against the limiter; when its engine cannot be reached, either refuses
 * with 503 SERVICE_UNAVAILABLE or, with SVC_RATE_LIMIT_FAIL_OPEN, lets the
 * request through uncounted (a warning once per outage). Every count of a
 * request goes through here. An in-process limiter answers at once (no promise:
 * nothing to wait for on the usual request); its failure is then thrown, not rejected.
 */
export function hitLimits(
  services: AccessServices,
  entries: ReadonlyArray<{ key: string; limit: number }>,
  now: Date,
): RateState[] | Promise<RateState[]> {
  const limiter = services.limiter;
  if (limiter.hitAllNow) {
    try {
      return answered(services, limiter.hitAllNow(entries, now));
    } catch (err) {
      return unreachable(services, entries, now, err);
    }
  }
  const states = limiter.hitAll(entries, now);
  // Failing closed, an unreachable limiter's error goes up as it is (admission and the tool runner make it a 503).
  if (!services.config.rateLimitFailOpen) return states;
  return states.then(
    (s) => answered(services, s),
    (err: unknown) => unreachable(services, entries, now, err),
  );
}

/** The limiter answered: an outage it was in is over. */
function answered(services: AccessServices, states: RateState[]): RateState[] {
  if (outagesOpen > 0 && openOutages.has(services.limiter)) {
    openOutages.delete(services.limiter);
    outagesOpen--;
    services.log.warn('the rate limiter answers again: requests are counted again');
  }
  return states;
}

/** The limiter failed: the error goes up, unless it cannot be reached and failing open lets the request through. */
function unreachable(
  services: AccessServices,
  entries: ReadonlyArray<{ key: string; limit: number }>,
  now: Date,
  err: unknown,
): RateState[] {
  if (!services.config.rateLimitFailOpen || !(err instanceof LimiterUnavailableError)) throw err;
  if (!openOutages.has(services.limiter)) {
    openOutages.add(services.limiter);
    outagesOpen++;
    services.log.warn(
      { err: err.name },
      'the rate limiter cannot be reached: letting requests through uncounted (SVC_RATE_LIMIT_FAIL_OPEN) until it answers again',
    );
  }
  const t = now.getTime();
  const resetAt = new Date(t - (t % RATE_WINDOW_MS) + RATE_WINDOW_MS);
  return entries.map((e) => ({ limit: e.limit, remaining: e.limit, resetAt, allowed: true }));
}

async function hitLimit(services: AccessServices, key: string, limit: number, now: Date): Promise<RateState> {
  return (await hitLimits(services, [{ key, limit }], now))[0]!;
}

/**
 * Counter key of a client address (requests without a valid key): IPv6 by its /64 network, as the sign-in counters
 * (one host is usually given a whole /64, and every address in it must not be a new client).
 */
export function addressCounter(clientIp: string | undefined): string {
  return `ip:${addressGroup(clientIp)}`;
}

/** Counts one request against its client address, without refusing it: the state for the headers. */
export function countAddress(services: AccessServices, clientIp: string | undefined): Promise<RateState> {
  return hitLimit(services, addressCounter(clientIp), ANONYMOUS_LIMIT, services.clock.now());
}

/** Counts a request that has no valid key against its address; throws 429 when the guard is exhausted. */
export async function admitAnonymous(
  services: AccessServices,
  call: Pick<CallInfo, 'clientIp' | 'rate'>,
): Promise<RateState> {
  const state = await countAddress(services, call.clientIp);
  call.rate = state;
  if (!state.allowed) throw rateLimited('unauthenticated (per address)', 'all', state);
  return state;
}
