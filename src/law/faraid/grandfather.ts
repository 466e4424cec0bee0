import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import {
  anyActive,
  baseOf,
  count,
  type EngineState,
  F,
  HALF,
  isActive,
  L,
  type Residuary,
  SIXTH,
  THIRD,
  TWO_THIRDS,
} from './state.js';
import { settle } from './settle.js';

/**
 * The grandfather with full or paternal half-siblings, after Zayd ibn Thabit
 * (every school but the Hanafi): he takes the best of sharing as a brother
 * (muqasama), one third, or one sixth; the siblings divide the rest. Where a
 * statute decides the case after 'Ali (Egypt art. 22, Syria art. 279), see
 * grandfatherByStatute.
 */

const SIBLINGS = ['fullBrother', 'fullSister', 'paternalHalfBrother', 'paternalHalfSister'] as const;

/** Weight of one person of a sibling type: a brother counts two, a sister one. */
const weight = (k: HeirKey): number => (k.endsWith('Brother') ? 2 : 1);

const unitsOf = (st: EngineState, ks: readonly HeirKey[]): number =>
  ks.reduce((s, k) => s + count(st, k) * weight(k), 0);

/** Divides amount among the sibling types, a male taking twice a female. */
function split(st: EngineState, ks: readonly HeirKey[], amount: Fraction): void {
  const u = unitsOf(st, ks);
  for (const k of ks) st.result.set(k, amount.mul(F(count(st, k) * weight(k), u)));
}

/** The grandfather's options and the best of them. */
function bestOption(st: EngineState, rem: Fraction, units: number): Fraction {
  const muq = (x: Fraction): Fraction => x.mul(F(2, units + 2));
  const options: Array<[string, Fraction]> =
    st.fard.size === 0
      ? [
          ['sharing as a brother', muq(Fraction.ONE)],
          ['one third of the whole', THIRD],
        ]
      : [
          ['sharing as a brother', muq(rem)],
          ['one third of the remainder', rem.mul(THIRD)],
          ['one sixth of the whole', SIXTH],
        ];
  const best = Fraction.max(...options.map(([, f]) => f));
  const chosen = options.filter(([, f]) => f.eq(best)).map(([n]) => n);
  st.steps.push({
    kind: 'special-case',
    detail: `Options for the grandfather: ${options.map(([n, f]) => `${n} ${f}`).join(', ')}; he takes ${best} (${chosen.join(' = ')}).`,
  });
  return best;
}

/** What the grandfather leaves, among the siblings; paternal half-siblings yield to full ones (mu'adda). */
function divideAmongSiblings(st: EngineState, sibs: readonly HeirKey[], pool: Fraction): void {
  const full = sibs.filter((k) => k.startsWith('full'));
  const half = sibs.filter((k) => k.startsWith('paternalHalf'));
  if (full.length === 0 || half.length === 0) {
    split(st, sibs, pool);
    st.steps.push({
      kind: 'residuary',
      detail: `The brothers and sisters share ${pool}, a male taking twice a female.`,
    });
    return;
  }
  if (isActive(st, 'fullBrother')) {
    split(st, full, pool);
    for (const k of half) st.result.set(k, Fraction.ZERO);
    st.steps.push({
      kind: 'residuary',
      detail: `The brothers' and sisters' ${pool} goes to the full siblings; the paternal half-siblings, counted against the grandfather, take nothing.`,
    });
    return;
  }
  const fs = count(st, 'fullSister');
  const cap = fs === 1 ? HALF : TWO_THIRDS;
  const take = Fraction.min(pool, cap);
  st.result.set('fullSister', take);
  split(st, half, pool.sub(take));
  st.steps.push({
    kind: 'residuary',
    detail: `Of the brothers' and sisters' ${pool}, the full sister${fs > 1 ? 's take' : ' takes'} up to ${cap} (${take}); the paternal half-siblings take what is left (${pool.sub(take)}).`,
  });
}

export function grandfatherWithSiblings(st: EngineState, spouse: HeirKey | undefined): void {
  const gf: HeirKey = 'paternalGrandfather';
  const sibs = SIBLINGS.filter((k) => isActive(st, k));
  const units = unitsOf(st, sibs);
  const hasFull = anyActive(st, 'fullBrother', 'fullSister');
  const hasHalf = anyActive(st, 'paternalHalfBrother', 'paternalHalfSister');
  st.specialCases.push('grandfather-with-siblings');
  st.steps.push({
    kind: 'special-case',
    detail: `Grandfather with brothers and sisters (doctrine of Zayd ibn Thabit, followed by the ${st.school.madhhab} school): the grandfather takes the best of sharing with them as a brother (muqasama)${st.fard.size > 0 ? ', one third of the remainder after the fixed shares, or one sixth of the whole' : ' or one third of the whole'}.${hasFull && hasHalf ? " The paternal half-siblings are counted against him (mu'adda) and then yield to the full siblings." : ''}`,
  });
  const fixedTotal = Fraction.sum(st.fard.values());
  const rem = Fraction.ONE.sub(fixedTotal);
  if (st.fard.size > 0 && !rem.gt(SIXTH)) {
    st.steps.push({
      kind: 'special-case',
      detail: `Only ${rem.num < 0n ? '0/1' : rem} remains after the fixed shares, so the grandfather takes one sixth as a fixed share${rem.lt(SIXTH) ? " (by 'awl)" : ''} and the brothers and sisters take nothing.`,
    });
    const fixed = new Map(st.fard);
    fixed.set(gf, SIXTH);
    settle(st, fixed, [], spouse);
    for (const k of sibs) st.result.set(k, Fraction.ZERO);
    return;
  }
  const best = bestOption(st, rem, units);
  st.base = baseOf([...st.fard.values(), best]);
  st.steps.push({ kind: 'base', detail: `Base of the problem (asl al-mas'ala): ${st.base}.` });
  for (const [k, f] of st.fard) st.result.set(k, f);
  st.result.set(gf, best);
  divideAmongSiblings(st, sibs, rem.sub(best));
}

/**
 * The grandfather with full or paternal half-siblings under a statute that
 * follows 'Ali (Egypt, Law No. 77 of 1943 art. 22; Syria, Personal Status Law
 * art. 279): the siblings exclude one another as they would without him and
 * take their fixed shares as usual; he is counted as a brother among the
 * residuary siblings (sharing, muqasama), or, when none is residuary (sisters
 * with fixed shares only), takes the residue himself. Either way he takes at
 * least one sixth of the estate, then as a fixed share ('awl if need be), and
 * the residuary siblings take what is left. No one third, no mu'adda.
 */
export function grandfatherByStatute(
  st: EngineState,
  spouse: HeirKey | undefined,
  siblings: readonly Residuary[],
): void {
  const gf: HeirKey = 'paternalGrandfather';
  const sharing = siblings.length > 0;
  const rem = Fraction.ONE.sub(Fraction.sum(st.fard.values()));
  const siblingUnits = siblings.reduce((s, r) => s + r.weight * count(st, r.heir), 0);
  // As a brother he counts two beside the residuary siblings; alone as a residuary he takes the whole residue.
  const part = !rem.gt(Fraction.ZERO) ? Fraction.ZERO : sharing ? rem.mul(F(2, siblingUnits + 2)) : rem;
  st.specialCases.push('grandfather-with-siblings');
  st.steps.push({
    kind: 'special-case',
    detail: `Grandfather with brothers and sisters (${st.grandfatherSharing}): he neither excludes them nor is excluded by them, and never takes less than one sixth of the estate; ${
      sharing
        ? `he shares what the fixed shares leave with the residuary ${siblings.map((r) => L[r.heir]).join(' and ')} as a brother (muqasama)`
        : 'beside sisters who take fixed shares and no brother, he takes the residue as a residuary'
    }. This is the doctrine of 'Ali and Ibn Mas'ud, not Zayd's: no one third, and no excluded half-sibling is counted against him.`,
  });
  if (part.lt(SIXTH)) {
    st.steps.push({
      kind: 'special-case',
      detail: `${sharing ? 'Sharing as a brother' : 'The residue'} would give the grandfather ${part}, less than one sixth, so he takes one sixth as a fixed share (${st.grandfatherSharing})${sharing ? ' and the brothers and sisters take what is left' : ''}.`,
    });
    const fixed = new Map(st.fard);
    fixed.set(gf, SIXTH);
    settle(st, fixed, siblings, spouse);
    return;
  }
  settle(st, st.fard, [{ heir: gf, weight: sharing ? 2 : 1 }, ...siblings], spouse);
}
