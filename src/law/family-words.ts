// The family words of a plan's `relationship` fields, read for the civil-law
// checks of src/law/heirship.ts (forced heirship, reserves, spouse rights).
// Islamic law classes heirs more finely: see src/law/islamic/relationships.ts.

import { englishForArabic } from './arabic-family-words.js';

export type RelationshipClass = 'spouse' | 'child' | 'grandchild' | 'parent' | 'sibling' | 'other';

const WORDS: Record<Exclude<RelationshipClass, 'other'>, readonly string[]> = {
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
 * The same relatives in the other languages owners in the catalogue's civil-law countries write them in (French,
 * Spanish, German, Italian, Portuguese, Dutch; Polish, Czech, Slovak, Lithuanian, Latvian, Romanian, Hungarian, Greek),
 * written as `normalize` leaves them or in their own spelling (the table is read through `normalize`, so "żona" and
 * "zona" are one word). Words that mean something else as often ("femme", "mujer", "Frau", Czech "žena", Greek
 * "γυναίκα": woman; Lithuanian "vyras", Latvian "vīrs", Greek "άντρας": man; Hungarian "lány": girl;
 * Italian "nipote", Romanian "nepot": grandchild or nephew; Latvian "māte", which reads as English "mate") are left
 * out: they stay 'other', like an English word we do not know. Arabic is read through its English words
 * (src/law/arabic-family-words.ts).
 */
const OTHER_LANGUAGES: Record<Exclude<RelationshipClass, 'other'>, readonly string[]> = {
  spouse: [
    // fr
    'epoux',
    'epouse',
    'conjoint',
    'conjointe',
    'conjoint survivant',
    'mari',
    'veuf',
    'veuve',
    // es
    'conyuge',
    'esposo',
    'esposa',
    'marido',
    'viudo',
    'viuda',
    // de
    'ehemann',
    'ehefrau',
    'ehegatte',
    'ehegattin',
    'gatte',
    'gattin',
    'witwe',
    'witwer',
    // it
    'coniuge',
    'marito',
    'moglie',
    'vedovo',
    'vedova',
    // pt
    'esposa',
    'viuvo',
    'viuva',
    // nl
    'echtgenoot',
    'echtgenote',
    'weduwe',
    'weduwnaar',
    // pl
    'małżonek',
    'małżonka',
    'mąż',
    'żona',
    'wdowa',
    'wdowiec',
    // cs, sk
    'manžel',
    'manželka',
    'manželé',
    'manželia',
    'choť',
    'vdova',
    'vdovec',
    // lt
    'sutuoktinis',
    'sutuoktinė',
    'žmona',
    'našlė',
    'našlys',
    // lv
    'laulātais',
    'laulātā',
    'sieva',
    'atraitne',
    'atraitnis',
    // ro
    'soț',
    'soțul',
    'soție',
    'soția',
    'văduvă',
    'văduv',
    // hu
    'házastárs',
    'feleség',
    'férj',
    'özvegy',
    // el
    'σύζυγος',
    'χήρα',
    'χήρος',
  ],
  child: [
    'enfant',
    'enfants',
    'fils',
    'fille',
    'filles',
    'fils adoptif',
    'fille adoptive',
    'enfant adopte',
    'enfant adoptif',
    'hijo',
    'hija',
    'hijos',
    'hijas',
    'hijo adoptivo',
    'hija adoptiva',
    'kind',
    'kinder',
    'sohn',
    'sohne',
    'tochter',
    'adoptivkind',
    'adoptivsohn',
    'adoptivtochter',
    'figlio',
    'figlia',
    'figli',
    'figlie',
    'figlio adottivo',
    'figlia adottiva',
    'filho',
    'filha',
    'filhos',
    'filhas',
    'zoon',
    'dochter',
    'kinderen',
    'zonen',
    'dochters',
    // pl
    'syn',
    'synowie',
    'córka',
    'córki',
    'dziecko',
    'dzieci',
    // cs, sk
    'synové',
    'synovia',
    'dcera',
    'dcery',
    'dcéra',
    'dcéry',
    'dítě',
    'děti',
    'dieťa',
    // lt
    'sūnus',
    'sūnūs',
    'duktė',
    'dukra',
    'dukterys',
    'vaikas',
    'vaikai',
    // lv
    'dēls',
    'meita',
    'meitas',
    'bērns',
    'bērni',
    // ro
    'fiu',
    'fiul',
    'fiică',
    'fiii',
    'fiicele',
    'copil',
    'copilul',
    'copii',
    // hu
    'gyermek',
    'gyerek',
    'gyermekek',
    'gyerekek',
    'fiúgyermek',
    'lánygyermek',
    // el
    'γιος',
    'υιός',
    'κόρη',
    'παιδί',
    'παιδιά',
    'τέκνο',
    'τέκνα',
  ],
  grandchild: [
    'petit fils',
    'petite fille',
    'petits enfants',
    'petit enfant',
    'petits fils',
    'petites filles',
    'nieto',
    'nieta',
    'nietos',
    'nietas',
    'enkel',
    'enkelin',
    'enkelkind',
    'enkelkinder',
    'enkelsohn',
    'enkeltochter',
    'neto',
    'neta',
    'netos',
    'netas',
    'kleinkind',
    'kleinzoon',
    'kleindochter',
    'kleinkinderen',
    // pl
    'wnuk',
    'wnuczka',
    'wnuki',
    'wnukowie',
    'wnuczki',
    'wnuczęta',
    // cs, sk
    'vnuk',
    'vnučka',
    'vnuci',
    'vnučky',
    'vnouče',
    'vnoučata',
    'vnúča',
    'vnúčatá',
    // lt
    'anūkas',
    'anūkė',
    'anūkai',
    'anūkės',
    'vaikaitis',
    'vaikaitė',
    // lv
    'mazdēls',
    'mazmeita',
    'mazbērns',
    'mazbērni',
    // hu
    'unoka',
    'unokák',
    // el
    'εγγονός',
    'εγγονή',
    'εγγόνι',
    'εγγόνια',
  ],
  parent: [
    'pere',
    'mere',
    'papa',
    'maman',
    'padre',
    'madre',
    'padres',
    'vater',
    'mutter',
    'eltern',
    'mama',
    'genitore',
    'genitori',
    'pai',
    'mae',
    'pais',
    'vader',
    'moeder',
    'ouders',
    // pl
    'ojciec',
    'matka',
    'tata',
    'rodzic',
    'rodzice',
    // cs, sk
    'otec',
    'máma',
    'táta',
    'rodič',
    'rodiče',
    'rodičia',
    // lt
    'tėvas',
    'motina',
    'tėvai',
    // lv
    'tēvs',
    'mamma',
    'vecāki',
    // ro
    'tată',
    'tatăl',
    'mamă',
    'părinte',
    'părinți',
    // hu
    'apa',
    'anya',
    'édesapa',
    'édesanya',
    'szülő',
    'szülők',
    // el
    'πατέρας',
    'μητέρα',
    'μπαμπάς',
    'μαμά',
    'γονέας',
    'γονείς',
  ],
  sibling: [
    'frere',
    'soeur',
    'freres',
    'soeurs',
    'demi frere',
    'demi soeur',
    'hermano',
    'hermana',
    'hermanos',
    'hermanas',
    'medio hermano',
    'media hermana',
    'bruder',
    'schwester',
    'schwestern',
    'geschwister',
    'halbbruder',
    'halbschwester',
    'fratello',
    'sorella',
    'fratelli',
    'sorelle',
    'irmao',
    'irma',
    'irmaos',
    'irmas',
    'meio irmao',
    'meia irma',
    'broer',
    'zus',
    'zuster',
    'broers',
    'zussen',
    'halfbroer',
    'halfzus',
    // pl
    'brat',
    'bracia',
    'siostra',
    'siostry',
    'rodzeństwo',
    // cs, sk
    'bratr',
    'bratři',
    'bratia',
    'sestra',
    'sestry',
    'sourozenec',
    'sourozenci',
    'súrodenec',
    'súrodenci',
    // lt
    'brolis',
    'broliai',
    'sesuo',
    'sesė',
    'seserys',
    // lv
    'brālis',
    'brāļi',
    'māsa',
    'māsas',
    // ro
    'frate',
    'fratele',
    'frați',
    'soră',
    'sora',
    'surori',
    // hu
    'testvér',
    'testvérek',
    'fivér',
    'fiútestvér',
    'lánytestvér',
    // el
    'αδελφός',
    'αδερφός',
    'αδελφή',
    'αδερφή',
    'αδέλφια',
    'αδέρφια',
  ],
};
/**
 * A relationship as the tables hold it: accents and other marks dropped, the ligatures spelt out ("sœur" is "soeur",
 * "ß" "ss"), the Polish "ł" an "l" (it has no mark to drop), lower case, Latin and Greek letters (a final "ς" as "σ"),
 * spaces and hyphens only.
 */
function normalize(relationship: string): string {
  return relationship
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
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
