// The `svc` command line: help, version, and one module per command under ./cli/, loaded only when that command
// runs. Only light modules are imported here, so every start stays fast and `svc mcp` can answer `initialize`
// before the contract engines, fastify and the tools have loaded (see bench/start.ts).
import { ConfigError } from './core/config.js';
import { StoreCorruptError, StoreLockedError } from './store/port.js';
import { SERVICE_VERSION } from './version.js';
import { CommandError, UsageError } from './cli/shared.js';
import type { EarlyStart } from './cli/early-start.js';

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

/**
 * The commands HELP lists (`  svc <command> ...`), read from it; each answers `--help` (or `-h`) anywhere among its
 * arguments, and `svc help <command>`, with its own usage.
 */
const COMMANDS: ReadonlySet<string> = new Set([...HELP.matchAll(/^ {2}svc ([a-z][a-z-]*)/gm)].map((m) => m[1]!));

/** The commands whose usage ends with the note on the operator commands (those that may go through a running server). */
const OPERATOR_COMMANDS: readonly string[] = ['keys', 'accounts', 'credits'];

/**
 * The usage of one command, cut from HELP so that the two never disagree: its entries (a line `  svc <command> ...`
 * and the lines indented under it), the note on operator commands where it applies, and where the rest is.
 */
export function commandHelp(command: string): string {
  const usage = HELP.slice(HELP.indexOf('Usage:\n') + 'Usage:\n'.length, HELP.indexOf('\n\n', HELP.indexOf('Usage:')));
  const out: string[] = [];
  let keep = false;
  for (const line of usage.split('\n')) {
    if (line.startsWith('      ')) {
      if (keep) out.push(line);
      continue;
    }
    const entry = line.startsWith('  svc ');
    keep = entry
      ? line.startsWith(`  svc ${command} `) || line === `  svc ${command}`
      : OPERATOR_COMMANDS.includes(command);
    if (keep) out.push(line);
  }
  return `Usage:\n${out.join('\n')}\n\nsvc --help lists every command and the environment variables.\n`;
}

/** Runs `svc` with `argv`; `early`: the stdio transport ./cli/light.ts started for `svc mcp` before this loaded. */
export async function main(argv: string[], early?: EarlyStart): Promise<number> {
  const [command, ...args] = argv;
  if (COMMANDS.has(command ?? '') && args.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(commandHelp(command!));
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        return await (await import('./cli/serve.js')).serve(args);
      case 'mcp':
        return await (await import('./cli/mcp.js')).mcp(args, early);
      case 'keys':
        await (await import('./cli/keys.js')).keys(args);
        return 0;
      case 'accounts':
        await (await import('./cli/accounts.js')).accounts(args);
        return 0;
      case 'credits':
        await (await import('./cli/credits.js')).credits(args);
        return 0;
      case 'secrets':
        await (await import('./cli/secrets.js')).secretsCommand(args);
        return 0;
      case 'migrate':
        await (await import('./cli/migrate.js')).migrateCommand(args);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        // `svc help keys` is `svc keys --help`; anything else after help gets the whole text
        process.stdout.write(COMMANDS.has(args[0] ?? '') ? commandHelp(args[0]!) : `${HELP}\n`);
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
    if (
      err instanceof UsageError ||
      err instanceof ConfigError ||
      err instanceof StoreLockedError ||
      err instanceof StoreCorruptError
    ) {
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
