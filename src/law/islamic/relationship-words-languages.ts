import type { HeirKey } from '../faraid/index.js';

/**
 * The relationship words of the fara'id checks (src/law/islamic/relationships.ts) in the languages other than English
 * and Arabic that owners in the catalogue's Muslim-majority jurisdictions write: a table only, read there through
 * `normalizeRelationship` (so "épouse" and "epouse", "oğul" and "ogul" are one word).
 *
 * - A word goes under `heirs` only when it names one heir type. Where the English word is read by convention (bare
 *   "brother" as the full brother, "grandson" as the son's son), its translation is not: a word that does not tell
 *   the line or the blood apart ("saudara", "frère", "petit-fils", "kardeş") is `ambiguous`, with the heirs it may
 *   name, and the owner is asked which one is meant. Exact translations of an English word that names one heir
 *   ("paternal uncle", "brother's son", taken as the full one) name the same heir.
 * - A word that means something else as often (French "femme": woman; Turkish "kız": girl) is left out, as in
 *   src/law/family-words-languages.ts: it stays unknown and the owner is asked for another word, rather than misread.
 */
export interface LanguageWords {
  /** Words that name one heir type. */
  heirs: Partial<Record<HeirKey, readonly string[]>>;
  /** Words that may name more than one heir type, with those types. */
  ambiguous: Readonly<Record<string, readonly HeirKey[]>>;
  /** Relatives and others who are not heirs by fara'id. */
  nonHeirs: readonly string[];
  /** Words for the public treasury (bayt al-mal). */
  treasury?: readonly string[];
}

const SPOUSES: readonly HeirKey[] = ['husband', 'wife'];
const CHILDREN: readonly HeirKey[] = ['son', 'daughter'];
const PARENTS: readonly HeirKey[] = ['father', 'mother'];
const GRANDCHILDREN: readonly HeirKey[] = ['sonsSon', 'sonsDaughter', 'daughtersSon', 'daughtersDaughter'];
const GRANDSONS: readonly HeirKey[] = ['sonsSon', 'daughtersSon'];
const GRANDDAUGHTERS: readonly HeirKey[] = ['sonsDaughter', 'daughtersDaughter'];
const GRANDFATHERS: readonly HeirKey[] = ['paternalGrandfather', 'maternalGrandfather'];
const GRANDMOTHERS: readonly HeirKey[] = ['paternalGrandmother', 'maternalGrandmother'];
const BROTHERS: readonly HeirKey[] = ['fullBrother', 'paternalHalfBrother', 'maternalHalfBrother'];
const SISTERS: readonly HeirKey[] = ['fullSister', 'paternalHalfSister', 'maternalHalfSister'];
const SIBLINGS: readonly HeirKey[] = [...BROTHERS, ...SISTERS];
const FULL_SIBLINGS: readonly HeirKey[] = ['fullBrother', 'fullSister'];
const PATERNAL_HALF_SIBLINGS: readonly HeirKey[] = ['paternalHalfBrother', 'paternalHalfSister'];
const MATERNAL_HALF_SIBLINGS: readonly HeirKey[] = ['maternalHalfBrother', 'maternalHalfSister'];
const NEPHEWS: readonly HeirKey[] = ['fullBrothersSon', 'paternalHalfBrothersSon'];
const UNCLES: readonly HeirKey[] = ['fullPaternalUncle', 'paternalHalfPaternalUncle', 'maternalUncle'];
const AUNTS: readonly HeirKey[] = ['fullPaternalAunt', 'maternalAunt'];
const COUSINS: readonly HeirKey[] = ['fullPaternalUnclesSon', 'paternalHalfPaternalUnclesSon'];

/**
 * Malay and Indonesian. Indonesia: the Kompilasi Hukum Islam (Inpres 1/1991), arts. 174-182 ("ayah", "ibu", "anak
 * laki-laki", "anak perempuan", "saudara perempuan kandung atau seayah", "saudara laki-laki dan perempuan seibu",
 * "duda", "janda"), and the Kamus Besar Bahasa Indonesia. Malaysia: the heirs as the fara'id manuals of the state
 * religious departments list them ("cucu lelaki daripada anak lelaki", "datuk sebelah bapa", "saudara lelaki seibu
 * sebapa / sebapa / seibu", "nenek sebelah ibu"), and Kamus Dewan. Left out: "duda" and "janda" (a widower or widow, but
 * also a divorced man or woman, who is no heir), "datuk" (grandfather, and a title), "abang", "kakak", "adik" (elder
 * brother, elder sister, younger sibling, also said to a husband, a wife or anyone older or younger), "putra" and
 * "putri" (son and daughter, also prince and princess), "pasangan" (spouse or partner), "bibi" (aunt, also a maid).
 */
const MALAY_INDONESIAN: LanguageWords = {
  heirs: {
    husband: ['suami'],
    wife: ['isteri', 'istri'],
    son: ['anak lelaki', 'anak laki-laki', 'anak laki'],
    daughter: ['anak perempuan'],
    sonsSon: ['cucu lelaki dari anak lelaki', 'cucu lelaki daripada anak lelaki', 'cucu laki-laki dari anak laki-laki'],
    sonsDaughter: [
      'cucu perempuan dari anak lelaki',
      'cucu perempuan daripada anak lelaki',
      'cucu perempuan dari anak laki-laki',
    ],
    daughtersSon: [
      'cucu lelaki dari anak perempuan',
      'cucu lelaki daripada anak perempuan',
      'cucu laki-laki dari anak perempuan',
    ],
    daughtersDaughter: ['cucu perempuan dari anak perempuan', 'cucu perempuan daripada anak perempuan'],
    father: ['ayah', 'bapa', 'bapak', 'ayah kandung', 'bapa kandung'],
    mother: ['ibu', 'emak', 'ibu kandung'],
    paternalGrandfather: ['datuk sebelah bapa', 'kakek dari pihak ayah'],
    maternalGrandfather: ['datuk sebelah ibu', 'kakek dari pihak ibu'],
    paternalGrandmother: ['nenek sebelah bapa', 'nenek dari pihak ayah'],
    maternalGrandmother: ['nenek sebelah ibu', 'nenek dari pihak ibu'],
    fullBrother: [
      'saudara lelaki kandung',
      'saudara lelaki seibu sebapa',
      'saudara laki-laki kandung',
      'saudara laki-laki sekandung',
    ],
    fullSister: [
      'saudara perempuan kandung',
      'saudara perempuan seibu sebapa',
      'saudara perempuan sekandung',
      'saudari kandung',
      'saudari sekandung',
    ],
    paternalHalfBrother: ['saudara lelaki sebapa', 'saudara lelaki seayah', 'saudara laki-laki seayah'],
    paternalHalfSister: ['saudara perempuan sebapa', 'saudara perempuan seayah', 'saudari seayah'],
    maternalHalfBrother: ['saudara lelaki seibu', 'saudara laki-laki seibu'],
    maternalHalfSister: ['saudara perempuan seibu', 'saudari seibu'],
    fullBrothersSon: [
      'anak lelaki saudara lelaki kandung',
      'anak lelaki saudara lelaki seibu sebapa',
      'anak laki-laki saudara laki-laki kandung',
    ],
    paternalHalfBrothersSon: ['anak lelaki saudara lelaki sebapa', 'anak laki-laki saudara laki-laki seayah'],
    fullPaternalUncle: ['bapa saudara sebelah bapa', 'paman dari pihak ayah'],
    maternalUncle: ['bapa saudara sebelah ibu', 'paman dari pihak ibu'],
    fullPaternalAunt: ['ibu saudara sebelah bapa', 'bibi dari pihak ayah'],
    maternalAunt: ['ibu saudara sebelah ibu', 'bibi dari pihak ibu'],
  },
  ambiguous: {
    anak: CHILDREN,
    'anak kandung': CHILDREN,
    'orang tua': PARENTS,
    'ibu bapa': PARENTS,
    cucu: GRANDCHILDREN,
    'cucu lelaki': GRANDSONS,
    'cucu laki-laki': GRANDSONS,
    'cucu perempuan': GRANDDAUGHTERS,
    kakek: GRANDFATHERS,
    nenek: GRANDMOTHERS,
    saudara: SIBLINGS,
    'saudara kandung': FULL_SIBLINGS,
    'saudara seibu sebapa': FULL_SIBLINGS,
    'saudara sebapa': PATERNAL_HALF_SIBLINGS,
    'saudara seayah': PATERNAL_HALF_SIBLINGS,
    'saudara seibu': MATERNAL_HALF_SIBLINGS,
    'saudara lelaki': BROTHERS,
    'saudara laki-laki': BROTHERS,
    'saudara perempuan': SISTERS,
    saudari: SISTERS,
    'anak saudara': NEPHEWS,
    'anak saudara lelaki': NEPHEWS,
    keponakan: NEPHEWS,
    paman: UNCLES,
    'bapa saudara': UNCLES,
    'ibu saudara': AUNTS,
    sepupu: COUSINS,
  },
  nonHeirs: [
    'kawan',
    'teman',
    'sahabat',
    'jiran',
    'tetangga',
    'yayasan',
    'badan amal',
    'anak angkat',
    'anak tiri',
    'ayah tiri',
    'bapa tiri',
    'ibu tiri',
    'anak susuan',
    'saudara susuan',
    'menantu',
    'mertua',
    'ipar',
    'bekas isteri',
    'bekas suami',
    'mantan istri',
    'mantan suami',
    'anak saudara perempuan',
    'keponakan perempuan',
  ],
};

/**
 * French as written in the Maghreb and West Africa. Morocco's Moudawana (Family Code of 2004, French version, arts.
 * 329-395: "frère germain", "frère consanguin", "frère utérin", "la fille du fils"), Algeria's Code de la famille
 * (French text, arts. 126-183), Senegal's Code de la famille (arts. 571-580: "le mari survivant", "la veuve", "la
 * sœur germaine, consanguine ou utérine", "l'aïeule maternelle ou paternelle"). Left out: "femme" (woman as often
 * as wife); "cousin" and "parent" are the English words and keep their reading.
 */
const FRENCH: LanguageWords = {
  heirs: {
    husband: ['mari', 'époux', 'mari survivant', 'veuf'],
    wife: ['épouse', 'veuve', 'conjointe'],
    son: ['fils'],
    daughter: ['fille'],
    sonsSon: ['fils du fils', 'fils de fils', 'petit-fils (fils du fils)', 'petit-fils par le fils'],
    sonsDaughter: ['fille du fils', 'fille de fils', 'petite-fille (fille du fils)', 'petite-fille par le fils'],
    daughtersSon: ['fils de la fille', 'fils de fille', 'petit-fils (fils de la fille)', 'petit-fils par la fille'],
    daughtersDaughter: [
      'fille de la fille',
      'fille de fille',
      'petite-fille (fille de la fille)',
      'petite-fille par la fille',
    ],
    father: ['père'],
    mother: ['mère'],
    paternalGrandfather: ['grand-père paternel', 'aïeul paternel', 'père du père'],
    maternalGrandfather: ['grand-père maternel', 'père de la mère'],
    paternalGrandmother: ['grand-mère paternelle', 'aïeule paternelle', 'mère du père'],
    maternalGrandmother: ['grand-mère maternelle', 'aïeule maternelle', 'mère de la mère'],
    fullBrother: ['frère germain'],
    fullSister: ['sœur germaine'],
    paternalHalfBrother: ['frère consanguin', 'demi-frère paternel'],
    paternalHalfSister: ['sœur consanguine', 'demi-sœur paternelle'],
    maternalHalfBrother: ['frère utérin', 'demi-frère maternel'],
    maternalHalfSister: ['sœur utérine', 'demi-sœur maternelle'],
    fullBrothersSon: ['fils du frère germain', 'fils du frère'],
    paternalHalfBrothersSon: ['fils du frère consanguin'],
    fullPaternalUncle: ['oncle paternel', 'oncle paternel germain', 'frère du père', 'frère germain du père'],
    paternalHalfPaternalUncle: ['oncle paternel consanguin', 'frère consanguin du père'],
    fullPaternalUnclesSon: ["fils de l'oncle paternel", "fils de l'oncle paternel germain"],
    paternalHalfPaternalUnclesSon: ["fils de l'oncle paternel consanguin"],
    maternalUncle: ['oncle maternel', 'frère de la mère'],
    fullPaternalAunt: ['tante paternelle', 'sœur du père'],
    maternalAunt: ['tante maternelle', 'sœur de la mère'],
  },
  ambiguous: {
    conjoint: SPOUSES,
    'conjoint survivant': SPOUSES,
    enfant: CHILDREN,
    'petit-fils': GRANDSONS,
    'petite-fille': GRANDDAUGHTERS,
    'petit-enfant': GRANDCHILDREN,
    'grand-père': GRANDFATHERS,
    'grand-mère': GRANDMOTHERS,
    frère: BROTHERS,
    sœur: SISTERS,
    'demi-frère': ['paternalHalfBrother', 'maternalHalfBrother'],
    'demi-sœur': ['paternalHalfSister', 'maternalHalfSister'],
    neveu: NEPHEWS,
    oncle: UNCLES,
    tante: AUNTS,
  },
  nonHeirs: [
    'ami',
    'amie',
    'voisin',
    'voisine',
    'mosquée',
    'association',
    'fondation',
    'beau-fils',
    'belle-fille',
    'beau-père',
    'belle-mère',
    'beau-frère',
    'belle-sœur',
    'gendre',
    'bru',
    'fils adoptif',
    'fille adoptive',
    'enfant adoptif',
    'enfant adopté',
    'enfant recueilli',
    'nièce',
    'fils de la sœur',
    'fille de la sœur',
    'fille du frère',
    'fils du frère utérin',
    "fille de l'oncle paternel",
    'cousine',
    'frère de lait',
    'sœur de lait',
    'ex-épouse',
    'ex-mari',
    'ex-époux',
    'ex-femme',
  ],
  treasury: ['trésor public'],
};

/**
 * Turkish. The Turkish Civil Code (Law 4721, arts. 495-501: "altsoy", "ana", "baba", "kardeş", "sağ kalan eş") and the
 * Türk Dil Kurumu's Güncel Türkçe Sözlük ("baba bir", "ana bir": of one father, of one mother; "öz kardeş": of both
 * parents; "babaanne", "anneanne"). Turkey's own law is secular; the words serve the Islamic templates wherever the
 * plan is made. Left out: "kız" (girl as often as daughter; "kız evlat" and "kızım" are read), "hanım" (lady as often
 * as wife), "abla", "abi", "ağabey" (said to anyone older), "üvey kardeş" (a step-sibling, who is no heir, or a
 * half-sibling, who is).
 */
const TURKISH: LanguageWords = {
  heirs: {
    husband: ['koca', 'kocam', 'zevç'],
    wife: ['karı', 'karım', 'zevce'],
    son: ['oğul', 'oğlum', 'erkek evlat'],
    daughter: ['kız evlat', 'kızım'],
    sonsSon: ['oğlunun oğlu', 'oğlumun oğlu'],
    sonsDaughter: ['oğlunun kızı', 'oğlumun kızı'],
    daughtersSon: ['kızının oğlu', 'kızımın oğlu'],
    daughtersDaughter: ['kızının kızı', 'kızımın kızı'],
    father: ['baba', 'babam'],
    mother: ['anne', 'annem', 'ana'],
    paternalGrandfather: ['babanın babası', 'babamın babası'],
    maternalGrandfather: ['annenin babası', 'annemin babası'],
    paternalGrandmother: ['babaanne', 'babanın annesi'],
    maternalGrandmother: ['anneanne', 'annenin annesi'],
    fullBrother: ['öz erkek kardeş'],
    fullSister: ['öz kız kardeş'],
    paternalHalfBrother: ['baba bir erkek kardeş'],
    paternalHalfSister: ['baba bir kız kardeş'],
    maternalHalfBrother: ['ana bir erkek kardeş', 'anne bir erkek kardeş'],
    maternalHalfSister: ['ana bir kız kardeş', 'anne bir kız kardeş'],
    fullPaternalUncle: ['amca'],
    fullPaternalUnclesSon: ['amca oğlu', 'amcaoğlu'],
    maternalUncle: ['dayı'],
    fullPaternalAunt: ['hala'],
    maternalAunt: ['teyze'],
  },
  ambiguous: {
    eş: SPOUSES,
    eşim: SPOUSES,
    evlat: CHILDREN,
    çocuk: CHILDREN,
    çocuğum: CHILDREN,
    torun: GRANDCHILDREN,
    torunum: GRANDCHILDREN,
    'erkek torun': GRANDSONS,
    'kız torun': GRANDDAUGHTERS,
    dede: GRANDFATHERS,
    büyükbaba: GRANDFATHERS,
    büyükanne: GRANDMOTHERS,
    nine: GRANDMOTHERS,
    kardeş: SIBLINGS,
    kardeşim: SIBLINGS,
    'erkek kardeş': BROTHERS,
    'erkek kardeşim': BROTHERS,
    'kız kardeş': SISTERS,
    'kız kardeşim': SISTERS,
    'öz kardeş': FULL_SIBLINGS,
    'baba bir kardeş': PATERNAL_HALF_SIBLINGS,
    'ana bir kardeş': MATERNAL_HALF_SIBLINGS,
    'anne bir kardeş': MATERNAL_HALF_SIBLINGS,
    yeğen: NEPHEWS,
    kuzen: COUSINS,
  },
  nonHeirs: [
    'arkadaş',
    'arkadaşım',
    'komşu',
    'vakıf',
    'dernek',
    'cami',
    'hayır kurumu',
    'üvey oğul',
    'üvey kız',
    'üvey anne',
    'üvey baba',
    'evlatlık',
    'gelin',
    'damat',
    'kayınpeder',
    'kayınvalide',
    'kayınbirader',
    'yenge',
    'enişte',
    'süt kardeş',
    'eski eş',
  ],
};

/**
 * Urdu and Persian in Latin letters. Urdu: Platts, A Dictionary of Urdu, Classical Hindi and English (1884), for the
 * kinship words, which name the line ("dadi" the father's mother, "nani" the mother's mother, "pota" a son's son,
 * "nawasa" a daughter's son, "chacha" and "taya" the father's brothers, "mamun" the mother's brother). Persian: the
 * words of Iran's Civil Code (arts. 861-949: "pedar", "madar", "pesar", "dokhtar", "shohar") as they are commonly
 * transliterated, and Steingass, A Comprehensive Persian-English Dictionary. "dokhtar" and "pesar" are girl and boy
 * too, but as French "fille", the language has no other word for daughter and son, and the Civil Code uses them.
 * Left out: "begum" (a wife, and a title of any lady), "zan" (woman as often as wife), "amma" (Urdu mother, Arabic
 * paternal aunt, which the table reads already), "nana" and "dada" (the maternal and paternal grandfather in Urdu,
 * but English grandma and dad), "bhaiya", "baji", "apa" (said to anyone older).
 */
const URDU_PERSIAN: LanguageWords = {
  heirs: {
    husband: ['shohar', 'shauhar', 'shouhar', 'showhar', 'khawand', 'khavand'],
    wife: ['biwi', 'bivi', 'ahliya', 'ahliyah'],
    son: ['beta', 'pesar'],
    daughter: ['beti', 'dokhtar'],
    sonsSon: ['pota', 'pesar-e pesar'],
    sonsDaughter: ['poti', 'dokhtar-e pesar'],
    daughtersSon: ['nawasa', 'pesar-e dokhtar'],
    daughtersDaughter: ['nawasi', 'dokhtar-e dokhtar'],
    father: ['walid', 'abba', 'abbu', 'pedar'],
    mother: ['walida', 'walidah', 'ammi', 'madar', 'maadar'],
    paternalGrandmother: ['dadi'],
    maternalGrandmother: ['nani'],
    fullPaternalUncle: ['chacha', 'taya', 'amu', 'amoo'],
    maternalUncle: ['mamun', 'mamu', 'mamoo', 'daei', 'dayi'],
    fullPaternalAunt: ['phuphi', 'phuppo', 'phupho', 'ammeh'],
    maternalAunt: ['khaleh'],
    fullBrothersSon: ['bhatija', 'pesar-e baradar'],
    fullPaternalUnclesSon: ['chachazad bhai', 'pesar-e amu', 'pesar amu'],
  },
  ambiguous: {
    hamsar: SPOUSES,
    aulad: CHILDREN,
    aulaad: CHILDREN,
    farzand: CHILDREN,
    walidain: PARENTS,
    valedein: PARENTS,
    nave: GRANDCHILDREN,
    naveh: GRANDCHILDREN,
    pedarbozorg: GRANDFATHERS,
    'pedar bozorg': GRANDFATHERS,
    madarbozorg: GRANDMOTHERS,
    'madar bozorg': GRANDMOTHERS,
    bhai: BROTHERS,
    baradar: BROTHERS,
    behen: SISTERS,
    bahen: SISTERS,
    behan: SISTERS,
    bahan: SISTERS,
    khahar: SISTERS,
    khaahar: SISTERS,
  },
  nonHeirs: [
    'dost',
    'doost',
    'padosi',
    'parosi',
    'hamsaya',
    'bhatiji',
    'bhanja',
    'bhanji',
    'chachi',
    'mumani',
    'bahu',
    'damad',
    'sasur',
    'saas',
    'sautela beta',
    'sauteli beti',
    'sauteli maa',
    'sautela baap',
  ],
};

/** Each language's words, under the code of the language. */
export const OTHER_LANGUAGE_WORDS: Readonly<Record<string, LanguageWords>> = {
  'ms-id': MALAY_INDONESIAN,
  fr: FRENCH,
  tr: TURKISH,
  'ur-fa': URDU_PERSIAN,
};
