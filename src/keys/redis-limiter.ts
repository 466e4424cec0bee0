/**
 * The Redis implementation of the limiter port (src/core/limiter-port.ts), shared by several instances.
 *
 * Same semantics as the in-process MemoryRateLimiter (./limiter.ts): a fixed window of `windowMs` per key, aligned
 * on multiples of the window (so every instance agrees on it), `remaining` never negative, a refused hit counts
 * nothing, and hitAll is all-or-nothing: when any counter is exhausted none is incremented.
 *
 * One counter is one Redis key, `<prefix><window start>:<key>`. Each hit or hitAll is one Lua script, run with
 * EVALSHA (the script is loaded once with SCRIPT LOAD, and again after a NOSCRIPT answer, e.g. after a Redis
 * restart). The script reads every counter, and only if all are below their limits increments all of them, so the
 * check and the increments are one atomic step for every instance. A counter's expiry is set when it is created:
 * PEXPIRE for the rest of the window plus a minute (relative, not PEXPIREAT at the window's end, so a counter never
 * vanishes early when the caller's clock runs behind Redis's, or is an injected test clock); the window start in the
 * key name is what separates windows, the expiry only cleans up. A refund is a second script that decrements the
 * counters of the window it names, each only while above zero (a counter already expired is not recreated).
 *
 * Redis unreachable: commands are not queued while disconnected (the offline queue is disabled) and each has a
 * timeout, so a hit rejects with LimiterUnavailableError within `commandTimeoutMs`; the client reconnects by itself
 * with a growing, jittered pause, and the limiter works again without being recreated. Connection errors are handed
 * to `onError` (never left as unhandled 'error' events).
 *
 * Not for Redis Cluster: the counters of one hitAll would have to share a hash slot.
 */
import { createHash } from 'node:crypto';
import { createClient, ErrorReply, type RedisClientType } from 'redis';
import { RATE_WINDOW_MS } from './limits.js';
import { LimiterUnavailableError, type RateLimiter, type RateState } from '../core/limiter-port.js';

export interface RedisRateLimiterOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** Prepended to every key. Default `svc:rate:`. */
  prefix?: string;
  /** Window length. Default RATE_WINDOW_MS (15 minutes). */
  windowMs?: number;
  /** A command without an answer after this long is failed with LimiterUnavailableError. Default 1000 ms. */
  commandTimeoutMs?: number;
  /** Connection attempt timeout. Default 1000 ms. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts. Default 2000 ms. */
  maxReconnectDelayMs?: number;
  /** Connection problems (for the caller's log); the limiter handles them itself. */
  onError?: (err: Error) => void;
}

/** Kept after the window ends, so a counter never disappears while its window is still current somewhere. */
const EXPIRY_GRACE_MS = 60_000;

/**
 * KEYS: the counters. ARGV[1]: expiry of a new counter in ms; ARGV[2..]: the limits, in KEYS order.
 * Returns the counters after the call, then 1 (counted) or 0 (refused, nothing counted).
 */
const HIT_SCRIPT = `
local n = #KEYS
local counts = {}
local allowed = 1
for i = 1, n do
  local c = tonumber(redis.call('GET', KEYS[i])) or 0
  counts[i] = c
  if c >= tonumber(ARGV[i + 1]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    local c = redis.call('INCR', KEYS[i])
    if c == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
    counts[i] = c
  end
end
counts[n + 1] = allowed
return counts
`;

/** KEYS: the counters to take one hit back from. Each is decremented only while above zero; a missing one stays missing. */
const REFUND_SCRIPT = `
for i = 1, #KEYS do
  local c = tonumber(redis.call('GET', KEYS[i]))
  if c and c > 0 then redis.call('DECR', KEYS[i]) end
end
return #KEYS
`;

interface Script {
  text: string;
  sha: string;
}
const script = (text: string): Script => ({ text, sha: createHash('sha1').update(text).digest('hex') });
const HIT = script(HIT_SCRIPT);
const REFUND = script(REFUND_SCRIPT);

/** Redis error replies that mean "the engine cannot serve now" rather than a bad command. */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;

export class RedisRateLimiter implements RateLimiter {
  /** The engine's name (for /health, src/core/health.ts). */
  readonly engine = 'redis';
  #client: RedisClientType;
  readonly #url: string;
  readonly #prefix: string;
  readonly #windowMs: number;
  readonly #timeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #maxDelayMs: number;
  readonly #onError: (err: Error) => void;
  /** SCRIPT LOAD of each script, once (again after a NOSCRIPT answer or a failed load). */
  readonly #scriptLoaded = new Map<Script, Promise<void>>();
  #closed = false;
  /** Connection attempts of every client made, settled once that client is closed or destroyed. */
  readonly #connecting: Array<Promise<unknown>> = [];

  constructor(opts: RedisRateLimiterOptions) {
    if (typeof opts.url !== 'string' || opts.url.length === 0)
      throw new TypeError('RedisRateLimiter: url must be a non-empty string');
    this.#url = opts.url;
    this.#prefix = opts.prefix ?? 'svc:rate:';
    this.#windowMs = opts.windowMs ?? RATE_WINDOW_MS;
    if (!Number.isInteger(this.#windowMs) || this.#windowMs <= 0)
      throw new TypeError('RedisRateLimiter: windowMs must be a positive integer');
    this.#timeoutMs = opts.commandTimeoutMs ?? 1000;
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? 1000;
    this.#maxDelayMs = opts.maxReconnectDelayMs ?? 2000;
    this.#onError = opts.onError ?? (() => undefined);
    this.#client = this.#newClient();
  }

  /** A client connecting in the background: until it is up, hits fail with LimiterUnavailableError (see ready()). */
  #newClient(): RedisClientType {
    const maxDelay = this.#maxDelayMs;
    const client = createClient({
      url: this.#url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: this.#connectTimeoutMs,
        // Never gives up: 50 ms, 100 ms, ... up to maxDelay, each with up to 25% jitter.
        reconnectStrategy: (retries: number) => {
          const base = Math.min(maxDelay, 50 * 2 ** Math.min(retries, 16));
          return Math.round(base * (0.75 + Math.random() * 0.25));
        },
      },
    }) as RedisClientType;
    client.on('error', (err: unknown) => this.#onError(err instanceof Error ? err : new Error(String(err))));
    this.#connecting.push(client.connect().catch(() => undefined));
    return client;
  }

  /**
   * A command went unanswered: the connection is stuck (server paused, network partition without a reset). A
   * written command cannot be taken back, so every later command would queue behind it: drop this connection
   * (its pending commands fail) and start a new one.
   */
  #replace(stuck: RedisClientType): void {
    if (this.#closed || this.#client !== stuck) return;
    this.#client = this.#newClient();
    stuck.destroy();
  }

  /** Whether the connection to Redis is up now (for /health). */
  get available(): boolean {
    return this.#client.isReady;
  }

  /** Resolves once connected; rejects with LimiterUnavailableError when that takes longer than `timeoutMs`. */
  async ready(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#client.isReady) {
      if (this.#closed) throw new LimiterUnavailableError('the Redis rate limiter is closed');
      if (Date.now() >= deadline)
        throw new LimiterUnavailableError(`Redis is not reachable (no connection within ${timeoutMs} ms)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  #windowStart(now: number): number {
    return now - (now % this.#windowMs);
  }

  #keyName(start: number, key: string): string {
    return `${this.#prefix}${start}:${key}`;
  }

  async hit(key: string, limit: number, now: Date): Promise<RateState> {
    return (await this.hitAll([{ key, limit }], now))[0]!;
  }

  async peek(key: string, limit: number, now: Date): Promise<RateState> {
    const t = now.getTime();
    const start = this.#windowStart(t);
    const reply = await this.#command(['GET', this.#keyName(start, key)]);
    const count = reply === null ? 0 : Number(reply);
    return {
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: new Date(start + this.#windowMs),
      allowed: count < limit,
    };
  }

  async hitAll(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date): Promise<RateState[]> {
    if (entries.length === 0) return [];
    const t = now.getTime();
    const start = this.#windowStart(t);
    const end = start + this.#windowMs;
    const keys = entries.map((e) => this.#keyName(start, e.key));
    const args = [
      String(end - t + EXPIRY_GRACE_MS),
      ...entries.map((e) => (Number.isFinite(e.limit) ? String(e.limit) : '1e300')),
    ];
    const reply = (await this.#script(HIT, keys, args)) as number[];
    const allowed = reply[entries.length] === 1;
    const resetAt = new Date(end);
    return entries.map((e, i) => ({
      limit: e.limit,
      remaining: Math.max(0, e.limit - Number(reply[i])),
      resetAt,
      allowed,
    }));
  }

  async refund(entries: Array<{ key: string }>, now: Date): Promise<void> {
    if (entries.length === 0) return;
    const start = this.#windowStart(now.getTime());
    await this.#script(
      REFUND,
      entries.map((e) => this.#keyName(start, e.key)),
      [],
    );
  }

  async #script(script: Script, keys: string[], args: string[]): Promise<unknown> {
    const evalsha = ['EVALSHA', script.sha, String(keys.length), ...keys, ...args];
    await this.#load(script);
    try {
      return await this.#command(evalsha);
    } catch (err) {
      if (!(err instanceof ErrorReply) || !err.message.startsWith('NOSCRIPT')) throw err;
      // Redis lost its script cache (restart, SCRIPT FLUSH): load it again, then retry once.
      this.#scriptLoaded.delete(script);
      await this.#load(script);
      return this.#command(evalsha);
    }
  }

  #load(script: Script): Promise<void> {
    const known = this.#scriptLoaded.get(script);
    if (known) return known;
    const loading = this.#command(['SCRIPT', 'LOAD', script.text]).then((sha) => {
      if (sha !== script.sha) throw new Error(`Redis answered SCRIPT LOAD with ${String(sha)}, expected ${script.sha}`);
    });
    loading.catch(() => {
      if (this.#scriptLoaded.get(script) === loading) this.#scriptLoaded.delete(script); // load again on the next call
    });
    this.#scriptLoaded.set(script, loading);
    return loading;
  }

  async #command(args: string[]): Promise<unknown> {
    if (this.#closed) throw new LimiterUnavailableError('the Redis rate limiter is closed');
    const client = this.#client;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CommandTimeout(this.#timeoutMs)), this.#timeoutMs);
    });
    try {
      // node-redis's own `timeout` option only covers a command not yet written, so the answer is awaited here.
      return await Promise.race([client.sendCommand(args), timedOut]);
    } catch (err) {
      if (err instanceof CommandTimeout) this.#replace(client);
      if (err instanceof ErrorReply && !UNAVAILABLE_REPLY.test(err.message)) throw err; // a real command error (e.g. NOSCRIPT)
      const detail = err instanceof Error ? err.message || err.name : String(err);
      throw new LimiterUnavailableError(`Redis is not reachable (${detail})`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection (pending commands finish first when connected). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    if (client.isReady) {
      await client.close().catch(() => client.destroy());
    } else if (client.isOpen) {
      client.destroy();
    }
    await Promise.all(this.#connecting);
  }
}

class CommandTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
