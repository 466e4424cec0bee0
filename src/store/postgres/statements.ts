/**
 * Named (prepared) statements for the store's queries. Sent unnamed, every statement is parsed and planned again on
 * each call: for the claim in turns (./claim-turns.ts, a recursive query) planning was nine tenths of its time on the
 * server, and for the store's short reads and writes about two thirds. Named, a connection parses a statement once,
 * and the server keeps its plan (a generic one, once it costs no more than the custom plans: PostgreSQL's
 * `plan_cache_mode`). pg keeps the names a connection has prepared; the server drops them with the connection.
 *
 * A statement's name is derived from its text, so one name always means one text. The texts are built from table
 * and field names and parameter numbers, never from values: a store has a few dozen per collection. Past
 * MAX_NAMED distinct texts in a process (a bug, or a store with thousands of collections), further texts are sent
 * unnamed rather than prepared on every connection without bound.
 *
 * `preparedStatements: false` (SVC_DATABASE_PREPARED=0) sends every statement unnamed: for a connection pooler in
 * transaction mode that does not follow prepared statements from one server connection to another.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct statement texts named in one process. */
export const MAX_NAMED = 2000;

/** The names given so far, up to `max` texts. */
export class StatementNames {
  readonly #names = new Map<string, string>();
  constructor(readonly max = MAX_NAMED) {}

  /** The query to send for `text` with `values`: named when `prepared`, within `max` texts. */
  statement(text: string, values: unknown[], prepared: boolean): pg.QueryConfig {
    if (!prepared) return { text, values };
    let name = this.#names.get(text);
    if (name === undefined) {
      if (this.#names.size >= this.max) return { text, values };
      name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.#names.set(text, name);
    }
    return { name, text, values };
  }
}

const processNames = new StatementNames();

/** The query to send for `text` with `values`: named when `prepared`, within MAX_NAMED texts in the process. */
export function statement(text: string, values: unknown[], prepared: boolean): pg.QueryConfig {
  return processNames.statement(text, values, prepared);
}
