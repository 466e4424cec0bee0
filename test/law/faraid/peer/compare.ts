import { readFileSync } from 'node:fs';
import { ApiError } from '../../../../src/core/errors.js';
import { calculateFaraid, type FaraidResult, type HeirKey, type Madhhab } from '../../../../src/law/faraid/index.js';

/**
 * The peer suites as data: test cases of other public fara'id calculators,
 * ported as facts (heirs in, shares out) with the repository, path, commit and
 * case name they come from. compareCase runs one through calculateFaraid and
 * says where the two answers part.
 */

export interface PeerCase {
  name: string;
  heirs: Partial<Record<HeirKey, number>>;
  /**
   * Grandmothers by their lines (calculate_inheritance's `grandmothers`), where the peer counts several on one side:
   * three paternal grandmothers sharing one sixth are of equal degree, which on the father's side first happens with
   * the three great-great-grandmothers ("fmmm", "ffmm", "fffm").
   */
  grandmothers?: string[];
  /** Expected share of the whole group of each heir type the peer checks ("0" for nothing). */
  shares: Partial<Record<HeirKey, string>>;
  madhhab?: Madhhab;
  /** Heirs the peer says are blocked: they take nothing (excluded, or a share of 0). */
  nothing?: HeirKey[];
  perPerson?: Partial<Record<HeirKey, string>>;
  /** What the peer sends to the public treasury. */
  treasury?: string;
  awl?: boolean;
  radd?: boolean;
  /** The peer asserts only that the shares sum to one. */
  invariantOnly?: boolean;
  /** The peer asserts the input is refused. */
  rejects?: boolean;
  /** Engine options the peer's own setting corresponds to (stated in the case). */
  options?: { spouseRadd?: boolean };
  peerNote?: string;
}

export interface PeerSuite {
  suite: string;
  repo: string;
  path: string;
  commit: string;
  license: string;
  origin: string;
  madhhab: Madhhab;
  heirNotes: string;
  notPorted?: Array<{ name: string; reason: string }>;
  cases: PeerCase[];
}

export const SUITE_FILES = ['hu-bcs1.json', 'shafi-fiqh.json', 'romstar.json', 'yasserrmd-faraid.json'] as const;

export function loadSuites(): PeerSuite[] {
  return SUITE_FILES.map((f) => JSON.parse(readFileSync(new URL(`./${f}`, import.meta.url), 'utf8')) as PeerSuite);
}

/** A fraction string in lowest terms with zero as "0", so "0/1" and "0" compare equal. */
function norm(f: string | undefined): string {
  if (f === undefined || f === '0/1' || f === '0') return '0';
  return f.endsWith('/1') ? f.slice(0, -2) : f;
}

function fractionSum(fs: string[]): { num: bigint; den: bigint } {
  let num = 0n;
  let den = 1n;
  for (const f of fs) {
    const [n, d] = f.split('/').map((x) => BigInt(x)) as [bigint, bigint];
    num = num * d + n * den;
    den *= d;
  }
  return { num, den };
}

/**
 * Runs one peer case. Returns the differences (empty when svc agrees), or a
 * refusal's message when svc refuses what the peer computes.
 */
export function compareCase(suite: PeerSuite, c: PeerCase): string[] {
  const madhhab = c.madhhab ?? suite.madhhab;
  let r: FaraidResult;
  try {
    r = calculateFaraid({
      heirs: c.heirs,
      madhhab,
      ...(c.grandmothers ? { grandmothers: c.grandmothers } : {}),
      ...(c.options ?? {}),
    });
  } catch (e) {
    if (c.rejects && e instanceof ApiError) return [];
    if (e instanceof ApiError) return [`svc refuses: ${e.message}`];
    throw e;
  }
  if (c.rejects) return ['the peer refuses this input; svc computes it'];
  const diffs: string[] = [];
  const total = fractionSum([...r.shares.map((s) => s.fraction), ...(r.treasury ? [r.treasury.fraction] : [])]);
  if (total.num !== total.den) diffs.push('svc shares do not sum to one');
  const got = (k: string): string => norm(r.shares.find((s) => s.heir === k)?.fraction);
  for (const [k, want] of Object.entries(c.shares))
    if (got(k) !== norm(want)) diffs.push(`${k}: peer ${norm(want)}, svc ${got(k)}`);
  for (const k of c.nothing ?? []) if (got(k) !== '0') diffs.push(`${k}: peer nothing, svc ${got(k)}`);
  for (const [k, want] of Object.entries(c.perPerson ?? {})) {
    const s = r.shares.find((x) => x.heir === k)?.perPersonFraction;
    if (norm(s) !== norm(want)) diffs.push(`${k} per person: peer ${want}, svc ${norm(s)}`);
  }
  if (c.treasury !== undefined && norm(r.treasury?.fraction) !== norm(c.treasury))
    diffs.push(`treasury: peer ${c.treasury}, svc ${norm(r.treasury?.fraction)}`);
  if (c.awl !== undefined && r.awl !== c.awl) diffs.push(`'awl: peer ${c.awl}, svc ${r.awl}`);
  if (c.radd !== undefined && r.radd !== c.radd) diffs.push(`radd: peer ${c.radd}, svc ${r.radd}`);
  return diffs;
}
