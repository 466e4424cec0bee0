/** Engine selection (SVC_DATABASE_URL, SVC_REDIS_URL) and what instances share through the store. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { checkHealth } from '../../src/core/health.js';
import { createLogger } from '../../src/core/log.js';
import { TEST_MASTER_KEY, tmpDir } from '../helpers.js';
import { randomSchema, testDatabaseUrl, testRedisUrl } from '../support/engines.js';

describe('configuration of the engines', () => {
  it('reads the URLs, the schema and the prefix, and refuses malformed ones with a clear message', () => {
    const c = loadConfig(
      {},
      {
        SVC_DATABASE_URL: 'postgres://u@h:5432/db',
        SVC_DATABASE_SCHEMA: 'svc_a',
        SVC_REDIS_URL: 'redis://h:6379',
        SVC_REDIS_PREFIX: 'x:',
      },
    );
    expect(c).toMatchObject({
      databaseUrl: 'postgres://u@h:5432/db',
      databaseSchema: 'svc_a',
      redisUrl: 'redis://h:6379',
      redisPrefix: 'x:',
    });
    const none = loadConfig({}, {});
    expect(none.databaseUrl).toBeUndefined();
    expect(none.redisUrl).toBeUndefined();
    expect(() => loadConfig({}, { SVC_DATABASE_URL: 'mysql://h/db' })).toThrow(
      /SVC_DATABASE_URL must be a PostgreSQL URL/,
    );
    expect(() => loadConfig({}, { SVC_REDIS_URL: 'http://h' })).toThrow(/SVC_REDIS_URL must be a Redis URL/);
    expect(() => loadConfig({}, { SVC_DATABASE_URL: 'postgres://h/db', SVC_DATABASE_SCHEMA: 'a-b; drop' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({}, { SVC_DATABASE_SCHEMA: 'svc' })).toThrow(/needs SVC_DATABASE_URL/);
    // Named statements by default; 0 for a pooler that cannot carry them from one server connection to another.
    expect(c.databasePrepared).toBe(true);
    expect(loadConfig({}, { SVC_DATABASE_URL: 'postgres://h/db', SVC_DATABASE_PREPARED: '0' }).databasePrepared).toBe(
      false,
    );
    expect(() => loadConfig({}, { SVC_DATABASE_PREPARED: 'off' })).toThrow(/SVC_DATABASE_PREPARED must be 1 or 0/);
    expect(() => loadConfig({}, { SVC_WEBHOOK_TIMEOUT_MS: '5000', SVC_WEBHOOK_LEASE_MS: '5500' })).toThrow(
      /SVC_WEBHOOK_LEASE_MS/,
    );
    expect(loadConfig({}, { SVC_WEBHOOK_TIMEOUT_MS: '2000', SVC_WEBHOOK_LEASE_MS: '4000' })).toMatchObject({
      webhookTimeoutMs: 2000,
      webhookLeaseMs: 4000,
    });
  });
});

describe('openServices with PostgreSQL and Redis', () => {
  let url: string;
  let redisUrl: string;
  let admin: pg.Client;
  let dir: Awaited<ReturnType<typeof tmpDir>>;
  const schema = randomSchema('svc_cfg');

  beforeAll(async () => {
    url = await testDatabaseUrl();
    redisUrl = await testRedisUrl();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    dir = await tmpDir('svc-cfg-');
  });

  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    await dir.cleanup();
  });

  it('opens two instances on one data directory without a lock, sharing records and secrets', async () => {
    const env = {
      SVC_DATA_DIR: path.join(dir.dir, 'same'),
      SVC_DATABASE_URL: url,
      SVC_DATABASE_SCHEMA: schema,
      SVC_REDIS_URL: redisUrl,
      SVC_REDIS_PREFIX: `${schema}:`,
      SVC_MASTER_KEY: TEST_MASTER_KEY,
    };
    const config = loadConfig({}, env);
    const log = createLogger('silent');
    const [one, two] = await Promise.all([
      openServices(config, { log, bootstrap: false }),
      openServices(config, { log, bootstrap: false }),
    ]);
    try {
      expect(existsSync(path.join(config.dataDir, 'svc.lock'))).toBe(false);
      expect(await checkHealth(one.store, one.limiter)).toEqual({
        status: 'ok',
        store: { engine: 'postgres', status: 'ok' },
        limiter: { engine: 'redis', status: 'ok' },
      });
      // A session made through one instance is valid on the other: the signing secret is shared through the store.
      await one.sessions.register({ email: `a-${schema}@example.com`, password: 'correct horse battery' });
      const made = await one.sessions.login(
        { email: `a-${schema}@example.com`, password: 'correct horse battery' },
        '127.0.0.1',
      );
      const seen = await two.sessions.authenticate(made.token);
      expect(seen.user.email).toBe(`a-${schema}@example.com`);
      // So are page cursors.
      expect(two.cursors.decode('list', one.cursors.encode('list', 'pos-42'))).toBe('pos-42');
    } finally {
      await closeServices(one);
      await closeServices(two);
    }
  });

  it('uses lowdb and the in-process limiter when no URL is set', async () => {
    const services = await openServices(loadConfig({}, { SVC_DATA_DIR: path.join(dir.dir, 'lowdb') }), {
      log: createLogger('silent'),
    });
    try {
      expect(await checkHealth(services.store, services.limiter)).toEqual({
        status: 'ok',
        store: { engine: 'lowdb', status: 'ok' },
        limiter: { engine: 'memory', status: 'ok' },
      });
      expect(existsSync(path.join(dir.dir, 'lowdb', 'svc.lock'))).toBe(true);
    } finally {
      await closeServices(services);
    }
  });
});
