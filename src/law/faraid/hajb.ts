import type { HeirKey } from './heirs.js';
import { anyActive, count, type EngineState, type ExclusionRule, isActive, L } from './state.js';

/**
 * Exclusion (hajb): which present heirs are shut out by nearer ones, in
 * dependency order, and the facts about the family the later phases read.
 */

/** What the later phases need to know about the family once exclusion is done. */
export interface Kinship {
  maleDesc: boolean;
  femaleDesc: boolean;
  anyDesc: boolean;
  /** The grandfather shares with siblings (Zayd ibn Thabit's doctrine). */
  zaydMode: boolean;
  /** zaydMode with at least one full or paternal half-sibling inheriting beside him. */
  zaydSiblings: boolean;
  /**
   * A statute lets the grandfather share with siblings after 'Ali (EngineOptions.grandfatherSharing) and at least one
   * full or paternal half-sibling inherits beside him; the siblings exclude one another as they would without him.
   */
  statuteSiblings: boolean;
  /** Full sisters made residuary by the deceased's daughters. */
  fsWithOthers: boolean;
  /** Paternal half-sisters made residuary by the deceased's daughters. */
  phsWithOthers: boolean;
}

/** The distant agnates, nearest first: each is excluded by any nearer agnate. */
export const DISTANT_AGNATES: readonly HeirKey[] = [
  'fullBrothersSon',
  'paternalHalfBrothersSon',
  'fullPaternalUncle',
  'paternalHalfPaternalUncle',
  'fullPaternalUnclesSon',
  'paternalHalfPaternalUnclesSon',
];

const NEARER_MALE = 'a nearer male agnate excludes a more distant one.';

/** Excludes k by the first active heir of the list (each with its reason). */
function tryExclude(st: EngineState, k: HeirKey, rules: readonly ExclusionRule[]): void {
  if (count(st, k) === 0 || st.excluded.has(k)) return;
  for (const rule of rules) {
    if (!rule) continue;
    const [by, reason] = rule;
    if (isActive(st, by)) {
      st.excluded.set(k, { heir: k, by, reason });
      st.steps.push({ kind: 'exclusion', detail: `The ${L[k]} is excluded by the ${L[by]}: ${reason}` });
      return;
    }
  }
}

/** Grandchildren through a son, and grandparents. */
function excludeDescendantsAndGrandparents(st: EngineState): void {
  tryExclude(st, 'sonsSon', [['son', 'a son excludes the grandchildren through any son.']]);
  tryExclude(st, 'sonsDaughter', [['son', 'a son excludes the grandchildren through any son.']]);
  if (count(st, 'daughter') >= 2 && !isActive(st, 'sonsSon'))
    tryExclude(st, 'sonsDaughter', [
      [
        'daughter',
        "two or more daughters take the whole two-thirds of daughters, leaving nothing for a son's daughter who has no son's son to make her a residuary.",
      ],
    ]);
  tryExclude(st, 'paternalGrandfather', [['father', 'the father excludes the grandfather, who inherits through him.']]);
  tryExclude(st, 'maternalGrandmother', [['mother', 'the mother excludes every grandmother.']]);
  tryExclude(st, 'paternalGrandmother', [
    ['mother', 'the mother excludes every grandmother.'],
    st.school.fatherExcludesPaternalGrandmother && [
      'father',
      'the father excludes his own mother (majority view; the Hanbali school lets her inherit with him).',
    ],
  ]);
}

/** Brothers and sisters, full, paternal and maternal. */
function excludeSiblings(st: EngineState, femaleDesc: boolean): Omit<Kinship, 'maleDesc' | 'femaleDesc' | 'anyDesc'> {
  // A statute on the grandfather with siblings replaces the school's rule, whichever it is.
  const byStatute = st.grandfatherSharing !== undefined;
  const siblingRules = (): ExclusionRule[] => [
    ['son', 'a male descendant excludes all brothers and sisters.'],
    ['sonsSon', 'a male descendant excludes all brothers and sisters.'],
    ['father', 'the father excludes all brothers and sisters.'],
    st.school.grandfatherExcludesSiblings &&
      !byStatute && [
        'paternalGrandfather',
        'in the Hanafi school (Abu Hanifa) the grandfather stands in the place of the father and excludes brothers and sisters.',
      ],
  ];
  tryExclude(st, 'fullBrother', siblingRules());
  tryExclude(st, 'fullSister', siblingRules());

  const zaydMode = !st.school.grandfatherExcludesSiblings && !byStatute && isActive(st, 'paternalGrandfather');

  const fsWithOthers = isActive(st, 'fullSister') && !isActive(st, 'fullBrother') && femaleDesc && !zaydMode;
  const phRules = (): ExclusionRule[] => [
    ...siblingRules(),
    // With the grandfather (Zayd), paternal half-siblings are first counted against him (mu'adda).
    !zaydMode && ['fullBrother', 'a full brother excludes paternal half-siblings.'],
    fsWithOthers && [
      'fullSister',
      "a full sister made residuary by the deceased's daughters ranks as a full brother and excludes paternal half-siblings.",
    ],
  ];
  tryExclude(st, 'paternalHalfBrother', phRules());
  tryExclude(st, 'paternalHalfSister', phRules());
  if (!zaydMode && count(st, 'fullSister') >= 2 && isActive(st, 'fullSister') && !isActive(st, 'paternalHalfBrother'))
    tryExclude(st, 'paternalHalfSister', [
      [
        'fullSister',
        'two or more full sisters take the whole two-thirds of sisters, leaving nothing for a paternal half-sister who has no paternal half-brother to make her a residuary.',
      ],
    ]);
  const phsWithOthers =
    isActive(st, 'paternalHalfSister') &&
    !isActive(st, 'paternalHalfBrother') &&
    !isActive(st, 'fullSister') &&
    femaleDesc &&
    !zaydMode;

  const uterineRules: ExclusionRule[] = [
    ['son', 'any descendant excludes maternal half-siblings.'],
    ['daughter', 'any descendant excludes maternal half-siblings.'],
    ['sonsSon', 'any descendant excludes maternal half-siblings.'],
    ['sonsDaughter', 'any descendant excludes maternal half-siblings.'],
    ['father', 'a male ascendant excludes maternal half-siblings.'],
    ['paternalGrandfather', 'a male ascendant excludes maternal half-siblings.'],
  ];
  tryExclude(st, 'maternalHalfBrother', uterineRules);
  tryExclude(st, 'maternalHalfSister', uterineRules);

  const anySibling = anyActive(st, 'fullBrother', 'fullSister', 'paternalHalfBrother', 'paternalHalfSister');
  const zaydSiblings = zaydMode && anySibling;
  const statuteSiblings = byStatute && isActive(st, 'paternalGrandfather') && anySibling;
  return { zaydMode, zaydSiblings, statuteSiblings, fsWithOthers, phsWithOthers };
}

/** Distant agnates: each excluded by any nearer agnate (and by sisters acting as residuaries). */
function excludeDistantAgnates(st: EngineState, kin: Kinship): void {
  const nearer: ExclusionRule[] = [
    ['son', NEARER_MALE],
    ['sonsSon', NEARER_MALE],
    ['father', NEARER_MALE],
    ['paternalGrandfather', NEARER_MALE],
    ['fullBrother', NEARER_MALE],
    kin.fsWithOthers && ['fullSister', 'a full sister made residuary by daughters ranks as a full brother.'],
    ['paternalHalfBrother', NEARER_MALE],
    kin.phsWithOthers && [
      'paternalHalfSister',
      'a paternal half-sister made residuary by daughters ranks as a paternal half-brother.',
    ],
  ];
  for (const k of DISTANT_AGNATES) {
    tryExclude(st, k, nearer);
    nearer.push([k, NEARER_MALE]);
  }
}

/** Applies every exclusion and returns what the later phases need to know. */
export function applyExclusions(st: EngineState): Kinship {
  excludeDescendantsAndGrandparents(st);
  const maleDesc = anyActive(st, 'son', 'sonsSon');
  const femaleDesc = anyActive(st, 'daughter', 'sonsDaughter');
  const kin: Kinship = { maleDesc, femaleDesc, anyDesc: maleDesc || femaleDesc, ...excludeSiblings(st, femaleDesc) };
  excludeDistantAgnates(st, kin);
  if (st.daughtersRadd && kin.femaleDesc && !kin.maleDesc) daughtersRaddExclusions(st, kin);
  return kin;
}

/** The collateral agnates a daughters' radd statute puts after the daughters. */
const COLLATERALS: readonly HeirKey[] = [
  'fullBrother',
  'fullSister',
  'paternalHalfBrother',
  'paternalHalfSister',
  ...DISTANT_AGNATES,
];

/**
 * A daughters' radd statute (Tunisia, art. 143 bis): a daughter or a son's
 * daughter takes what the fixed shares leave, so the brothers, sisters,
 * nephews, paternal uncles and cousins who would have taken it as residuaries
 * are excluded; the sisters no longer become residuaries with the daughters
 * and the grandfather no longer shares with siblings.
 */
function daughtersRaddExclusions(st: EngineState, kin: Kinship): void {
  const why = `the daughters take the remainder by radd before the collateral agnates (${st.daughtersRadd}).`;
  for (const k of COLLATERALS)
    tryExclude(st, k, [
      ['daughter', why],
      ['sonsDaughter', why],
    ]);
  kin.fsWithOthers = false;
  kin.phsWithOthers = false;
  const anySibling = anyActive(st, 'fullBrother', 'fullSister', 'paternalHalfBrother', 'paternalHalfSister');
  kin.zaydSiblings = kin.zaydSiblings && anySibling;
  kin.statuteSiblings = kin.statuteSiblings && anySibling;
}
