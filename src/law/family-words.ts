// The family words of a plan's `relationship` fields, read for the civil-law
// checks of src/law/heirship.ts (forced heirship, reserves, spouse rights).
// Islamic law classes heirs more finely: see src/law/islamic/relationships.ts.

import { englishForArabic } from './arabic-family-words.js';
import { type KinClass, OTHER_LANGUAGES } from './family-words-languages.js';

/** A beneficiary's relationship as the civil-law checks count it. */
export type RelationshipClass = KinClass | 'other';

const WORDS: Record<KinClass, readonly string[]> = {
  spouse: ['spouse', 'husband', 'wife', 'widow', 'widower'],
  child: [
    'child',
    'son',
    'daughter',
    'adopted child',
    'adopted son',
    'adopted daughter',
    'children',
    'sons',
    'daughters',
  ],
  grandchild: [
    'grandchild',
    'grandson',
    'granddaughter',
    'grandchildren',
    'grandsons',
    'granddaughters',
    'grand child',
    'grand son',
    'grand daughter',
    'sons son',
    'sons daughter',
    'daughters son',
    'daughters daughter',
  ],
  parent: ['parent', 'father', 'mother', 'parents', 'mom', 'dad', 'mum'],
  sibling: [
    'sibling',
    'brother',
    'sister',
    'siblings',
    'brothers',
    'sisters',
    'half brother',
    'half sister',
    'half-brother',
    'half-sister',
    'full brother',
    'full sister',
    'paternal half brother',
    'paternal half sister',
    'maternal half brother',
    'maternal half sister',
  ],
};
/**
 * A relationship as the tables hold it: accents and other marks dropped, the ligatures spelt out ("sœur" is "soeur",
 * "ß" "ss"), the Polish "ł" an "l" and the Turkish "ı" an "i" (they have no mark to drop), lower case, Latin and Greek letters (a final "ς" as "σ"),
 * spaces and hyphens only.
 */
function normalize(relationship: string): string {
  return relationship
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/ς/g, 'σ')
    .replace(/[^a-z\u03b1-\u03c9 -]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The spouse words that name a partner rather than a husband or wife, in every language read here: a spouse, unless
 * the jurisdiction's law does not make a registered partner one (`partnersAreSpouses: false`).
 */
const PARTNER_WORDS: readonly string[] = [
  'partner',
  'civil partner',
  'registered partner',
  'domestic partner',
  'life partner',
  'partenaire',
  'partenaire de pacs',
  'partenaire pacse',
  'partenaire pacsee',
  'pacse',
  'pacsee',
  'pareja',
  'pareja de hecho',
  'lebenspartner',
  'lebenspartnerin',
  'eingetragener lebenspartner',
  'eingetragene lebenspartnerin',
  'partnerin',
  'unito civilmente',
  'unita civilmente',
  'companheiro',
  'companheira',
  'geregistreerd partner',
  'geregistreerde partner',
  'partnerka',
  'registrovaný partner',
  'registrovaná partnerka',
  'partneris',
  'partnerė',
  'partnere',
  'partener',
  'parteneră',
  'partenerul',
  'partenera',
  'bejegyzett élettárs',
];
const PARTNERS = new Set(PARTNER_WORDS.map((w) => normalize(w)));
const LOOKUP = new Map<string, RelationshipClass>();
for (const table of [WORDS, OTHER_LANGUAGES])
  for (const [cls, words] of Object.entries(table) as [RelationshipClass, readonly string[]][])
    for (const w of words) LOOKUP.set(normalize(w), cls);
for (const w of PARTNERS) LOOKUP.set(w, 'spouse');

/**
 * The class of a relationship word, case-insensitively: spouse/husband/wife/partner,
 * child/son/daughter, grandchild/grandson/granddaughter, parent/father/mother,
 * sibling/brother/sister; anything else (friend, charity, step-son, ex-wife, empty) is 'other'. With
 * `partnersAreSpouses: false` (the jurisdiction's `spouseRights.registeredPartners` is "not-spouse") a partner is
 * 'other' too.
 */
export function classifyRelationship(
  relationship: string | undefined,
  opts: { partnersAreSpouses?: boolean } = {},
): RelationshipClass {
  if (!relationship) return 'other';
  const w = normalize(englishForArabic(relationship) ?? relationship);
  const cls = LOOKUP.get(w) ?? LOOKUP.get(w.replace(/-/g, ' ')) ?? 'other';
  // Where a registered partner is not a spouse in law (a French PACS), no partner word counts as one.
  if (cls === 'spouse' && opts.partnersAreSpouses === false && PARTNERS.has(w.replace(/-/g, ' '))) return 'other';
  return cls;
}

/** Words naming both parents at once ("parents", "Eltern", "rodzice", "والدان"): such a beneficiary counts as two. */
const BOTH_PARENTS = new Set(
  [
    'parents',
    'padres',
    'eltern',
    'genitori',
    'pais',
    'ouders',
    'rodzice',
    'rodiče',
    'rodičia',
    'tėvai',
    'vecāki',
    'părinți',
    'szülők',
    'γονείς',
  ].map((w) => normalize(w)),
);

/** Whether a relationship names both parents as one beneficiary. */
export function bothParents(relationship: string | undefined): boolean {
  return relationship !== undefined && BOTH_PARENTS.has(normalize(englishForArabic(relationship) ?? relationship));
}
