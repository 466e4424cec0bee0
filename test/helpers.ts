import { svcNodeFlags } from '../bench/util.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { closeServices, openServices, STORE_INDEXES } from '../src/app.js';
import { loadConfig, type Config } from '../src/core/config.js';
import { createLogger, type Logger } from '../src/core/log.js';
import type { Clock } from '../src/core/clock.js';
import { buildApp } from '../src/http/app.js';
import { openLowdbStore, type Store } from '../src/store/index.js';
import { rememberStore } from './support/session.js';
import type { NewKey } from '../src/keys/keys.js';
import { createKey } from '../src/keys/provision.js';
import type { AnyTool, Services } from '../src/tools/define.js';
import { TOOLS } from '../src/tools/index.js';
import { systemClock } from '../src/core/clock.js';
import { ACCOUNTS, newAccount, type AccountKind } from '../src/accounts/records.js';
import { ContractEngine } from '../src/contracts/engine.js';
import type { Tier } from '../src/accounts/scopes.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const SVC_BIN = path.join(REPO_ROOT, 'bin', 'svc.js');
/**
 * Node's arguments for running the `svc` program as its command does: the flags of bin/svc.js's first line (V8's
 * young generation capped, test/cli/node-flags.test.ts), then the program and `args`. Spawned as plain
 * `node bin/svc.js`, the tests ran a runtime other than the users', and a `svc serve` start took some 0.1 s more CPU
 * (1.865 against 1.77 s, medians of ten alternating starts to listening).
 */
export function svcArgs(...args: string[]): string[] {
  return [...SVC_NODE_FLAGS, SVC_BIN, ...args];
}
const SVC_NODE_FLAGS = svcNodeFlags(SVC_BIN);
/**
 * The master key (base64) of test instances sharing PostgreSQL, which need one configured (SVC_MASTER_KEY); the
 * embedded store's tests let the service create its key file in the data directory.
 */
export const TEST_MASTER_KEY = Buffer.alloc(32, 0x33).toString('base64');

export async function tmpDir(
  prefix = 'svc-test-',
  base = os.tmpdir(),
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(base, prefix));
  // A stopped `svc` may still be closing its store (the lowdb journal's last compaction writes and renames a file)
  // while the directory is removed: rm tries again a few times on ENOTEMPTY/EBUSY instead of failing the file.
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}

/** A lowdb store with the service's indexes in a fresh directory, and what closes and removes it. */
export async function tmpStore(
  prefix = 'svc-test-store-',
): Promise<{ store: Store; dir: string; cleanup: () => Promise<void> }> {
  const dir = await tmpDir(prefix);
  const store = await openLowdbStore({ dataDir: dir.dir, indexes: STORE_INDEXES });
  return {
    store,
    dir: dir.dir,
    cleanup: async () => {
      await store.close();
      await dir.cleanup();
    },
  };
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  /** An internal key with scope `all`. */
  adminKey: string;
  /** Makes another key in the same store (in an account of its own unless `ownerId` names one). */
  key(input: Partial<NewKey>): Promise<string>;
  /** Makes an account and returns its id. */
  account(input?: { tier?: Tier; name?: string; kind?: AccountKind }): Promise<string>;
  close(): Promise<void>;
}

/**
 * The contract engine the test servers of this process share (a worker runs its files one after another, sharing
 * loaded modules). A fresh engine costs about 5 s of CPU to start its workers (solc in each, the VM, the TON sandbox,
 * the Rust parser) and again for each server that generates a contract; shared, they start once per process. Closing
 * a server leaves it running: its idle workers are unref'd and end with the process.
 */
class SharedEngine extends ContractEngine {
  override async close(): Promise<void> {}
}
let sharedEngine: ContractEngine | undefined;

/**
 * A real server on 127.0.0.1 (random port) over a fresh data directory. It uses the process's shared contract engine
 * unless the configuration sets the queue wait (an engine of its own then) or `ownEngine` asks for one.
 */
export async function startTestServer(
  opts: {
    tools?: readonly AnyTool[];
    config?: Partial<Config>;
    listen?: boolean;
    clock?: Clock;
    log?: Logger;
    ownEngine?: boolean;
  } = {},
): Promise<TestServer> {
  const { dir, cleanup } = await tmpDir();
  const config = { ...loadConfig({ 'data-dir': dir }, {}), ...opts.config };
  if (config.databaseUrl && !config.masterKey) config.masterKey = { value: TEST_MASTER_KEY };
  const shared = !opts.ownEngine && opts.config?.queueWaitMs === undefined;
  const services = await openServices(config, {
    ...(shared ? { contracts: (sharedEngine ??= new SharedEngine()) } : {}),
    log: opts.log ?? createLogger('silent'),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const app = await buildApp(services, opts.tools ?? TOOLS);
  // Read when called: a test may replace the session authority after the start.
  rememberStore(app, services.store, () => services.sessions.email.settled());
  let url = '';
  if (opts.listen !== false) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr && typeof addr === 'object') url = `http://127.0.0.1:${addr.port}`;
  } else {
    await app.ready();
  }
  const key = async (input: Partial<NewKey>) =>
    (
      await createKey(
        services.store,
        { name: 'test', tier: 'internal', scopes: ['all'], ...input },
        opts.clock ?? systemClock,
      )
    ).key;
  const adminKey = await key({});
  const account = async (input: { tier?: Tier; name?: string; kind?: AccountKind } = {}) => {
    const record = newAccount(
      { name: input.name ?? 'test account', tier: input.tier ?? 'partner', kind: input.kind ?? 'customer' },
      opts.clock ?? systemClock,
    );
    await services.store.put(ACCOUNTS, record);
    return record.id;
  };
  return {
    url,
    app,
    services,
    dataDir: dir,
    adminKey,
    key,
    account,
    close: async () => {
      await app.close();
      await closeServices(services);
      await cleanup();
    },
  };
}

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(public ms: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
