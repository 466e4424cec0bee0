import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { API_KEYS, authenticate, touchKey, type ApiKeyRecord } from '../keys/keys.js';
import type { Principal } from '../accounts/principal.js';
import { accountProblem } from '../accounts/accounts.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import { accountStore } from '../accounts/tenancy.js';
import { GrantDesk, openGrant } from '../accounts/grants.js';
import { ipAllowed, normalizeIp } from '../core/ip.js';
import { LimiterUnavailableError, type RateState } from '../keys/limiter.js';
import { ANONYMOUS_LIMIT, keyLimitsWithin, RATE_LIMITS, RATE_WINDOW_MS, type Bucket, type KeyRateLimit } from '../keys/limits.js';
import { StoreConflictError, StoreUnavailableError } from '../store/port.js';
import { hasScope, type Scope, type Tier } from '../accounts/scopes.js';
import { authenticateEmbedToken } from '../embed/auth.js';
import { isEmbedToken } from '../embed/store.js';
import type { AnyTool, PrincipalKind, Services, SessionEffects, ToolContext } from './define.js';
import { refuseUnstorableText } from './text-guard.js';

/** What a transport knows about one call. */
export interface CallInfo {
  /** The key as presented (Bearer, X-API-Key, api_key, or the stdio configuration). */
  apiKey: string | undefined;
  requestId: string;
  transport: 'rest' | 'mcp-stdio' | 'mcp-http';
  /** The client's address (the socket's, or from trusted proxies); loopback for stdio. */
  clientIp: string | undefined;
  /** REST only: the session cookie's token, when the request carries one. */
  sessionToken?: string | undefined;
  /** REST only: the X-CSRF-Token header. */
  csrfToken?: string | undefined;
  /** REST only: the HTTP method (CSRF is required on everything but GET). */
  method?: string | undefined;
  /**
   * Set when the transport has already authenticated the request and counted it
   * in the all-requests bucket (MCP over HTTP admits each POST once, for every
   * JSON-RPC method alike): only the tool's own bucket is counted then.
   */
  admitted?: Principal | undefined;
  /** Aborted when the caller has gone away (REST disconnect, MCP cancellation). */
  signal?: AbortSignal | undefined;
  /** Where the handler's ctx.progress goes (MCP with a progress token); a no-op when undefined. */
  progress?: ((stage: string, done?: number, total?: number) => void) | undefined;
  /** REST only: what the handler asked of the session cookie (set by ctx.session). */
  cookie?: { token: string; expiresAt: Date } | 'clear' | undefined;
  /**
   * Set by admission to the all-requests counter once it was counted (also when
   * the call is then refused), for the X-RateLimit-* headers. A field rather than
   * a callback: no closure per request on the hot path.
   */
  rate?: RateState | undefined;
}

/** zod issues as `details` entries: dotted field path and a readable reason. */
export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ field: [...path, k].join('.'), reason: 'unknown field' }));
    }
    return [{ field: path.join('.'), reason: issue.message }];
  });
}

const BUCKET_NAMES: Record<Bucket, string> = { all: 'all requests', generation: 'contract generation', chat: 'AI chat' };

/** The 429: `who` names whose limit it is ("public tier", "API key's own"), `whole` what it covers. */
function rateLimited(who: string, bucket: Bucket, state: RateState, whole = ''): ApiError {
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `Rate limit exceeded: the ${who} limit for ${BUCKET_NAMES[bucket]} is ${state.limit} requests per 15 minutes${whole}. ` +
      `Retry after ${state.resetAt.toISOString()}.`,
    undefined,
    state.resetAt.toISOString(),
  );
}

/** Seconds a client is asked to wait when the database or the rate limiter cannot be reached. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The 503 of an engine that cannot be reached (the store's database, the rate
 * limiter's server) or of a database transaction that kept conflicting with
 * concurrent ones until it gave up, or undefined for any other error. The
 * message names the part, never a connection string.
 */
export function unavailableError(err: unknown, now: Date): ApiError | undefined {
  if (err instanceof StoreConflictError) {
    return new ApiError(
      'SERVICE_UNAVAILABLE',
      "The service's database is busy with concurrent changes to the same records; nothing was changed. Retry in a few seconds.",
      undefined,
      new Date(now.getTime() + UNAVAILABLE_RETRY_SECONDS * 1000).toISOString(),
    );
  }
  const part = err instanceof StoreUnavailableError ? 'database' : err instanceof LimiterUnavailableError ? 'rate limiter' : undefined;
  if (part === undefined) return undefined;
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `The service's ${part} cannot be reached at the moment; nothing was changed. Retry in a few seconds.`,
    undefined,
    new Date(now.getTime() + UNAVAILABLE_RETRY_SECONDS * 1000).toISOString(),
  );
}

/** Limiters that are failing open now (SVC_RATE_LIMIT_FAIL_OPEN): the warning is logged once per outage. */
const openOutages = new WeakSet<object>();

/**
 * Counts against the limiter; when its engine cannot be reached, either refuses
 * with 503 SERVICE_UNAVAILABLE or, with SVC_RATE_LIMIT_FAIL_OPEN, lets the
 * request through uncounted (a warning once per outage). Every count of a
 * request goes through here.
 */
function hitLimits(services: Services, entries: Array<{ key: string; limit: number }>, now: Date): Promise<RateState[]> {
  const states = services.limiter.hitAll(entries, now);
  // Failing closed, an unreachable limiter's error goes up as it is (admit and invokeTool make it a 503).
  if (!services.config.rateLimitFailOpen) return states;
  return states.then(
    (s) => {
      if (openOutages.has(services.limiter)) {
        openOutages.delete(services.limiter);
        services.log.warn('the rate limiter answers again: requests are counted again');
      }
      return s;
    },
    (err: unknown) => {
      if (!(err instanceof LimiterUnavailableError)) throw err;
      if (!openOutages.has(services.limiter)) {
        openOutages.add(services.limiter);
        services.log.warn(
          { err: err.name },
          'the rate limiter cannot be reached: letting requests through uncounted (SVC_RATE_LIMIT_FAIL_OPEN) until it answers again',
        );
      }
      const t = now.getTime();
      const resetAt = new Date(t - (t % RATE_WINDOW_MS) + RATE_WINDOW_MS);
      return entries.map((e) => ({ limit: e.limit, remaining: e.limit, resetAt, allowed: true }));
    },
  );
}

async function hitLimit(services: Services, key: string, limit: number, now: Date): Promise<RateState> {
  return (await hitLimits(services, [{ key, limit }], now))[0]!;
}

/** Counter key of a client address (requests without a valid key). */
export function addressCounter(clientIp: string | undefined): string {
  return `ip:${clientIp ? normalizeIp(clientIp) : 'unknown'}`;
}

/**
 * What a principal's requests count against: the budget of its account (one per account and bucket, shared by
 * every key, embed token and user session of the account, at the account tier's figures) and, for a key with
 * limits lower than that, the key's own counters too (src/keys/limits.ts, keyLimitsWithin).
 */
interface Budget {
  accountTier: Tier;
  keyLimits: KeyRateLimit | undefined;
}

/**
 * Budgets of the principals admission made, so a later count for the same principal (a JSON-RPC batch, a tool's
 * own bucket after /mcp admitted the POST) needs no store read. Principals live for one request or one MCP session.
 */
const budgets = new WeakMap<Principal, Budget>();

function rememberBudget(principal: Principal, budget: Budget): Budget {
  budgets.set(principal, budget);
  return budget;
}

/** The budget of a key (or of an embed token made by it) in its account. */
function keyBudget(record: { tier: Tier; rateLimit?: KeyRateLimit | null | undefined }, account: AccountRecord | undefined): Budget {
  const accountTier = account?.tier ?? record.tier;
  return { accountTier, keyLimits: keyLimitsWithin(record.tier, record.rateLimit, accountTier) };
}

/** A principal's budget: as admission found it, else read from the store (a principal admitted elsewhere). */
async function budgetOf(services: Services, principal: Principal): Promise<Budget> {
  const known = budgets.get(principal);
  if (known) return known;
  // A session's principal carries its account's tier; it has no limits of its own.
  if (principal.kind === 'session') return rememberBudget(principal, { accountTier: principal.tier, keyLimits: undefined });
  const [record, account] = await Promise.all([
    services.store.get<ApiKeyRecord>(API_KEYS, principal.keyId),
    services.store.get<AccountRecord>(ACCOUNTS, principal.ownerId),
  ]);
  return rememberBudget(principal, keyBudget(record ?? { tier: principal.tier }, account));
}

/** One counter a request counts in. */
interface Counter {
  key: string;
  limit: number;
  bucket: Bucket;
  /** The key's own counter (else the account's). */
  own: boolean;
}

/** The counters of a principal's buckets: the account's, then the key's own where it has a lower limit. */
function countersOf(principal: Principal, budget: Budget, buckets: readonly Bucket[]): Counter[] {
  const out: Counter[] = [];
  for (const bucket of buckets) {
    out.push({ key: `acct:${principal.ownerId}:${bucket}`, limit: RATE_LIMITS[budget.accountTier][bucket], bucket, own: false });
    const own = principal.kind === 'session' ? undefined : budget.keyLimits?.[bucket];
    if (own !== undefined) out.push({ key: `key:${principal.keyId}:${bucket}`, limit: own, bucket, own: true });
  }
  return out;
}

/** Only the all-requests bucket. */
const ALL_ONLY: readonly Bucket[] = ['all'];

/** The result of counting one request in a principal's budget. */
export interface BudgetHit {
  /** For the X-RateLimit-* headers: of the first bucket counted, the counter that applied (full, or closest to its limit). */
  rate: RateState;
  /** The 429 to answer when the request was refused (nothing was counted then). */
  refused: ApiError | undefined;
}

/** Counts one request in the given buckets of a principal's budget, all or nothing. */
async function hitBudget(services: Services, principal: Principal, buckets: readonly Bucket[]): Promise<BudgetHit> {
  const budget = await budgetOf(services, principal);
  const counters = countersOf(principal, budget, buckets);
  const states = await hitLimits(services, counters, services.clock.now());
  let shown = 0;
  for (let i = 1; i < counters.length; i++) {
    if (counters[i]!.bucket === buckets[0] && states[i]!.remaining < states[shown]!.remaining) shown = i;
  }
  if (states[0]!.allowed) return { rate: states[shown]!, refused: undefined };
  // All or nothing: nothing was counted, and the full counters are those with nothing left.
  const full = Math.max(0, states.findIndex((s) => s.remaining === 0));
  const c = counters[full]!;
  const refused = c.own
    ? rateLimited("API key's own", c.bucket, states[full]!, ' (within its account\'s budget)')
    : rateLimited(`${budget.accountTier} tier`, c.bucket, states[full]!, ', shared by all the keys and sessions of the account');
  return { rate: states[shown]!, refused };
}

/**
 * Counts one request in the principal's all-requests bucket and, for tools with
 * their own bucket, in that one too: all or nothing. Sets call.rate; throws 429
 * naming the bucket that is full.
 */
async function countPrincipal(services: Services, principal: Principal, call: Pick<CallInfo, 'rate'>, bucket: Bucket): Promise<void> {
  const hit = await hitBudget(services, principal, bucket === 'all' ? ALL_ONLY : [...ALL_ONLY, bucket]);
  call.rate = hit.rate;
  if (hit.refused) throw hit.refused;
}

/** Counts a request that has no valid key against its address; throws 429 when the guard is exhausted. */
export async function admitAnonymous(services: Services, call: Pick<CallInfo, 'clientIp' | 'rate'>): Promise<RateState> {
  const state = await hitLimit(services, addressCounter(call.clientIp), ANONYMOUS_LIMIT, services.clock.now());
  call.rate = state;
  if (!state.allowed) throw rateLimited('unauthenticated (per address)', 'all', state);
  return state;
}

/**
 * Who is calling and whether they may make one more request: the key is
 * authenticated, its IP whitelist checked, and the all-requests bucket (plus the
 * tool's own bucket) counted. Requests without a valid key count against the
 * client's address instead, so guessing keys is rate limited too.
 */
export async function admit(
  services: Services,
  call: Pick<CallInfo, 'apiKey' | 'clientIp' | 'rate'>,
  bucket: Bucket = 'all',
): Promise<{ principal: Principal; record: ApiKeyRecord }> {
  try {
    let auth: { principal: Principal; record: ApiKeyRecord };
    try {
      auth = await authenticate(services.store, call.apiKey, services.clock);
    } catch (err) {
      if (err instanceof ApiError) await admitAnonymous(services, call);
      throw err;
    }
    if (!ipAllowed(auth.record.ipWhitelist, call.clientIp)) {
      // Counted against the address, not the key: a stolen key used from elsewhere
      // must not exhaust its owner's budget.
      await admitAnonymous(services, call);
      throw new ApiError('IP_NOT_ALLOWED', 'This API key may not be used from this address (see the key\'s ipWhitelist).');
    }
    const account = await services.store.get<AccountRecord>(ACCOUNTS, auth.record.ownerId);
    const problem = accountProblem(account);
    if (problem) {
      await admitAnonymous(services, call);
      throw problem;
    }
    rememberBudget(auth.principal, keyBudget(auth.record, account));
    await countPrincipal(services, auth.principal, call, bucket);
    touchKey(services.store, auth.record, services.clock)?.catch((err: unknown) =>
      services.log.warn({ err, keyId: auth.principal.keyId }, 'could not record lastUsedAt'),
    );
    return auth;
  } catch (err) {
    // The store or the limiter cannot be reached: 503 (for every caller of admit, REST, /mcp and MCP alike).
    throw unavailableError(err, services.clock.now()) ?? err;
  }
}

/**
 * Counts a request that reached no tool (unknown route, unreadable body) in the
 * all-requests bucket of its key's budget, or of its address when it has no valid key.
 * Never refuses: the request is answered with its own error anyway.
 */
export async function countRequest(services: Services, call: Pick<CallInfo, 'apiKey' | 'clientIp'>): Promise<RateState> {
  const auth = call.apiKey ? await authenticate(services.store, call.apiKey, services.clock).catch(() => undefined) : undefined;
  if (auth && ipAllowed(auth.record.ipWhitelist, call.clientIp)) {
    rememberBudget(auth.principal, keyBudget(auth.record, await services.store.get<AccountRecord>(ACCOUNTS, auth.record.ownerId)));
    return (await hitBudget(services, auth.principal, ALL_ONLY)).rate;
  }
  return hitLimit(services, addressCounter(call.clientIp), ANONYMOUS_LIMIT, services.clock.now());
}

/**
 * Counts one more request in the all-requests bucket of a principal admitted already (a JSON-RPC batch, an embed
 * page load): the state for the headers, and the 429 naming the full limit when it was refused (nothing counted).
 */
export async function countAdmitted(services: Services, principal: Principal): Promise<BudgetHit> {
  try {
    return await hitBudget(services, principal, ALL_ONLY);
  } catch (err) {
    throw unavailableError(err, services.clock.now()) ?? err;
  }
}

/** Counts one call in a tool's own bucket (generation, chat) for a principal already counted in the all-requests bucket. */
async function countBucket(services: Services, principal: Principal, bucket: Bucket): Promise<void> {
  const hit = await hitBudget(services, principal, [bucket]);
  if (hit.refused) throw hit.refused;
}

/**
 * Who is calling, from whichever credential the tool accepts: an API key wins
 * when present (no CSRF needed); otherwise a session cookie, whose non-GET
 * requests must carry the CSRF token bound to it.
 */
export async function admitPrincipal(
  services: Services,
  call: CallInfo,
  bucket: Bucket,
  accepts: readonly PrincipalKind[] = KEY_ONLY,
): Promise<Principal> {
  if (isEmbedToken(call.apiKey)) return admitEmbed(services, call, call.apiKey, bucket, accepts);
  const hasKey = call.apiKey !== undefined && call.apiKey !== '';
  if (hasKey || !call.sessionToken) {
    if (!hasKey && !accepts.includes('key')) {
      await admitAnonymous(services, call);
      throw new ApiError('UNAUTHORIZED', 'Sign in first: this operation needs a user session (the svc_session cookie from POST /api/auth/login).');
    }
    const { principal } = await admit(services, call, bucket);
    if (!accepts.includes('key')) throw new ApiError('UNAUTHORIZED', 'This operation needs a user session, not an API key: sign in with POST /api/auth/login.');
    return principal;
  }
  let active;
  try {
    active = await services.sessions.authenticate(call.sessionToken);
  } catch (err) {
    if (err instanceof ApiError) await admitAnonymous(services, call);
    throw err;
  }
  rememberBudget(active.principal, { accountTier: active.account.tier, keyLimits: undefined });
  await countPrincipal(services, active.principal, call, bucket);
  if (call.method !== 'GET' && call.method !== 'HEAD' && !services.sessions.csrfValid(active.session.id, call.csrfToken)) {
    throw new ApiError(
      'CSRF_FAILED',
      'This request is authenticated by the session cookie and needs the X-CSRF-Token header with the csrfToken returned by login or GET /api/auth/session.',
    );
  }
  if (!accepts.includes('session')) {
    throw new ApiError('API_KEY_MISSING', 'This operation needs an API key (Authorization: Bearer <key>); a user session cannot call it.');
  }
  if (active.renewed) call.cookie = active.renewed;
  return active.principal;
}

const KEY_ONLY: readonly PrincipalKind[] = ['key'];

/**
 * A wizard call made with an embed token (issue 17): the token and the key
 * behind it are checked, the call counts against that key's limits, and only
 * tools accepting the `embed` principal (the wizard's own calls) may run.
 */
async function admitEmbed(services: Services, call: CallInfo, token: string, bucket: Bucket, accepts: readonly PrincipalKind[]): Promise<Principal> {
  let principal: Principal;
  try {
    const auth = await authenticateEmbedToken(services.store, token, services.clock);
    principal = auth.principal;
    const account = await services.store.get<AccountRecord>(ACCOUNTS, principal.ownerId);
    const problem = accountProblem(account);
    if (problem) throw problem;
    // The token counts against the budget of the key that made it.
    rememberBudget(principal, keyBudget(auth.key, account));
  } catch (err) {
    if (err instanceof ApiError) await admitAnonymous(services, call);
    throw err;
  }
  await countPrincipal(services, principal, call, bucket);
  if (!accepts.includes('embed')) {
    throw new ApiError('INSUFFICIENT_SCOPE', "An embed token is accepted only by the contract wizard's own operations; use an API key for this one.");
  }
  return principal;
}

/** The tier or scope error that keeps the principal from an operation, if any. */
function accessProblem(principal: Principal, scope: Scope | null, tiers?: readonly Tier[]): ApiError | undefined {
  // An embed token was admitted only because the tool accepts it: that acceptance is its grant.
  if (principal.kind === 'embed') return undefined;
  if (tiers && !tiers.includes(principal.tier) && principal.kind === 'key') {
    return new ApiError('TIER_NOT_ALLOWED', `This operation needs a ${tiers.join(' or ')} tier key; this key is ${principal.tier}.`);
  }
  if (scope !== null && !hasScope(principal.scopes, scope)) {
    const who = principal.kind === 'key' ? 'this API key does' : 'a user session does';
    return new ApiError('INSUFFICIENT_SCOPE', `This operation needs the "${scope}" scope, which ${who} not have.`);
  }
  return undefined;
}

/** Throws TIER_NOT_ALLOWED or INSUFFICIENT_SCOPE when the principal may not use an operation. */
export function requireAccess(principal: Principal, scope: Scope | null, tiers?: readonly Tier[]): void {
  const problem = accessProblem(principal, scope, tiers);
  if (problem) throw problem;
}

/** Throws unless the principal is an operator: an internal-tier API key with scope `all`. */
function requireOperator(principal: Principal): void {
  if (principal.kind !== 'key' || principal.tier !== 'internal') {
    throw new ApiError('TIER_NOT_ALLOWED', 'Only an operator (an internal-tier key with scope "all") may ask for every account.');
  }
  if (!principal.scopes.includes('all')) throw new ApiError('INSUFFICIENT_SCOPE', 'Asking for every account needs the "all" scope.');
}

/** Whether a principal passes a tool's tier and scope requirements (used to filter tools/list too). */
export function mayCall(tool: AnyTool, principal: Principal): boolean {
  if (!(tool.principals ?? KEY_ONLY).includes(principal.kind)) return false;
  return accessProblem(principal, tool.scope, tool.tiers) === undefined;
}

const noProgress = (): void => undefined;

/** The principal of a sign-up or sign-in call, before anyone is known: it owns nothing and may do nothing. */
const NOBODY: Principal = Object.freeze({ kind: 'key', ownerId: '', tier: 'public', scopes: [], keyId: '', expiresAt: null, ipWhitelist: [] }) as Principal;

/** What a handler asks of the session cookie, kept on the call for the transport (methods on the prototype: no closures per request). */
class CookieEffects implements SessionEffects {
  constructor(private readonly call: CallInfo) {}
  set(token: string, expiresAt: Date): void {
    this.call.cookie = { token, expiresAt };
  }
  clear(): void {
    this.call.cookie = 'clear';
  }
}

/**
 * The handler's context, built field by field: copying Services with a spread
 * costs a hidden-class transition per call (measured: about 6% of a cheap REST
 * request), and naming the fields lets the compiler catch one left out. The
 * store is the caller's account's view: the one place tenancy is enforced.
 */
function toolContext(services: Services, tool: AnyTool, principal: Principal, call: CallInfo): ToolContext {
  return {
    config: services.config,
    store: accountStore(services.store, principal.ownerId),
    system: tool.crossAccount ? services.store : undefined,
    granted: undefined,
    grants: new GrantDesk(services.store, principal.ownerId),
    clock: services.clock,
    log: services.log,
    cursors: services.cursors,
    limiter: services.limiter,
    docs: services.docs,
    jurisdictions: services.jurisdictions,
    contracts: services.contracts,
    sessions: services.sessions,
    keyring: services.keyring,
    principal,
    requestId: call.requestId,
    clientIp: call.clientIp,
    signal: call.signal,
    progress: call.progress ?? noProgress,
    session: new CookieEffects(call),
  };
}

/**
 * The one way any transport runs a tool: admission (key or session, CSRF, IP
 * whitelist, account status, rate limits), tier and scope checks, input
 * validation, the handler, output check, and error mapping. Resolves with the
 * tool's output or rejects with an ApiError.
 */
export async function invokeTool(tool: AnyTool, rawInput: unknown, services: Services, call: CallInfo): Promise<Record<string, unknown>> {
  try {
    const bucket: Bucket = tool.bucket === 'default' ? 'all' : tool.bucket;
    let principal: Principal;
    if (tool.auth === 'none') {
      await admitAnonymous(services, call);
      principal = NOBODY;
    } else if (call.admitted) {
      principal = call.admitted;
      if (!(tool.principals ?? KEY_ONLY).includes(principal.kind)) throw new ApiError('UNAUTHORIZED', 'This operation needs a user session.');
      requireAccess(principal, tool.scope, tool.tiers);
      if (bucket !== 'all') await countBucket(services, principal, bucket);
    } else {
      principal = await admitPrincipal(services, call, bucket, tool.principals);
      requireAccess(principal, tool.scope, tool.tiers);
    }
    const parsed = tool.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      throw ApiError.validation(`Invalid input for ${tool.name}`, zodDetails(parsed.error));
    }
    refuseUnstorableText(tool.name, parsed.data);
    if (tool.operatorInput?.(parsed.data)) requireOperator(principal);
    const ctx = toolContext(services, tool, principal, call);
    // A share held by the caller, opened here once for every transport (the only cross-account read path).
    if (tool.grant) ctx.granted = await openGrant(services.store, (parsed.data as { shareId: string }).shareId, principal.ownerId, tool.grant, services.clock.now());
    const result = await tool.handler(parsed.data, ctx);
    const checked = tool.output.safeParse(result);
    if (!checked.success) {
      services.log.error({ tool: tool.name, requestId: call.requestId, issues: checked.error.issues.length }, 'tool output does not match its schema');
      throw ApiError.internal();
    }
    return checked.data as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const unavailable = unavailableError(err, services.clock.now());
    if (unavailable) {
      // The error's name only: an engine's message may carry its address.
      services.log.warn({ tool: tool.name, requestId: call.requestId, err: (err as Error).name }, 'tool call refused: an engine cannot be reached');
      throw unavailable;
    }
    services.log.error({ err, tool: tool.name, requestId: call.requestId }, 'tool failed');
    throw ApiError.internal();
  }
}
