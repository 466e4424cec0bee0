/**
 * Host name lookups for the webhook guard (./guard.ts), as a connection would make them: getaddrinfo through
 * `dns.lookup` (/etc/hosts, then the system's resolver). getaddrinfo runs on libuv's thread pool, four threads
 * shared with every store's file writes, and it holds its thread until the name servers answer: a receiver whose name
 * server answers slowly held a thread for seconds at every delivery attempt, and one account's subscriptions to such
 * hosts could take all four. So a lookup takes the one place of `hostLookups`, fair by account
 * (src/core/fair-slots.ts), and answers are kept for LOOKUP_TTL_MS: a busy subscription looks its host up twice a
 * minute instead of at every attempt. The addresses found are still checked, and pinned for the connection, at every
 * attempt.
 */
import { FairSlots } from '../core/fair-slots.js';

/** Resolves a host name to its addresses (all families). Injectable so tests need no DNS. */
export type Resolver = (host: string) => Promise<string[]>;

/** How long an answer is kept, ms. */
export const LOOKUP_TTL_MS = 30_000;
/** Most host names kept. */
export const LOOKUP_CACHE_MAX = 1_000;

export const hostLookups = new FairSlots({
  name: 'The webhook host lookups',
  size: 1,
  maxQueue: 64,
  maxWaitMs: 30_000,
  typicalMs: 20,
  noun: ['host lookup', 'host lookups'],
});

export interface CachedResolverOptions {
  ttlMs?: number;
  max?: number;
  now?: () => number;
  /** The places lookups take (default hostLookups). */
  slots?: FairSlots;
}

/**
 * `inner` with its answers kept for `ttlMs` (failures are not kept), one lookup at a time per host (callers asking
 * for a host being looked up share the answer), each lookup in a place of `slots`.
 */
export function cachedResolver(inner: Resolver, opts: CachedResolverOptions = {}): Resolver {
  const ttl = opts.ttlMs ?? LOOKUP_TTL_MS;
  const max = opts.max ?? LOOKUP_CACHE_MAX;
  const now = opts.now ?? Date.now;
  const slots = opts.slots ?? hostLookups;
  const kept = new Map<string, { addresses: string[]; until: number }>();
  const looking = new Map<string, Promise<string[]>>();
  return (host) => {
    const hit = kept.get(host);
    if (hit && hit.until > now()) return Promise.resolve(hit.addresses);
    let lookup = looking.get(host);
    if (!lookup) {
      lookup = slots
        .run(undefined, () => inner(host))
        .then((addresses) => {
          kept.delete(host);
          kept.set(host, { addresses, until: now() + ttl });
          if (kept.size > max) kept.delete(kept.keys().next().value!);
          return addresses;
        })
        .finally(() => looking.delete(host));
      looking.set(host, lookup);
    }
    return lookup;
  };
}
