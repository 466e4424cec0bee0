import { Fraction, lcm } from './fraction.js';
import { HEIR_KEYS, HEIR_LABELS, type HeirCounts, type HeirKey } from './heirs.js';
import type { SchoolRules } from './school.js';
import type { Exclusion, Step } from './types.js';

/**
 * The working state of one fara'id calculation, shared by its phases:
 * exclusion (hajb.ts), fixed shares (furud.ts), residuaries (asaba.ts),
 * special cases (special-cases.ts, grandfather.ts) and settlement by 'awl or
 * radd (settle.ts).
 */

export const L = HEIR_LABELS;
export const F = (n: number, d = 1): Fraction => Fraction.of(n, d);
export const SIXTH = F(1, 6);
export const THIRD = F(1, 3);
export const HALF = F(1, 2);
export const TWO_THIRDS = F(2, 3);

/** A residuary heir type and its weight per head (male 2, female 1). */
export interface Residuary {
  heir: HeirKey;
  weight: number;
}

/** A reason an heir is excluded by another, or false when the rule does not apply. */
export type ExclusionRule = [HeirKey, string] | false;

export interface EngineState {
  school: SchoolRules;
  counts: Record<HeirKey, number>;
  steps: Step[];
  specialCases: string[];
  excluded: Map<HeirKey, Exclusion>;
  /** Fixed shares (furud) as first assigned, before 'awl or radd. */
  fard: Map<HeirKey, Fraction>;
  /** Final share of each heir type decided so far. */
  result: Map<HeirKey, Fraction>;
  base: bigint;
  awlBase?: bigint;
  awl: boolean;
  radd: boolean;
  treasury?: Fraction;
  spouseRadd: boolean;
  spouseRaddSource?: string;
  /** Citation of a daughters' radd statute in force (see EngineOptions.daughtersRadd). */
  daughtersRadd?: string;
  /** Citation of a statute on the grandfather with siblings in force (see EngineOptions.grandfatherSharing). */
  grandfatherSharing?: string;
  /** Citation of a statute on the mushtaraka in force (see EngineOptions.mushtarakaSharing). */
  mushtarakaSharing?: string;
}

export function newState(input: HeirCounts, school: SchoolRules, spouseRadd: boolean, source?: string): EngineState {
  const counts = {} as Record<HeirKey, number>;
  for (const k of HEIR_KEYS) counts[k] = input[k] ?? 0;
  return {
    school,
    counts,
    steps: [],
    specialCases: [],
    excluded: new Map(),
    fard: new Map(),
    result: new Map(),
    base: 1n,
    awl: false,
    radd: false,
    spouseRadd,
    ...(source !== undefined ? { spouseRaddSource: source } : {}),
  };
}

/** Number of persons of heir type k. */
export const count = (st: EngineState, k: HeirKey): number => st.counts[k];

/** Present and not excluded. */
export const isActive = (st: EngineState, k: HeirKey): boolean => st.counts[k] > 0 && !st.excluded.has(k);

export const anyActive = (st: EngineState, ...ks: HeirKey[]): boolean => ks.some((k) => isActive(st, k));

/** Smallest common denominator of the fractions. */
export function baseOf(fs: Iterable<Fraction>): bigint {
  let b = 1n;
  for (const f of fs) b = lcm(b, f.den);
  return b;
}

/** Records a fixed share and the step that states it. */
export function setFard(st: EngineState, k: HeirKey, f: Fraction, why: string): void {
  const n = count(st, k);
  st.fard.set(k, f);
  st.steps.push({
    kind: 'fixed-share',
    detail: `The ${L[k]}${n > 1 ? ` (${n}, together)` : ''} take${n > 1 ? '' : 's'} ${f}: ${why}`,
  });
}
