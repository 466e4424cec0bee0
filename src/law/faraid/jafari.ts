import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import { classThree, classTwo } from './jafari-collaterals.js';
import { active, exclude, give, type Member } from './jafari-members.js';
import { baseOf, count, type EngineState, F, HALF, L, SIXTH, THIRD, TWO_THIRDS } from './state.js';

/**
 * The Ja'fari (Twelver Shia) division, as the Iranian Civil Code (arts.
 * 861-949) codifies it. It shares the Sunni engine's state, fractions and
 * result shape but not its phases, because the structure differs:
 * - kin inherit by three classes (art. 862): (1) parents and descendants,
 *   (2) grandparents and siblings and their children, (3) uncles and aunts
 *   and their children; anyone of a nearer class excludes every further one
 *   (art. 863), and within a class the nearer degree excludes the further
 *   (arts. 887-889);
 * - the spouse inherits with every class (art. 864), always the fixed share
 *   (arts. 913, 927, 938 through art. 941);
 * - there is no ta'sib: what is left after the fixed shares returns by radd to
 *   the fixed-share kin of the class (arts. 908, 909), and there is no 'awl:
 *   a shortfall falls on the daughters or on the father's side, never on the
 *   spouse, the parents or the mother's side (art. 938; Mughniyya, "The Five
 *   Schools of Islamic Law", ch. Inheritance, 'awl and ta'sib).
 * Counts only are given, so descendants of a predeceased child and children
 * of siblings or uncles are each taken as the line of one such relative (per
 * stirpes, art. 911; art. 925): a step says so.
 */

const CLASS_KEYS: HeirKey[][] = [
  ['son', 'daughter', 'sonsSon', 'sonsDaughter', 'daughtersSon', 'daughtersDaughter', 'father', 'mother'],
  [
    'paternalGrandfather',
    'paternalGrandmother',
    'maternalGrandmother',
    'maternalGrandfather',
    'fullBrother',
    'fullSister',
    'paternalHalfBrother',
    'paternalHalfSister',
    'maternalHalfBrother',
    'maternalHalfSister',
    'fullBrothersSon',
    'paternalHalfBrothersSon',
  ],
  [
    'fullPaternalUncle',
    'paternalHalfPaternalUncle',
    'fullPaternalAunt',
    'paternalHalfPaternalAunt',
    'maternalUncle',
    'maternalAunt',
    'paternalHalfMaternalUncle',
    'paternalHalfMaternalAunt',
    'maternalHalfMaternalUncle',
    'maternalHalfMaternalAunt',
    'fullPaternalUnclesSon',
    'paternalHalfPaternalUnclesSon',
  ],
];

/** Art. 863: the first class with a living member excludes the further classes. Returns that class (0-2) or -1. */
function applyClasses(st: EngineState): number {
  const cls = CLASS_KEYS.findIndex((ks) => ks.some((k) => count(st, k) > 0));
  if (cls < 0) return -1;
  const by = CLASS_KEYS[cls]!.find((k) => count(st, k) > 0)!;
  for (const ks of CLASS_KEYS.slice(cls + 1))
    for (const k of ks)
      exclude(
        st,
        k,
        by,
        `is excluded by the ${L[by]}: a relative of class ${cls + 1} is alive (Iran Civil Code arts. 862, 863).`,
      );
  return cls;
}

/** Within a class the nearer degree excludes the further, and full kin exclude paternal half kin (arts. 887-890, 930). */
function applyDegrees(st: EngineState): void {
  const first = (ks: HeirKey[]): HeirKey | undefined => ks.find((k) => count(st, k) > 0);
  const child = first(['son', 'daughter']);
  if (child)
    for (const k of ['sonsSon', 'sonsDaughter', 'daughtersSon', 'daughtersDaughter'] as const)
      exclude(
        st,
        k,
        child,
        `is excluded by the ${L[child]}: a nearer degree of descendants excludes a further (art. 889).`,
      );
  const full = first(['fullBrother', 'fullSister']);
  if (full)
    for (const k of ['paternalHalfBrother', 'paternalHalfSister', 'paternalHalfBrothersSon'] as const)
      exclude(st, k, full, `is excluded by the ${L[full]}: full siblings exclude paternal half-siblings (art. 887).`);
  const sib = first([
    'fullBrother',
    'fullSister',
    'paternalHalfBrother',
    'paternalHalfSister',
    'maternalHalfBrother',
    'maternalHalfSister',
  ]);
  if (sib)
    for (const k of ['fullBrothersSon', 'paternalHalfBrothersSon'] as const)
      exclude(
        st,
        k,
        sib,
        `is excluded by the ${L[sib]}: children of siblings inherit only without siblings (arts. 887, 925).`,
      );
  if (count(st, 'fullBrothersSon') > 0)
    exclude(
      st,
      'paternalHalfBrothersSon',
      'fullBrothersSon',
      'is excluded by the line of a full brother (arts. 887, 925).',
    );
  const fullPaternal = first(['fullPaternalUncle', 'fullPaternalAunt']);
  if (fullPaternal)
    for (const k of ['paternalHalfPaternalUncle', 'paternalHalfPaternalAunt'] as const)
      exclude(
        st,
        k,
        fullPaternal,
        `is excluded by the ${L[fullPaternal]}: the father's full siblings exclude his paternal half-siblings (art. 930; Sistani, Islamic Laws, ruling 2775).`,
      );
  const fullMaternal = first(['maternalUncle', 'maternalAunt']);
  if (fullMaternal)
    for (const k of ['paternalHalfMaternalUncle', 'paternalHalfMaternalAunt'] as const)
      exclude(
        st,
        k,
        fullMaternal,
        `is excluded by the ${L[fullMaternal]}: the mother's full siblings exclude her paternal half-siblings, as on the father's side (al-Muhaqqiq al-Hilli, Shara'i' al-Islam, inheritance, third class).`,
      );
  const uncle = first([
    'fullPaternalUncle',
    'paternalHalfPaternalUncle',
    'fullPaternalAunt',
    'paternalHalfPaternalAunt',
    'maternalUncle',
    'maternalAunt',
    'paternalHalfMaternalUncle',
    'paternalHalfMaternalAunt',
    'maternalHalfMaternalUncle',
    'maternalHalfMaternalAunt',
  ]);
  if (uncle)
    for (const k of ['fullPaternalUnclesSon', 'paternalHalfPaternalUnclesSon'] as const)
      exclude(
        st,
        k,
        uncle,
        `is excluded by the ${L[uncle]}: uncles and aunts exclude cousins (art. 888; Sistani, Islamic Laws, ruling 2779).`,
      );
  if (count(st, 'fullPaternalUnclesSon') > 0)
    exclude(
      st,
      'paternalHalfPaternalUnclesSon',
      'fullPaternalUnclesSon',
      'is excluded by the full cousin (arts. 888, 930).',
    );
}

/** The spouse's fixed share, from the whole estate with every class (arts. 864, 913, 941). */
function spouseShare(st: EngineState, descendants: boolean): Fraction {
  const husband = count(st, 'husband') > 0;
  if (!husband && count(st, 'wife') === 0) return Fraction.ZERO;
  const k: HeirKey = husband ? 'husband' : 'wife';
  const f = husband ? (descendants ? F(1, 4) : HALF) : descendants ? F(1, 8) : F(1, 4);
  st.fard.set(k, f);
  st.result.set(k, f);
  st.steps.push({
    kind: 'fixed-share',
    detail: `The ${L[k]}${count(st, k) > 1 ? ` (${count(st, k)}, together)` : ''} take${count(st, k) > 1 ? '' : 's'} ${f} of the whole estate, with ${descendants ? 'a' : 'no'} child or descendant (Iran Civil Code arts. 864, 913, 941); the spouse never shares in radd or shortfall.`,
  });
  return f;
}

/**
 * The spouse as the only heir (art. 949): the husband takes the whole, his
 * half and the rest by radd; the wife takes her quarter and the rest is
 * heirless property for the state (art. 866), unless the spouse-radd setting
 * gives her the rest.
 */
function spouseAlone(st: EngineState, share: Fraction): void {
  const rest = Fraction.ONE.sub(share);
  if (count(st, 'husband') > 0 || st.spouseRadd) {
    const k: HeirKey = count(st, 'husband') > 0 ? 'husband' : 'wife';
    st.result.set(k, Fraction.ONE);
    st.radd = true;
    st.steps.push({
      kind: 'radd',
      detail:
        k === 'husband'
          ? `No other heir: the husband takes the remaining ${rest} by radd, so the whole estate (Iran Civil Code art. 949).`
          : `No other heir: the wife takes the remaining ${rest} by radd (${st.spouseRaddSource ?? 'the spouse-radd setting'}); Iran Civil Code art. 949 gives it to the state instead.`,
    });
    return;
  }
  st.treasury = rest;
  st.steps.push({
    kind: 'radd',
    detail: `No other heir: the wife keeps her ${share}; the remaining ${rest} is heirless property and goes to the state (Iran Civil Code arts. 949, 866; setting from ${st.spouseRaddSource ?? 'the default'}).`,
  });
}

/** Entry point: divides the estate by the Ja'fari rules into st.result (and st.treasury). */
export function jafariShares(st: EngineState): void {
  const cls = applyClasses(st);
  applyDegrees(st);
  const descendants =
    cls === 0 &&
    active(st, ['son', 'daughter', 'sonsSon', 'sonsDaughter', 'daughtersSon', 'daughtersDaughter']).length > 0;
  const spouse = spouseShare(st, descendants);
  if (cls < 0) spouseAlone(st, spouse);
  else if (cls === 0) classOne(st, Fraction.ONE.sub(spouse));
  else if (cls === 1) classTwo(st, Fraction.ONE.sub(spouse));
  else classThree(st, Fraction.ONE.sub(spouse));
  st.base = baseOf(st.fard.values());
}

/** Art. 892(b): the mother's "hajib": father alive and two brothers, a brother and two sisters, or four sisters (full or paternal). */
function motherHasHajib(st: EngineState): boolean {
  if (count(st, 'father') === 0) return false;
  const b = count(st, 'fullBrother') + count(st, 'paternalHalfBrother');
  const s = count(st, 'fullSister') + count(st, 'paternalHalfSister');
  return b >= 2 || (b === 1 && s >= 2) || s >= 4;
}

/** A group of descendants that stands in one place: the children themselves, or the line of one predeceased child. */
interface Line {
  /** Weight of the line against the other lines (a son's place 2, a daughter's 1). */
  weight: number;
  members: Member[];
  /** How the steps name the line. */
  label: string;
}

const SONS_LINE: Member[] = [
  { heir: 'sonsSon', weight: 2 },
  { heir: 'sonsDaughter', weight: 1 },
];
const DAUGHTERS_LINE: Member[] = [
  { heir: 'daughtersSon', weight: 2 },
  { heir: 'daughtersDaughter', weight: 1 },
];

/** Class 1: parents and descendants (arts. 906-913). `rest` is what the spouse leaves. */
function classOne(st: EngineState, rest: Fraction): void {
  const hajib = motherHasHajib(st);
  if (hajib)
    st.steps.push({
      kind: 'exclusion',
      detail:
        "The father is alive and the deceased's brothers and sisters meet the hajib condition: the mother's share falls to 1/6 and she takes no part of any radd (art. 892(b), arts. 906, 908, 909).",
    });
  if (active(st, ['son']).length > 0)
    return classOneWithSon(st, rest, [
      {
        weight: 1,
        label: 'children',
        members: [
          { heir: 'son', weight: 2 },
          { heir: 'daughter', weight: 1 },
        ],
      },
    ]);
  if (count(st, 'daughter') > 0)
    return classOneDaughters(st, rest, hajib, {
      weight: 1,
      label: 'daughters',
      members: [{ heir: 'daughter', weight: 1 }],
    });
  const sonLine = active(st, ['sonsSon', 'sonsDaughter']).length > 0;
  const daughterLine = active(st, ['daughtersSon', 'daughtersDaughter']).length > 0;
  if (sonLine || daughterLine) {
    const which = [
      sonLine ? "the son's children their father's" : '',
      daughterLine ? "the daughter's children their mother's" : '',
    ]
      .filter(Boolean)
      .join(', and ');
    st.steps.push({
      kind: 'special-case',
      detail: `No child is alive: ${which} place, each line taking the share of the child it descends from, males twice females within a line (art. 911; Khomeini, Tahrir al-Wasila, inheritance, first class, matters 1-4); counts only are given, so each line is taken as the children of one child.`,
    });
  }
  const sons: Line = { weight: 2, label: "son's children", members: SONS_LINE };
  const daughters: Line = { weight: 1, label: "daughter's children", members: DAUGHTERS_LINE };
  if (sonLine) return classOneWithSon(st, rest, daughterLine ? [sons, daughters] : [sons]);
  if (daughterLine) return classOneDaughters(st, rest, hajib, daughters);
  return classOneParents(st, rest, hajib);
}

function parentSixths(st: EngineState): HeirKey[] {
  const parents = active(st, ['father', 'mother']);
  for (const p of parents) {
    st.fard.set(p, SIXTH);
    st.result.set(p, SIXTH);
    st.steps.push({ kind: 'fixed-share', detail: `The ${L[p]} takes 1/6 with a child (art. 892(a), arts. 908, 909).` });
  }
  return parents;
}

/** Splits a portion among lines by their weights, then within each line by weight per head. */
function giveLines(st: EngineState, portion: Fraction, lines: Line[]): void {
  const total = lines.reduce((a, l) => a + l.weight, 0);
  for (const l of lines) give(st, portion.mul(l.weight).div(total), l.members);
}

/** A son (or a son's line): the parents take 1/6 each and the descendants the rest, a son's place twice a daughter's. */
function classOneWithSon(st: EngineState, rest: Fraction, lines: Line[]): void {
  const parents = parentSixths(st);
  const left = rest.sub(SIXTH.mul(parents.length));
  giveLines(st, left, lines);
  st.steps.push({
    kind: 'residuary',
    detail: `The ${left} left goes to the ${lines.map((l) => l.label).join(' and the ')} by kinship (qaraba), ${lines.length > 1 ? "the son's line two parts and the daughter's line one, " : ''}males twice females (arts. 907, 911, 913). The eldest son's hubwa (his father's personal effects) is outside these shares.`,
  });
}

/**
 * Daughters without a son (or a daughter's line alone): 1/2 or 2/3; radd to
 * the daughters and parents, or the shortfall on the daughters. A daughter's
 * line takes her share, 1/2, and her part of the radd, even its males
 * (Tahrir al-Wasila, inheritance, first class, matter 2).
 */
function classOneDaughters(st: EngineState, rest: Fraction, hajib: boolean, line: Line): void {
  const own = line.members[0]!.heir === 'daughter';
  const n = own ? count(st, 'daughter') : 1;
  const d = n > 1 ? TWO_THIRDS : HALF;
  const first = active(
    st,
    line.members.map((m) => m.heir),
  )[0]!;
  st.fard.set(first, d);
  st.steps.push({
    kind: 'fixed-share',
    detail: own
      ? `The daughter${n > 1 ? `s (${n}, together) take` : ' takes'} ${d} (arts. 899, 909).`
      : `The daughter's children take their mother's ${d} (arts. 899, 911).`,
  });
  const parents = parentSixths(st);
  const given = SIXTH.mul(parents.length);
  const left = rest.sub(given).sub(d);
  if (left.isZero() || left.lt(Fraction.ZERO)) {
    const got = rest.sub(given);
    give(st, got, line.members);
    if (left.lt(Fraction.ZERO))
      st.steps.push({
        kind: 'special-case',
        detail: `The shares exceed the estate; there is no 'awl: the ${line.label} bear the shortfall and take ${got}, the spouse and parents keep theirs (Mughniyya, The Five Schools, 'awl; al-Saduq, al-Muqni', husband, daughter and parents).`,
      });
    return;
  }
  const inRadd = parents.filter((p) => !(p === 'mother' && hajib));
  const total = d.add(SIXTH.mul(inRadd.length));
  give(st, d.add(left.mul(d).div(total)), line.members);
  for (const p of inRadd) st.result.set(p, st.result.get(p)!.add(left.mul(SIXTH).div(total)));
  st.radd = true;
  st.steps.push({
    kind: 'radd',
    detail: `The ${left} left returns by radd to the ${[line.label, ...inRadd.map((p) => L[p])].join(', the ')} in proportion to their shares, never to the spouse${hajib ? ' nor to the mother, who has a hajib' : ''} (arts. 908, 909${own ? '' : ', 911'}).`,
  });
}

/** Parents without descendants (art. 906): the mother 1/3 (1/6 with a hajib), the father the rest; a parent alone takes all. */
function classOneParents(st: EngineState, rest: Fraction, hajib: boolean): void {
  const father = count(st, 'father') > 0;
  const mother = count(st, 'mother') > 0;
  if (mother) {
    const m = hajib ? SIXTH : THIRD;
    st.fard.set('mother', m);
    st.result.set('mother', m);
    st.steps.push({ kind: 'fixed-share', detail: `The mother takes ${m} of the whole estate (arts. 906, 913).` });
  }
  if (father) {
    const left = rest.sub(st.result.get('mother') ?? Fraction.ZERO);
    st.result.set('father', left);
    st.steps.push({
      kind: 'residuary',
      detail: `The father takes the ${left} left by kinship (qaraba) (arts. 906, 913).`,
    });
    return;
  }
  const left = rest.sub(st.result.get('mother')!);
  if (left.isZero()) return;
  st.result.set('mother', rest);
  st.radd = true;
  st.steps.push({
    kind: 'radd',
    detail: `The mother is the only relative: the ${left} left returns to her by radd, so she takes ${rest} (art. 906: a parent alone takes the whole, after the spouse's share).`,
  });
}
