/** The heir types the engine knows, in the order shares are listed and rounding ties are broken. */
export const HEIR_KEYS = [
  'husband',
  'wife',
  'son',
  'daughter',
  'sonsSon',
  'sonsDaughter',
  'daughtersSon',
  'daughtersDaughter',
  'father',
  'mother',
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
] as const;
export type HeirKey = (typeof HEIR_KEYS)[number];

/**
 * The four Sunni schools, then the Ja'fari (Twelver Shia) school, which
 * divides by classes of kin instead of sharers and residuaries (jafari.ts).
 */
export const MADHHABS = ['hanafi', 'maliki', 'shafii', 'hanbali', 'jafari'] as const;
export type Madhhab = (typeof MADHHABS)[number];

/**
 * Default school: Hanafi, the school followed by the largest number of Sunni
 * Muslims and the basis of the Al-Sirajiyyah textbook. See docs-index/faraid.md.
 */
export const DEFAULT_MADHHAB: Madhhab = 'hanafi';

/** Largest count accepted per heir type. */
export const MAX_COUNT: Record<HeirKey, number> = {
  husband: 1,
  wife: 4,
  son: 100,
  daughter: 100,
  sonsSon: 100,
  sonsDaughter: 100,
  daughtersSon: 100,
  daughtersDaughter: 100,
  father: 1,
  mother: 1,
  paternalGrandfather: 1,
  paternalGrandmother: 1,
  maternalGrandmother: 1,
  maternalGrandfather: 1,
  fullBrother: 100,
  fullSister: 100,
  paternalHalfBrother: 100,
  paternalHalfSister: 100,
  maternalHalfBrother: 100,
  maternalHalfSister: 100,
  fullBrothersSon: 100,
  paternalHalfBrothersSon: 100,
  fullPaternalUncle: 100,
  paternalHalfPaternalUncle: 100,
  fullPaternalAunt: 100,
  paternalHalfPaternalAunt: 100,
  maternalUncle: 100,
  maternalAunt: 100,
  paternalHalfMaternalUncle: 100,
  paternalHalfMaternalAunt: 100,
  maternalHalfMaternalUncle: 100,
  maternalHalfMaternalAunt: 100,
  fullPaternalUnclesSon: 100,
  paternalHalfPaternalUnclesSon: 100,
};

/** Human-readable English names, for messages. */
export const HEIR_LABELS: Record<HeirKey, string> = {
  husband: 'husband',
  wife: 'wife',
  son: 'son',
  daughter: 'daughter',
  sonsSon: "son's son",
  sonsDaughter: "son's daughter",
  daughtersSon: "daughter's son",
  daughtersDaughter: "daughter's daughter",
  father: 'father',
  mother: 'mother',
  paternalGrandfather: 'paternal grandfather',
  paternalGrandmother: 'paternal grandmother',
  maternalGrandmother: 'maternal grandmother',
  maternalGrandfather: 'maternal grandfather',
  fullBrother: 'full brother',
  fullSister: 'full sister',
  paternalHalfBrother: 'paternal half-brother',
  paternalHalfSister: 'paternal half-sister',
  maternalHalfBrother: 'maternal half-brother',
  maternalHalfSister: 'maternal half-sister',
  fullBrothersSon: "full brother's son",
  paternalHalfBrothersSon: "paternal half-brother's son",
  fullPaternalUncle: 'full paternal uncle',
  paternalHalfPaternalUncle: 'paternal half paternal uncle',
  fullPaternalAunt: 'full paternal aunt',
  paternalHalfPaternalAunt: 'paternal half paternal aunt',
  maternalUncle: 'maternal uncle',
  maternalAunt: 'maternal aunt',
  paternalHalfMaternalUncle: 'paternal half maternal uncle',
  paternalHalfMaternalAunt: 'paternal half maternal aunt',
  maternalHalfMaternalUncle: 'maternal half maternal uncle',
  maternalHalfMaternalAunt: 'maternal half maternal aunt',
  fullPaternalUnclesSon: "full paternal uncle's son",
  paternalHalfPaternalUnclesSon: "paternal half paternal uncle's son",
};

/**
 * Relatives who are neither sharers nor residuaries in the four Sunni schools
 * (dhawu al-arham, distant kindred) but heirs by class in the Ja'fari school:
 * a daughter's children, the maternal grandfather, paternal aunts, maternal
 * uncles and maternal aunts. The Sunni phases never give them a share; see
 * arham.ts for how they are treated there.
 */
export const ARHAM_KEYS = [
  'daughtersSon',
  'daughtersDaughter',
  'maternalGrandfather',
  'fullPaternalAunt',
  'paternalHalfPaternalAunt',
  'maternalUncle',
  'maternalAunt',
  'paternalHalfMaternalUncle',
  'paternalHalfMaternalAunt',
  'maternalHalfMaternalUncle',
  'maternalHalfMaternalAunt',
] as const satisfies readonly HeirKey[];

export type HeirCounts = Partial<Record<HeirKey, number>>;
