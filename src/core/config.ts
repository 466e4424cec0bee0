import path from 'node:path';
import { validateWhitelist } from './ip.js';

/** Everything the service can be configured with. Flags win over environment, environment over defaults. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** API key used by `svc mcp` (stdio) for every call. */
  apiKey: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Public base URL used in documentation links (defaults to http://host:port). */
  publicUrl: string | undefined;
  /**
   * Proxies whose X-Forwarded-For is believed: addresses or CIDR ranges, or a hop
   * count. Unset: the socket's address is the client's, and X-Forwarded-For is ignored.
   */
  trustProxy: string[] | number | undefined;
  /**
   * Browser origins allowed to call /mcp (exact scheme://host[:port]; SVC_ALLOWED_ORIGINS, comma-separated).
   * Requests without an Origin header (non-browser clients) are not affected.
   */
  allowedOrigins: string[];
  /** Session lifetime when unused and maximum age, seconds (SVC_SESSION_TTL, SVC_SESSION_MAX_AGE). */
  sessions: { ttlSeconds: number; maxSeconds: number };
  /** Hosts or CIDR ranges webhooks may reach despite the address guard (SVC_WEBHOOK_ALLOW); for tests and private deployments. */
  webhookAllow: string | undefined;
  /**
   * When the rate limiter's engine cannot be reached, let requests through uncounted (SVC_RATE_LIMIT_FAIL_OPEN=1)
   * instead of answering 503 SERVICE_UNAVAILABLE. Off by default.
   */
  rateLimitFailOpen?: boolean;
  /**
   * Start the contract engines' workers (solc and the EVM first, then TON and Solana) in the background as soon as the
   * service is up, so that the first generation does not wait for them (SVC_WARM_ENGINES, default 1; 0 starts each
   * pool on its first job, which saves CPU in short-lived processes such as tests).
   */
  warmEngines?: boolean;
  /**
   * PostgreSQL for the store, shared by several instances (SVC_DATABASE_URL, postgres://...). Unset: the lowdb store
   * in the data directory (one process).
   */
  databaseUrl?: string | undefined;
  /** Schema holding the tables in that database (SVC_DATABASE_SCHEMA); default `public`. */
  databaseSchema?: string | undefined;
  /**
   * Whether the PostgreSQL store sends its statements as named (prepared) ones, each parsed and planned once per
   * connection (SVC_DATABASE_PREPARED, default 1; 0 for a pooler in transaction mode that cannot carry them).
   */
  databasePrepared?: boolean;
  /**
   * The master key sealing stored secrets (src/core/keyring.ts): SVC_MASTER_KEY (base64 of 32 bytes) or
   * SVC_MASTER_KEY_FILE (a file holding it). Neither: a key file in the data directory (refused with PostgreSQL).
   */
  masterKey?: { value?: string | undefined; file?: string | undefined } | undefined;
  /** Redis for the rate limiter, shared by several instances (SVC_REDIS_URL, redis://...). Unset: in process. */
  redisUrl?: string | undefined;
  /** Prefix of the limiter's Redis keys (SVC_REDIS_PREFIX); default `svc:rate:`. */
  redisPrefix?: string | undefined;
  /** Per-attempt timeout of a webhook delivery, ms (SVC_WEBHOOK_TIMEOUT_MS); default 30 000. */
  webhookTimeoutMs?: number | undefined;
  /**
   * How long an instance's claim on a delivery lasts, ms (SVC_WEBHOOK_LEASE_MS): past it, another instance takes the
   * delivery over (an instance that died). Default the timeout + 60 s; at least the timeout + 1 s.
   */
  webhookLeaseMs?: number | undefined;
  /**
   * The memoir agent's language model (SVC_LLM_BASE_URL, SVC_LLM_API_KEY, SVC_LLM_MODEL) and the embedding model the
   * same server is asked for (SVC_LLM_EMBEDDING_MODEL; absent: text-embedding-3-small); undefined: demo mode.
   */
  llm?: { baseUrl: string; apiKey: string; model: string; embeddingModel?: string | undefined } | undefined;
  /** Largest memoir upload per kind, bytes (SVC_MEMOIR_MAX_PHOTO, _AUDIO, _VIDEO). */
  memoirUploadLimits?: { photo: number; audio: number; video: number };
  /** Largest vault file uploaded as multipart/form-data, bytes (SVC_VAULT_MAX_FILE; default 25 MiB). */
  vaultUploadBytes?: number;
  /**
   * Bytes an account may store (media; later vault files and kept exports) unless the operator set its own
   * figure on the account (SVC_STORAGE_QUOTA_BYTES; default 1 GiB).
   */
  storageQuotaBytes?: number;
  /**
   * SVC_CREDITS_CATALOGUE as given: JSON over the default credit packs, action prices and auto-reload policy, or
   * undefined for the defaults. The credits module parses and checks it (catalogueOf in src/credits/catalogue.ts).
   */
  creditsCatalogue: string | undefined;
  /** Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SVC_STRIPE_API_BASE) and allowed checkout return hosts. */
  payments: PaymentsConfig;
  /** The chains the service reads (deployments and the watcher); empty maps when none is configured. */
  chains?: ChainsConfig;
  /** Outgoing email (SVC_SMTP_URL, SVC_MAIL_FROM); without SMTP, messages are written under <data-dir>/mail/. */
  mail?: MailConfig;
  /**
   * Longest a job may wait for a compiler or sandbox worker, ms (SVC_QUEUE_WAIT_MS; default 30 000). A job whose
   * estimated wait is longer is refused at once with 503 SERVICE_BUSY and a Retry-After from the estimate.
   */
  queueWaitMs?: number;
  /**
   * The memoir's programs (speech synthesis, video, transcripts) and photo scaling run at once, at most
   * (SVC_MEDIA_CONCURRENCY; default: one per core). Calls beyond it wait their turn, fairly across accounts, under SVC_QUEUE_WAIT_MS.
   */
  mediaConcurrency?: number;
  /**
   * Calls to the language model provider (chat answers, embeddings, photo descriptions) at once, at most
   * (SVC_MODEL_CONCURRENCY; default 16). Calls beyond it wait their turn, fairly across accounts, under
   * SVC_QUEUE_WAIT_MS.
   */
  modelConcurrency?: number;
  /**
   * Characters of memoir text whose readings (people and places; a search's passages) are kept in memory, per kind
   * (SVC_MEMOIR_READING_CACHE; default 2 000 000: some 8 MB for names and 30 MB for passages, texts included). Texts
   * past it are read again, in the memoir's reading thread, when next needed: more memory for less reading on an
   * instance serving many memoirs.
   */
  memoirReadingChars?: number;
  /**
   * Characters of the memoir's phrase counts kept in memory, for every account (SVC_MEMOIR_PHRASE_CACHE; default
   * 64 000 000, at most some 70 MB, the phrases of about 4,000 journal entries of 2 kB). A journal write past it
   * reads the account's phrase counts from the store again (src/memoir/phrase-counts.ts).
   */
  memoirPhraseChars?: number;
  /**
   * Bytes of the memoir's passage embeddings kept in memory, for every account (SVC_MEMOIR_VECTOR_CACHE; default
   * 64 000 000: some 10,000 vectors of 1,536 dimensions). A chat with a model reads from the store, at each question,
   * the vectors of its memoir this process does not keep (src/memoir/embeddings.ts).
   */
  memoirVectorBytes?: number;
  /**
   * With a provider configured, embed the passages of what the owner writes in the background, once stored, rather
   * than at the next question (SVC_MEMOIR_EMBED_AHEAD, default 1; 0 leaves them all to the next question, which then
   * sends them to the provider with it: src/memoir/embed-ahead.ts).
   */
  memoirEmbedAhead?: boolean;
}

export interface ChainsConfig {
  /** JSON-RPC endpoint per EVM chain id (SVC_EVM_RPC_URLS, a JSON map such as {"31337": "http://127.0.0.1:8545"}). */
  evmRpcUrls: Record<string, string>;
  /** HTTP APIs of the toncenter v2 kind per TON network (SVC_TON_API_MAINNET, SVC_TON_API_TESTNET). */
  tonApis: { 'ton-mainnet'?: string; 'ton-testnet'?: string };
  /** API key sent to the TON APIs as X-API-Key (SVC_TON_API_KEY), if any. */
  tonApiKey?: string | undefined;
  /** How often the watcher reads each network, ms (SVC_WATCH_POLL_MS; default 15 000). */
  watchPollMs: number;
  /** Blocks a change must be under before the watcher acts on it (SVC_WATCH_CONFIRMATIONS; default 2). */
  watchConfirmations: number;
}

export interface MailConfig {
  /** smtps://user:pass@host:465, or smtp://host:587 (STARTTLS required); unset: .eml files in <data-dir>/mail/. */
  smtpUrl: string | undefined;
  /** The From address (SVC_MAIL_FROM); default `svc <no-reply@localhost>`. */
  from: string;
  /**
   * A PEM file of certificate authorities the SMTP server's certificate must chain to (SVC_SMTP_CA_FILE), for a
   * server with a private CA; unset: the system's trusted authorities. TLS is verified either way.
   */
  caFile: string | undefined;
}

export interface PaymentsConfig {
  /** Unset: purchases answer 503 PAYMENTS_NOT_CONFIGURED (grants still work). */
  stripeSecretKey: string | undefined;
  /** Verifies Stripe-Signature on POST /api/v1/payments/stripe/webhook. */
  stripeWebhookSecret: string | undefined;
  /** Where the Stripe SDK sends its calls instead of api.stripe.com (tests: a local stand-in), e.g. http://127.0.0.1:12111. */
  stripeApiBase: string | undefined;
  /** Hosts whose non-HTTPS successUrl/cancelUrl are accepted (SVC_PAYMENT_RETURN_HOSTS, comma-separated; e.g. localhost in development). */
  returnHosts: string[];
}

export interface ConfigFlags {
  host?: string | undefined;
  port?: string | undefined;
  'data-dir'?: string | undefined;
  'api-key'?: string | undefined;
  'log-level'?: string | undefined;
  'trust-proxy'?: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A configuration problem, reported as one line by the CLI. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parsePort(raw: string, source: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 65535)
    throw new ConfigError(`${source} must be a port number from 0 to 65535, got "${raw}"`);
  return n;
}

/** The positive whole number in env[name], or undefined when it is unset or empty. */
function positiveIntFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  return raw ? parsePositiveInt(raw, name) : undefined;
}

function parsePositiveInt(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new ConfigError(`${source} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

/** A number of bytes: a whole number, 0 allowed (nothing may be stored), at most 2^53 - 1. */
function parseBytes(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new ConfigError(`${source} must be a whole number of bytes, got "${raw}"`);
  return Number(raw);
}

export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  /** The value and where it came from (for error messages). */
  const pick = (flag: keyof ConfigFlags, envName: string): [string, string] | undefined => {
    const f = flags[flag];
    if (f !== undefined) return [f, `--${flag}`];
    const v = env[envName];
    return v !== undefined && v !== '' ? [v, envName] : undefined;
  };
  const port = pick('port', 'SVC_PORT');
  const logLevel = pick('log-level', 'SVC_LOG_LEVEL');
  if (logLevel && !(LOG_LEVELS as readonly string[]).includes(logLevel[0])) {
    throw new ConfigError(`${logLevel[1]} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel[0]}"`);
  }
  const bodyLimit = positiveIntFrom(env, 'SVC_BODY_LIMIT') ?? 1024 * 1024;
  const host = pick('host', 'SVC_HOST')?.[0] ?? '127.0.0.1';
  const trust = pick('trust-proxy', 'SVC_TRUST_PROXY');
  let trustProxy: Config['trustProxy'];
  if (trust) {
    if (/^\d+$/.test(trust[0])) trustProxy = Number(trust[0]);
    else {
      trustProxy = trust[0]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = validateWhitelist(trustProxy, trust[1]);
      if (bad.length || trustProxy.length === 0) {
        throw new ConfigError(
          `${trust[1]} must be a hop count or comma-separated proxy addresses/CIDR ranges, got "${trust[0]}"`,
        );
      }
    }
  }
  return {
    host,
    port: port ? parsePort(port[0], port[1]) : 3000,
    dataDir: path.resolve(pick('data-dir', 'SVC_DATA_DIR')?.[0] ?? './data'),
    apiKey: pick('api-key', 'SVC_API_KEY')?.[0],
    logLevel: (logLevel?.[0] ?? 'info') as Config['logLevel'],
    bodyLimit,
    publicUrl: env.SVC_PUBLIC_URL || undefined,
    trustProxy,
    webhookAllow: env.SVC_WEBHOOK_ALLOW || undefined,
    sessions: sessionConfig(env),
    allowedOrigins: allowedOrigins(env),
    rateLimitFailOpen: flag(env.SVC_RATE_LIMIT_FAIL_OPEN, 'SVC_RATE_LIMIT_FAIL_OPEN'),
    warmEngines: flag(env.SVC_WARM_ENGINES ?? '1', 'SVC_WARM_ENGINES'),
    ...engines(env),
    ...webhookTiming(env),
    llm: llmConfig(env),
    memoirUploadLimits: {
      photo: positiveIntFrom(env, 'SVC_MEMOIR_MAX_PHOTO') ?? 20 * 1024 * 1024,
      audio: positiveIntFrom(env, 'SVC_MEMOIR_MAX_AUDIO') ?? 100 * 1024 * 1024,
      video: positiveIntFrom(env, 'SVC_MEMOIR_MAX_VIDEO') ?? 500 * 1024 * 1024,
    },
    vaultUploadBytes: positiveIntFrom(env, 'SVC_VAULT_MAX_FILE') ?? 25 * 1024 * 1024,
    storageQuotaBytes: env.SVC_STORAGE_QUOTA_BYTES
      ? parseBytes(env.SVC_STORAGE_QUOTA_BYTES, 'SVC_STORAGE_QUOTA_BYTES')
      : 1024 ** 3,
    creditsCatalogue: env.SVC_CREDITS_CATALOGUE,
    payments: paymentsConfig(env),
    chains: chainsConfig(env),
    mail: mailConfig(env),
    queueWaitMs: positiveIntFrom(env, 'SVC_QUEUE_WAIT_MS') ?? 30_000,
    mediaConcurrency: positiveIntFrom(env, 'SVC_MEDIA_CONCURRENCY'),
    modelConcurrency: positiveIntFrom(env, 'SVC_MODEL_CONCURRENCY'),
    memoirReadingChars: positiveIntFrom(env, 'SVC_MEMOIR_READING_CACHE'),
    memoirPhraseChars: positiveIntFrom(env, 'SVC_MEMOIR_PHRASE_CACHE'),
    memoirVectorBytes: positiveIntFrom(env, 'SVC_MEMOIR_VECTOR_CACHE'),
    memoirEmbedAhead: flag(env.SVC_MEMOIR_EMBED_AHEAD ?? '1', 'SVC_MEMOIR_EMBED_AHEAD'),
  };
}

function httpUrl(raw: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`${source} must be an http or https URL, got "${raw}"`);
  return raw;
}

function chainsConfig(env: NodeJS.ProcessEnv): ChainsConfig {
  const evmRpcUrls: Record<string, string> = {};
  const raw = env.SVC_EVM_RPC_URLS?.trim();
  if (raw) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new ConfigError(
        'SVC_EVM_RPC_URLS must be a JSON map of chain id to URL, e.g. {"31337": "http://127.0.0.1:8545"}',
      );
    for (const [chainId, url] of Object.entries(parsed)) {
      if (!/^[1-9]\d{0,15}$/.test(chainId)) throw new ConfigError(`SVC_EVM_RPC_URLS: "${chainId}" is not a chain id`);
      if (typeof url !== 'string')
        throw new ConfigError(`SVC_EVM_RPC_URLS: the URL of chain ${chainId} must be a string`);
      evmRpcUrls[chainId] = httpUrl(url, `SVC_EVM_RPC_URLS (chain ${chainId})`);
    }
  }
  const tonApis: ChainsConfig['tonApis'] = {};
  if (env.SVC_TON_API_MAINNET?.trim())
    tonApis['ton-mainnet'] = httpUrl(env.SVC_TON_API_MAINNET.trim(), 'SVC_TON_API_MAINNET');
  if (env.SVC_TON_API_TESTNET?.trim())
    tonApis['ton-testnet'] = httpUrl(env.SVC_TON_API_TESTNET.trim(), 'SVC_TON_API_TESTNET');
  const confirmations = env.SVC_WATCH_CONFIRMATIONS?.trim();
  if (confirmations !== undefined && confirmations !== '' && !/^\d{1,3}$/.test(confirmations))
    throw new ConfigError(`SVC_WATCH_CONFIRMATIONS must be a whole number from 0 to 999, got "${confirmations}"`);
  return {
    evmRpcUrls,
    tonApis,
    tonApiKey: env.SVC_TON_API_KEY?.trim() || undefined,
    watchPollMs: positiveIntFrom(env, 'SVC_WATCH_POLL_MS') ?? 15_000,
    watchConfirmations: confirmations ? Number(confirmations) : 2,
  };
}

function mailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const smtpUrl = env.SVC_SMTP_URL?.trim() || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/./i.test(smtpUrl))
    throw new ConfigError('SVC_SMTP_URL must be smtps://user:pass@host:465 or smtp://host:587');
  const from = env.SVC_MAIL_FROM?.trim() || 'svc <no-reply@localhost>';
  if (/[\r\n]/.test(from)) throw new ConfigError('SVC_MAIL_FROM must be one line');
  const caFile = env.SVC_SMTP_CA_FILE?.trim() || undefined;
  return { smtpUrl, from, caFile };
}

function paymentsConfig(env: NodeJS.ProcessEnv): PaymentsConfig {
  const base = env.SVC_STRIPE_API_BASE?.trim() || undefined;
  if (base) {
    let url: URL | undefined;
    try {
      url = new URL(base);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search) {
      throw new ConfigError(
        `SVC_STRIPE_API_BASE must be scheme://host[:port] such as http://127.0.0.1:12111, got "${base}"`,
      );
    }
  }
  return {
    stripeSecretKey: env.STRIPE_SECRET_KEY?.trim() || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
    stripeApiBase: base,
    returnHosts: (env.SVC_PAYMENT_RETURN_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  };
}

function masterKeyConfig(env: NodeJS.ProcessEnv): Config['masterKey'] {
  const value = env.SVC_MASTER_KEY?.trim() || undefined;
  const file = env.SVC_MASTER_KEY_FILE?.trim() || undefined;
  if (value !== undefined && file !== undefined)
    throw new ConfigError('set SVC_MASTER_KEY or SVC_MASTER_KEY_FILE, not both');
  return value !== undefined || file !== undefined ? { value, file } : undefined;
}

/** SVC_DATABASE_URL, SVC_DATABASE_SCHEMA, SVC_DATABASE_PREPARED, SVC_REDIS_URL, SVC_REDIS_PREFIX. */
function engines(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'databaseUrl' | 'databaseSchema' | 'databasePrepared' | 'redisUrl' | 'redisPrefix' | 'masterKey'> {
  const databaseUrl = env.SVC_DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./i.test(databaseUrl)) {
    throw new ConfigError('SVC_DATABASE_URL must be a PostgreSQL URL, postgres://user:password@host:port/database');
  }
  const databaseSchema = env.SVC_DATABASE_SCHEMA?.trim() || undefined;
  if (databaseSchema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError(
      `SVC_DATABASE_SCHEMA must be a schema name (letters, digits, _; at most 63), got "${databaseSchema}"`,
    );
  }
  if (databaseSchema !== undefined && databaseUrl === undefined)
    throw new ConfigError('SVC_DATABASE_SCHEMA needs SVC_DATABASE_URL');
  const databasePrepared = flag(env.SVC_DATABASE_PREPARED ?? '1', 'SVC_DATABASE_PREPARED');
  const redisUrl = env.SVC_REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/./i.test(redisUrl)) {
    throw new ConfigError(
      'SVC_REDIS_URL must be a Redis URL, redis://[user:password@]host:port[/db] (or rediss:// for TLS)',
    );
  }
  const redisPrefix = env.SVC_REDIS_PREFIX || undefined;
  if (redisPrefix !== undefined && (redisPrefix.length > 100 || /\s/.test(redisPrefix))) {
    throw new ConfigError('SVC_REDIS_PREFIX must be at most 100 characters without spaces');
  }
  if (redisPrefix !== undefined && redisUrl === undefined)
    throw new ConfigError('SVC_REDIS_PREFIX needs SVC_REDIS_URL');
  return { databaseUrl, databaseSchema, databasePrepared, redisUrl, redisPrefix, masterKey: masterKeyConfig(env) };
}

function webhookTiming(env: NodeJS.ProcessEnv): Pick<Config, 'webhookTimeoutMs' | 'webhookLeaseMs'> {
  const timeout = positiveIntFrom(env, 'SVC_WEBHOOK_TIMEOUT_MS');
  const lease = positiveIntFrom(env, 'SVC_WEBHOOK_LEASE_MS');
  if (lease !== undefined && lease < (timeout ?? 30_000) + 1000) {
    throw new ConfigError(
      `SVC_WEBHOOK_LEASE_MS (${lease}) must be at least the delivery timeout (${timeout ?? 30_000} ms) plus 1000`,
    );
  }
  return { webhookTimeoutMs: timeout, webhookLeaseMs: lease };
}

function llmConfig(env: NodeJS.ProcessEnv): Config['llm'] {
  const baseUrl = env.SVC_LLM_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`SVC_LLM_BASE_URL must be a URL such as http://127.0.0.1:8080/v1, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError('SVC_LLM_BASE_URL must be an http or https URL');
  return {
    baseUrl,
    apiKey: env.SVC_LLM_API_KEY || 'not-needed',
    model: env.SVC_LLM_MODEL || 'gpt-4o-mini',
    embeddingModel: env.SVC_LLM_EMBEDDING_MODEL?.trim() || undefined,
  };
}

function flag(raw: string | undefined, source: string): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${source} must be 1 or 0, got "${raw}"`);
}

function sessionConfig(env: NodeJS.ProcessEnv): Config['sessions'] {
  const ttlSeconds = positiveIntFrom(env, 'SVC_SESSION_TTL') ?? 7 * 24 * 3600;
  const maxSeconds = positiveIntFrom(env, 'SVC_SESSION_MAX_AGE') ?? 30 * 24 * 3600;
  if (maxSeconds < ttlSeconds)
    throw new ConfigError(`SVC_SESSION_MAX_AGE (${maxSeconds}) must be at least SVC_SESSION_TTL (${ttlSeconds})`);
  return { ttlSeconds, maxSeconds };
}

function allowedOrigins(env: NodeJS.ProcessEnv): string[] {
  const raw = env.SVC_ALLOWED_ORIGINS?.trim();
  if (!raw) return [];
  const list = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(`SVC_ALLOWED_ORIGINS: "${origin}" is not an origin such as https://app.example.com`);
    }
    if (url.origin !== origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new ConfigError(
        `SVC_ALLOWED_ORIGINS: "${origin}" must be exactly scheme://host[:port], e.g. ${url.origin}`,
      );
    }
  }
  return list;
}
