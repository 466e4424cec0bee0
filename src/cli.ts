// Only light modules are imported here: each command loads what it needs when
// it runs, so `svc mcp` can answer `initialize` before the contract engines,
// fastify and the tools have loaded (see bench/start.ts).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type ConfigFlags } from './core/config.js';
import { systemClock } from './core/clock.js';
import type { ApiKeyRecord } from './keys/keys.js';
import type { AccountView } from './accounts/accounts.js';
import type { AccountRecord } from './accounts/records.js';
import type { Principal } from './accounts/principal.js';
import type { ApiKeyView } from './keys/manage.js';
import { isScope, TIERS, type Scope, type Tier } from './accounts/scopes.js';
import { StoreCorruptError, StoreLockedError } from './store/port.js';
import { installProcessGuard, type ProcessGuard } from './core/process-guard.js';
import type { Services } from './tools/define.js';
import { SERVICE_VERSION } from './version.js';

const HELP = `svc ${SERVICE_VERSION} — inheritance planning service (REST + MCP)

Usage:
  svc serve [--port 3000] [--host 127.0.0.1] [--data-dir ./data] [--trust-proxy ADDRS|HOPS]
      Start the REST API (/api/v1), the MCP endpoint (POST /mcp), /docs and /health.
  svc mcp [--data-dir ./data] [--api-key KEY]
      Serve MCP over stdio for an IDE assistant (key also from SVC_API_KEY).
  svc mcp --url https://host/mcp [--api-key-file PATH]
      Bridge stdio to a remote svc's MCP endpoint (key from SVC_API_KEY or the file).
  svc accounts create --name NAME --tier partner|public [--email EMAIL] [--scopes a,b] [--json]
      Create a customer account and its first key; the key is printed once.
  svc accounts list [--json]
      List accounts.
  svc accounts set-quota --account ACCOUNT_ID --bytes N|default [--json]
      Set the bytes an account may store (default: back to SVC_STORAGE_QUOTA_BYTES, 1 GiB).
  svc keys create --tier public|partner|internal --scopes a,b --name NAME [--account ACCOUNT_ID] [--json]
      Create an API key (in the operator's account unless --account names another) and print its value once.
  svc keys list [--json]
      List API keys (never their values).
  svc credits grant --account ACCOUNT_ID --amount N --reason TEXT [--idempotency-key KEY] [--json]
      Grant credits to an account (a negative amount takes them back, never below zero); every grant is a ledger entry.
  Account, key and credit commands work whether or not \`svc serve\` is running: when it holds the data
  directory they go through its API with SVC_API_KEY (an internal key) [--url URL] [--api-key KEY].
  Every command also takes [--data-dir DIR].
  svc secrets rotate-master [--new-key-file PATH]
      Re-seal every stored secret under a new master key (stop the service, every instance, first). The new key
      replaces the key file in use, or goes to PATH (required when the key comes from SVC_MASTER_KEY).
  svc migrate
      Apply the PostgreSQL store's schema migrations to SVC_DATABASE_URL (also done by \`svc serve\` at start).
  svc --help | --version

Environment: SVC_PORT, SVC_HOST, SVC_DATA_DIR, SVC_API_KEY, SVC_LOG_LEVEL, SVC_BODY_LIMIT, SVC_PUBLIC_URL, SVC_TRUST_PROXY,
SVC_WEBHOOK_ALLOW (hosts/CIDRs webhooks may reach despite the address guard),
SVC_RATE_LIMIT_FAIL_OPEN=1 (let requests through uncounted when the rate limiter cannot be reached),
SVC_DATABASE_URL (postgres://...: PostgreSQL store, for several instances), SVC_DATABASE_SCHEMA (default public),
SVC_REDIS_URL (redis://...: shared rate limiter), SVC_REDIS_PREFIX, SVC_WEBHOOK_TIMEOUT_MS, SVC_WEBHOOK_LEASE_MS;
SVC_MASTER_KEY (base64 of 32 bytes) or SVC_MASTER_KEY_FILE: the key sealing stored secrets (required with
SVC_DATABASE_URL; without either, the data directory's master.key, created at the first start);
credits and payments: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SVC_STRIPE_API_BASE, SVC_PAYMENT_RETURN_HOSTS,
SVC_CREDITS_CATALOGUE (JSON).
Without SVC_DATABASE_URL the data directory can be used by one svc process at a time.`;

/** A bad command line: printed as one line on stderr, exit code 2. */
class UsageError extends Error {}

/** A command that could not do its work (e.g. the database cannot be reached): one line on stderr, exit code 1. */
class CommandError extends Error {}

const SHARED_OPTIONS = {
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses options strictly; the values are strings or booleans, checked by the caller. */
function parse(args: string[], options: OptionSpec): { values: Record<string, string | boolean | undefined> } {
  try {
    const { values } = parseArgs({ args, options: { ...options, ...SHARED_OPTIONS }, strict: true, allowPositionals: false });
    return { values: values as Record<string, string | boolean | undefined> };
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (sig: string) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(sig);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** Serves until a signal (exit code 0) or an uncaught exception (exit code 1, after the same clean stop). */
async function serve(args: string[]): Promise<number> {
  const { values } = parse(args, { port: { type: 'string' }, host: { type: 'string' }, 'trust-proxy': { type: 'string' } });
  const config = loadConfig(values as ConfigFlags);
  // Listen for signals before anything starts, so an early SIGTERM still shuts down cleanly.
  const signal = waitForSignal();
  const [{ closeServices, openServices, startDispatcher }, { buildApp }, { TOOLS }, { removeServerFile, writeServerFile }] = await Promise.all([
    import('./app.js'),
    import('./http/app.js'),
    import('./tools/index.js'),
    import('./admin.js'),
  ]);
  const services = await openServices(config, { bootstrap: true });
  // No request can end the process: a stray rejection is logged, an uncaught exception stops it cleanly (exit 1).
  const guard = installProcessGuard(services.log);
  const app = await buildApp(services, TOOLS);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await closeServices(services);
    throw err;
  }
  const address = app.server.address();
  // The server file tells local commands where the process holding the data directory listens; with PostgreSQL
  // nothing holds it (commands open the database themselves).
  const serverFile = !config.databaseUrl;
  if (serverFile && address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    await writeServerFile(config.dataDir, `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`);
  }
  const dispatcher = startDispatcher(services);
  const sig = await Promise.race([signal, guard.fatal]);
  services.log.info({ signal: sig }, 'shutting down: finishing in-flight requests');
  // Hold the event loop open until every step has finished: a step waiting on a
  // promise alone must not let the process exit before the store is flushed.
  const hold = setInterval(() => undefined, 1000);
  await app.close();
  if (serverFile) await removeServerFile(config.dataDir);
  await dispatcher.stop();
  await closeServices(services);
  clearInterval(hold);
  services.log.info('stopped');
  return sig === 'uncaughtException' ? 1 : 0;
}

async function mcp(args: string[]): Promise<number> {
  const { values } = parse(args, { 'api-key': { type: 'string' }, url: { type: 'string' }, 'api-key-file': { type: 'string' } });
  // Standard output carries the MCP protocol: anything a library prints with console goes to stderr instead.
  for (const level of ['log', 'info', 'debug', 'trace'] as const) console[level] = console.error.bind(console);
  if (values.url !== undefined) {
    const { proxyStdio, ProxyError } = await import('./mcp/proxy.js');
    try {
      await proxyStdio({ url: values.url as string, apiKey: values['api-key'] as string | undefined, apiKeyFile: values['api-key-file'] as string | undefined });
    } catch (err) {
      if (err instanceof ProxyError) throw new UsageError(err.message);
      throw err;
    }
    return 0;
  }
  if (values['api-key-file'] !== undefined) throw new UsageError('--api-key-file goes with --url (a remote server); locally use --api-key or SVC_API_KEY');
  const config = loadConfig(values as ConfigFlags);
  const signal = waitForSignal();
  // Reads stdin and answers `initialize` while the SDK and the rest load.
  const { EarlyStdioTransport } = await import('./mcp/early.js');
  const early = new EarlyStdioTransport();
  const { serveStdio } = await import('./mcp/stdio.js');
  let guard: ProcessGuard | undefined;
  // `initialize` is answered first; the tools, the store and their libraries load right after.
  const serving = await serveStdio(async () => {
    const [{ openServices, startDispatcher, closeServices }, { TOOLS }] = await Promise.all([import('./app.js'), import('./tools/index.js')]);
    const services = await openServices(config, { bootstrap: true });
    guard = installProcessGuard(services.log);
    return { services, tools: TOOLS, dispatcher: startDispatcher(services), closeServices };
  }, config.apiKey, early);
  let loaded: Awaited<typeof serving.loaded>;
  try {
    // A store that cannot be opened ends the server with its error (exit code 2).
    loaded = await serving.loaded;
  } catch (err) {
    await serving.close();
    throw err;
  }
  const ended = await Promise.race([serving.closed, signal, guard?.fatal ?? new Promise<never>(() => undefined)]);
  await serving.close();
  const hold = setInterval(() => undefined, 1000); // see serve()
  await loaded.dispatcher.stop();
  await loaded.closeServices(loaded.services);
  clearInterval(hold);
  return ended === 'uncaughtException' ? 1 : 0;
}

function parseScopes(raw: string | undefined): Scope[] {
  if (!raw) throw new UsageError('--scopes is required, e.g. --scopes contracts,webhooks');
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length || scopes.length === 0) throw new UsageError(`unknown scope(s): ${bad.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

const ADMIN_OPTIONS = { url: { type: 'string' }, 'api-key': { type: 'string' }, json: { type: 'boolean' } } as const;

/**
 * Runs an administrative command on the store when the data directory is free,
 * or through the running server's API when `svc serve` holds it.
 */
async function adminRun(
  values: Record<string, string | boolean | undefined>,
  offline: (services: Services, operator: Principal) => Promise<void>,
  online: (url: string, apiKey: string) => Promise<void>,
): Promise<void> {
  const config = loadConfig(values as ConfigFlags);
  const [{ openServices, closeServices }, { createLogger }, { operatorPrincipal, runningServerUrl }] = await Promise.all([
    import('./app.js'),
    import('./core/log.js'),
    import('./admin.js'),
  ]);
  let services: Services;
  try {
    services = await openServices(config, { log: createLogger('warn') });
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    const url = await runningServerUrl(config.dataDir, values.url as string | undefined);
    if (!url) throw new UsageError(`${err.message}; pass --url with the running server's address to act through its API`);
    const apiKey = config.apiKey;
    if (!apiKey) {
      throw new UsageError(`the service is running on ${config.dataDir}; set SVC_API_KEY (or --api-key) to an internal key to act through its API at ${url}`);
    }
    await online(url, apiKey);
    return;
  }
  try {
    await offline(services, await operatorPrincipal(services.store, systemClock));
  } finally {
    await closeServices(services);
  }
}

function print(values: Record<string, unknown>, json: unknown, text: string): void {
  process.stdout.write(values.json ? JSON.stringify(json) + '\n' : text);
}

function keyText(k: { id: string; name: string; tier: string; scopes: string[]; ownerId: string }, key: string): string {
  return `Created ${k.tier} key ${k.id} (${k.name}), scopes ${k.scopes.join(',')}, account ${k.ownerId}.\nThe key is shown only this once:\n${key}\n`;
}

async function keys(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parse(rest, {
      ...ADMIN_OPTIONS,
      tier: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      account: { type: 'string' },
      owner: { type: 'string' },
    });
    const tier = values.tier as string | undefined;
    if (!tier || !(TIERS as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
    const scopes = parseScopes(values.scopes as string | undefined);
    if (scopes.includes('all') && tier !== 'internal') throw new UsageError('the "all" scope is for internal keys only');
    const name = (values.name as string | undefined)?.trim();
    if (!name) throw new UsageError('--name is required');
    const account = (values.account ?? values.owner) as string | undefined;
    const [{ createKey }, { accountExists, callApi }] = await Promise.all([import('./keys/provision.js'), import('./admin.js')]);
    await adminRun(
      values,
      async (services, operator) => {
        const ownerId = account ?? operator.ownerId;
        if (!(await accountExists(services.store, ownerId))) throw new UsageError(`no account ${ownerId} (see svc accounts list)`);
        const { record, key } = await createKey(services.store, { name, tier: tier as Tier, scopes, ownerId }, systemClock);
        print(values, { id: record.id, key, name, tier, scopes: record.scopes, ownerId: record.ownerId }, keyText(record, key));
      },
      async (url, apiKey) => {
        const body = { name, tier, scopes };
        const { data } = account
          ? await callApi(url, apiKey, 'POST', `/api/v1/accounts/${encodeURIComponent(account)}/keys`, body)
          : await callApi(url, apiKey, 'POST', '/api/v1/api-keys', body);
        const k = data as { id: string; key: string; name: string; tier: string; scopes: string[]; ownerId: string };
        print(values, { id: k.id, key: k.key, name: k.name, tier: k.tier, scopes: k.scopes, ownerId: k.ownerId }, keyText(k, k.key));
      },
    );
    return;
  }
  if (sub === 'list') {
    const { values } = parse(rest, ADMIN_OPTIONS);
    const [{ API_KEYS }, { keyView }] = await Promise.all([import('./keys/keys.js'), import('./keys/manage.js')]);
    const show = (shown: ApiKeyView[]) => {
      if (values.json) process.stdout.write(JSON.stringify(shown) + '\n');
      else if (shown.length === 0) process.stdout.write('No API keys.\n');
      else {
        for (const r of shown) {
          const state = r.revokedAt ? 'revoked' : r.expiresAt && Date.parse(r.expiresAt) <= Date.now() ? 'expired' : 'active';
          process.stdout.write(`${r.id}  ${r.displayPrefix}…  ${r.tier.padEnd(8)}  ${state.padEnd(7)}  ${r.ownerId}  ${r.scopes.join(',')}  ${r.name}\n`);
        }
      }
    };
    await adminRun(
      values,
      async (services) => show((await services.store.all<ApiKeyRecord>(API_KEYS)).map(keyView)),
      async (url, apiKey) => show(await allPages<ApiKeyView>(url, apiKey, '/api/v1/api-keys')),
    );
    return;
  }
  throw new UsageError(sub ? `unknown keys command "${sub}" (use create or list)` : 'keys needs a command: create or list');
}

/** Every page of an offset-paged list from the running server. */
async function allPages<T>(url: string, apiKey: string, route: string): Promise<T[]> {
  const { callApi } = await import('./admin.js');
  const items: T[] = [];
  for (let page = 1; page < 10_000; page++) {
    const { data, meta } = await callApi(url, apiKey, 'GET', `${route}?page=${page}&limit=100`);
    items.push(...(data as T[]));
    if (!(meta.pagination as { hasNext?: boolean } | undefined)?.hasNext) break;
  }
  return items;
}

async function accounts(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parse(rest, { ...ADMIN_OPTIONS, name: { type: 'string' }, tier: { type: 'string' }, email: { type: 'string' }, scopes: { type: 'string' } });
    const name = (values.name as string | undefined)?.trim();
    if (!name) throw new UsageError('--name is required');
    const tier = values.tier as string | undefined;
    if (tier !== 'partner' && tier !== 'public') throw new UsageError('--tier must be partner or public');
    const input = {
      name,
      tier,
      ...(values.email ? { email: values.email as string } : {}),
      ...(values.scopes ? { keyScopes: parseScopes(values.scopes as string) } : {}),
    };
    const [{ createAccount, CreateAccountInput }, { zodDetails }, { callApi }] = await Promise.all([
      import('./keys/provision.js'),
      import('./tools/invoke.js'),
      import('./admin.js'),
    ]);
    const done = (out: { account: { id: string; name: string; tier: string }; apiKey: { id: string }; key: string }) =>
      print(
        values,
        { account: out.account, keyId: out.apiKey.id, key: out.key },
        `Created ${out.account.tier} account ${out.account.id} (${out.account.name}) and its first key ${out.apiKey.id}.\n` +
          `The key is shown only this once:\n${out.key}\n`,
      );
    await adminRun(
      values,
      async (services, operator) => {
        const parsed = CreateAccountInput.safeParse(input);
        if (!parsed.success) throw new UsageError(zodDetails(parsed.error).map((d) => `${d.field}: ${d.reason}`).join('; '));
        done(await createAccount({ system: services.store, clock: systemClock }, operator, parsed.data));
      },
      async (url, apiKey) => done((await callApi(url, apiKey, 'POST', '/api/v1/accounts', input)).data as Parameters<typeof done>[0]),
    );
    return;
  }
  if (sub === 'list') {
    const { values } = parse(rest, ADMIN_OPTIONS);
    const [{ accountView }, { ACCOUNTS }] = await Promise.all([import('./accounts/accounts.js'), import('./accounts/records.js')]);
    const show = (list: AccountView[]) => {
      if (values.json) process.stdout.write(JSON.stringify(list) + '\n');
      else for (const a of list) process.stdout.write(`${a.id}  ${a.kind.padEnd(8)}  ${a.tier.padEnd(8)}  ${a.status.padEnd(9)}  ${a.name}\n`);
    };
    await adminRun(
      values,
      async (services) => show((await services.store.all<AccountRecord>(ACCOUNTS)).map(accountView)),
      async (url, apiKey) => show(await allPages<AccountView>(url, apiKey, '/api/v1/accounts')),
    );
    return;
  }
  if (sub === 'set-quota') {
    const { values } = parse(rest, { ...ADMIN_OPTIONS, account: { type: 'string' }, bytes: { type: 'string' } });
    const account = values.account as string | undefined;
    if (!account) throw new UsageError('--account is required (see svc accounts list)');
    const bytes = values.bytes as string | undefined;
    if (bytes !== 'default' && !(bytes && /^\d+$/.test(bytes) && Number.isSafeInteger(Number(bytes)))) {
      throw new UsageError('--bytes must be a whole number of bytes, or "default" for the server\'s default');
    }
    const input = { id: account, storageQuotaBytes: bytes === 'default' ? null : Number(bytes) };
    const [{ updateAccount, UpdateAccountInput }, { zodDetails }, { ApiCallError, callApi }, { ApiError }] = await Promise.all([
      import('./accounts/accounts.js'),
      import('./tools/invoke.js'),
      import('./admin.js'),
      import('./core/errors.js'),
    ]);
    const parsed = UpdateAccountInput.safeParse(input);
    if (!parsed.success) throw new UsageError(zodDetails(parsed.error).map((d) => `--${d.field === 'id' ? 'account' : 'bytes'}: ${d.reason}`).join('; '));
    const done = (out: AccountView) =>
      print(values, out, `Account ${out.id} may store ${out.storageQuotaBytes === null ? "the server's default number of" : out.storageQuotaBytes} bytes.\n`);
    await adminRun(
      values,
      async (services, operator) => {
        try {
          done(await updateAccount({ system: services.store, clock: systemClock }, operator, parsed.data));
        } catch (err) {
          if (err instanceof ApiError) throw new ApiCallError(`${err.code}: ${err.message}`);
          throw err;
        }
      },
      async (url, apiKey) =>
        done((await callApi(url, apiKey, 'PATCH', `/api/v1/accounts/${encodeURIComponent(account)}`, { storageQuotaBytes: input.storageQuotaBytes })).data as AccountView),
    );
    return;
  }
  throw new UsageError(sub ? `unknown accounts command "${sub}" (use create, list or set-quota)` : 'accounts needs a command: create, list or set-quota');
}

async function credits(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'grant') throw new UsageError(sub && !sub.startsWith('-') ? `unknown credits command "${sub}" (use grant)` : 'credits needs a command: grant');
  const { values } = parse(rest, { ...ADMIN_OPTIONS, account: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' }, 'idempotency-key': { type: 'string' } });
  const account = values.account as string | undefined;
  if (!account) throw new UsageError('--account is required (see svc accounts list)');
  const amountText = values.amount as string | undefined;
  if (!amountText || !/^-?\d+$/.test(amountText)) throw new UsageError('--amount must be a whole number of credits, e.g. --amount 100 (or --amount=-20 to take credits back)');
  const body = {
    amount: Number(amountText),
    reason: (values.reason as string | undefined) ?? '',
    ...(values['idempotency-key'] ? { idempotencyKey: values['idempotency-key'] as string } : {}),
  };
  const [{ grantCredits, GrantCreditsInput }, { zodDetails }, { ApiCallError, callApi }, { ApiError }] = await Promise.all([
    import('./credits/ledger.js'),
    import('./tools/invoke.js'),
    import('./admin.js'),
    import('./core/errors.js'),
  ]);
  const parsed = GrantCreditsInput.safeParse({ id: account, ...body });
  if (!parsed.success) throw new UsageError(zodDetails(parsed.error).map((d) => `--${d.field === 'id' ? 'account' : d.field}: ${d.reason}`).join('; '));
  const done = (out: { entry: { id: string; amount: number }; balance: number; replayed: boolean }) =>
    print(
      values,
      out,
      out.replayed
        ? `Already granted with this idempotency key (entry ${out.entry.id}); nothing more was granted. Balance of ${account}: ${out.balance}.\n`
        : `${out.entry.amount >= 0 ? 'Granted' : 'Took back'} ${Math.abs(out.entry.amount)} credits (entry ${out.entry.id}). Balance of ${account}: ${out.balance}.\n`,
    );
  await adminRun(
    values,
    async (services, operator) => {
      try {
        done(await grantCredits(services.store, systemClock, parsed.data, operator.keyId));
      } catch (err) {
        if (err instanceof ApiError) throw new ApiCallError(`${err.code}: ${err.message}`);
        throw err;
      }
    },
    async (url, apiKey) => done((await callApi(url, apiKey, 'POST', `/api/v1/accounts/${encodeURIComponent(account)}/credits`, body)).data as Parameters<typeof done>[0]),
  );
}

async function secretsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate-master') {
    throw new UsageError(sub && !sub.startsWith('-') ? `unknown secrets command "${sub}" (use rotate-master)` : 'secrets needs a command: rotate-master');
  }
  const { values } = parse(rest, { 'new-key-file': { type: 'string' } });
  const config = loadConfig(values as ConfigFlags);
  const [{ rotateMasterKey, RotationError }, { createLogger }] = await Promise.all([import('./rotate-master.js'), import('./core/log.js')]);
  try {
    process.stdout.write(await rotateMasterKey(config, { newKeyFile: values['new-key-file'] as string | undefined, log: createLogger('warn') }));
  } catch (err) {
    if (err instanceof RotationError) throw new UsageError(err.message);
    throw err;
  }
}

async function migrateCommand(args: string[]): Promise<void> {
  const { values } = parse(args, {});
  const config = loadConfig(values as ConfigFlags);
  if (!config.databaseUrl) throw new UsageError('svc migrate needs SVC_DATABASE_URL (postgres://...): the embedded store has no migrations to run');
  const { migrateDatabase } = await import('./admin.js');
  let report: string;
  try {
    report = await migrateDatabase(config.databaseUrl, config.databaseSchema);
  } catch (err) {
    if ((err as Error | undefined)?.name === 'SchemaTooNewError') throw err;
    const e = err as NodeJS.ErrnoException;
    // The message of pg's errors never holds the URL (and so no password).
    throw new CommandError(`cannot migrate the database: ${e?.message || e?.code || String(err)}`);
  }
  process.stdout.write(report);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(args);
      case 'mcp':
        return await mcp(args);
      case 'keys':
        await keys(args);
        return 0;
      case 'accounts':
        await accounts(args);
        return 0;
      case 'credits':
        await credits(args);
        return 0;
      case 'secrets':
        await secretsCommand(args);
        return 0;
      case 'migrate':
        await migrateCommand(args);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(HELP + '\n');
        return 0;
      case '--version':
      case '-v':
        process.stdout.write(SERVICE_VERSION + '\n');
        return 0;
      case undefined:
        throw new UsageError('no command given; try svc --help');
      default:
        throw new UsageError(`unknown command "${command}"; try svc --help`);
    }
  } catch (err) {
    const { ApiCallError } = await import('./admin.js');
    if (err instanceof ApiCallError || err instanceof CommandError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 1;
    }
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof StoreLockedError || err instanceof StoreCorruptError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 2;
    }
    // By name: the PostgreSQL module is loaded only when selected.
    const name = (err as Error | undefined)?.name;
    if (name === 'SchemaTooNewError') {
      process.stderr.write(`svc: ${(err as Error).message}\n`);
      return 3;
    }
    if (name === 'StoreUnavailableError' || name === 'LimiterUnavailableError') {
      process.stderr.write(`svc: ${(err as Error).message}\n`);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'EADDRINUSE' || e?.code === 'EACCES' || e?.code === 'EADDRNOTAVAIL') {
      process.stderr.write(`svc: cannot listen: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`svc: unexpected error: ${e?.stack ?? String(err)}\n`);
    return 1;
  }
}
