import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { createLogger, type Logger } from './core/log.js';
import { CursorCodec } from './core/pagination.js';
import { loadMasterKey, type LoadedMasterKey } from './core/keyring.js';
import { attachKeyring } from './store/master-key.js';
import { EVENTS, EVENT_INDEXES } from './events/events.js';
import { MAIL_INDEXES } from './events/mail.js';
import { Dispatcher, WEBHOOK_INDEXES } from './webhooks/index.js';
import { SecretSweeper } from './webhooks/secrets.js';
import { API_KEYS, API_KEY_INDEXES } from './keys/keys.js';
import { EMBED_SECRETS, EMBED_SECRET_INDEXES } from './embed/secrets.js';
import { EMBED_SESSIONS, EMBED_SESSION_INDEXES } from './embed/store.js';
import { configureMediaPrograms } from './memoir/exec.js';
import { configureModelCalls } from './memoir/model-calls.js';
import { keptNames } from './memoir/names.js';
import { MEMOIR_INDEXES } from './memoir/records.js';
import { keptPassages } from './memoir/retrieval.js';
import { sizeVectorCache } from './memoir/embeddings.js';
import { sizePhraseCache } from './memoir/phrase-counts.js';
import { EmbedAhead } from './memoir/embed-ahead.js';
import { GRANTS, GRANT_INDEXES } from './accounts/grants.js';
import { EMAIL_TOKEN_INDEXES } from './accounts/email-tokens.js';
import { completeDueVerifications, HEIR_PLAN_INDEXES } from './memoir/heirs.js';
import { VAULT_INDEXES } from './vaults/records.js';
import { sweepReminders } from './memoir/reminders.js';
import { bootstrapOperator, migrateOwners } from './keys/provision.js';
import { ACCOUNTS, ACCOUNT_INDEXES } from './accounts/records.js';
import { SESSIONS, SESSION_INDEXES, SessionAuthority, USERS, USER_INDEXES } from './accounts/sessions.js';
import { tenantCollections } from './accounts/tenancy.js';
import { MemoryRateLimiter, type RateLimiter } from './keys/limiter.js';
import { DocsIndex, type DocumentedTool } from './docs/search.js';
import { ContractEngine } from './contracts/engine.js';
import { CONTRACT_INDEXES } from './contracts/stored.js';
import { DEPLOYMENT_INDEXES } from './contracts/deployments.js';
import { WATCH_INDEXES } from './watch/lease.js';
import { watchPlansOnVerification } from './watch/plans.js';
import type { Watcher } from './watch/watcher.js';
import { lazyJurisdictionIndex } from './law/jurisdictions.js';
import { CREDIT_INDEXES } from './credits/records.js';
import { settleReloads } from './credits/autoreload.js';
import { catalogueOf } from './credits/catalogue.js';
import { openLowdbStore, type Store } from './store/index.js';
import type { Services } from './tools/define.js';
import { startMailSender, type MailSender } from './mail/index.js';

/** Indexed fields of every collection, declared by the domains that own them. */
export const STORE_INDEXES: Record<string, string[]> = {
  [API_KEYS]: API_KEY_INDEXES,
  [ACCOUNTS]: ACCOUNT_INDEXES,
  [USERS]: USER_INDEXES,
  [SESSIONS]: SESSION_INDEXES,
  [EVENTS]: EVENT_INDEXES,
  [EMBED_SESSIONS]: EMBED_SESSION_INDEXES,
  [EMBED_SECRETS]: EMBED_SECRET_INDEXES,
  ...WEBHOOK_INDEXES,
  ...MEMOIR_INDEXES,
  [GRANTS]: GRANT_INDEXES,
  ...HEIR_PLAN_INDEXES,
  ...CREDIT_INDEXES,
  ...CONTRACT_INDEXES,
  ...MAIL_INDEXES,
  ...EMAIL_TOKEN_INDEXES,
  ...DEPLOYMENT_INDEXES,
  ...VAULT_INDEXES,
  ...WATCH_INDEXES,
};

// A verified deployment marks the memoir plans it watches in the same write (src/watch/plans.ts).
watchPlansOnVerification();

const SYSTEM = 'system';

interface ServerSecrets {
  [field: string]: unknown;
  id: 'server';
  cursorSecret: string;
  /** Signs session tokens and CSRF tokens (created on first start; data files are 0600). */
  sessionSecret: string;
}

const newSecret = () => randomBytes(32).toString('base64url');

/** Reads the server's own secrets, creating any that are missing, so cursors and sessions survive restarts. */
async function serverSecrets(store: Store): Promise<ServerSecrets> {
  return store.transact(async (tx) => {
    const existing = await tx.get<Partial<ServerSecrets> & { id: string }>(SYSTEM, 'server');
    if (existing?.cursorSecret && existing.sessionSecret) return existing as ServerSecrets;
    const secrets: ServerSecrets = {
      ...existing,
      id: 'server',
      cursorSecret: existing?.cursorSecret ?? newSecret(),
      sessionSecret: existing?.sessionSecret ?? newSecret(),
    };
    await tx.put(SYSTEM, secrets);
    return secrets;
  });
}

export interface OpenOptions {
  clock?: Clock;
  log?: Logger;
  /** Create and announce the first internal key when none exists (serve and mcp do; key commands don't need to). */
  bootstrap?: boolean;
  /** The contract engine to use; a new one by default (the test servers of one process share one). */
  contracts?: ContractEngine;
  /**
   * The tools whose reference pages the docs index holds: the registry by default, loaded then. The admin commands
   * (`svc keys`, `accounts`, `credits`) pass none: they never read the docs, and loading every tool to run one was
   * half of their start.
   */
  tools?: readonly DocumentedTool[];
}

/**
 * The store the configuration selects: PostgreSQL when SVC_DATABASE_URL is set (shared by several instances; the
 * schema is migrated at open when behind, refused when newer than this code; the data directory is not locked), else
 * lowdb in the data directory (locked: one process). Loaded lazily, so the embedded setup never loads `pg`.
 */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./store/postgres/index.js');
    return openPostgresStore({
      url: config.databaseUrl,
      schema: config.databaseSchema,
      indexes: STORE_INDEXES,
      preparedStatements: config.databasePrepared,
    });
  }
  return openLowdbStore({ dataDir: config.dataDir, indexes: STORE_INDEXES });
}

/**
 * The rate limiter the configuration selects: Redis when SVC_REDIS_URL is set (counters shared by every instance),
 * else in process. The Redis client connects in the background and reconnects by itself; until it is up, requests
 * that need a limit answer 503 (or pass uncounted with SVC_RATE_LIMIT_FAIL_OPEN=1).
 */
export async function openLimiter(config: Config, log: Logger): Promise<RateLimiter> {
  if (!config.redisUrl) return new MemoryRateLimiter();
  const { RedisRateLimiter } = await import('./keys/redis-limiter.js');
  let lastReport = 0;
  const limiter = new RedisRateLimiter({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    // Reconnection errors repeat while Redis is down: logged at most every 10 s (never the URL, which may hold a password).
    onError: (err) => {
      const now = Date.now();
      if (now - lastReport < 10_000) return;
      lastReport = now;
      log.warn({ err: err.message }, 'the Redis rate limiter cannot reach Redis; it keeps trying');
    },
  });
  // A short wait so a healthy Redis is ready for the first requests; not fatal (the limiter recovers by itself).
  await limiter
    .ready(2000)
    .catch(() => log.warn('Redis is not reachable at start: requests that need a rate limit answer 503 until it is'));
  return limiter;
}

/** The master key the configuration names (src/core/keyring.ts); the embedded setup creates one on first start. */
export function loadConfiguredMasterKey(config: Config, log: Logger): Promise<LoadedMasterKey> {
  return loadMasterKey(
    {
      value: config.masterKey?.value,
      file: config.masterKey?.file,
      dataDir: config.dataDir,
      shared: config.databaseUrl !== undefined,
    },
    (message) => log.warn(message),
  );
}

/** Opens the store and everything handlers need. Close with `closeServices`. */
export async function openServices(config: Config, opts: OpenOptions = {}): Promise<Services> {
  const log = opts.log ?? createLogger(config.logLevel);
  const clock = opts.clock ?? systemClock;
  // A bad SVC_CREDITS_CATALOGUE stops the service here, before anything is opened.
  catalogueOf(config);
  // The memoir's reading caches are the process's (src/memoir/text-cache.ts): sized here when configured.
  if (config.memoirReadingChars !== undefined) {
    keptNames.resize(config.memoirReadingChars);
    keptPassages.resize(config.memoirReadingChars);
  }
  if (config.memoirPhraseChars !== undefined) sizePhraseCache(config.memoirPhraseChars);
  if (config.memoirVectorBytes !== undefined) sizeVectorCache(config.memoirVectorBytes);
  // So are the places of the memoir's programs (src/memoir/exec.ts), and their wait limit the worker pools'.
  configureMediaPrograms(config.mediaConcurrency, config.queueWaitMs);
  configureModelCalls(config.modelConcurrency, config.queueWaitMs);
  // Before the store: with PostgreSQL and no configured key, refuse before connecting.
  const masterKey = await loadConfiguredMasterKey(config, log);
  const store = await openStore(config);
  let limiter: RateLimiter | undefined;
  try {
    // Refuses a key other than the data's; seals plaintext secrets left by an earlier version.
    const { keyring, migrated: sealed } = await attachKeyring(store, masterKey, clock.now());
    if (sealed > 0)
      log.info({ records: sealed }, 'sealed the plaintext secrets stored by an earlier version under the master key');
    const secrets = await serverSecrets(store);
    const migrated = await migrateOwners(
      store,
      clock,
      [...tenantCollections().entries()].filter(([, f]) => f === 'ownerId').map(([c]) => c),
    );
    if (migrated > 0)
      log.info({ records: migrated }, 'gave every record an account (data from before accounts existed)');
    if (opts.bootstrap) {
      const created = await bootstrapOperator(store, clock);
      if (created) {
        // Printed once, on stderr, by design (docs/decisions.md, API keys): only the hash is stored.
        process.stderr.write(
          `\nCreated the first API key (internal tier, scope "all"). It is shown only this once; store it safely:\n\n  ${created.key}\n\n` +
            `Use it as "Authorization: Bearer <key>" or as SVC_API_KEY for \`svc mcp\`. Make more with \`svc keys create\`.\n\n`,
        );
      }
    }
    limiter = await openLimiter(config, log);
    return {
      config,
      store,
      clock,
      log,
      cursors: new CursorCodec(secrets.cursorSecret),
      limiter,
      sessions: new SessionAuthority(store, clock, limiter, secrets.sessionSecret, config.sessions, undefined, {
        // Mailed links point at the public URL when one is set, else at the address the service listens on.
        linkBase: config.publicUrl ?? `http://${config.host}:${config.port}`,
        log,
      }),
      keyring,
      docs: DocsIndex.load(opts.tools ?? (await import('./tools/index.js')).TOOLS),
      jurisdictions: lazyJurisdictionIndex(),
      contracts: opts.contracts ?? new ContractEngine({ maxWaitMs: config.queueWaitMs }),
      ...(config.llm && config.memoirEmbedAhead !== false ? { memoirAhead: new EmbedAhead(config.llm, log) } : {}),
    };
  } catch (err) {
    await limiter?.close?.();
    await store.close();
    throw err;
  }
}

/** The sweeper erasing rotated secrets at the end of their grace, per open Services (stopped by closeServices). */
const sweepers = new WeakMap<Services, SecretSweeper>();

/** How often the service completes the verifications whose waiting period is over (src/memoir/heirs.ts). */
const VERIFICATION_SWEEP_MS = 60_000;
const verificationSweeps = new WeakMap<Services, NodeJS.Timeout>();

/** Check-in reminders are looked for once in this many verification sweeps (every 15 minutes). */
const REMINDER_EVERY_SWEEPS = 15;

/**
 * Completes due verifications now and then; each sends `verification.complete` once, whichever instance runs it.
 * Every REMINDER_EVERY_SWEEPS rounds (and on the first) it also queues the check-in reminders that came due, each
 * once per lead time and deadline, and prunes the once-keys past their deadline (src/memoir/reminders.ts), and runs
 * the catch-up of memoirs never embedded ahead (catchUpMemoirs), which also runs after a round that completed
 * verifications (shares may have opened).
 */
function startVerificationSweep(services: Services): void {
  if (verificationSweeps.has(services)) return;
  let round = 0;
  const sweep = (): void => {
    completeDueVerifications(services.store, services.clock).then(
      (completed) => {
        // Shares may have opened: their heirs' chats are caught up now rather than at the next quarter.
        if (completed > 0) void catchUpMemoirs(services);
      },
      (err: Error) =>
        services.log.warn({ err: err.name }, 'due verifications could not be completed; trying again later'),
    );
    if (round++ % REMINDER_EVERY_SWEEPS === 0) {
      sweepReminders(services.store, services.clock).catch((err: Error) =>
        services.log.warn({ err: err.name }, 'check-in reminders could not be queued; trying again later'),
      );
      void catchUpMemoirs(services);
    }
  };
  const timer = setInterval(sweep, VERIFICATION_SWEEP_MS);
  timer.unref();
  verificationSweeps.set(services, timer);
}

/** The catch-up of passages never embedded ahead under way, per open Services (awaited by closeServices). */
const memoirCatchUps = new WeakMap<Services, Promise<void>>();
/** The memoirs the last catch-ups could not finish, per open Services: the next takes them last. */
const memoirsFailed = new WeakMap<Services, Set<string>>();

/**
 * Embeds the passages of the memoirs never embedded ahead (src/memoir/embed-catch-up.ts), with a provider configured
 * and embedding ahead on; one catch-up at a time. Answers when the one under way (or started) ends; never rejects.
 */
export function catchUpMemoirs(services: Services): Promise<void> {
  const ahead = services.memoirAhead;
  // Stopped: the service is closing (a sweep's verifications may end after closeServices began).
  if (!ahead || ahead.stopped) return Promise.resolve();
  const running = memoirCatchUps.get(services);
  if (running) return running;
  const run = import('./memoir/embed-catch-up.js')
    .then(({ catchUpAhead }) => {
      let failed = memoirsFailed.get(services);
      if (!failed) memoirsFailed.set(services, (failed = new Set()));
      return catchUpAhead(services.store, ahead, services.clock, {}, failed);
    })
    .then(
      (r) => {
        if (r.caughtUp > 0 || !r.complete)
          services.log.info(
            { memoirs: r.caughtUp, heldElsewhere: r.held, complete: r.complete },
            'memoir: passages of memoirs written before embedded ahead',
          );
      },
      (err: Error) =>
        services.log.warn({ err: err.name }, 'memoir: the catch-up of passages stopped; the next one goes on'),
    )
    .finally(() => memoirCatchUps.delete(services));
  memoirCatchUps.set(services, run);
  return run;
}

/**
 * Starts the webhook dispatcher: it delivers every pending delivery, including those left by an earlier run. With it
 * starts the sweeper that erases rotated signing secrets when their grace ends.
 */
export function startDispatcher(services: Services): Dispatcher {
  const { config } = services;
  if (!sweepers.has(services)) {
    const sweeper = new SecretSweeper({ store: services.store, clock: services.clock, log: services.log });
    sweepers.set(services, sweeper);
    sweeper.start();
  }
  startVerificationSweep(services);
  startWatcher(services);
  const dispatcher = new Dispatcher({
    store: services.store,
    clock: services.clock,
    keyring: services.keyring,
    log: services.log,
    allow: config.webhookAllow,
    timeoutMs: config.webhookTimeoutMs,
    leaseMs: config.webhookLeaseMs,
  });
  dispatcher.start();
  startMail(services);
  return dispatcher;
}

/**
 * Starts the contract engines' workers in the background (SVC_WARM_ENGINES, on by default), so that an editor's or a
 * client's first generation finds solc and the VM loaded. Never throws; logs when they are ready.
 */
export function warmEngines(services: Services): void {
  if (services.config.warmEngines === false) return;
  const { contracts, log } = services;
  void contracts.warm().then(
    async (ms) => {
      // Closed meanwhile (a service stopped while it started): nothing is ready, and nothing to say after "stopped".
      if (ms === undefined) return;
      // How solc was loaded (src/contracts/evm/solc-load.mjs): a cache that cannot be written costs every start.
      const solc = await contracts.solcLoadInfo();
      log.info({ ms: Math.round(ms), solc: solc?.from }, 'contract engines ready');
      if (solc?.from === 'package') log.warn({ why: solc.why }, 'solc was loaded without its cache');
      else if (solc?.from === 'decoded' && !solc.cached && solc.dir !== undefined)
        log.warn(
          { dir: solc.dir },
          "solc's decoded WebAssembly could not be written to its cache directory (SVC_CACHE_DIR): every start decodes it again",
        );
    },
    (err: unknown) => log.warn({ err }, 'contract engines could not be started ahead of use'),
  );
}

/** The chain watcher per open Services (stopped by closeServices). */
const watchers = new WeakMap<Services, Promise<Watcher | undefined>>();

/**
 * Starts the chain watcher when the operator configured at least one network (SVC_EVM_RPC_URLS, SVC_TON_API_*);
 * without one nothing is loaded. Loaded on first use, like the readers: viem stays out of a service that reads no chain.
 */
export function startWatcher(services: Services): Promise<Watcher | undefined> {
  const existing = watchers.get(services);
  if (existing) return existing;
  const chains = services.config.chains;
  // TON networks (SVC_TON_API_MAINNET / _TESTNET) are followed too; their reader is loaded only for them.
  const networks = [...Object.keys(chains?.evmRpcUrls ?? {}), ...Object.keys(chains?.tonApis ?? {})];
  if (!chains || networks.length === 0) return Promise.resolve(undefined);
  const started = (async () => {
    const [{ Watcher }, { evmReaderFor }, { tonReaderFor }] = await Promise.all([
      import('./watch/watcher.js'),
      import('./chains/readers.js'),
      import('./chains/ton-readers.js'),
    ]);
    const readers = new Map<string, ReturnType<typeof evmReaderFor>>();
    const tonReaders = new Map<string, ReturnType<typeof tonReaderFor>>();
    const watcher = new Watcher({
      store: services.store,
      clock: services.clock,
      log: services.log,
      networks,
      pollMs: chains.watchPollMs,
      confirmations: chains.watchConfirmations,
      readerFor: (network) => {
        if (!readers.has(network)) readers.set(network, evmReaderFor(services.config, network));
        return readers.get(network)!;
      },
      tonReaderFor: (network) => {
        if (!tonReaders.has(network)) tonReaders.set(network, tonReaderFor(services.config, network));
        return tonReaders.get(network)!;
      },
    });
    watcher.start();
    services.log.info({ networks }, 'the chain watcher follows the verified deployments of these networks');
    return watcher;
  })().catch((err: unknown) => {
    services.log.error({ err: String(err) }, 'the chain watcher could not start');
    return undefined;
  });
  watchers.set(services, started);
  return started;
}

/** The mail sender per open Services (stopped by closeServices). */
const mailSenders = new WeakMap<Services, Promise<MailSender | undefined>>();

/** Starts sending queued mail (SMTP, or .eml files under <data-dir>/mail/); a failure to start is logged, not fatal. */
function startMail(services: Services): void {
  if (mailSenders.has(services)) return;
  const started = startMailSender(services).catch((err: unknown) => {
    services.log.error({ err: String(err) }, 'the mail sender could not start; queued mail waits for the next start');
    return undefined;
  });
  mailSenders.set(services, started);
}

export async function closeServices(services: Services): Promise<void> {
  // Automatic reloads being charged record their outcome before the store closes.
  await settleReloads();
  // Password reset requests already answered are queued before the store closes.
  await services.sessions.email.settled();
  await (await mailSenders.get(services))?.stop();
  mailSenders.delete(services);
  await sweepers.get(services)?.stop();
  sweepers.delete(services);
  await (await watchers.get(services))?.stop();
  watchers.delete(services);
  clearInterval(verificationSweeps.get(services));
  verificationSweeps.delete(services);
  // Passages being embedded ahead of the questions finish their request; the rest waits for the next question.
  await services.memoirAhead?.settle();
  // A catch-up under way stops at its memoir (the background embedding takes nothing more once settled).
  await memoirCatchUps.get(services);
  await services.contracts.close();
  await services.limiter.close?.();
  await services.store.close();
}
