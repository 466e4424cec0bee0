/**
 * Administration from the command line, whether or not the service is running.
 *
 * When the data directory is free, the command opens the store itself and acts
 * as the operator. When a running `svc serve` holds it (the store is locked),
 * the command goes through that server's REST API instead, with an internal
 * key from SVC_API_KEY (or --api-key): the server wrote its address to
 * `<data-dir>/svc.server.json` when it started listening (or pass --url).
 * Either way the same domain rules apply, and a user never has to stop the
 * service to add a customer.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Principal } from './accounts/principal.js';
import { operatorAccount } from './accounts/accounts.js';
import type { Store } from './store/port.js';
import type { Clock } from './core/clock.js';

export const SERVER_FILE = 'svc.server.json';

/**
 * Records where a running server listens, for the command line (removed on shutdown). Written beside and renamed
 * into place, so a reader never sees a half-written file.
 */
export async function writeServerFile(dataDir: string, url: string): Promise<void> {
  const target = path.join(dataDir, SERVER_FILE);
  const partial = `${target}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify({ url, pid: process.pid }) + '\n', { mode: 0o600 });
  await rename(partial, target);
}

export async function removeServerFile(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, SERVER_FILE), { force: true });
}

/** The URL of the server holding the data directory, from --url or its server file. */
export async function runningServerUrl(dataDir: string, flag: string | undefined): Promise<string | undefined> {
  if (flag) return flag.replace(/\/+$/, '');
  try {
    const info = JSON.parse(await readFile(path.join(dataDir, SERVER_FILE), 'utf8')) as { url?: unknown };
    return typeof info.url === 'string' ? info.url : undefined;
  } catch {
    return undefined;
  }
}

/** The operator, as the command line acts when it holds the store itself. */
export async function operatorPrincipal(store: Store, clock: Clock): Promise<Principal> {
  const operator = await store.transact((tx) => operatorAccount(tx, clock));
  return {
    kind: 'key',
    ownerId: operator.id,
    tier: 'internal',
    scopes: ['all'],
    keyId: 'cli',
    expiresAt: null,
    ipWhitelist: [],
  };
}

export class ApiCallError extends Error {
  override name = 'ApiCallError';
}

/** One call to the running server's REST API; resolves with the envelope's data (and meta), or throws its error as one line. */
export async function callApi(
  base: string,
  apiKey: string,
  method: 'GET' | 'POST' | 'PATCH',
  route: string,
  body?: unknown,
): Promise<{ data: unknown; meta: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(base + route, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new ApiCallError(`cannot reach the running server at ${base}: ${(err as Error).message}`);
  }
  const json = (await res.json().catch(() => undefined)) as
    | {
        success: boolean;
        data?: unknown;
        meta?: Record<string, unknown>;
        error?: { code: string; message: string; details?: Array<{ field: string; reason: string }> };
      }
    | undefined;
  if (!json) throw new ApiCallError(`the server at ${base} answered ${res.status} without a JSON body`);
  if (!json.success) throw new ApiCallError(apiErrorText(json.error ?? {}));
  return { data: json.data, meta: json.meta ?? {} };
}

/** An error envelope's error on one line, as the command line prints it: code, message, then each detail. */
export function apiErrorText(error: {
  code?: string;
  message?: string;
  details?: ReadonlyArray<{ field: string; reason: string }> | undefined;
}): string {
  const details = error.details?.map((d) => `${d.field}: ${d.reason}`).join('; ');
  return `${error.code}: ${error.message}${details ? ` (${details})` : ''}`;
}

/**
 * `svc migrate`: applies the PostgreSQL store's missing migrations to SVC_DATABASE_URL (schema SVC_DATABASE_SCHEMA,
 * default public) and says what it did. Safe while instances run and from several places at once (advisory lock).
 * Rejects with SchemaTooNewError when the schema was migrated by a newer svc.
 */
export async function migrateDatabase(url: string, schema: string | undefined): Promise<string> {
  const { migrate, LATEST_VERSION } = await import('./store/postgres/index.js');
  const name = schema ?? 'public';
  const result = await migrate(url, name);
  if (result.applied.length === 0)
    return `Schema "${name}" is up to date (migration ${result.version} of ${LATEST_VERSION}); nothing to apply.\n`;
  return `Applied migration${result.applied.length > 1 ? 's' : ''} ${result.applied.join(', ')} to schema "${name}"; it is now at migration ${result.version}.\n`;
}
