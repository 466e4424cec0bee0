/**
 * The statements of a claim (see ClaimableStore in ../port.ts): select and lock the due records nobody else holds,
 * then merge a change into them.
 */
import type { ClaimQuery, Doc } from '../port.js';
import { quoteLiteral } from './migrations.js';
import { indexValueJson, UNSTORABLE_ESCAPE, unstorableError } from './records.js';

/** A statement and its bind values. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** The SQL condition that a record is due (see ClaimQuery.dueField), its bound being bind value `$n`. */
export function dueCondition(dueField: string, n: number): string {
  const d = `doc -> ${quoteLiteral(dueField)}`;
  return `CASE WHEN ${d} IS NULL OR jsonb_typeof(${d}) = 'null' THEN true WHEN jsonb_typeof(${d}) = 'number' THEN (${d})::numeric <= $${n}::numeric ELSE false END`;
}

/** Checks a claim's due bound: dueBefore must be a finite number when dueField is given. */
export function checkDue(q: ClaimQuery): void {
  if (q.dueField !== undefined && (typeof q.dueBefore !== 'number' || !Number.isFinite(q.dueBefore)))
    throw new TypeError('claim: dueBefore must be a finite number when dueField is given');
}

/** Selects and locks (`FOR UPDATE SKIP LOCKED`) up to q.limit records of table `q` matching the query, oldest first. */
export function lockClaimableSql(table: string, expr: string, q: ClaimQuery): Statement {
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new TypeError('claim: limit must be a positive integer');
  const values: unknown[] = [indexValueJson(q.value)];
  let due = '';
  checkDue(q);
  if (q.dueField !== undefined) {
    values.push(q.dueBefore);
    due = ` AND ${dueCondition(q.dueField, values.length)}`;
  }
  // The limit is a parameter: one statement text per claim, whatever the limit (prepared once: ./statements.ts).
  values.push(q.limit);
  return {
    text: `SELECT doc FROM ${table} WHERE ${expr} = $1::jsonb${due} ORDER BY seq LIMIT $${values.length}::int FOR UPDATE SKIP LOCKED`,
    values,
  };
}

/** The JSON text of a claim's `set` (its id left out), refused when jsonb cannot hold it. */
export function mergeJson(collection: string, set: Record<string, unknown>): string {
  const { id: _ignored, ...fields } = set;
  const json = JSON.stringify(fields);
  if (json.includes('\\u') && UNSTORABLE_ESCAPE.test(json)) throw unstorableError(collection, undefined, fields);
  return json;
}

/** Merges the JSON object `json` into the given records of table `table`, answering the updated records. */
export function mergeSql(table: string, ids: string[], json: string): Statement {
  return {
    text: `UPDATE ${table} SET doc = doc || $1::jsonb WHERE id = ANY($2::text[]) RETURNING doc`,
    values: [json, ids],
  };
}

/** The updated records in the order of `ids` (a record no longer there is left out). */
export function inOrderOf<T extends Doc>(ids: string[], rows: Array<{ doc: T }>): T[] {
  const byId = new Map(rows.map((r) => [r.doc.id, r.doc]));
  return ids.map((id) => byId.get(id)).filter((d): d is T => d !== undefined);
}
