/** The options of openPostgresStore. */
import type { StoreOptions } from '../port.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Schema holding the tables (created when missing). Default `public`. */
  schema?: string;
  /** Indexed fields per collection, used by findBy/idsBy/claim. Unindexed fields are an error. */
  indexes?: StoreOptions['indexes'];
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long opening a connection to the server may take before StoreUnavailableError. Default 5000 ms. */
  connectTimeoutMs?: number;
  /**
   * How long a transaction may wait for a free connection of the pool (all busy) before StoreUnavailableError.
   * Default 30 000 ms. Apart from connectTimeoutMs: a busy pool is not an unreachable server.
   */
  queueTimeoutMs?: number;
  /**
   * A statement without an answer after this long fails the transaction with StoreUnavailableError and its connection
   * is dropped (a stalled server or a network partition without a reset would otherwise hold the request forever).
   * Default 30 000 ms.
   */
  queryTimeoutMs?: number;
  /**
   * Attempts of a transaction that keeps hitting serialization conflicts. Default 20: with 20 transactions at once
   * on one row without pause (bench/engines.ts), 10 attempts let about 2% give up, 20 none.
   */
  maxAttempts?: number;
  /** Shown in pg_stat_activity. Default `svc`. */
  applicationName?: string;
  /** Apply missing migrations at open (default true); when false, a schema that is behind is refused. */
  migrate?: boolean;
  /** Send a transaction's statements without waiting for each answer (pg's pipeline mode). Default true. */
  pipeline?: boolean;
  /** Send the store's statements as named ones, parsed and planned once per connection (./statements.ts). Default true. */
  preparedStatements?: boolean;
  /**
   * How long a claim in turns waits for its index to be built (the first claim after an upgrade, ./tables.ts) before
   * it claims oldest first instead, the build going on. Default 10 000 ms.
   */
  turnIndexWaitMs?: number;
}
