/**
 * Rate budgets: what a principal's requests count against. Every key, embed token and user session of an account
 * shares one budget per bucket at the account tier's figures; a key with limits lower than that also has counters
 * of its own (src/keys/limits.ts, keyLimitsWithin). A request counts in all of its counters or in none.
 */
import type { ApiError } from '../core/errors.js';
import type { RateState } from '../core/limiter-port.js';
import type { Principal } from '../accounts/principal.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import type { Tier } from '../accounts/scopes.js';
import { API_KEYS, type ApiKeyRecord } from '../keys/keys.js';
import { keyLimitsWithin, RATE_LIMITS, type Bucket, type KeyRateLimit } from '../keys/limits.js';
import type { CallInfo } from './call.js';
import { hitLimits, rateLimited } from './counters.js';
import type { AccessServices } from './services.js';
import { unavailableError } from './unavailable.js';

/** The figures a principal counts against: its account's tier and, for a key limited below it, the key's own. */
export interface Budget {
  accountTier: Tier;
  keyLimits: KeyRateLimit | undefined;
}

/**
 * Budgets of the principals admission made, so a later count for the same principal (a JSON-RPC batch, a tool's
 * own bucket after /mcp admitted the POST) needs no store read. Principals live for one request or one MCP session.
 */
const budgets = new WeakMap<Principal, Known>();

/** A principal's budget, and its all-requests counters once made (one lookup per request finds both). */
interface Known {
  readonly budget: Budget;
  all: readonly Counter[] | undefined;
}

function remember(principal: Principal, budget: Budget): Known {
  const known: Known = { budget, all: undefined };
  budgets.set(principal, known);
  return known;
}

/** Keeps the budget admission found for a principal. */
export function rememberBudget(principal: Principal, budget: Budget): Budget {
  return remember(principal, budget).budget;
}

/** The budget of a key (or of an embed token made by it) in its account. */
export function keyBudget(
  record: { tier: Tier; rateLimit?: KeyRateLimit | null | undefined },
  account: AccountRecord | undefined,
): Budget {
  const accountTier = account?.tier ?? record.tier;
  return { accountTier, keyLimits: keyLimitsWithin(record.tier, record.rateLimit, accountTier) };
}

/** A principal's budget: as admission found it, else read from the store (a principal admitted elsewhere). */
async function budgetOf(services: AccessServices, principal: Principal): Promise<Known> {
  const known = budgets.get(principal);
  if (known) return known;
  // A session's principal carries its account's tier; it has no limits of its own.
  if (principal.kind === 'session') return remember(principal, { accountTier: principal.tier, keyLimits: undefined });
  const [record, account] = await Promise.all([
    services.store.get<ApiKeyRecord>(API_KEYS, principal.keyId),
    services.store.get<AccountRecord>(ACCOUNTS, principal.ownerId),
  ]);
  return remember(principal, keyBudget(record ?? { tier: principal.tier }, account));
}

/** One counter a request counts in. */
interface Counter {
  readonly key: string;
  readonly limit: number;
  readonly bucket: Bucket;
  /** The key's own counter (else the account's). */
  readonly own: boolean;
}

/** The counters of a principal's buckets: the account's, then the key's own where it has a lower limit. */
function countersOf(principal: Principal, budget: Budget, buckets: readonly Bucket[]): readonly Counter[] {
  const out: Counter[] = [];
  for (const bucket of buckets) {
    out.push({
      key: `acct:${principal.ownerId}:${bucket}`,
      limit: RATE_LIMITS[budget.accountTier][bucket],
      bucket,
      own: false,
    });
    const own = principal.kind === 'session' ? undefined : budget.keyLimits?.[bucket];
    if (own !== undefined) out.push({ key: `key:${principal.keyId}:${bucket}`, limit: own, bucket, own: true });
  }
  return out;
}

/**
 * The all-requests counters of a principal, made once (kept beside its budget, as long as the principal lives: its
 * key's cache entry) and frozen: limiters read them and never change them.
 */
function allCountersOf(principal: Principal, known: Known): readonly Counter[] {
  known.all ??= Object.freeze(countersOf(principal, known.budget, ALL_ONLY).map((c) => Object.freeze(c)));
  return known.all;
}

/** Only the all-requests bucket. */
export const ALL_ONLY: readonly Bucket[] = ['all'];

/** The result of counting one request in a principal's budget. */
export interface BudgetHit {
  /** For the X-RateLimit-* headers: the counter that applied (the full one on a refusal, else the one closest to its limit). */
  rate: RateState;
  /** The 429 to answer when the request was refused (nothing was counted then). */
  refused: ApiError | undefined;
}

/**
 * Counts one request in the given buckets of a principal's budget, all or nothing. Without a promise when the budget
 * is known (since admission) and the limiter answers at once (in process): the usual request.
 */
export function hitBudget(
  services: AccessServices,
  principal: Principal,
  buckets: readonly Bucket[],
  now: Date = services.clock.now(),
): BudgetHit | Promise<BudgetHit> {
  const known = budgets.get(principal);
  // A budget read from the store counts at the time the count is made, not at `now`: a time read before the wait
  // could put the count in a window the limiter has already left.
  if (!known)
    return budgetOf(services, principal).then((k) => hitWithin(services, principal, k, buckets, services.clock.now()));
  return hitWithin(services, principal, known, buckets, now);
}

function hitWithin(
  services: AccessServices,
  principal: Principal,
  known: Known,
  buckets: readonly Bucket[],
  now: Date,
): BudgetHit | Promise<BudgetHit> {
  const { budget } = known;
  const counters = buckets === ALL_ONLY ? allCountersOf(principal, known) : countersOf(principal, budget, buckets);
  const states = hitLimits(services, counters, now);
  return states instanceof Promise
    ? states.then((s) => verdict(budget, counters, s))
    : verdict(budget, counters, states);
}

function verdict(budget: Budget, counters: readonly Counter[], states: RateState[]): BudgetHit {
  // Headers describe the counter that applies: the one with the fewest requests left, whatever its bucket (a chat
  // call near its chat limit shows the chat limit, not the all-requests one); on a tie, the first counted.
  let shown = 0;
  for (let i = 1; i < counters.length; i++) {
    if (states[i]!.remaining < states[shown]!.remaining) shown = i;
  }
  if (states[0]!.allowed) return { rate: states[shown]!, refused: undefined };
  // All or nothing: nothing was counted, and the full counters are those with nothing left.
  const full = Math.max(
    0,
    states.findIndex((s) => s.remaining === 0),
  );
  const c = counters[full]!;
  const refused = c.own
    ? rateLimited("API key's own", c.bucket, states[full]!, " (within its account's budget)")
    : rateLimited(
        `${budget.accountTier} tier`,
        c.bucket,
        states[full]!,
        ', shared by all the keys and sessions of the account',
      );
  // A refusal's headers are those of the counter that refused it.
  return { rate: states[full]!, refused };
}

/**
 * Counts one request in the principal's all-requests bucket and, for tools with
 * their own bucket, in that one too: all or nothing. Sets call.rate; throws 429
 * naming the bucket that is full. Without a promise when hitBudget answers at once.
 */
export function countPrincipal(
  services: AccessServices,
  principal: Principal,
  call: Pick<CallInfo, 'rate'>,
  bucket: Bucket,
  now: Date = services.clock.now(),
): void | Promise<void> {
  const hit = hitBudget(services, principal, bucket === 'all' ? ALL_ONLY : [...ALL_ONLY, bucket], now);
  if (hit instanceof Promise) return hit.then((h) => applyHit(call, h));
  applyHit(call, hit);
}

function applyHit(call: Pick<CallInfo, 'rate'>, hit: BudgetHit): void {
  call.rate = hit.rate;
  if (hit.refused) throw hit.refused;
}

/**
 * Counts one more request in the all-requests bucket of a principal admitted already (a JSON-RPC batch, an embed
 * page load): the state for the headers, and the 429 naming the full limit when it was refused (nothing counted).
 */
export async function countAdmitted(services: AccessServices, principal: Principal): Promise<BudgetHit> {
  try {
    return await hitBudget(services, principal, ALL_ONLY);
  } catch (err) {
    throw unavailableError(err, services.clock.now()) ?? err;
  }
}

/** Counts one call in a tool's own bucket (generation, chat) for a principal already counted in the all-requests bucket. */
export async function countBucket(services: AccessServices, principal: Principal, bucket: Bucket): Promise<void> {
  const hit = await hitBudget(services, principal, [bucket]);
  if (hit.refused) throw hit.refused;
}
