import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import type { Kinship } from './hajb.js';
import type { FixedShareFacts } from './furud.js';
import { anyActive, count, type EngineState, F, isActive, L, type Residuary, THIRD } from './state.js';
import { settle } from './settle.js';

/**
 * The named special cases that the general rule does not settle: akdariyya
 * (grandfather, husband, mother and one sister) and mushtaraka or himariyya
 * (full siblings left out by the maternal half-siblings' third).
 */

/** Husband, mother, grandfather (sharing with siblings) and exactly one full or paternal half-sister. */
export function isAkdariyya(st: EngineState, kin: Kinship): boolean {
  const sisterCount = count(st, 'fullSister') + count(st, 'paternalHalfSister');
  const brotherCount = count(st, 'fullBrother') + count(st, 'paternalHalfBrother');
  return (
    kin.zaydMode &&
    isActive(st, 'husband') &&
    isActive(st, 'mother') &&
    !kin.anyDesc &&
    brotherCount === 0 &&
    sisterCount === 1 &&
    anyActive(st, 'fullSister', 'paternalHalfSister')
  );
}

export function akdariyya(st: EngineState): void {
  const sister: HeirKey = isActive(st, 'fullSister') ? 'fullSister' : 'paternalHalfSister';
  st.specialCases.push('akdariyya');
  st.steps.push({
    kind: 'special-case',
    detail: `Akdariyya: husband 1/2, mother 1/3, grandfather 1/6 and the ${L[sister]} 1/2 are all assigned; the base 6 rises by 'awl to 9; the grandfather and the sister then pool their 1/6 + 1/2 = 4/9 and divide it two to one, giving a final base of 27.`,
  });
  st.awl = true;
  st.base = 6n;
  st.awlBase = 9n;
  st.result.set('husband', F(9, 27));
  st.result.set('mother', F(6, 27));
  st.result.set('paternalGrandfather', F(8, 27));
  st.result.set(sister, F(4, 27));
}

/**
 * The general case, with mushtaraka: the fixed shares exhaust the estate, two
 * or more maternal half-siblings take their third, and a full brother is a
 * residuary left with nothing.
 */
export function settleGeneral(st: EngineState, facts: FixedShareFacts, residuaries: readonly Residuary[]): void {
  const { spouse, uterine, uterineCount } = facts;
  const mushtaraka =
    isActive(st, 'fullBrother') &&
    uterineCount >= 2 &&
    st.fard.size > 0 &&
    Fraction.sum(st.fard.values()).eq(Fraction.ONE) &&
    residuaries.some((r) => r.heir === 'fullBrother');
  if (!mushtaraka) {
    settle(st, st.fard, residuaries, spouse);
    return;
  }
  st.specialCases.push('mushtaraka');
  if (!st.school.mushtarakaSharing && !st.mushtarakaSharing) {
    st.steps.push({
      kind: 'special-case',
      detail: `Mushtaraka (Himariyya): the fixed shares exhaust the estate and the full siblings, as residuaries, take nothing (${st.school.label} view, after 'Ali; the Maliki and Shafi'i schools let them share the maternal half-siblings' third).`,
    });
    settle(st, st.fard, residuaries, spouse);
    return;
  }
  const sharers: HeirKey[] = [...uterine, ...(['fullBrother', 'fullSister'] as const).filter((k) => isActive(st, k))];
  const heads = sharers.reduce((s, k) => s + count(st, k), 0);
  st.steps.push({
    kind: 'special-case',
    detail: `Mushtaraka (Himariyya): the fixed shares exhaust the estate, so the full siblings share the maternal half-siblings' third with them, equally per head, male and female alike (${st.mushtarakaSharing ?? `${st.school.label} view, after 'Umar`}).`,
  });
  const fixed = new Map(st.fard);
  for (const k of uterine) fixed.delete(k);
  for (const k of sharers) fixed.set(k, THIRD.mul(F(count(st, k), heads)));
  settle(st, fixed, [], spouse);
}
