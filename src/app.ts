import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { createLogger, type Logger } from './core/log.js';
import { CursorCodec } from './core/pagination.js';
import { EVENTS, EVENT_INDEXES } from './events/events.js';
import { Dispatcher, WEBHOOK_INDEXES } from './webhooks/index.js';
import { API_KEYS, API_KEY_INDEXES } from './keys/keys.js';
import { EMBED_SESSIONS, EMBED_SESSION_INDEXES } from './embed/store.js';
import { MEMOIR_INDEXES } from './memoir/records.js';
import { bootstrapOperator, migrateOwners } from './accounts/accounts.js';
import { ACCOUNTS, ACCOUNT_INDEXES } from './accounts/records.js';
import { SESSIONS, SESSION_INDEXES, SessionAuthority, USERS, USER_INDEXES } from './accounts/sessions.js';
import { tenantCollections } from './accounts/tenancy.js';
import { MemoryRateLimiter } from './keys/limiter.js';
import { DocsIndex } from './docs/search.js';
import { ContractEngine } from './contracts/engine.js';
import { defaultJurisdictions } from './law/jurisdictions.js';
import { TOOLS } from './tools/index.js';
import { CREDIT_INDEXES } from './credits/records.js';
import { settleReloads } from './credits/autoreload.js';
import { openLowdbStore, type Store } from './store/index.js';
import type { Services } from './tools/define.js';

/** Indexed fields of every collection, declared by the domains that own them. */
export const STORE_INDEXES: Record<string, string[]> = {
  [API_KEYS]: API_KEY_INDEXES,
  [ACCOUNTS]: ACCOUNT_INDEXES,
  [USERS]: USER_INDEXES,
  [SESSIONS]: SESSION_INDEXES,
  [EVENTS]: EVENT_INDEXES,
  [EMBED_SESSIONS]: EMBED_SESSION_INDEXES,
  ...WEBHOOK_INDEXES,
  ...MEMOIR_INDEXES,
  ...CREDIT_INDEXES,
};

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
}

/** Opens the store and everything handlers need. Close with `closeServices`. */
export async function openServices(config: Config, opts: OpenOptions = {}): Promise<Services> {
  const log = opts.log ?? createLogger(config.logLevel);
  const clock = opts.clock ?? systemClock;
  const store = await openLowdbStore({ dataDir: config.dataDir, indexes: STORE_INDEXES });
  try {
    const secrets = await serverSecrets(store);
    const migrated = await migrateOwners(store, clock, [...tenantCollections().entries()].filter(([, f]) => f === 'ownerId').map(([c]) => c));
    if (migrated > 0) log.info({ records: migrated }, 'gave every record an account (data from before accounts existed)');
    if (opts.bootstrap) {
      const created = await bootstrapOperator(store, clock);
      if (created) {
        // Printed once, on stderr, by design (DECISIONS.md): only the hash is stored.
        process.stderr.write(
          `\nCreated the first API key (internal tier, scope "all"). It is shown only this once; store it safely:\n\n  ${created.key}\n\n` +
            `Use it as "Authorization: Bearer <key>" or as SVC_API_KEY for \`svc mcp\`. Make more with \`svc keys create\`.\n\n`,
        );
      }
    }
    const limiter = new MemoryRateLimiter();
    return {
      config,
      store,
      clock,
      log,
      cursors: new CursorCodec(secrets.cursorSecret),
      limiter,
      sessions: new SessionAuthority(store, clock, limiter, secrets.sessionSecret, config.sessions),
      docs: DocsIndex.load(TOOLS),
      jurisdictions: defaultJurisdictions(),
      contracts: new ContractEngine(),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** Starts the webhook dispatcher: it delivers every pending delivery, including those left by an earlier run. */
export function startDispatcher(services: Services): Dispatcher {
  const dispatcher = new Dispatcher({ store: services.store, clock: services.clock, log: services.log, allow: services.config.webhookAllow });
  dispatcher.start();
  return dispatcher;
}

export async function closeServices(services: Services): Promise<void> {
  // Automatic reloads being charged record their outcome before the store closes.
  await settleReloads();
  await services.contracts.close();
  await services.store.close();
}
