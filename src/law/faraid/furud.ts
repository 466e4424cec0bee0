import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import type { Kinship } from './hajb.js';
import { count, type EngineState, F, HALF, isActive, SIXTH, setFard, THIRD, TWO_THIRDS } from './state.js';

/** Fixed shares (furud), heir class by heir class, once exclusion is done. */

/** What the special cases need from this phase. */
export interface FixedShareFacts {
  spouse: HeirKey | undefined;
  /** Maternal half-sibling types inheriting, and their number of persons. */
  uterine: HeirKey[];
  uterineCount: number;
}

function spouses(st: EngineState, kin: Kinship): HeirKey | undefined {
  const why = kin.anyDesc ? 'a descendant is present.' : 'no descendant.';
  if (isActive(st, 'husband')) setFard(st, 'husband', kin.anyDesc ? F(1, 4) : HALF, why);
  if (isActive(st, 'wife')) setFard(st, 'wife', kin.anyDesc ? F(1, 8) : F(1, 4), why);
  return isActive(st, 'husband') ? 'husband' : isActive(st, 'wife') ? 'wife' : undefined;
}

function mother(st: EngineState, kin: Kinship, spouse: HeirKey | undefined): void {
  if (!isActive(st, 'mother')) return;
  const siblingCount = (
    [
      'fullBrother',
      'fullSister',
      'paternalHalfBrother',
      'paternalHalfSister',
      'maternalHalfBrother',
      'maternalHalfSister',
    ] as const
  ).reduce((s, k) => s + count(st, k), 0);
  if (kin.anyDesc) setFard(st, 'mother', SIXTH, 'a descendant is present.');
  else if (siblingCount >= 2)
    setFard(st, 'mother', SIXTH, 'two or more brothers or sisters are present (even if they are themselves excluded).');
  else if (spouse && isActive(st, 'father')) {
    const f = Fraction.ONE.sub(kin.anyDesc ? Fraction.ZERO : spouse === 'husband' ? HALF : F(1, 4)).mul(THIRD);
    st.specialCases.push('umariyyatan');
    st.steps.push({
      kind: 'special-case',
      detail:
        "'Umariyyatan (the two cases decided by 'Umar): with a spouse and the father, the mother takes one third of what is left after the spouse's share, not one third of the whole, so that the father keeps twice her share.",
    });
    setFard(st, 'mother', f, "one third of the remainder after the spouse ('Umariyyatan).");
  } else setFard(st, 'mother', THIRD, 'no descendant and fewer than two brothers or sisters.');
}

/** The grandmothers share one sixth per head (several on the father's side when the input lists their lines). */
function grandmothers(st: EngineState): void {
  const present = (['paternalGrandmother', 'maternalGrandmother'] as const).filter((k) => isActive(st, k));
  const heads = present.reduce((n, k) => n + count(st, k), 0);
  for (const g of present)
    setFard(
      st,
      g,
      SIXTH.mul(count(st, g)).div(heads),
      heads > 1 ? 'the grandmothers share one sixth equally, per head.' : 'a grandmother takes one sixth.',
    );
}

function daughters(st: EngineState): void {
  const d = count(st, 'daughter');
  if (isActive(st, 'daughter') && !isActive(st, 'son'))
    setFard(
      st,
      'daughter',
      d === 1 ? HALF : TWO_THIRDS,
      d === 1 ? 'a single daughter without a son.' : 'two or more daughters without a son.',
    );
  if (isActive(st, 'sonsDaughter') && !isActive(st, 'sonsSon')) {
    if (d === 0)
      setFard(
        st,
        'sonsDaughter',
        count(st, 'sonsDaughter') === 1 ? HALF : TWO_THIRDS,
        "sons' daughters take the daughters' place when there is no daughter.",
      );
    else if (d === 1)
      setFard(st, 'sonsDaughter', SIXTH, "one sixth, completing the two-thirds with the single daughter's half.");
  }
}

function fatherAndGrandfather(st: EngineState, kin: Kinship): void {
  const fatherLike = (k: 'father' | 'paternalGrandfather'): void => {
    if (kin.maleDesc) setFard(st, k, SIXTH, 'a male descendant is present.');
    else if (kin.femaleDesc) setFard(st, k, SIXTH, 'only female descendants are present; he also takes any residue.');
  };
  if (isActive(st, 'father')) fatherLike('father');
  // Beside siblings, the grandfather's part is settled by grandfather.ts.
  if (isActive(st, 'paternalGrandfather') && !kin.zaydSiblings && !kin.statuteSiblings)
    fatherLike('paternalGrandfather');
}

function sisters(st: EngineState, kin: Kinship): void {
  if (kin.zaydSiblings) return;
  const fs = count(st, 'fullSister');
  if (isActive(st, 'fullSister') && !isActive(st, 'fullBrother') && !kin.fsWithOthers)
    setFard(
      st,
      'fullSister',
      fs === 1 ? HALF : TWO_THIRDS,
      fs === 1 ? 'a single full sister.' : 'two or more full sisters.',
    );
  if (isActive(st, 'paternalHalfSister') && !isActive(st, 'paternalHalfBrother') && !kin.phsWithOthers) {
    if (!isActive(st, 'fullSister'))
      setFard(
        st,
        'paternalHalfSister',
        count(st, 'paternalHalfSister') === 1 ? HALF : TWO_THIRDS,
        "paternal half-sisters take the full sisters' place when there is none.",
      );
    else if (fs === 1 && st.fard.has('fullSister'))
      setFard(
        st,
        'paternalHalfSister',
        SIXTH,
        "one sixth, completing the two-thirds with the single full sister's half.",
      );
  }
}

function maternalHalfSiblings(st: EngineState): Pick<FixedShareFacts, 'uterine' | 'uterineCount'> {
  const uterine = (['maternalHalfBrother', 'maternalHalfSister'] as const).filter((k) => isActive(st, k));
  const uterineCount = uterine.reduce((s, k) => s + count(st, k), 0);
  if (uterineCount > 0) {
    const pool = uterineCount === 1 ? SIXTH : THIRD;
    for (const k of uterine)
      setFard(
        st,
        k,
        pool.mul(F(count(st, k), uterineCount)),
        uterineCount === 1
          ? 'a single maternal half-sibling.'
          : 'maternal half-siblings share one third equally, male and female alike.',
      );
  }
  return { uterine, uterineCount };
}

/** Assigns every fixed share, in the order the steps list them. */
export function assignFixedShares(st: EngineState, kin: Kinship): FixedShareFacts {
  const spouse = spouses(st, kin);
  mother(st, kin, spouse);
  grandmothers(st);
  daughters(st);
  fatherAndGrandfather(st, kin);
  sisters(st, kin);
  return { spouse, ...maternalHalfSiblings(st) };
}
