import { parseArgs } from 'node:util';
import { closeServices, openServices, startDispatcher } from './app.js';
import { ConfigError, loadConfig, type ConfigFlags } from './core/config.js';
import { systemClock } from './core/clock.js';
import { buildApp } from './http/app.js';
import { API_KEYS, createKey, type ApiKeyRecord } from './keys/keys.js';
import { isScope, TIERS, type Scope, type Tier } from './keys/scopes.js';
import { serveStdio } from './mcp/stdio.js';
import { StoreCorruptError, StoreLockedError } from './store/index.js';
import { TOOLS } from './tools/index.js';
import { SERVICE_VERSION } from './version.js';

const HELP = `svc ${SERVICE_VERSION} — inheritance planning service (REST + MCP)

Usage:
  svc serve [--port 3000] [--host 127.0.0.1] [--data-dir ./data] [--trust-proxy ADDRS|HOPS]
      Start the REST API (/api/v1), the MCP endpoint (POST /mcp), /docs and /health.
  svc mcp [--data-dir ./data] [--api-key KEY]
      Serve MCP over stdio for an IDE assistant (key also from SVC_API_KEY).
  svc keys create --tier public|partner|internal --scopes a,b --name NAME [--owner OWNER_ID] [--json] [--data-dir DIR]
      Create an API key and print its value once (--json: {"id","key",...} on stdout).
  svc keys list [--json] [--data-dir DIR]
      List API keys (never their values).
  svc --help | --version

Environment: SVC_PORT, SVC_HOST, SVC_DATA_DIR, SVC_API_KEY, SVC_LOG_LEVEL, SVC_BODY_LIMIT, SVC_PUBLIC_URL, SVC_TRUST_PROXY,
SVC_WEBHOOK_ALLOW (hosts/CIDRs webhooks may reach despite the address guard).
The data directory can be used by one svc process at a time.`;

/** A bad command line: printed as one line on stderr, exit code 2. */
class UsageError extends Error {}

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

async function serve(args: string[]): Promise<void> {
  const { values } = parse(args, { port: { type: 'string' }, host: { type: 'string' }, 'trust-proxy': { type: 'string' } });
  const config = loadConfig(values as ConfigFlags);
  // Listen for signals before anything starts, so an early SIGTERM still shuts down cleanly.
  const signal = waitForSignal();
  const services = await openServices(config, { bootstrap: true });
  const app = await buildApp(services, TOOLS);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await closeServices(services);
    throw err;
  }
  const dispatcher = startDispatcher(services);
  const sig = await signal;
  services.log.info({ signal: sig }, 'shutting down: finishing in-flight requests');
  // Hold the event loop open until every step has finished: a step waiting on a
  // promise alone must not let the process exit before the store is flushed.
  const hold = setInterval(() => undefined, 1000);
  await app.close();
  await dispatcher.stop();
  await closeServices(services);
  clearInterval(hold);
  services.log.info('stopped');
}

async function mcp(args: string[]): Promise<void> {
  const { values } = parse(args, { 'api-key': { type: 'string' } });
  // Standard output carries the MCP protocol: anything a library prints with console goes to stderr instead.
  for (const level of ['log', 'info', 'debug', 'trace'] as const) console[level] = console.error.bind(console);
  const config = loadConfig(values as ConfigFlags);
  const signal = waitForSignal();
  const services = await openServices(config, { bootstrap: true });
  const dispatcher = startDispatcher(services);
  await Promise.race([serveStdio(TOOLS, services, config.apiKey), signal]);
  const hold = setInterval(() => undefined, 1000); // see serve()
  await dispatcher.stop();
  await closeServices(services);
  clearInterval(hold);
}

function parseScopes(raw: string | undefined): Scope[] {
  if (!raw) throw new UsageError('--scopes is required, e.g. --scopes contracts,webhooks');
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length || scopes.length === 0) throw new UsageError(`unknown scope(s): ${bad.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

async function keys(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parse(rest, {
      tier: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      owner: { type: 'string' },
      json: { type: 'boolean' },
    });
    const tier = values.tier as string | undefined;
    if (!tier || !(TIERS as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
    const scopes = parseScopes(values.scopes as string | undefined);
    if (scopes.includes('all') && tier !== 'internal') throw new UsageError('the "all" scope is for internal keys only');
    const name = (values.name as string | undefined)?.trim();
    if (!name) throw new UsageError('--name is required');
    const config = loadConfig(values as ConfigFlags);
    const services = await openServices(config, { log: undefined });
    try {
      const { record, key } = await createKey(
        services.store,
        { name, tier: tier as Tier, scopes, ownerId: values.owner as string | undefined },
        systemClock,
      );
      if (values.json) {
        process.stdout.write(JSON.stringify({ id: record.id, key, name, tier, scopes: record.scopes, ownerId: record.ownerId }) + '\n');
      } else {
        process.stdout.write(`Created ${tier} key ${record.id} (${name}), scopes ${record.scopes.join(',')}, owner ${record.ownerId}.\n`);
        process.stdout.write(`The key is shown only this once:\n${key}\n`);
      }
    } finally {
      await closeServices(services);
    }
    return;
  }
  if (sub === 'list') {
    const { values } = parse(rest, { json: { type: 'boolean' } });
    const config = loadConfig(values as ConfigFlags);
    const services = await openServices(config);
    try {
      const all = await services.store.all<ApiKeyRecord>(API_KEYS);
      const shown = all.map(({ keyHash: _hash, ...r }) => r);
      if (values.json) {
        process.stdout.write(JSON.stringify(shown) + '\n');
      } else if (shown.length === 0) {
        process.stdout.write('No API keys.\n');
      } else {
        for (const r of shown) {
          const state = r.revokedAt ? 'revoked' : r.expiresAt && Date.parse(r.expiresAt) <= Date.now() ? 'expired' : 'active';
          process.stdout.write(`${r.id}  ${r.displayPrefix}…  ${r.tier.padEnd(8)}  ${state.padEnd(7)}  ${r.scopes.join(',')}  ${r.name}\n`);
        }
      }
    } finally {
      await closeServices(services);
    }
    return;
  }
  throw new UsageError(sub ? `unknown keys command "${sub}" (use create or list)` : 'keys needs a command: create or list');
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        await serve(args);
        return 0;
      case 'mcp':
        await mcp(args);
        return 0;
      case 'keys':
        await keys(args);
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
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof StoreLockedError || err instanceof StoreCorruptError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 2;
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
