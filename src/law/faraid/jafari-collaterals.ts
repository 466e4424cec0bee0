import { Fraction } from './fraction.js';
import { active, give, type Member } from './jafari-members.js';
import { count, type EngineState, HALF, isActive, L, SIXTH, THIRD, TWO_THIRDS } from './state.js';

/** The Ja'fari second and third classes: siblings and grandparents, uncles and aunts, each by two sides (jafari.ts). */

/** Class 2 (arts. 914-927). */
export function classTwo(st: EngineState, rest: Fraction): void {
  const paternal: Member[] = siblingLine(st);
  paternal.push({ heir: 'paternalGrandfather', weight: 2 }, { heir: 'paternalGrandmother', weight: 1 });
  const maternal: Member[] = [
    { heir: 'maternalHalfBrother', weight: 1 },
    { heir: 'maternalHalfSister', weight: 1 },
    { heir: 'maternalGrandmother', weight: 1 },
    { heir: 'maternalGrandfather', weight: 1 },
  ];
  const grandparent = isActive(st, 'maternalGrandmother') || isActive(st, 'maternalGrandfather');
  twoSides(st, rest, paternal, maternal, (n) => (n === 1 && !grandparent ? SIXTH : THIRD), {
    both: "the mother's side takes its share from the whole estate (1/6 for a single maternal half-sibling, else 1/3, shared equally, a maternal grandparent counting as a maternal half-sibling); the father's side takes the rest, males twice females, and bears any shortfall (arts. 922-924, 927; al-Ruhani, al-Masa'il al-Muntakhaba, matters 1287-1288)",
    label: 'Class 2',
    alone: '(arts. 917-923)',
    sharers: true,
  });
}

/** The father's side of class 2: full siblings, else paternal half-siblings, else the line of a brother (art. 925). */
function siblingLine(st: EngineState): Member[] {
  const nephew = active(st, ['fullBrothersSon', 'paternalHalfBrothersSon'])[0];
  if (nephew) {
    st.steps.push({
      kind: 'special-case',
      detail: `No brother or sister is alive: the ${L[nephew]}s take their father's place (art. 925); counts only are given, so they are taken as the children of one brother.`,
    });
    return [{ heir: nephew, weight: 2, line: true }];
  }
  return [
    { heir: 'fullBrother', weight: 2 },
    { heir: 'fullSister', weight: 1 },
    { heir: 'paternalHalfBrother', weight: 2 },
    { heir: 'paternalHalfSister', weight: 1 },
  ];
}

/**
 * Class 3 (arts. 928-939): the father's side (his full or paternal half
 * brothers and sisters, an uncle taking twice an aunt) and the mother's side
 * (her brothers and sisters, in equal parts). With both sides, the mother's
 * side takes 1/3 of the whole estate, one or many, and the father's side the
 * rest, a spouse's share coming out of the father's side; a side alone takes
 * all the spouse leaves. Without uncles and aunts, their children (the
 * paternal uncles' sons here) take their place.
 */
export function classThree(st: EngineState, rest: Fraction): void {
  const cousins: Member[] = [
    { heir: 'fullPaternalUnclesSon', weight: 1 },
    { heir: 'paternalHalfPaternalUnclesSon', weight: 1 },
  ];
  if (active(st, ['fullPaternalUnclesSon', 'paternalHalfPaternalUnclesSon']).length > 0) {
    give(st, rest, cousins);
    st.steps.push({
      kind: 'residuary',
      detail: `Class 3: no uncle or aunt is alive; the paternal uncles' sons take the ${rest} left equally (arts. 928-931; cousins by the uncle they descend from, taken here as one line).`,
    });
    return;
  }
  const paternal: Member[] = [
    { heir: 'fullPaternalUncle', weight: 2 },
    { heir: 'paternalHalfPaternalUncle', weight: 2 },
    { heir: 'fullPaternalAunt', weight: 1 },
    { heir: 'paternalHalfPaternalAunt', weight: 1 },
  ];
  const maternal: Member[] = [...MATERNAL_FULL, ...MATERNAL_UTERINE];
  twoSides(st, rest, paternal, maternal, () => THIRD, {
    both: "class 3: the mother's brothers and sisters take 1/3 of the whole estate, one or many, in equal parts; the father's brothers and sisters take the rest, an uncle twice an aunt, and bear any spouse's share (Sistani, Islamic Laws, rulings 2774, 2776, 2779; al-Muhaqqiq al-Hilli, Shara'i' al-Islam, inheritance, third class). Some jurists give a maternal uncle twice a maternal aunt and advise a settlement on the difference (Sistani, ruling 2776)",
    label: 'Class 3',
    alone:
      "(Sistani, Islamic Laws, rulings 2774, 2776): on the father's side an uncle takes twice an aunt, on the mother's they take equal parts (some jurists give a maternal uncle twice a maternal aunt and advise a settlement on the difference)",
    sharers: false,
    giveMother: maternalSide,
  });
}

/** The mother's full siblings, or her paternal half-siblings in their place: equal parts. */
const MATERNAL_FULL: Member[] = [
  { heir: 'maternalUncle', weight: 1 },
  { heir: 'maternalAunt', weight: 1 },
  { heir: 'paternalHalfMaternalUncle', weight: 1 },
  { heir: 'paternalHalfMaternalAunt', weight: 1 },
];
/** The mother's maternal half-siblings. */
const MATERNAL_UTERINE: Member[] = [
  { heir: 'maternalHalfMaternalUncle', weight: 1 },
  { heir: 'maternalHalfMaternalAunt', weight: 1 },
];

const UTERINE = new Set(MATERNAL_UTERINE.map((m) => m.heir));

/**
 * The mother's side of class 3 (its living `members`) shares its portion as her own brothers and sisters would share
 * her estate: beside full (or paternal half) ones, her maternal half-siblings take 1/6 of the portion for one, 1/3 for
 * several, in equal parts, and the others the rest; alone, either kind takes it all in equal parts (al-Muhaqqiq
 * al-Hilli, Shara'i' al-Islam, inheritance, third class; as Sistani, Islamic Laws, ruling 2775 rules the father's side).
 */
function maternalSide(st: EngineState, portion: Fraction, members: Member[]): void {
  const uterine = members.filter((m) => UTERINE.has(m.heir));
  const others = members.filter((m) => !UTERINE.has(m.heir));
  if (uterine.length === 0 || others.length === 0) {
    give(st, portion, uterine.length > 0 ? uterine : others);
    return;
  }
  const persons = uterine.reduce((a, m) => a + count(st, m.heir), 0);
  const part = portion.mul(persons > 1 ? THIRD : SIXTH);
  give(st, part, uterine);
  give(st, portion.sub(part), others);
  st.steps.push({
    kind: 'fixed-share',
    detail: `On the mother's side, her maternal half-siblings take ${persons > 1 ? '1/3' : '1/6'} of its ${portion} (${part}), in equal parts, and her full or paternal half-siblings the rest (${portion.sub(part)}), as her own siblings would inherit from her (al-Muhaqqiq al-Hilli, Shara'i' al-Islam, inheritance, third class).`,
  });
}

/**
 * The two sides of class 2: the mother's side takes its fixed share from the
 * whole, the father's side the rest (with the shortfall, art. 938's rule); a
 * side alone takes everything the spouse leaves, by radd where it is a share.
 */
function twoSides(
  st: EngineState,
  rest: Fraction,
  paternal: Member[],
  maternal: Member[],
  maternalShare: (persons: number) => Fraction,
  why: {
    both: string;
    /** The class, and the authority for a side alone. */
    label: string;
    alone: string;
    sharers: boolean;
    /** How the mother's side splits what it takes; default by weight per head. */
    giveMother?: (st: EngineState, portion: Fraction, members: Member[]) => void;
  },
): void {
  const giveMother = why.giveMother ?? give;
  const live = (ms: Member[]) => ms.filter((m) => isActive(st, m.heir));
  const p = live(paternal);
  const m = live(maternal);
  if (p.length === 0 || m.length === 0) {
    const side = p.length > 0 ? p : m;
    if (side === p) give(st, rest, p);
    else giveMother(st, rest, m);
    // In class 2 a side of sharers only (maternal kin, or sisters without a brother or grandfather) has a share: the
    // surplus over it returns to it by radd, and a shortfall falls on it (no 'awl: Mughniyya, The Five Schools,
    // 'awl). The uncles and aunts of class 3, and a side with a male, inherit by kinship, not by a share.
    const persons = side.reduce((a, x) => a + count(st, x.heir), 0);
    const sisters = side === p && p.every((x) => x.weight === 1 && !x.line);
    const share = !why.sharers
      ? undefined
      : side === m
        ? maternalShare(persons)
        : sisters
          ? persons > 1
            ? TWO_THIRDS
            : HALF
          : undefined;
    const left = rest.eq(Fraction.ONE) ? 'the whole estate' : `the ${rest} left after the spouse's share`;
    let how = `it takes ${left}`;
    if (share?.lt(rest)) {
      st.radd = true;
      how = `its share is ${share}, and the ${rest.sub(share)} over it returns to it by radd: it takes ${left}`;
    } else if (share?.gt(rest))
      how = `its share, ${share}, is more than ${left}; there is no 'awl, so it bears the shortfall and takes ${rest}`;
    else if (share) how = `its share, ${share}, is ${left}`;
    st.steps.push({
      kind: share?.lt(rest) ? 'radd' : share?.gt(rest) ? 'special-case' : 'residuary',
      detail: `${why.label}: only the ${side === p ? "father's" : "mother's"} side is alive (${side.map((x) => (count(st, x.heir) > 1 ? `${count(st, x.heir)} ${L[x.heir]}s` : L[x.heir])).join(', ')}); ${how} ${why.alone}.`,
    });
    return;
  }
  const persons = m.reduce((a, x) => a + count(st, x.heir), 0);
  const share = maternalShare(persons);
  for (const x of m) st.fard.set(x.heir, share.mul(count(st, x.heir)).div(persons));
  giveMother(st, share, m);
  give(st, rest.sub(share), p);
  st.steps.push({ kind: 'fixed-share', detail: `The mother's side takes ${share}: ${why.both}.` });
}
