/**
 * The access revision: a number that moves whenever a record of a collection credentials are checked against (API
 * keys, accounts) is written or deleted, through any code path and on any instance. Admission caches what it read of
 * a key and its account under the revision it saw, and reads only the revision on the next request: an unchanged
 * revision means nothing it cached can have changed (docs/architecture.md, "Admission and its key cache").
 *
 * The adapters keep it where every writer sees it:
 * - lowdb (one process owns the data file): a counter in memory, moved when a transaction's writes are applied, so
 *   a reader never sees the new revision before the new records;
 * - PostgreSQL: the row `access` of the table `svc_revisions`, moved by the same transaction that writes the
 *   records, so it commits (or not) with them and every instance reads it.
 *
 * The port names it (`RevisionedStore`, `isRevisioned` in ./port.ts); a store without it (a test double, a wrapper)
 * has no revision, and admission then reads the records every time.
 */

/**
 * The collections whose writes move the revision. Named here, in the store layer, rather than declared by the
 * domains at load time: a process that writes keys without loading admission (an operator command) must still move
 * it. test/access/key-cache.test.ts checks the names against the keys and accounts modules.
 */
export const REVISIONED_COLLECTIONS: ReadonlySet<string> = new Set(['api_keys', 'accounts']);

/** Whether a write to any of these collections moves the revision. */
export function movesRevision(collections: Iterable<string>): boolean {
  for (const c of collections) if (REVISIONED_COLLECTIONS.has(c)) return true;
  return false;
}

/** The PostgreSQL table and row holding the revision (created by migration 2, src/store/postgres/migrations.ts). */
export const REVISION_TABLE = 'svc_revisions';
export const ACCESS_REVISION_ROW = 'access';
