import { Fraction, lcm } from './fraction.js';
import { HEIR_KEYS, HEIR_LABELS, type HeirCounts, type HeirKey, type Madhhab } from './heirs.js';

/**
 * The fara'id engine proper: heir counts in, exact group shares out, with the
 * reasoning as steps. Input is assumed valid (see calculateFaraid for checks).
 */

export type StepKind =
  | 'madhhab'
  | 'exclusion'
  | 'fixed-share'
  | 'residuary'
  | 'special-case'
  | 'base'
  | 'awl'
  | 'radd'
  | 'correction'
  | 'estate'
  | 'rounding';

export interface Step {
  kind: StepKind;
  detail: string;
}

export interface Exclusion {
  heir: HeirKey;
  by: HeirKey;
  reason: string;
}

/** Options of the calculation beyond the school. */
export interface EngineOptions {
  /**
   * A husband or wife who is the only heir: true (default) gives the spouse the
   * surplus by radd, so the whole estate (later Hanafi fatwa, Egyptian Law 77
   * of 1943 art. 30); false keeps the spouse to the fixed share (1/2 or 1/4)
   * and gives the rest to the public treasury, bayt al-mal (the classical
   * position of the four schools).
   */
  spouseRadd?: boolean;
  /** Where the setting came from, for the step that states it. */
  spouseRaddSource?: string;
}

export interface EngineResult {
  /** Share of each inheriting heir type (the whole group), in HEIR_KEYS order; with `treasury`, sums to exactly 1. */
  shares: Array<{ heir: HeirKey; count: number; share: Fraction }>;
  /** What goes to the public treasury (bayt al-mal): only with a spouse as the only heir and spouseRadd false. */
  treasury?: Fraction;
  /** The spouse-radd setting in force (whether or not the case arose). */
  spouseRadd: boolean;
  excluded: Exclusion[];
  steps: Step[];
  specialCases: string[];
  /** Base of the problem (asl al-mas'ala) before 'awl. */
  base: bigint;
  /** Base after 'awl, when 'awl applied. */
  awlBase?: bigint;
  /** Smallest common denominator of every person's share (tashih). */
  correctedBase: bigint;
  awl: boolean;
  radd: boolean;
}

const L = HEIR_LABELS;
const F = (n: number, d = 1): Fraction => Fraction.of(n, d);
const SIXTH = F(1, 6);
const THIRD = F(1, 3);
const HALF = F(1, 2);
const TWO_THIRDS = F(2, 3);

interface Residuary {
  heir: HeirKey;
  weight: number; // per head: male 2, female 1
}

export function computeShares(input: HeirCounts, madhhab: Madhhab, opts: EngineOptions = {}): EngineResult {
  const spouseRadd = opts.spouseRadd ?? true;
  let treasury: Fraction | undefined;
  const counts = {} as Record<HeirKey, number>;
  for (const k of HEIR_KEYS) counts[k] = input[k] ?? 0;
  const c = (k: HeirKey): number => counts[k];
  const steps: Step[] = [];
  const specialCases: string[] = [];
  const excluded = new Map<HeirKey, Exclusion>();
  const active = (k: HeirKey): boolean => c(k) > 0 && !excluded.has(k);
  const any = (...ks: HeirKey[]): boolean => ks.some(active);

  steps.push({ kind: 'madhhab', detail: `School applied: ${madhhab}.` });

  /** Excludes k by the first active heir of the list (each with its reason). */
  const tryExclude = (k: HeirKey, rules: Array<[HeirKey, string] | false>): void => {
    if (c(k) === 0 || excluded.has(k)) return;
    for (const rule of rules) {
      if (!rule) continue;
      const [by, reason] = rule;
      if (active(by)) {
        excluded.set(k, { heir: k, by, reason });
        steps.push({ kind: 'exclusion', detail: `The ${L[k]} is excluded by the ${L[by]}: ${reason}` });
        return;
      }
    }
  };

  const hanafi = madhhab === 'hanafi';
  const nearerMale = 'a nearer male agnate excludes a more distant one.';

  // --- Exclusion (hajb), in dependency order ---------------------------------
  tryExclude('sonsSon', [['son', 'a son excludes the grandchildren through any son.']]);
  tryExclude('sonsDaughter', [['son', 'a son excludes the grandchildren through any son.']]);
  if (c('daughter') >= 2 && !active('sonsSon'))
    tryExclude('sonsDaughter', [
      [
        'daughter',
        "two or more daughters take the whole two-thirds of daughters, leaving nothing for a son's daughter who has no son's son to make her a residuary.",
      ],
    ]);
  tryExclude('paternalGrandfather', [['father', 'the father excludes the grandfather, who inherits through him.']]);
  tryExclude('maternalGrandmother', [['mother', 'the mother excludes every grandmother.']]);
  tryExclude('paternalGrandmother', [
    ['mother', 'the mother excludes every grandmother.'],
    madhhab !== 'hanbali' && [
      'father',
      'the father excludes his own mother (majority view; the Hanbali school lets her inherit with him).',
    ],
  ]);

  const maleDesc = any('son', 'sonsSon');
  const femaleDesc = any('daughter', 'sonsDaughter');
  const anyDesc = maleDesc || femaleDesc;

  const siblingRules = (): Array<[HeirKey, string] | false> => [
    ['son', 'a male descendant excludes all brothers and sisters.'],
    ['sonsSon', 'a male descendant excludes all brothers and sisters.'],
    ['father', 'the father excludes all brothers and sisters.'],
    hanafi && [
      'paternalGrandfather',
      'in the Hanafi school (Abu Hanifa) the grandfather stands in the place of the father and excludes brothers and sisters.',
    ],
  ];
  tryExclude('fullBrother', siblingRules());
  tryExclude('fullSister', siblingRules());

  // Grandfather sharing with siblings (Zayd ibn Thabit's doctrine), outside the Hanafi school.
  const zaydMode = !hanafi && active('paternalGrandfather');

  const fsWithOthers = active('fullSister') && !active('fullBrother') && femaleDesc && !zaydMode;
  const phRules = (): Array<[HeirKey, string] | false> => [
    ...siblingRules(),
    // With the grandfather (Zayd), paternal half-siblings are first counted against him (mu'adda).
    !zaydMode && ['fullBrother', 'a full brother excludes paternal half-siblings.'],
    fsWithOthers && [
      'fullSister',
      "a full sister made residuary by the deceased's daughters ranks as a full brother and excludes paternal half-siblings.",
    ],
  ];
  tryExclude('paternalHalfBrother', phRules());
  tryExclude('paternalHalfSister', phRules());
  if (!zaydMode && c('fullSister') >= 2 && active('fullSister') && !active('paternalHalfBrother'))
    tryExclude('paternalHalfSister', [
      [
        'fullSister',
        'two or more full sisters take the whole two-thirds of sisters, leaving nothing for a paternal half-sister who has no paternal half-brother to make her a residuary.',
      ],
    ]);
  const phsWithOthers =
    active('paternalHalfSister') && !active('paternalHalfBrother') && !active('fullSister') && femaleDesc && !zaydMode;

  const uterineRules: Array<[HeirKey, string]> = [
    ['son', 'any descendant excludes maternal half-siblings.'],
    ['daughter', 'any descendant excludes maternal half-siblings.'],
    ['sonsSon', 'any descendant excludes maternal half-siblings.'],
    ['sonsDaughter', 'any descendant excludes maternal half-siblings.'],
    ['father', 'a male ascendant excludes maternal half-siblings.'],
    ['paternalGrandfather', 'a male ascendant excludes maternal half-siblings.'],
  ];
  tryExclude('maternalHalfBrother', uterineRules);
  tryExclude('maternalHalfSister', uterineRules);

  // Distant agnates: each excluded by any nearer agnate (and by sisters acting as residuaries).
  const chain: HeirKey[] = [
    'fullBrothersSon',
    'paternalHalfBrothersSon',
    'fullPaternalUncle',
    'paternalHalfPaternalUncle',
    'fullPaternalUnclesSon',
    'paternalHalfPaternalUnclesSon',
  ];
  const nearer: Array<[HeirKey, string] | false> = [
    ['son', nearerMale],
    ['sonsSon', nearerMale],
    ['father', nearerMale],
    ['paternalGrandfather', nearerMale],
    ['fullBrother', nearerMale],
    fsWithOthers && ['fullSister', 'a full sister made residuary by daughters ranks as a full brother.'],
    ['paternalHalfBrother', nearerMale],
    phsWithOthers && [
      'paternalHalfSister',
      'a paternal half-sister made residuary by daughters ranks as a paternal half-brother.',
    ],
  ];
  for (const k of chain) {
    tryExclude(k, nearer);
    nearer.push([k, nearerMale]);
  }

  // --- Fixed shares (furud) ---------------------------------------------------
  const fard = new Map<HeirKey, Fraction>();
  const setFard = (k: HeirKey, f: Fraction, why: string): void => {
    fard.set(k, f);
    steps.push({
      kind: 'fixed-share',
      detail: `The ${L[k]}${c(k) > 1 ? ` (${c(k)}, together)` : ''} take${c(k) > 1 ? '' : 's'} ${f}: ${why}`,
    });
  };

  if (active('husband'))
    setFard('husband', anyDesc ? F(1, 4) : HALF, anyDesc ? 'a descendant is present.' : 'no descendant.');
  if (active('wife'))
    setFard('wife', anyDesc ? F(1, 8) : F(1, 4), anyDesc ? 'a descendant is present.' : 'no descendant.');
  const spouse: HeirKey | undefined = active('husband') ? 'husband' : active('wife') ? 'wife' : undefined;

  const siblingCount =
    c('fullBrother') +
    c('fullSister') +
    c('paternalHalfBrother') +
    c('paternalHalfSister') +
    c('maternalHalfBrother') +
    c('maternalHalfSister');

  if (active('mother')) {
    if (anyDesc) setFard('mother', SIXTH, 'a descendant is present.');
    else if (siblingCount >= 2)
      setFard('mother', SIXTH, 'two or more brothers or sisters are present (even if they are themselves excluded).');
    else if (spouse && active('father')) {
      const f = Fraction.ONE.sub(anyDesc ? Fraction.ZERO : spouse === 'husband' ? HALF : F(1, 4)).mul(THIRD);
      specialCases.push('umariyyatan');
      steps.push({
        kind: 'special-case',
        detail:
          "'Umariyyatan (the two cases decided by 'Umar): with a spouse and the father, the mother takes one third of what is left after the spouse's share, not one third of the whole, so that the father keeps twice her share.",
      });
      setFard('mother', f, "one third of the remainder after the spouse ('Umariyyatan).");
    } else setFard('mother', THIRD, 'no descendant and fewer than two brothers or sisters.');
  }

  const grandmothers = (['paternalGrandmother', 'maternalGrandmother'] as const).filter(active);
  for (const g of grandmothers)
    setFard(
      g,
      SIXTH.div(grandmothers.length),
      grandmothers.length > 1 ? 'the grandmothers share one sixth equally.' : 'a grandmother takes one sixth.',
    );

  if (active('daughter') && !active('son'))
    setFard(
      'daughter',
      c('daughter') === 1 ? HALF : TWO_THIRDS,
      c('daughter') === 1 ? 'a single daughter without a son.' : 'two or more daughters without a son.',
    );
  if (active('sonsDaughter') && !active('sonsSon')) {
    if (c('daughter') === 0)
      setFard(
        'sonsDaughter',
        c('sonsDaughter') === 1 ? HALF : TWO_THIRDS,
        "sons' daughters take the daughters' place when there is no daughter.",
      );
    else if (c('daughter') === 1)
      setFard('sonsDaughter', SIXTH, "one sixth, completing the two-thirds with the single daughter's half.");
  }

  const fatherLike = (k: 'father' | 'paternalGrandfather'): void => {
    if (maleDesc) setFard(k, SIXTH, 'a male descendant is present.');
    else if (femaleDesc) setFard(k, SIXTH, 'only female descendants are present; he also takes any residue.');
  };
  if (active('father')) fatherLike('father');
  if (active('paternalGrandfather') && !zaydSiblings()) fatherLike('paternalGrandfather');

  function zaydSiblings(): boolean {
    return zaydMode && any('fullBrother', 'fullSister', 'paternalHalfBrother', 'paternalHalfSister');
  }

  if (!zaydSiblings()) {
    if (active('fullSister') && !active('fullBrother') && !fsWithOthers)
      setFard(
        'fullSister',
        c('fullSister') === 1 ? HALF : TWO_THIRDS,
        c('fullSister') === 1 ? 'a single full sister.' : 'two or more full sisters.',
      );
    if (active('paternalHalfSister') && !active('paternalHalfBrother') && !phsWithOthers) {
      if (!active('fullSister'))
        setFard(
          'paternalHalfSister',
          c('paternalHalfSister') === 1 ? HALF : TWO_THIRDS,
          "paternal half-sisters take the full sisters' place when there is none.",
        );
      else if (c('fullSister') === 1 && fard.has('fullSister'))
        setFard(
          'paternalHalfSister',
          SIXTH,
          "one sixth, completing the two-thirds with the single full sister's half.",
        );
    }
  }
  const uterine = (['maternalHalfBrother', 'maternalHalfSister'] as const).filter(active);
  const uterineCount = uterine.reduce((s, k) => s + c(k), 0);
  if (uterineCount > 0) {
    const pool = uterineCount === 1 ? SIXTH : THIRD;
    for (const k of uterine)
      setFard(
        k,
        pool.mul(F(c(k), uterineCount)),
        uterineCount === 1
          ? 'a single maternal half-sibling.'
          : 'maternal half-siblings share one third equally, male and female alike.',
      );
  }

  // --- Residuaries ('asaba) ----------------------------------------------------
  const classes: Array<[boolean, Residuary[], string]> = [
    [
      active('son'),
      [
        { heir: 'son', weight: 2 },
        { heir: 'daughter', weight: 1 },
      ],
      'sons (with daughters, a male taking twice a female)',
    ],
    [
      active('sonsSon'),
      [
        { heir: 'sonsSon', weight: 2 },
        { heir: 'sonsDaughter', weight: 1 },
      ],
      "sons' sons (with sons' daughters, a male taking twice a female)",
    ],
    [active('father') && !maleDesc, [{ heir: 'father', weight: 1 }], 'the father'],
    [
      active('paternalGrandfather') && !maleDesc && !zaydSiblings(),
      [{ heir: 'paternalGrandfather', weight: 1 }],
      'the paternal grandfather',
    ],
    [
      active('fullBrother'),
      [
        { heir: 'fullBrother', weight: 2 },
        { heir: 'fullSister', weight: 1 },
      ],
      'full brothers (with full sisters, a male taking twice a female)',
    ],
    [fsWithOthers, [{ heir: 'fullSister', weight: 1 }], "full sisters, made residuary by the deceased's daughters"],
    [
      active('paternalHalfBrother'),
      [
        { heir: 'paternalHalfBrother', weight: 2 },
        { heir: 'paternalHalfSister', weight: 1 },
      ],
      'paternal half-brothers (with paternal half-sisters, a male taking twice a female)',
    ],
    [
      phsWithOthers,
      [{ heir: 'paternalHalfSister', weight: 1 }],
      "paternal half-sisters, made residuary by the deceased's daughters",
    ],
    ...chain.map((k): [boolean, Residuary[], string] => [active(k), [{ heir: k, weight: 1 }], `the ${L[k]}`]),
  ];
  let residuaries: Residuary[] = [];
  if (!zaydSiblings()) {
    const first = classes.find(([on]) => on);
    if (first) {
      residuaries = first[1].filter((r) => active(r.heir));
      steps.push({ kind: 'residuary', detail: `Residuaries: ${first[2]}.` });
    }
  }

  const result = new Map<HeirKey, Fraction>();
  let awl = false;
  let radd = false;
  let awlBase: bigint | undefined;
  const baseOf = (fs: Iterable<Fraction>): bigint => {
    let b = 1n;
    for (const f of fs) b = lcm(b, f.den);
    return b;
  };
  let base = baseOf(fard.values());

  const finishGeneral = (fixed: Map<HeirKey, Fraction>, res: Residuary[]): void => {
    const total = Fraction.sum(fixed.values());
    base = baseOf(fixed.values());
    if (fixed.size === 0 && res.length > 0) base = BigInt(res.reduce((s, r) => s + r.weight * c(r.heir), 0));
    steps.push({ kind: 'base', detail: `Base of the problem (asl al-mas'ala): ${base}.` });
    if (total.gt(Fraction.ONE)) {
      awl = true;
      awlBase = total.mul(base).num;
      steps.push({
        kind: 'awl',
        detail: `'Awl: the fixed shares add up to ${total}, more than the whole; the base is raised from ${base} to ${awlBase} and every fixed share is reduced in proportion.`,
      });
      for (const [k, f] of fixed) result.set(k, f.div(total));
      for (const r of res) if (!result.has(r.heir)) result.set(r.heir, Fraction.ZERO);
      if (res.length > 0) steps.push({ kind: 'residuary', detail: 'Nothing is left for the residuaries.' });
      return;
    }
    for (const [k, f] of fixed) result.set(k, f);
    const residue = Fraction.ONE.sub(total);
    if (res.length > 0) {
      const units = res.reduce((s, r) => s + r.weight * c(r.heir), 0);
      for (const r of res) {
        const part = residue.mul(F(r.weight * c(r.heir), units));
        result.set(r.heir, (result.get(r.heir) ?? Fraction.ZERO).add(part));
      }
      steps.push({
        kind: 'residuary',
        detail: residue.isZero()
          ? 'The fixed shares exhaust the estate; the residuaries take nothing.'
          : `The residue ${residue} goes to the residuaries: ${res.map((r) => `${L[r.heir]} ${r.weight} part${r.weight > 1 ? 's' : ''} per head`).join(', ')}.`,
      });
      return;
    }
    if (residue.isZero()) return;
    // Radd: return the surplus to the sharers other than a spouse.
    radd = true;
    const others = [...fixed.keys()].filter((k) => k !== 'husband' && k !== 'wife');
    if (others.length === 0) {
      const k = [...fixed.keys()][0]!;
      const source = opts.spouseRaddSource
        ? ` Setting spouseRadd: ${spouseRadd} (${opts.spouseRaddSource}).`
        : ` Setting spouseRadd: ${spouseRadd}.`;
      if (spouseRadd) {
        result.set(k, Fraction.ONE);
        steps.push({
          kind: 'radd',
          detail: `Radd: the ${L[k]} is the only heir, so the surplus ${residue} returns to the ${L[k]} (the later Hanafi position and modern practice, in the absence of any other heir).${source}`,
        });
        return;
      }
      radd = false;
      treasury = residue;
      steps.push({
        kind: 'radd',
        detail: `No radd to a spouse: the ${L[k]} is the only heir and keeps the fixed share ${fixed.get(k)}; the surplus ${residue} goes to the public treasury (bayt al-mal), the classical position of the four schools.${source}`,
      });
      return;
    }
    const spouseShare = spouse ? (fixed.get(spouse) ?? Fraction.ZERO) : Fraction.ZERO;
    const pool = Fraction.ONE.sub(spouseShare);
    const otherTotal = Fraction.sum(others.map((k) => fixed.get(k)!));
    for (const k of others) result.set(k, pool.mul(fixed.get(k)!.div(otherTotal)));
    steps.push({
      kind: 'radd',
      detail: `Radd: no residuary; the surplus ${residue} returns to ${others.map((k) => `the ${L[k]}`).join(', ')} in proportion to their shares${spouse ? `, not to the ${L[spouse]}` : ''}.`,
    });
  };

  // --- Special cases and the grandfather with siblings ------------------------
  const sisterCount = c('fullSister') + c('paternalHalfSister');
  const brotherCount = c('fullBrother') + c('paternalHalfBrother');
  const isAkdariyya =
    zaydMode &&
    active('husband') &&
    active('mother') &&
    !anyDesc &&
    brotherCount === 0 &&
    sisterCount === 1 &&
    any('fullSister', 'paternalHalfSister');

  if (isAkdariyya) {
    const sister: HeirKey = active('fullSister') ? 'fullSister' : 'paternalHalfSister';
    specialCases.push('akdariyya');
    steps.push({
      kind: 'special-case',
      detail: `Akdariyya: husband 1/2, mother 1/3, grandfather 1/6 and the ${L[sister]} 1/2 are all assigned; the base 6 rises by 'awl to 9; the grandfather and the sister then pool their 1/6 + 1/2 = 4/9 and divide it two to one, giving a final base of 27.`,
    });
    awl = true;
    base = 6n;
    awlBase = 9n;
    result.set('husband', F(9, 27));
    result.set('mother', F(6, 27));
    result.set('paternalGrandfather', F(8, 27));
    result.set(sister, F(4, 27));
  } else if (zaydSiblings()) {
    grandfatherWithSiblings();
  } else {
    const mushtaraka =
      active('fullBrother') &&
      uterineCount >= 2 &&
      fard.size > 0 &&
      Fraction.sum(fard.values()).eq(Fraction.ONE) &&
      residuaries.some((r) => r.heir === 'fullBrother');
    if (mushtaraka && (madhhab === 'maliki' || madhhab === 'shafii')) {
      specialCases.push('mushtaraka');
      const sharers: HeirKey[] = [...uterine, ...(['fullBrother', 'fullSister'] as const).filter(active)];
      const heads = sharers.reduce((s, k) => s + c(k), 0);
      steps.push({
        kind: 'special-case',
        detail: `Mushtaraka (Himariyya): the fixed shares exhaust the estate, so the full siblings share the maternal half-siblings' third with them, equally per head, male and female alike (${madhhab === 'maliki' ? 'Maliki' : "Shafi'i"} view, after 'Umar).`,
      });
      const fixed = new Map(fard);
      for (const k of uterine) fixed.delete(k);
      for (const k of sharers) fixed.set(k, THIRD.mul(F(c(k), heads)));
      finishGeneral(fixed, []);
    } else {
      if (mushtaraka) {
        specialCases.push('mushtaraka');
        steps.push({
          kind: 'special-case',
          detail: `Mushtaraka (Himariyya): the fixed shares exhaust the estate and the full siblings, as residuaries, take nothing (${madhhab === 'hanafi' ? 'Hanafi' : 'Hanbali'} view, after 'Ali; the Maliki and Shafi'i schools let them share the maternal half-siblings' third).`,
        });
      }
      finishGeneral(fard, residuaries);
    }
  }

  function grandfatherWithSiblings(): void {
    const gf: HeirKey = 'paternalGrandfather';
    const sibs = (['fullBrother', 'fullSister', 'paternalHalfBrother', 'paternalHalfSister'] as const).filter(active);
    const units = sibs.reduce((s, k) => s + c(k) * (k.endsWith('Brother') ? 2 : 1), 0);
    const hasFull = any('fullBrother', 'fullSister');
    const hasHalf = any('paternalHalfBrother', 'paternalHalfSister');
    specialCases.push('grandfather-with-siblings');
    steps.push({
      kind: 'special-case',
      detail: `Grandfather with brothers and sisters (doctrine of Zayd ibn Thabit, followed by the ${madhhab} school): the grandfather takes the best of sharing with them as a brother (muqasama)${fard.size > 0 ? ', one third of the remainder after the fixed shares, or one sixth of the whole' : ' or one third of the whole'}.${hasFull && hasHalf ? " The paternal half-siblings are counted against him (mu'adda) and then yield to the full siblings." : ''}`,
    });
    const fixedTotal = Fraction.sum(fard.values());
    const rem = Fraction.ONE.sub(fixedTotal);
    const muq = (x: Fraction): Fraction => x.mul(F(2, units + 2));
    if (fard.size > 0 && !rem.gt(SIXTH)) {
      steps.push({
        kind: 'special-case',
        detail: `Only ${rem.num < 0n ? '0/1' : rem} remains after the fixed shares, so the grandfather takes one sixth as a fixed share${rem.lt(SIXTH) ? " (by 'awl)" : ''} and the brothers and sisters take nothing.`,
      });
      const fixed = new Map(fard);
      fixed.set(gf, SIXTH);
      finishGeneral(fixed, []);
      for (const k of sibs) result.set(k, Fraction.ZERO);
      return;
    }
    const options: Array<[string, Fraction]> =
      fard.size === 0
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
    steps.push({
      kind: 'special-case',
      detail: `Options for the grandfather: ${options.map(([n, f]) => `${n} ${f}`).join(', ')}; he takes ${best} (${chosen.join(' = ')}).`,
    });
    base = baseOf([...fard.values(), best]);
    steps.push({ kind: 'base', detail: `Base of the problem (asl al-mas'ala): ${base}.` });
    for (const [k, f] of fard) result.set(k, f);
    result.set(gf, best);
    const pool = rem.sub(best);
    const split = (ks: HeirKey[], amount: Fraction): void => {
      const u = ks.reduce((s, k) => s + c(k) * (k.endsWith('Brother') ? 2 : 1), 0);
      for (const k of ks) result.set(k, amount.mul(F(c(k) * (k.endsWith('Brother') ? 2 : 1), u)));
    };
    const full = sibs.filter((k) => k.startsWith('full'));
    const half = sibs.filter((k) => k.startsWith('paternalHalf'));
    if (full.length > 0 && half.length > 0) {
      if (active('fullBrother')) {
        split(full, pool);
        for (const k of half) result.set(k, Fraction.ZERO);
        steps.push({
          kind: 'residuary',
          detail: `The brothers' and sisters' ${pool} goes to the full siblings; the paternal half-siblings, counted against the grandfather, take nothing.`,
        });
      } else {
        const cap = c('fullSister') === 1 ? HALF : TWO_THIRDS;
        const take = Fraction.min(pool, cap);
        result.set('fullSister', take);
        split(half, pool.sub(take));
        steps.push({
          kind: 'residuary',
          detail: `Of the brothers' and sisters' ${pool}, the full sister${c('fullSister') > 1 ? 's take' : ' takes'} up to ${cap} (${take}); the paternal half-siblings take what is left (${pool.sub(take)}).`,
        });
      }
    } else {
      split(sibs, pool);
      steps.push({
        kind: 'residuary',
        detail: `The brothers and sisters share ${pool}, a male taking twice a female.`,
      });
    }
  }

  // --- Assemble -----------------------------------------------------------------
  const shares: EngineResult['shares'] = [];
  let correctedBase = 1n;
  for (const k of HEIR_KEYS) {
    const s = result.get(k);
    if (s === undefined || c(k) === 0 || excluded.has(k)) continue;
    shares.push({ heir: k, count: c(k), share: s });
    correctedBase = lcm(correctedBase, s.div(c(k)).den);
  }
  // Invariant: every heir present and not excluded is listed (with zero when nothing is left for him).
  for (const k of HEIR_KEYS)
    if (c(k) > 0 && !excluded.has(k) && !result.has(k))
      throw new Error(`fara'id invariant broken: no share decided for ${k}`);
  if (treasury) correctedBase = lcm(correctedBase, treasury.den);
  const total = Fraction.sum([...shares.map((s) => s.share), ...(treasury ? [treasury] : [])]);
  if (!total.eq(Fraction.ONE)) throw new Error(`fara'id invariant broken: shares sum to ${total}`);
  steps.push({
    kind: 'correction',
    detail: `Every person's share as a fraction of ${correctedBase} (corrected base, tashih).`,
  });

  return {
    shares,
    excluded: HEIR_KEYS.filter((k) => excluded.has(k)).map((k) => excluded.get(k)!),
    steps,
    specialCases,
    base,
    ...(awlBase !== undefined ? { awlBase } : {}),
    correctedBase,
    awl,
    radd,
    spouseRadd,
    ...(treasury ? { treasury } : {}),
  };
}
