/**
 * Claims that serve groups in turn (ClaimTurns in ../port.ts) on PostgreSQL, in two statements of the claim's
 * transaction:
 *
 * 1. List the groups: the distinct (first, second) value pairs among the matching records, by a skip scan of the
 *    compound index (field, first, second[, due], seq): each step is one index probe for the next pair, so listing
 *    costs the number of groups listed, not the number of records behind them. The scan starts after `after` and lists at most
 *    `PAIRS_PER_FIRST` pairs of one first-level value before it jumps to the next value; it wraps around to the start.
 * 2. Hand out turns (assignTurns, plain code): first-level values in turn, and within each its pairs in turn, one
 *    record per turn, as long as a pair has room and the claim's limit is not reached. Then lock each pair's quota of
 *    its first due records (`FOR UPDATE SKIP LOCKED`, again down the compound index). With a due field the index
 *    has it after the pair, (field, first, second, due, seq): a pair's due records are a range of it, earliest due
 *    first, and a pair whose records wait for a later retry costs one probe, not a read of all of them.
 *
 * Nothing is locked by the first statement, and the second locks no more than the limit: other instances skip only
 * what this one takes. A pair whose records are all locked or not yet due yields fewer than its quota: its turns go to
 * the other pairs listed, and when those run dry the claim lists further pairs (lockInTurns, at the end).
 */
import type { ClaimQuery, ClaimTurns, Doc, IndexValue } from '../port.js';
import { checkDue, type Statement } from './claim.js';
import { quoteLiteral } from './migrations.js';
import { indexValueJson } from './records.js';

/** At most this many second-level groups of one first-level value are listed by one claim. */
export const PAIRS_PER_FIRST = 8;
/** At most this many groups are listed by one listing, however large the claim's limit. */
export const MAX_PAIRS = 256;
/** At most this many listings (each wider than the last) by one claim still short of its limit. */
export const TURN_ROUNDS = 6;
/**
 * At most this many first-level values per listing get the extra listing of their groups past the one served last
 * (lockInTurns): one small index walk each. The others resume among the groups listed, this claim.
 */
export const RESUME_LISTINGS = 8;

/** A group: its first- and second-level values as the database returns them (JSON values). */
export interface Pair {
  first: unknown;
  second: unknown;
}

/** Refuses a claim in turns the statements below cannot run. */
export function checkTurns(q: ClaimQuery, turns: ClaimTurns): void {
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new TypeError('claim: limit must be a positive integer');
  const by = turns.by as unknown;
  if (!Array.isArray(by) || by.length !== 2 || !by.every((f) => typeof f === 'string' && f.length > 0))
    throw new TypeError('claim: turns.by must be two field names');
  if (turns.most !== undefined && (!Number.isInteger(turns.most) || turns.most < 1))
    throw new TypeError('claim: turns.most must be a positive integer');
  if (turns.resume !== undefined && !(turns.resume instanceof Map))
    throw new TypeError('claim: turns.resume must be a Map');
  checkDue(q);
}

/** How many groups a claim of `limit` records lists: enough that some may be locked or not due. */
export function pairsToList(limit: number): number {
  return Math.min(MAX_PAIRS, 4 * limit + 8);
}

/** The index expression of a grouping field: a missing field groups as JSON null, which sorts before any value. */
export function turnExpr(field: string): string {
  return `COALESCE(doc -> ${quoteLiteral(field)}, 'null'::jsonb)`;
}

/**
 * Lists up to `max` groups of records with `expr` = `value`, in index order, starting after the first-level value
 * `after` (from the first one when it is undefined), at most PAIRS_PER_FIRST per first-level value. Groups whose
 * second-level value is in `full` (no room left) are listed too but not counted: the scan goes on past them.
 * With `within`, the groups of one first-level value only (`within.first`), after the second-level value
 * `within.second`, up to `max` of them: the rest of a value whose listing was cut short.
 */
export function listPairsSql(
  table: string,
  expr: string,
  value: IndexValue,
  by: ClaimTurns['by'],
  after: unknown,
  max: number,
  full: unknown[],
  within?: Pair,
): Statement {
  const a = turnExpr(by[0]);
  const b = turnExpr(by[1]);
  let where = `${expr} = $1::jsonb`;
  const values: unknown[] = [indexValueJson(value), full.map((v) => JSON.stringify(v))];
  let start = '';
  if (within) {
    values.push(JSON.stringify(within.first));
    where += ` AND ${a} = $${values.length}::jsonb`;
    values.push(JSON.stringify(within.second));
    start = ` AND ${b} > $${values.length}::jsonb`;
  } else if (after !== undefined) {
    values.push(JSON.stringify(after));
    start = ` AND ${a} > $${values.length}::jsonb`;
  }
  values.push(within ? max : PAIRS_PER_FIRST, max);
  const per = values.length - 1;
  const most = values.length;
  const counts = (col: string) => `CASE WHEN ${col} = ANY($2::jsonb[]) THEN 0 ELSE 1 END`;
  // Each recursive step probes once: for the next pair of the same first-level value, or (once that value has given
  // PAIRS_PER_FIRST counted pairs) for the first pair of the next value. The step not taken is cut by its one-time
  // filter. n counts the listed pairs that have room, k those of the current first-level value.
  const text = `WITH RECURSIVE pairs(a, b, n, k) AS (
  SELECT f.a, f.b, ${counts('f.b')}, ${counts('f.b')} FROM
    (SELECT ${a} AS a, ${b} AS b FROM ${table} WHERE ${where}${start} ORDER BY ${a}, ${b} LIMIT 1) f
  UNION ALL
  SELECT q.a, q.b, p.n + ${counts('q.b')}, CASE WHEN q.a = p.a THEN p.k ELSE 0 END + ${counts('q.b')}
  FROM pairs p CROSS JOIN LATERAL (
    (SELECT ${a} AS a, ${b} AS b FROM ${table}
      WHERE p.k < $${per}::int AND ${where} AND (${a}, ${b}) > (p.a, p.b) ORDER BY ${a}, ${b} LIMIT 1)
    UNION ALL
    (SELECT ${a}, ${b} FROM ${table}
      WHERE p.k >= $${per}::int AND ${where} AND ${a} > p.a ORDER BY ${a}, ${b} LIMIT 1)
  ) q
  WHERE p.n < $${most}::int
)
SELECT a, b FROM pairs`;
  return { text, values };
}

/** A group's share of a claim: how many of its oldest due records to lock. */
export interface Quota extends Pair {
  count: number;
}

/** The key under which ClaimTurns.room names a second-level value. */
export function roomKey(second: unknown): string {
  return typeof second === 'string' ? second : JSON.stringify(second);
}

/**
 * Hands out up to `limit` turns over the listed groups (in listing order): first-level values in turn, within each
 * its groups in turn, one record per turn, a group never beyond its room (or `most`). A value's groups start with the
 * one listed after its group in `resume` (ClaimTurns.resume), if listed. Answers each group's count and the order of
 * the turns (indices into the quotas), which is the order the claimed records are returned in.
 */
export function assignTurns(
  pairs: Pair[],
  limit: number,
  room?: ReadonlyMap<string, number>,
  most = limit,
  resume?: ReadonlyMap<string, IndexValue>,
): { quotas: Quota[]; order: number[] } {
  const groups: Array<Quota & { left: number }> = [];
  const lines: Array<{ members: number[]; at: number }> = [];
  let previous: string | undefined;
  let resumeAfter: string | undefined;
  for (const p of pairs) {
    const first = JSON.stringify(p.first);
    if (first !== previous || lines.length === 0) {
      lines.push({ members: [], at: 0 });
      previous = first;
      const served = resume?.get(roomKey(p.first));
      resumeAfter = served === undefined ? undefined : roomKey(served);
    }
    const line = lines[lines.length - 1]!;
    const left = Math.min(limit, most, room?.get(roomKey(p.second)) ?? most);
    if (left > 0) {
      line.members.push(groups.length);
      groups.push({ first: p.first, second: p.second, count: 0, left });
    }
    // The groups listed after the one served last go first (`at` wraps round the members).
    if (resumeAfter !== undefined && roomKey(p.second) === resumeAfter) line.at = line.members.length;
  }
  const turns: number[] = [];
  let active = lines.filter((l) => l.members.length > 0);
  while (turns.length < limit && active.length > 0) {
    for (const l of active) {
      if (turns.length >= limit) break;
      const j = l.at % l.members.length;
      const g = l.members[j]!;
      groups[g]!.count++;
      turns.push(g);
      if (--groups[g]!.left === 0) {
        l.members.splice(j, 1);
        l.at = j;
      } else l.at = j + 1;
    }
    active = active.filter((l) => l.members.length > 0);
  }
  // Only the groups that got a turn are locked: renumber them in listing order.
  const renumbered = new Map<number, number>();
  const quotas: Quota[] = [];
  groups.forEach((g, i) => {
    if (g.count === 0) return;
    renumbered.set(i, quotas.length);
    quotas.push({ first: g.first, second: g.second, count: g.count });
  });
  return { quotas, order: turns.map((g) => renumbered.get(g)!) };
}

/**
 * The condition that a record's `dueField` is at most the number in parameter `$n` (a JSON number), as a range of
 * the index that has the field after the group. jsonb sorts null and strings before numbers: the range keeps both,
 * and the type check drops the strings (the port's rule: a missing or null due field is due, one that is not a number
 * never is).
 */
function dueRange(dueField: string, n: number): string {
  const d = turnExpr(dueField);
  return `${d} <= $${n}::jsonb AND jsonb_typeof(${d}) IN ('number', 'null')`;
}

/**
 * Locks each group's count of its first due records nobody else holds, other than `taken` (the ids this claim locked
 * already: its own locks do not make SKIP LOCKED pass over them): with a due field, the earliest due first and, among
 * records due at the same time, the oldest; without one, the oldest.
 */
export function lockTurnsSql(table: string, expr: string, q: ClaimQuery, quotas: Quota[], taken: string[]): Statement {
  const by = q.turns!.by;
  const a = turnExpr(by[0]);
  const b = turnExpr(by[1]);
  const values: unknown[] = [
    indexValueJson(q.value),
    quotas.map((x) => JSON.stringify(x.first)),
    quotas.map((x) => JSON.stringify(x.second)),
    quotas.map((x) => x.count),
    taken,
  ];
  // With a due field, a group's records come in the index's order after the group: due time, then insertion order.
  // Only the due ones are read (a range of the index), however many of the group's records wait for a later retry.
  let due = '';
  let key = 'NULL::jsonb';
  if (q.dueField !== undefined) {
    key = turnExpr(q.dueField);
    values.push(JSON.stringify(q.dueBefore));
    due = ` AND ${dueRange(q.dueField, values.length)}`;
  }
  const text = `SELECT x.doc, p.i FROM unnest($2::jsonb[], $3::jsonb[], $4::int[]) WITH ORDINALITY AS p(a, b, n, i)
CROSS JOIN LATERAL (
  SELECT doc, ${key} AS due, seq FROM ${table}
  WHERE ${expr} = $1::jsonb AND ${a} = p.a AND ${b} = p.b AND id <> ALL($5::text[])${due}
  ORDER BY ${key}, seq LIMIT p.n FOR UPDATE SKIP LOCKED
) x
ORDER BY p.i, x.due, x.seq`;
  return { text, values };
}

/** The locked records in the order of the turns: each turn takes its group's next record, if it got one. */
export function inTurnOrder<T extends Doc>(order: number[], rows: Array<{ doc: T; i: string | number }>): T[] {
  const byGroup = new Map<number, T[]>();
  for (const r of rows) {
    const i = Number(r.i) - 1;
    let list = byGroup.get(i);
    if (!list) byGroup.set(i, (list = []));
    list.push(r.doc);
  }
  const out: T[] = [];
  for (const i of order) {
    const next = byGroup.get(i)?.shift();
    if (next) out.push(next);
  }
  return out;
}

/** Sends one statement of the claim's transaction. */
type Run = (text: string, values: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;

/**
 * A claim serving groups in turn, in the claim's transaction (`run` sends one of its statements): list groups from
 * `after` on, hand out turns, lock each group's share; while that took fewer than the limit (groups whose records are
 * all locked or not due), list further, wider each time: first the rest of a first-level value whose listing was cut
 * (it had PAIRS_PER_FIRST groups, or the listing's end fell within it), so that an account's later groups are reached
 * when its first ones have nothing to give, then the next values, until the listing has come round to where it
 * started. Answers the records and, when the claim is short of its limit and did not come round, the last first-level
 * value it reached (ClaimReach in ../port.ts). The caller has checked the request (checkTurns) and made the index.
 */
export async function lockInTurns<T extends Doc>(
  run: Run,
  table: string,
  expr: string,
  q: ClaimQuery,
  turns: ClaimTurns,
): Promise<{ claimed: T[]; reached: IndexValue | undefined }> {
  const full = [...(turns.room ?? [])].filter(([, n]) => n <= 0).map(([v]) => v);
  const list = async (after: unknown, max: number, within?: Pair): Promise<Pair[]> => {
    const { text, values } = listPairsSql(table, expr, q.value, turns.by, after, max, full, within);
    const res = await run(text, values);
    return res.rows.map((r) => ({ first: r.a, second: r.b }));
  };
  const fullKeys = new Set(full.map(roomKey));
  /** How many of a listing's groups have room: fewer than asked means the listing reached the last value. */
  const counted = (pairs: Pair[]) => pairs.filter((p) => !fullKeys.has(roomKey(p.second))).length;
  /** Room left per group, as this claim takes records (starting from turns.room; turns.most for the others). */
  const room = new Map(turns.room);
  const claimed: T[] = [];
  /** Groups listed so far: meeting one again means the listing went all the way round. */
  const listed = new Set<string>();
  /** First-level values whose listing stopped before their last group, each with the last group listed. */
  const cut = new Map<string, Pair>();
  const cutAt = (p: Pair) => cut.set(JSON.stringify(p.first), p);
  let from: unknown = turns.after;
  let wrapped = from === undefined;
  /** The listing from `after` has come round to where it started. */
  let cameRound = false;
  /**
   * A value the listing cut whose group served last (turns.resume) was not listed lies further on, or was its last one
   * listed: its groups after that one are listed too and put first, so that from claim to claim the value's turns go
   * round all its groups, not only the first PAIRS_PER_FIRST.
   */
  const resumeBeyond = async (pairs: Pair[], cutValues: Pair[]): Promise<Pair[]> => {
    let out = pairs;
    for (const { first, second: last } of cutValues.slice(0, RESUME_LISTINGS)) {
      const served = turns.resume?.get(roomKey(first));
      if (served === undefined) continue;
      const value = JSON.stringify(first);
      // Listed before the value's last listed group: assignTurns starts after it.
      const shown = out.some((p) => JSON.stringify(p.first) === value && roomKey(p.second) === roomKey(served));
      if (shown && roomKey(last) !== roomKey(served)) continue;
      const after = await list(undefined, PAIRS_PER_FIRST, { first, second: served });
      const unlisted = after.filter((p) => !listed.has(pairKey(p)));
      if (unlisted.length === 0) continue;
      for (const p of unlisted) listed.add(pairKey(p));
      const at = out.findIndex((p) => JSON.stringify(p.first) === value);
      out = [...out.slice(0, at), ...unlisted, ...out.slice(at)];
    }
    return out;
  };
  /** The last first-level value a listing from `after` on reached (the listing in order, not a cut value's rest). */
  let reached: unknown;
  for (let round = 0; claimed.length < q.limit && round < TURN_ROUNDS; round++) {
    const max = Math.min(MAX_PAIRS, pairsToList(q.limit - claimed.length) * 2 ** round);
    let fresh: Pair[] = [];
    // The rest of a value cut short, first; one that has nothing more does not take the round.
    while (round > 0 && cut.size > 0 && fresh.length === 0) {
      const [value, last] = cut.entries().next().value!;
      cut.delete(value);
      const pairs = await list(undefined, max, last);
      for (const p of pairs) {
        const key = pairKey(p);
        if (listed.has(key)) continue;
        listed.add(key);
        fresh.push(p);
      }
      // If it fills this listing too, it may have more still.
      if (counted(pairs) >= max) cutAt(pairs.at(-1)!);
    }
    if (fresh.length === 0) {
      if (cameRound) break;
      let pairs = await list(from, max);
      let end = counted(pairs) < max;
      if (end && !wrapped) {
        // The listing reached the last value: go on from the first.
        wrapped = true;
        const more = await list(undefined, max - counted(pairs));
        end = counted(more) < max - counted(pairs);
        pairs = pairs.concat(more);
      }
      for (const p of pairs) {
        const key = pairKey(p);
        if (listed.has(key)) {
          end = true;
          break;
        }
        listed.add(key);
        fresh.push(p);
      }
      const cutValues = cutByCap(fresh, fullKeys);
      for (const p of cutValues) cutAt(p);
      fresh = await resumeBeyond(fresh, cutValues);
      // A listing that reached its size may have stopped within its last value.
      if (!end && fresh.length > 0) cutAt(fresh.at(-1)!);
      cameRound = end;
      if (fresh.length > 0) reached = from = fresh.at(-1)!.first;
    }
    if (fresh.length > 0) await lockListed(run, table, expr, q, fresh, room, claimed);
  }
  // Short of the limit without coming round: every group up to `reached` had its turns, and the next claim should
  // start after it, not after the last value served (behind which the same dry groups would be listed again, and the
  // groups past them never reached while the first value kept something due).
  return { claimed, reached: claimed.length < q.limit && !cameRound ? (reached as IndexValue | undefined) : undefined };
}

const pairKey = (p: Pair) => JSON.stringify([p.first, p.second]);

/**
 * The last group listed of each first-level value that PAIRS_PER_FIRST cut: its groups with room reached that
 * number, and the scan jumped to the next value.
 */
function cutByCap(pairs: Pair[], fullKeys: Set<string>): Pair[] {
  const out: Pair[] = [];
  let k = 0;
  pairs.forEach((p, i) => {
    const value = JSON.stringify(p.first);
    if (i > 0 && JSON.stringify(pairs[i - 1]!.first) !== value) k = 0;
    if (!fullKeys.has(roomKey(p.second))) k++;
    const next = pairs[i + 1];
    if (k >= PAIRS_PER_FIRST && (!next || JSON.stringify(next.first) !== value)) out.push(p);
  });
  return out;
}

/**
 * Hands out the claim's remaining turns over listed groups and locks their shares; a group that yields fewer records
 * than its share has none left that are due and free, and its unused turns go to the others, until the claim is
 * full or every listed group is dry or out of room.
 */
async function lockListed<T extends Doc>(
  run: Run,
  table: string,
  expr: string,
  q: ClaimQuery,
  listed: Pair[],
  room: Map<string, number>,
  claimed: T[],
): Promise<void> {
  const most = q.turns?.most ?? q.limit;
  let pool = listed;
  let probed = false;
  while (claimed.length < q.limit && pool.length > 0) {
    const { quotas, order } = assignTurns(pool, q.limit - claimed.length, room, most, q.turns?.resume);
    if (quotas.length === 0) return;
    const { text, values } = lockTurnsSql(
      table,
      expr,
      q,
      quotas,
      claimed.map((d) => d.id),
    );
    const res = await run(text, values);
    const rows = res.rows as Array<{ doc: T; i: string }>;
    claimed.push(...inTurnOrder(order, rows));
    const dry = new Set<string>();
    const taken = new Map<number, number>();
    for (const r of rows) taken.set(Number(r.i) - 1, (taken.get(Number(r.i) - 1) ?? 0) + 1);
    quotas.forEach((quota, i) => {
      const key = roomKey(quota.second);
      const n = taken.get(i) ?? 0;
      room.set(key, (room.get(key) ?? most) - n);
      if (n < quota.count) dry.add(JSON.stringify([quota.first, quota.second]));
    });
    pool = pool.filter((p) => !dry.has(JSON.stringify([p.first, p.second])));
    if (dry.size > 0 && !probed && q.dueField !== undefined && pool.length > q.limit - claimed.length) {
      // Some groups had nothing due: rather than one lock statement per turn for each of the others that has none
      // either (a claim of one turn at a time, through hundreds of subscriptions in retry back-off), one statement
      // finds which of them have a record due, and the turns go to those.
      probed = true;
      const probe = duePairsSql(table, expr, q, pool);
      const due = await run(probe.text, probe.values);
      const keep = new Set(due.rows.map((r) => Number(r.i) - 1));
      pool = pool.filter((_, i) => keep.has(i));
    }
  }
}

/**
 * Which of the groups have a record due, whoever holds it (the answer is a hint: a claim locks what it takes after):
 * the ordinal (from 1) of each, one index probe per group, nothing locked.
 */
export function duePairsSql(table: string, expr: string, q: ClaimQuery, pairs: Pair[]): Statement {
  const by = q.turns!.by;
  const a = turnExpr(by[0]);
  const b = turnExpr(by[1]);
  const text = `SELECT p.i FROM unnest($2::jsonb[], $3::jsonb[]) WITH ORDINALITY AS p(a, b, i)
WHERE EXISTS (
  SELECT 1 FROM ${table} WHERE ${expr} = $1::jsonb AND ${a} = p.a AND ${b} = p.b AND ${dueRange(q.dueField!, 4)}
)`;
  const values = [
    indexValueJson(q.value),
    pairs.map((x) => JSON.stringify(x.first)),
    pairs.map((x) => JSON.stringify(x.second)),
    JSON.stringify(q.dueBefore),
  ];
  return { text, values };
}
