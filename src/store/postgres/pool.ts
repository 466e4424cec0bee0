/**
 * The connection pools of the PostgreSQL store: one for transactions, and one connection apart for creating
 * collection tables (./tables.ts), so transactions waiting for a new table never starve the pool. An index built on a
 * table in use (CREATE INDEX CONCURRENTLY, which may run for minutes) gets a connection of its own from `connect`,
 * holding up neither, and ended when the store closes.
 */
import pg from 'pg';
import type { PostgresStoreOptions } from './options.js';

export function createPools(opts: PostgresStoreOptions): { pool: pg.Pool; ddl: pg.Pool; connect: () => pg.Client } {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const queryTimeoutMs = opts.queryTimeoutMs ?? 30_000;
  // pg-pool uses one connectionTimeoutMillis both for opening a connection and for waiting in its queue; under load
  // (many transactions, conflicts retried) the queue wait can pass a connect timeout meant for an unreachable server.
  // So the pool's setting is the queue wait, and the clients it makes get the connect timeout of their own.
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({
        ...(typeof config === 'string' ? { connectionString: config } : config),
        connectionTimeoutMillis: connectTimeoutMs,
        query_timeout: queryTimeoutMs,
      });
      // A connection the server terminates can emit 'error' more than once, also while the pool is discarding it and
      // nobody listens (pg-pool's query() listens once; a released broken client has no listener): without a listener
      // of its own, that second event would crash the process. Errors still reach the queries and listeners that wait
      // for them; this one only keeps them from being unhandled.
      this.on('error', () => undefined);
    }
  }
  const config: pg.PoolConfig = {
    connectionString: opts.url,
    connectionTimeoutMillis: opts.queueTimeoutMs ?? 30_000,
    application_name: opts.applicationName ?? 'svc',
    pipeline: opts.pipeline ?? true,
    Client: TimedClient,
  } as pg.PoolConfig;
  const pool = new pg.Pool({ ...config, max: opts.poolSize ?? 10 });
  const ddl = new pg.Pool({ ...config, pipeline: false, max: 1 } as pg.PoolConfig);
  // An idle connection that drops (server restart, network) is discarded by the pool and replaced on demand; the
  // error is reported to whichever request next needs the database, so it is not logged here.
  pool.on('error', () => undefined);
  ddl.on('error', () => undefined);
  const connect = () => new TimedClient({ connectionString: opts.url, application_name: config.application_name });
  return { pool, ddl, connect };
}
