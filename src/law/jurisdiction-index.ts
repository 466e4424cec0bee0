import { foldArabicLetters } from '../core/arabic-letters.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import type { Jurisdiction } from './jurisdiction-schema.js';

/** Lookup of loaded jurisdictions: by id or alias, by filter, and fuzzy suggestions for unknown names. */

export interface JurisdictionFilter {
  region?: string | undefined;
  legalSystem?: string | undefined;
  forcedHeirship?: boolean | undefined;
}

export interface JurisdictionIndex {
  /** Every jurisdiction, sorted by id. */
  all(): Jurisdiction[];
  /** By id or alias, case- and accent-insensitive; undefined when unknown. */
  get(idOrAlias: string): Jurisdiction | undefined;
  /** Like get, but throws ApiError NOT_FOUND with close matches in `details`. */
  /** The jurisdiction, or a 404 whose details name `field`, the request's field that gave it (default "id"). */
  resolve(idOrAlias: string, field?: string): Jurisdiction;
  /** Jurisdictions matching every given filter, sorted by id. */
  list(filter: JurisdictionFilter): Jurisdiction[];
  /** Up to `max` ids, names and aliases close to `query`, best first. */
  suggest(query: string, max?: number): Jurisdiction[];
}

/**
 * Lookup key: lowercase, accents stripped, spaces/underscores/dots folded to single '-'-free form. In Arabic script,
 * the letters people type one for another are one (foldArabicLetters).
 */
export function normalizeKey(s: string): string {
  return foldArabicLetters(s.normalize('NFKD').replace(/\p{M}/gu, ''))
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[\s_]+/g, ' ')
    .trim();
}

/** Keys under which a record is found: id (also with space/underscore for '-'), name, aliases. */
function keysOf(j: Jurisdiction): string[] {
  const keys = new Set<string>([j.id, j.id.replace('-', ' '), j.name, ...j.aliases].map(normalizeKey));
  return [...keys];
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  let prev2: number[] = new Array<number>(n + 1).fill(0);
  let prev: number[] = Array.from({ length: n + 1 }, (_, k) => k);
  let cur: number[] = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let k = 1; k <= n; k++) {
      const cost = a[i - 1] === b[k - 1] ? 0 : 1;
      let v = Math.min(prev[k]! + 1, cur[k - 1]! + 1, prev[k - 1]! + cost);
      if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) v = Math.min(v, prev2[k - 2]! + 1);
      cur[k] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** Longest id, name or alias a lookup compares; anything longer is no key (checked at load). */
export const MAX_LOOKUP_LENGTH = 100;
/** Longest query that gets close matches: the edit distance is quadratic, so longer input gets none. */
export const MAX_FUZZY_QUERY_LENGTH = 64;

class Index implements JurisdictionIndex {
  readonly #sorted: Jurisdiction[];
  readonly #byKey = new Map<string, Jurisdiction>();

  constructor(records: Jurisdiction[]) {
    this.#sorted = [...records].sort((a, b) => a.id.localeCompare(b.id));
    for (const j of this.#sorted) {
      for (const k of keysOf(j)) {
        const other = this.#byKey.get(k);
        if (other && other.id !== j.id) {
          throw new Error(`jurisdictions: alias "${k}" of ${j.id} is already used by ${other.id}`);
        }
        if (k.length > MAX_LOOKUP_LENGTH)
          throw new Error(
            `jurisdictions: key "${k.slice(0, 40)}…" of ${j.id} is longer than ${MAX_LOOKUP_LENGTH} characters`,
          );
        this.#byKey.set(k, j);
      }
    }
  }

  all(): Jurisdiction[] {
    return [...this.#sorted];
  }

  get(idOrAlias: string): Jurisdiction | undefined {
    // Keys are at most MAX_LOOKUP_LENGTH characters; input four times longer is no id or name someone typed, and is
    // answered without being normalized.
    if (idOrAlias.length > 4 * MAX_LOOKUP_LENGTH) return undefined;
    const k = normalizeKey(idOrAlias);
    return this.#byKey.get(k) ?? this.#byKey.get(k.replace(/-/g, ' '));
  }

  suggest(query: string, max = 3): Jurisdiction[] {
    // Edit distance costs length × length per key: long input gets no close matches rather than stalling the process.
    if (query.length > 4 * MAX_FUZZY_QUERY_LENGTH) return [];
    const q = normalizeKey(query);
    if (q.length === 0 || q.length > MAX_FUZZY_QUERY_LENGTH) return [];
    const limit = Math.max(1, Math.min(3, Math.floor(Math.max(q.length, 2) / 3)));
    const best = new Map<string, { j: Jurisdiction; score: number }>();
    for (const [key, j] of this.#byKey) {
      // A query that starts a longer name ("califo") is close however short it is.
      const prefix = q.length >= 3 && key.startsWith(q);
      // The distance is at least the difference in length: skip keys that cannot be close.
      if (!prefix && Math.abs(key.length - q.length) > limit) continue;
      let score = editDistance(q, key);
      if (prefix) score = Math.min(score, 1);
      if (score > limit) continue;
      const seen = best.get(j.id);
      if (!seen || score < seen.score) best.set(j.id, { j, score });
    }
    return [...best.values()]
      .sort((a, b) => a.score - b.score || a.j.id.localeCompare(b.j.id))
      .slice(0, max)
      .map((x) => x.j);
  }

  resolve(idOrAlias: string, field = 'id'): Jurisdiction {
    const found = this.get(idOrAlias);
    if (found) return found;
    const close = this.suggest(idOrAlias);
    const details: ErrorDetail[] = close.map((j) => ({ field, reason: `did you mean ${j.id} (${j.name})?` }));
    if (details.length === 0)
      details.push({ field, reason: 'no jurisdiction with this id, name or alias; see list_jurisdictions' });
    throw new ApiError('NOT_FOUND', `Jurisdiction "${idOrAlias.slice(0, 80)}" not found`, details);
  }

  list(filter: JurisdictionFilter): Jurisdiction[] {
    const region = filter.region?.toLowerCase();
    const system = filter.legalSystem?.toLowerCase();
    return this.#sorted.filter(
      (j) =>
        (region === undefined || j.region === region) &&
        (system === undefined || j.legalSystem === system) &&
        (filter.forcedHeirship === undefined || j.forcedHeirship.exists === filter.forcedHeirship),
    );
  }
}

/** An index over validated records (see loadJurisdictions); throws when two records claim the same alias. */
export function indexJurisdictions(records: Jurisdiction[]): JurisdictionIndex {
  return new Index(records);
}
