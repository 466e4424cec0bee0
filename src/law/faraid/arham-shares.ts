import { ApiError } from '../../core/errors.js';
import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import { baseOf, count, type EngineState, F, HALF, isActive, L, SIXTH, THIRD, TWO_THIRDS } from './state.js';

/**
 * The shares of distant kindred (dhawu al-arham) where they inherit: no
 * sharer and no residuary survives, a spouse aside. The spouse first takes
 * the full fixed share (husband 1/2, wife 1/4: distant kindred neither
 * reduce it nor let it grow by radd); what is left goes to the kindred as if
 * it were the whole estate.
 *
 * - Hanafi (ahl al-qaraba, Al-Sirajiyyah ch. on distant kindred; codified in
 *   the Syrian Personal Status Law arts. 290-297): the classes in order, a
 *   nearer class excluding the further: daughters' children (a male twice a
 *   female; Abu Yusuf and Muhammad agree here, all the intermediate roots
 *   being daughters), then the maternal grandfather, then the aunts and
 *   maternal uncles. In that class the father's side takes two thirds and
 *   the mother's side one third when both are present; on the father's side
 *   a full paternal aunt excludes a paternal half one; on the mother's side
 *   full ones exclude paternal half ones, who exclude maternal half ones, and
 *   a male takes twice a female.
 * - Maliki, Shafi'i, Hanbali (tanzil, the later doctrine of the first two
 *   and the Hanbali school): each relative stands in the place of the heir
 *   through whom he is related (a daughter's child the daughter, the
 *   maternal grandfather, uncles and aunts the mother, paternal aunts the
 *   father), and the estate is divided as among those heirs. With more than
 *   one relative on a line, the division depends on which parent each
 *   descends from and, for a man and a woman of one line, on a point the
 *   schools dispute; the input does not say, so that is refused.
 */

const CLASS1: readonly HeirKey[] = ['daughtersSon', 'daughtersDaughter'];
/** The mother's brothers and sisters, strongest kinship first: full, then paternal half, then maternal half. */
const MOTHER_SIDE_BY_STRENGTH: ReadonlyArray<readonly HeirKey[]> = [
  ['maternalUncle', 'maternalAunt'],
  ['paternalHalfMaternalUncle', 'paternalHalfMaternalAunt'],
  ['maternalHalfMaternalUncle', 'maternalHalfMaternalAunt'],
];
const MOTHER_SIDE: readonly HeirKey[] = MOTHER_SIDE_BY_STRENGTH.flat();
const UNCLES = new Set<HeirKey>(['maternalUncle', 'paternalHalfMaternalUncle', 'maternalHalfMaternalUncle']);
const FATHER_SIDE: readonly HeirKey[] = ['fullPaternalAunt', 'paternalHalfPaternalAunt'];
const ARHAM_ORDER: readonly HeirKey[] = [...CLASS1, 'maternalGrandfather', ...FATHER_SIDE, ...MOTHER_SIDE];

const weight = (k: HeirKey): number => (k === 'daughtersSon' || UNCLES.has(k) ? 2 : 1);

function exclude(st: EngineState, k: HeirKey, by: HeirKey, reason: string): void {
  if (!isActive(st, k)) return;
  st.excluded.set(k, { heir: k, by, reason });
  st.steps.push({ kind: 'exclusion', detail: `The ${L[k]} is excluded by the ${L[by]}: ${reason}` });
}

/** Divides amount among the types, each person weighing 2 (male) or 1 (female). */
function split(st: EngineState, ks: readonly HeirKey[], amount: Fraction): void {
  const active = ks.filter((k) => isActive(st, k));
  const units = active.reduce((s, k) => s + weight(k) * count(st, k), 0);
  for (const k of active) st.result.set(k, amount.mul(F(weight(k) * count(st, k), units)));
}

/** The spouse's full fixed share, if a spouse survives; returns what is left for the kindred. */
function spouseFirst(st: EngineState): Fraction {
  const spouse: HeirKey | undefined = isActive(st, 'husband') ? 'husband' : isActive(st, 'wife') ? 'wife' : undefined;
  if (!spouse) return Fraction.ONE;
  const share = spouse === 'husband' ? HALF : F(1, 4);
  st.fard.set(spouse, share);
  st.result.set(spouse, share);
  st.steps.push({
    kind: 'fixed-share',
    detail: `The ${L[spouse]} takes the full fixed share ${share} (distant kindred do not reduce it, and the spouse takes no radd beside them).`,
  });
  return Fraction.ONE.sub(share);
}

function hanafi(st: EngineState, rest: Fraction): void {
  const class1 = CLASS1.find((k) => isActive(st, k));
  if (class1) {
    for (const k of ['maternalGrandfather', ...FATHER_SIDE, ...MOTHER_SIDE] as const)
      exclude(st, k, class1, "distant kindred of the first class (daughters' children) exclude the later classes.");
    split(st, CLASS1, rest);
    st.steps.push({
      kind: 'residuary',
      detail: `The daughters' children take ${rest}, a male twice a female (first class of distant kindred; Abu Yusuf and Muhammad agree where every intermediate root is a daughter).`,
    });
    return;
  }
  if (isActive(st, 'maternalGrandfather')) {
    for (const k of [...FATHER_SIDE, ...MOTHER_SIDE])
      exclude(
        st,
        k,
        'maternalGrandfather',
        'the second class of distant kindred (the maternal grandfather) excludes the fourth.',
      );
    st.result.set('maternalGrandfather', rest);
    st.steps.push({
      kind: 'residuary',
      detail: `The maternal grandfather takes ${rest} (second class of distant kindred).`,
    });
    return;
  }
  if (isActive(st, 'fullPaternalAunt'))
    exclude(
      st,
      'paternalHalfPaternalAunt',
      'fullPaternalAunt',
      'on one side, the stronger kinship (full) excludes the weaker.',
    );
  // On the mother's side too the stronger kinship excludes the weaker: full, then paternal half, then maternal half
  // (al-Sirajiyyah, ch. on distant kindred, fourth class: "those related through both parents are preferred to those
  // through the father, and those through the father to those through the mother").
  const strongest = MOTHER_SIDE_BY_STRENGTH.findIndex((ks) => ks.some((k) => isActive(st, k)));
  if (strongest >= 0) {
    const by = MOTHER_SIDE_BY_STRENGTH[strongest]!.find((k) => isActive(st, k))!;
    for (const ks of MOTHER_SIDE_BY_STRENGTH.slice(strongest + 1))
      for (const k of ks)
        exclude(st, k, by, 'on one side, the stronger kinship (full, then paternal half) excludes the weaker.');
  }
  const father = FATHER_SIDE.some((k) => isActive(st, k));
  const mother = MOTHER_SIDE.some((k) => isActive(st, k));
  const fatherPart = father && mother ? rest.mul(TWO_THIRDS) : father ? rest : Fraction.ZERO;
  const motherPart = rest.sub(fatherPart);
  if (father) split(st, FATHER_SIDE, fatherPart);
  if (mother) split(st, MOTHER_SIDE, motherPart);
  st.steps.push({
    kind: 'residuary',
    detail:
      father && mother
        ? `Aunts and uncles of both sides (fourth class): the father's side takes two thirds (${fatherPart}), the mother's side one third (${motherPart}); on the mother's side a male takes twice a female, among those of the strongest kinship.`
        : `${father ? "The father's side" : "The mother's side"} alone takes ${rest} (fourth class of distant kindred)${mother ? ', a male twice a female, among those of the strongest kinship' : ''}.`,
  });
}

/** The heir each line of kindred stands in for under tanzil. */
const LINES: Array<{ root: 'daughter' | 'mother' | 'father'; kin: readonly HeirKey[] }> = [
  { root: 'daughter', kin: CLASS1 },
  { root: 'mother', kin: ['maternalGrandfather', ...MOTHER_SIDE] },
  { root: 'father', kin: FATHER_SIDE },
];

/**
 * Whether tanzil decides a line from the counts alone: relatives of one kind
 * (all of the mother's brothers, say) share their root's portion equally;
 * two relatives of one kind on the daughter's line take the same whether
 * they descend from one daughter or two. Otherwise it depends on facts the
 * input does not give.
 */
function lineDecided(st: EngineState, line: (typeof LINES)[number]): boolean {
  const kinds = line.kin.filter((k) => isActive(st, k));
  const persons = kinds.reduce((s, k) => s + count(st, k), 0);
  if (persons <= 1) return true;
  if (kinds.length > 1) return false;
  return line.root !== 'daughter' || persons === 2;
}

function tanzil(st: EngineState, rest: Fraction): void {
  for (const line of LINES) {
    if (lineDecided(st, line)) continue;
    const kinds = line.kin.filter((k) => isActive(st, k));
    const persons = kinds.reduce((s, k) => s + count(st, k), 0);
    throw ApiError.validation(
      `Distant kindred inherit here; the ${st.school.label} shares (tanzil) of these relatives are not computed`,
      [
        {
          field: `heirs.${kinds[0]}`,
          reason: `under the ${st.school.label} school distant kindred (dhawu al-arham) inherit by tanzil, each in the place of the heir through whom he is related (here the ${line.root}); ${persons} relatives of ${kinds.length > 1 ? 'different kinds' : 'one kind'} on that line divide it by facts the input does not give (which ${line.root === 'daughter' ? 'daughter each descends from' : 'relative is nearer to the ' + line.root}, and a disputed point for a man and a woman of one line); madhhab "hanafi" computes the Hanafi method`,
        },
      ],
    );
  }
  const present = LINES.filter((l) => l.kin.some((k) => isActive(st, k)));
  const has = (r: string): boolean => present.some((l) => l.root === r);
  // The roots' shares, as if they alone were the heirs: daughter 1/2, mother 1/3 (1/6 beside a daughter), the father the rest; radd when he is absent.
  const root = new Map<string, Fraction>();
  if (has('daughter')) root.set('daughter', HALF);
  if (has('mother')) root.set('mother', has('daughter') ? SIXTH : THIRD);
  const fixed = Fraction.sum([...root.values()]);
  if (has('father')) root.set('father', Fraction.ONE.sub(fixed));
  else for (const [r, f] of root) root.set(r, f.div(fixed));
  for (const line of present) {
    const k = line.kin.find((x) => isActive(st, x))!;
    const part = rest.mul(root.get(line.root)!);
    st.result.set(k, part);
    st.steps.push({
      kind: 'residuary',
      detail: `Tanzil: the ${L[k]}${count(st, k) > 1 ? ` (${count(st, k)}, equally)` : ''} stand${count(st, k) > 1 ? '' : 's'} in the place of the ${line.root} and take${count(st, k) > 1 ? '' : 's'} the ${line.root}'s ${root.get(line.root)} of the ${rest} left to the distant kindred: ${part}.`,
    });
  }
}

/** Divides the estate among the spouse (if any) and the distant kindred, by the school's method. */
export function distributeArham(st: EngineState): void {
  st.specialCases.push('distant-kindred');
  const hanafiMethod = st.school.madhhab === 'hanafi';
  st.steps.push({
    kind: 'special-case',
    detail: hanafiMethod
      ? 'Distant kindred (dhawu al-arham) inherit: no sharer or residuary survives but a spouse. Hanafi method (ahl al-qaraba): by classes, the nearer class excluding the further (Al-Sirajiyyah, ch. on distant kindred; Syrian Personal Status Law arts. 290-297).'
      : `Distant kindred (dhawu al-arham) inherit: no sharer or residuary survives but a spouse. ${st.school.label} method: tanzil, each in the place of the heir through whom he is related${st.school.madhhab === 'hanbali' ? ' (Ibn Qudama, al-Mughni, bab dhawi al-arham)' : ', the later doctrine of the school where no regular public treasury exists (the early doctrine gave the estate to the treasury)'}.`,
  });
  const rest = spouseFirst(st);
  if (hanafiMethod) hanafi(st, rest);
  else tanzil(st, rest);
  st.base = baseOf([...st.result.values()]);
  for (const k of ARHAM_ORDER)
    if (count(st, k) > 0 && !st.excluded.has(k) && !st.result.has(k)) st.result.set(k, Fraction.ZERO);
}
