import { englishForArabic } from '../arabic-family-words.js';
import { HEIR_KEYS, type HeirKey, type Madhhab } from '../faraid/index.js';
import { OTHER_LANGUAGE_WORDS } from './relationship-words-languages.js';

/**
 * Relationship vocabulary of the Islamic plan checks: free-text relationships
 * ("son's son", "zawja", "friend") read as fara'id heir types, non-heirs, the
 * public treasury, or ambiguous words. See docs-index/faraid.md.
 */

/**
 * Lower-cases, drops accents and apostrophes and turns every other non-letter into one space: "Son's Son" -> "sons
 * son", "Sœur germaine" -> "soeur germaine", "KIZ EVLAT" and "kız evlat" -> "kiz evlat" (Turkish dotless "ı", which
 * has no decomposition, is "i"). A word written in Arabic ("ابن الابن") is read as its English word first
 * (src/law/arabic-family-words.ts).
 */
export function normalizeRelationship(relationship: string): string {
  return (englishForArabic(relationship) ?? relationship)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/['’`´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const HEIR_TERMS: Record<HeirKey, string[]> = {
  husband: ['husband', 'zawj', 'zauj'],
  wife: ['wife', 'zawja', 'zawjah', 'zauja'],
  son: ['son', 'ibn'],
  daughter: ['daughter', 'bint'],
  sonsSon: [
    'sons son',
    'son of son',
    'son of a son',
    'son of the son',
    'paternal grandson',
    'grandson through son',
    'grandson sons son',
    'ibn al ibn',
  ],
  sonsDaughter: [
    'sons daughter',
    'daughter of son',
    'daughter of a son',
    'daughter of the son',
    'paternal granddaughter',
    'granddaughter through son',
    'granddaughter sons daughter',
    'bint al ibn',
  ],
  father: ['father', 'ab', 'abu', 'dad'],
  mother: ['mother', 'umm', 'mom', 'mum'],
  paternalGrandfather: ['paternal grandfather', 'grandfather paternal', 'fathers father', 'father of father', 'jadd'],
  paternalGrandmother: ['paternal grandmother', 'grandmother paternal', 'fathers mother', 'mother of father'],
  maternalGrandmother: ['maternal grandmother', 'grandmother maternal', 'mothers mother', 'mother of mother'],
  fullBrother: ['full brother', 'brother full', 'germane brother', 'full blood brother', 'akh shaqiq'],
  fullSister: ['full sister', 'sister full', 'germane sister', 'full blood sister', 'ukht shaqiqa'],
  paternalHalfBrother: [
    'paternal half brother',
    'half brother paternal',
    'consanguine brother',
    'paternal brother',
    'half brother same father',
    'brother same father',
  ],
  paternalHalfSister: [
    'paternal half sister',
    'half sister paternal',
    'consanguine sister',
    'paternal sister',
    'half sister same father',
    'sister same father',
  ],
  maternalHalfBrother: [
    'maternal half brother',
    'half brother maternal',
    'uterine brother',
    'maternal brother',
    'half brother same mother',
    'brother same mother',
  ],
  maternalHalfSister: [
    'maternal half sister',
    'half sister maternal',
    'uterine sister',
    'maternal sister',
    'half sister same mother',
    'sister same mother',
  ],
  fullBrothersSon: [
    'full brothers son',
    'son of full brother',
    'nephew full brothers son',
    'nephew brothers son',
    'brothers son',
    'son of brother',
  ],
  paternalHalfBrothersSon: [
    'paternal half brothers son',
    'son of paternal half brother',
    'consanguine brothers son',
    'nephew paternal half brothers son',
  ],
  fullPaternalUncle: [
    'full paternal uncle',
    'paternal uncle',
    'uncle paternal',
    'fathers brother',
    'fathers full brother',
    'brother of father',
  ],
  paternalHalfPaternalUncle: [
    'paternal half paternal uncle',
    'paternal half uncle',
    'fathers paternal half brother',
    'fathers consanguine brother',
  ],
  fullPaternalUnclesSon: [
    'full paternal uncles son',
    'paternal uncles son',
    'paternal cousin',
    'fathers brothers son',
    'son of paternal uncle',
    'uncles son',
  ],
  paternalHalfPaternalUnclesSon: [
    'paternal half paternal uncles son',
    'paternal half uncles son',
    'fathers paternal half brothers son',
  ],
  // Heirs only in the Ja'fari school: their words are in JAFARI_TERMS, read as heirs only when that school applies.
  daughtersSon: [],
  daughtersDaughter: [],
  maternalGrandfather: [],
  fullPaternalAunt: [],
  paternalHalfPaternalAunt: [],
  maternalUncle: [],
  maternalAunt: [],
  paternalHalfMaternalUncle: [],
  paternalHalfMaternalAunt: [],
  maternalHalfMaternalUncle: [],
  maternalHalfMaternalAunt: [],
};

/**
 * Bare words mapped by convention to the heir they most often mean; each is
 * ambiguous and the check reports the assumption as an info finding.
 */
const ASSUMED_TERMS: Record<string, { heir: HeirKey; note: string }> = {
  grandson: {
    heir: 'sonsSon',
    note: "a daughter's son is distant kindred (dhawu al-arham) in the Sunni schools and an heir of his own line in the Ja'fari; write \"daughter's son\" for him",
  },
  granddaughter: {
    heir: 'sonsDaughter',
    note: 'a daughter\'s daughter is distant kindred in the Sunni schools; write "daughter\'s daughter" for her',
  },
  grandfather: {
    heir: 'paternalGrandfather',
    note: 'the mother\'s father is distant kindred in the Sunni schools; write "maternal grandfather" for him',
  },
  brother: { heir: 'fullBrother', note: 'write "paternal half-brother" or "maternal half-brother" for a half-brother' },
  sister: { heir: 'fullSister', note: 'write "paternal half-sister" or "maternal half-sister" for a half-sister' },
  nephew: {
    heir: 'fullBrothersSon',
    note: 'a sister\'s son is not an heir; write "paternal half-brother\'s son" or "sister\'s son" where that is meant',
  },
  uncle: {
    heir: 'fullPaternalUncle',
    note: 'a maternal uncle is not an heir; write "maternal uncle" or "paternal half paternal uncle" where that is meant',
  },
  cousin: {
    heir: 'fullPaternalUnclesSon',
    note: 'only the son of a paternal uncle is an heir; write "maternal cousin" or "paternal uncle\'s daughter" otherwise',
  },
};

/** Words that cannot be mapped without more detail, with the heirs they may mean. */
const AMBIGUOUS_TERMS: Record<string, HeirKey[]> = {
  spouse: ['husband', 'wife'],
  child: ['son', 'daughter'],
  parent: ['father', 'mother'],
  grandchild: ['sonsSon', 'sonsDaughter'],
  grandparent: ['paternalGrandfather', 'paternalGrandmother', 'maternalGrandmother'],
  grandmother: ['paternalGrandmother', 'maternalGrandmother'],
  sibling: ['fullBrother', 'fullSister'],
  'half brother': ['paternalHalfBrother', 'maternalHalfBrother'],
  'half sister': ['paternalHalfSister', 'maternalHalfSister'],
  'half sibling': ['paternalHalfBrother', 'paternalHalfSister', 'maternalHalfBrother', 'maternalHalfSister'],
};

/** Relatives and others who are not heirs by fara'id (they may receive a wasiyyah). */
const NON_HEIR_TERMS = new Set([
  'friend',
  'charity',
  'mosque',
  'masjid',
  'waqf',
  'foundation',
  'trust',
  'organisation',
  'organization',
  'school',
  'neighbour',
  'neighbor',
  'colleague',
  'employee',
  'student',
  'teacher',
  'caretaker',
  'carer',
  'other',
  'none',
  'non heir',
  'nonheir',
  'partner',
  'fiance',
  'fiancee',
  'ex wife',
  'ex husband',
  'former wife',
  'former husband',
  'divorced wife',
  'divorced husband',
  'godson',
  'goddaughter',
  'godchild',
  'stepson',
  'stepdaughter',
  'step son',
  'step daughter',
  'stepchild',
  'step child',
  'stepfather',
  'step father',
  'stepmother',
  'step mother',
  'stepbrother',
  'step brother',
  'stepsister',
  'step sister',
  'adopted son',
  'adopted daughter',
  'adopted child',
  'foster son',
  'foster daughter',
  'foster child',
  'foster brother',
  'foster sister',
  'milk brother',
  'milk sister',
  'daughters son',
  'daughters daughter',
  'son of daughter',
  'daughter of daughter',
  'maternal grandson',
  'maternal granddaughter',
  'sons sons wife',
  'sons wife',
  'daughters husband',
  'son in law',
  'daughter in law',
  'father in law',
  'mother in law',
  'brother in law',
  'sister in law',
  'niece',
  'sisters son',
  'sisters daughter',
  'brothers daughter',
  'aunt',
  'paternal aunt',
  'maternal aunt',
  'maternal uncle',
  'mothers brother',
  'maternal grandfather',
  'mothers father',
  'grandfather maternal',
  'maternal cousin',
  'paternal uncles daughter',
  'female cousin',
  'maternal half brothers son',
  'uterine brothers son',
]);

/** The public treasury (bayt al-mal), which takes what a spouse who is the only heir does not (spouseRadd false). */
const TREASURY_TERMS = new Set([
  'public treasury',
  'treasury',
  'state treasury',
  'bayt al mal',
  'baytulmal',
  'bait al mal',
  'baitulmal',
  'bait ul mal',
  'baitul mal',
]);

/**
 * Relatives who are heirs of a class in the Ja'fari school and distant kindred
 * (dhawu al-arham) in the Sunni schools: read as heirs under every school, so
 * that the engine decides: excluded beside a sharer or residuary, inheriting
 * by the school's method otherwise (faraid/arham-shares.ts).
 */
const JAFARI_TERMS: Partial<Record<HeirKey, string[]>> = {
  daughtersSon: [
    'daughters son',
    'son of daughter',
    'son of a daughter',
    'son of the daughter',
    'grandson through daughter',
    'ibn al bint',
  ],
  daughtersDaughter: [
    'daughters daughter',
    'daughter of daughter',
    'daughter of a daughter',
    'daughter of the daughter',
    'granddaughter through daughter',
    'bint al bint',
  ],
  maternalGrandfather: ['maternal grandfather', 'mothers father', 'father of mother', 'grandfather maternal'],
  fullPaternalAunt: ['full paternal aunt', 'paternal aunt', 'fathers sister', 'fathers full sister', 'amma'],
  paternalHalfPaternalAunt: [
    'paternal half paternal aunt',
    'fathers paternal half sister',
    'fathers consanguine sister',
  ],
  maternalUncle: ['maternal uncle', 'mothers brother', 'mothers full brother', 'khal'],
  maternalAunt: ['maternal aunt', 'mothers sister', 'mothers full sister', 'khala'],
  paternalHalfMaternalUncle: [
    'paternal half maternal uncle',
    'mothers paternal half brother',
    'mothers consanguine brother',
  ],
  paternalHalfMaternalAunt: [
    'paternal half maternal aunt',
    'mothers paternal half sister',
    'mothers consanguine sister',
  ],
  maternalHalfMaternalUncle: [
    'maternal half maternal uncle',
    'mothers maternal half brother',
    'mothers uterine brother',
  ],
  maternalHalfMaternalAunt: ['maternal half maternal aunt', 'mothers maternal half sister', 'mothers uterine sister'],
};
const JAFARI_AMBIGUOUS: Record<string, HeirKey[]> = {
  aunt: ['fullPaternalAunt', 'maternalAunt'],
};

const TERM_TO_HEIR = new Map<string, HeirKey>();
for (const k of HEIR_KEYS) for (const t of HEIR_TERMS[k]) TERM_TO_HEIR.set(t, k);
const JAFARI_TERM_TO_HEIR = new Map<string, HeirKey>();
for (const k of HEIR_KEYS) for (const t of JAFARI_TERMS[k] ?? []) JAFARI_TERM_TO_HEIR.set(t, k);

/**
 * The words of the other languages (relationship-words-languages.ts), read after the English ones so that an English
 * word keeps its reading.
 */
const OTHER_WORDS = new Map<string, RelationshipClass>();
for (const lang of Object.values(OTHER_LANGUAGE_WORDS)) {
  for (const k of HEIR_KEYS)
    for (const w of lang.heirs[k] ?? []) OTHER_WORDS.set(normalizeRelationship(w), { kind: 'heir', heir: k });
  for (const [w, candidates] of Object.entries(lang.ambiguous))
    OTHER_WORDS.set(normalizeRelationship(w), { kind: 'ambiguous', candidates: [...candidates] });
  for (const w of lang.nonHeirs) OTHER_WORDS.set(normalizeRelationship(w), { kind: 'non-heir' });
  for (const w of lang.treasury ?? []) OTHER_WORDS.set(normalizeRelationship(w), { kind: 'treasury' });
}

export type RelationshipClass =
  | { kind: 'heir'; heir: HeirKey; assumed?: string }
  | { kind: 'non-heir' }
  | { kind: 'treasury' }
  | { kind: 'ambiguous'; candidates: HeirKey[] }
  | { kind: 'unknown' }
  | { kind: 'missing' };

/**
 * Classifies a free-text relationship (case-insensitive; spacing, hyphens and
 * apostrophes ignored; the words of other languages too, from
 * relationship-words-languages.ts). A daughter's children, the maternal grandfather,
 * aunts and maternal uncles are heirs under every school (heirs of a class in
 * the Ja'fari school, distant kindred in the Sunni schools); the bare word
 * "aunt" is ambiguous.
 */
export function classifyRelationship(relationship: string | undefined, _madhhab?: Madhhab): RelationshipClass {
  if (relationship === undefined || relationship.trim() === '') return { kind: 'missing' };
  const n = normalizeRelationship(relationship);
  const heir = TERM_TO_HEIR.get(n) ?? JAFARI_TERM_TO_HEIR.get(n);
  if (heir) return { kind: 'heir', heir };
  const jafariAmb = JAFARI_AMBIGUOUS[n];
  if (jafariAmb) return { kind: 'ambiguous', candidates: jafariAmb };
  const assumed = ASSUMED_TERMS[n];
  if (assumed) return { kind: 'heir', heir: assumed.heir, assumed: assumed.note };
  const amb = AMBIGUOUS_TERMS[n];
  if (amb) return { kind: 'ambiguous', candidates: amb };
  if (NON_HEIR_TERMS.has(n)) return { kind: 'non-heir' };
  if (TREASURY_TERMS.has(n)) return { kind: 'treasury' };
  const other = OTHER_WORDS.get(n);
  if (other) return other;
  return { kind: 'unknown' };
}

/**
 * Maps a relationship to an heir type, or undefined when it names no heir, is
 * ambiguous ("spouse", "grandmother", "half-brother") or is unknown. Bare
 * "grandson", "granddaughter", "grandfather", "brother", "sister", "nephew",
 * "uncle" and "cousin" are read as the heir they usually mean (son's son,
 * son's daughter, paternal grandfather, full brother, full sister, full
 * brother's son, full paternal uncle, full paternal uncle's son).
 */
export function relationshipToHeir(relationship: string, madhhab?: Madhhab): HeirKey | undefined {
  const c = classifyRelationship(relationship, madhhab);
  return c.kind === 'heir' ? c.heir : undefined;
}
