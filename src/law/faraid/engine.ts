import { excludeArham } from './arham.js';
import { distributeArham } from './arham-shares.js';
import { findResiduaries } from './asaba.js';
import { Fraction, lcm } from './fraction.js';
import { assignFixedShares } from './furud.js';
import { grandfatherByStatute, grandfatherWithSiblings } from './grandfather.js';
import { applyExclusions } from './hajb.js';
import { jafariShares } from './jafari.js';
import { HEIR_KEYS, type HeirCounts, type Madhhab } from './heirs.js';
import { type SchoolRules, schoolRules } from './school.js';
import { akdariyya, isAkdariyya, settleGeneral } from './special-cases.js';
import { baseOf, count, type EngineState, newState } from './state.js';
import type { EngineOptions, EngineResult } from './types.js';

export type { EngineOptions, EngineResult, Exclusion, Step, StepKind } from './types.js';
export { type SchoolRules, schoolRules } from './school.js';

/**
 * The fara'id engine proper: heir counts in, exact group shares out, with the
 * reasoning as steps. Input is assumed valid (see calculateFaraid for checks).
 *
 * The phases, each in its own file: exclusion (hajb.ts), fixed shares
 * (furud.ts), residuaries (asaba.ts), then either a special case
 * (special-cases.ts, grandfather.ts) or the general settlement with 'awl or
 * radd (settle.ts). Where the schools differ, the phases read a SchoolRules
 * (school.ts), so a school is a set of rules passed in.
 */
export function computeShares(
  input: HeirCounts,
  madhhab: Madhhab | SchoolRules,
  opts: EngineOptions = {},
): EngineResult {
  const school = typeof madhhab === 'string' ? schoolRules(madhhab) : madhhab;
  // Unset, a spouse who is the only heir takes everything, except the Ja'fari wife, who keeps only her share (art. 949).
  const st = newState(input, school, opts.spouseRadd ?? !school.byClasses, opts.spouseRaddSource);
  if (opts.daughtersRadd) st.daughtersRadd = opts.daughtersRadd;
  if (opts.grandfatherSharing) st.grandfatherSharing = opts.grandfatherSharing;
  if (opts.mushtarakaSharing) st.mushtarakaSharing = opts.mushtarakaSharing;
  // The school is stated once, with how it was chosen, by the caller's first step (calculateFaraid's schoolSteps).
  if (school.byClasses) {
    // The Ja'fari school has no residuaries and no 'awl: its own path, same state and result.
    jafariShares(st);
    return assemble(st);
  }

  const kin = applyExclusions(st);
  // Distant kindred take nothing beside a sharer or residuary; where none survives (a spouse aside) they inherit.
  if (excludeArham(st)) {
    distributeArham(st);
    return assemble(st);
  }
  const facts = assignFixedShares(st, kin);
  const residuaries = findResiduaries(st, kin);
  st.base = baseOf(st.fard.values());

  if (isAkdariyya(st, kin)) akdariyya(st);
  else if (kin.zaydSiblings) grandfatherWithSiblings(st, facts.spouse);
  else if (kin.statuteSiblings) grandfatherByStatute(st, facts.spouse, residuaries);
  else settleGeneral(st, facts, residuaries);

  return assemble(st);
}

/** Lists the shares in HEIR_KEYS order, checks they sum to one, and finds the corrected base (tashih). */
function assemble(st: EngineState): EngineResult {
  const shares: EngineResult['shares'] = [];
  let correctedBase = 1n;
  for (const k of HEIR_KEYS) {
    const s = st.result.get(k);
    if (s === undefined || count(st, k) === 0 || st.excluded.has(k)) continue;
    shares.push({ heir: k, count: count(st, k), share: s });
    correctedBase = lcm(correctedBase, s.div(count(st, k)).den);
  }
  // Invariant: every heir present and not excluded is listed (with zero when nothing is left for him).
  for (const k of HEIR_KEYS)
    if (count(st, k) > 0 && !st.excluded.has(k) && !st.result.has(k))
      throw new Error(`fara'id invariant broken: no share decided for ${k}`);
  const { treasury } = st;
  if (treasury) correctedBase = lcm(correctedBase, treasury.den);
  const total = Fraction.sum([...shares.map((s) => s.share), ...(treasury ? [treasury] : [])]);
  if (!total.eq(Fraction.ONE)) throw new Error(`fara'id invariant broken: shares sum to ${total}`);
  st.steps.push({
    kind: 'correction',
    detail: `Every person's share as a fraction of ${correctedBase} (corrected base, tashih).`,
  });

  return {
    shares,
    excluded: HEIR_KEYS.filter((k) => st.excluded.has(k)).map((k) => st.excluded.get(k)!),
    steps: st.steps,
    specialCases: st.specialCases,
    base: st.base,
    ...(st.awlBase !== undefined ? { awlBase: st.awlBase } : {}),
    correctedBase,
    awl: st.awl,
    radd: st.radd,
    spouseRadd: st.spouseRadd,
    ...(treasury ? { treasury } : {}),
  };
}
