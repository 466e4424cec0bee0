// What the command modules share: strict option parsing, the errors main() turns into exit codes, and the
// administrative commands' way of working offline on the store or through a running server.
import { parseArgs } from 'node:util';
import { loadConfig, type ConfigFlags } from '../core/config.js';
import { systemClock } from '../core/clock.js';
import type { Principal } from '../accounts/principal.js';
import { isScope, type Scope } from '../accounts/scopes.js';
import { StoreLockedError } from '../store/port.js';
import type { Services } from '../tools/define.js';

/** A bad command line: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {}

/** A command that could not do its work (e.g. the database cannot be reached): one line on stderr, exit code 1. */
export class CommandError extends Error {}

const SHARED_OPTIONS = {
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses options strictly; the values are strings or booleans, checked by the caller. */
export function parse(args: string[], options: OptionSpec): { values: Record<string, string | boolean | undefined> } {
  try {
    const { values } = parseArgs({
      args,
      options: { ...options, ...SHARED_OPTIONS },
      strict: true,
      allowPositionals: false,
    });
    return { values: values as Record<string, string | boolean | undefined> };
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

export function waitForSignal(): Promise<string> {
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

export function parseScopes(raw: string | undefined): Scope[] {
  if (!raw) throw new UsageError('--scopes is required, e.g. --scopes contracts,webhooks');
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length || scopes.length === 0) throw new UsageError(`unknown scope(s): ${bad.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

export const ADMIN_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * Runs an administrative command on the store when the data directory is free,
 * or through the running server's API when `svc serve` holds it.
 */
export async function adminRun(
  values: Record<string, string | boolean | undefined>,
  offline: (services: Services, operator: Principal) => Promise<void>,
  online: (url: string, apiKey: string) => Promise<void>,
): Promise<void> {
  const config = loadConfig(values as ConfigFlags);
  const [{ openServices, closeServices }, { createLogger }, { operatorPrincipal, runningServerUrl }] =
    await Promise.all([import('../app.js'), import('../core/log.js'), import('../admin.js')]);
  let services: Services;
  try {
    services = await openServices(config, { log: createLogger('warn'), tools: [] });
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    const url = await runningServerUrl(config.dataDir, values.url as string | undefined);
    if (!url)
      throw new UsageError(`${err.message}; pass --url with the running server's address to act through its API`);
    const apiKey = config.apiKey;
    if (!apiKey) {
      throw new UsageError(
        `the service is running on ${config.dataDir}; set SVC_API_KEY (or --api-key) to an internal key to act through its API at ${url}`,
      );
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

export function print(values: Record<string, unknown>, json: unknown, text: string): void {
  process.stdout.write(values.json ? JSON.stringify(json) + '\n' : text);
}

/** Every page of an offset-paged list from the running server. */
export async function allPages<T>(url: string, apiKey: string, route: string): Promise<T[]> {
  const { callApi } = await import('../admin.js');
  const items: T[] = [];
  for (let page = 1; page < 10_000; page++) {
    const { data, meta } = await callApi(url, apiKey, 'GET', `${route}?page=${page}&limit=100`);
    items.push(...(data as T[]));
    if (!(meta.pagination as { hasNext?: boolean } | undefined)?.hasNext) break;
  }
  return items;
}
