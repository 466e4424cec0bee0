import type { HeirKey, Madhhab } from '../../../src/law/faraid/index.js';

/**
 * Classical fara'id cases with their expected exact shares (of the whole
 * group of each heir type). References are to standard works:
 *  - SIRAJIYYAH: Sirajuddin Muhammad al-Sajawandi, Al-Sirajiyyah (Hanafi), tr. A. Rumsey,
 *    "Al Sirajiyyah or the Mahommedan Law of Inheritance" (chapters named in each case).
 *  - COULSON: N. J. Coulson, Succession in the Muslim Family (Cambridge University Press, 1971).
 *  - MUGHNI: Ibn Qudama, al-Mughni, Kitab al-Fara'id (Hanbali, with the other schools' views).
 *  - QURAN: Qur'an 4:11, 4:12, 4:176.
 *  - IBN_ABIDIN: Ibn 'Abidin, Radd al-Muhtar, Kitab al-Fara'id (later Hanafi fatwa on radd to a spouse).
 */
export interface GoldenCase {
  name: string;
  heirs: Partial<Record<HeirKey, number>>;
  madhhab?: Madhhab;
  shares: Partial<Record<HeirKey, string>>;
  excluded?: Partial<Record<HeirKey, HeirKey>>;
  awl?: [string, string];
  radd?: boolean;
  special?: string;
  source: string;
}

const SIRAJIYYAH = 'Al-Sirajiyyah (al-Sajawandi, tr. Rumsey)';
const COULSON = 'Coulson, Succession in the Muslim Family (1971)';
const MUGHNI = "Ibn Qudama, al-Mughni, Kitab al-Fara'id";
const QURAN = "Qur'an 4:11-12";

export const GOLDEN: GoldenCase[] = [
  // --- Fixed shares and residuaries -------------------------------------------------
  {
    name: 'husband and son',
    heirs: { husband: 1, son: 1 },
    shares: { husband: '1/4', son: '3/4' },
    source: `${QURAN} (husband 1/4 with a child); ${SIRAJIYYAH}, ch. on sharers`,
  },
  {
    name: 'wife, son and daughter',
    heirs: { wife: 1, son: 1, daughter: 1 },
    shares: { wife: '1/8', son: '7/12', daughter: '7/24' },
    source: `${QURAN} ("to the male the like of the portion of two females"; wife 1/8 with a child)`,
  },
  {
    name: 'wife and father',
    heirs: { wife: 1, father: 1 },
    shares: { wife: '1/4', father: '3/4' },
    source: `${QURAN}; ${SIRAJIYYAH}, ch. on residuaries (father as residuary)`,
  },
  {
    name: 'two daughters, father, mother',
    heirs: { daughter: 2, father: 1, mother: 1 },
    shares: { daughter: '2/3', father: '1/6', mother: '1/6' },
    source: `${QURAN} ("if there be more than two daughters, two-thirds"; parents 1/6 each with a child)`,
  },
  {
    name: 'daughter and father (father 1/6 plus residue)',
    heirs: { daughter: 1, father: 1 },
    shares: { daughter: '1/2', father: '1/2' },
    source: `${SIRAJIYYAH}, ch. on sharers (the father's third state: share and residue)`,
  },
  {
    name: 'four wives and a son',
    heirs: { wife: 4, son: 1 },
    shares: { wife: '1/8', son: '7/8' },
    source: `${QURAN} (wives share the 1/8 equally); ${SIRAJIYYAH}`,
  },
  {
    name: 'daughter, sons daughter, full brother (completion of two-thirds)',
    heirs: { daughter: 1, sonsDaughter: 1, fullBrother: 1 },
    shares: { daughter: '1/2', sonsDaughter: '1/6', fullBrother: '1/3' },
    source:
      "Sahih al-Bukhari 6736 (Ibn Mas'ud's decision: daughter 1/2, son's daughter 1/6, sister the rest); " + SIRAJIYYAH,
  },
  {
    name: 'daughter, sons daughter, full sister',
    heirs: { daughter: 1, sonsDaughter: 1, fullSister: 1 },
    shares: { daughter: '1/2', sonsDaughter: '1/6', fullSister: '1/3' },
    source: "Sahih al-Bukhari 6736 (Ibn Mas'ud: the sister takes the remainder with daughters)",
  },
  {
    name: 'two daughters, sons son, sons daughter (the blessed brother)',
    heirs: { daughter: 2, sonsSon: 1, sonsDaughter: 1 },
    shares: { daughter: '2/3', sonsSon: '2/9', sonsDaughter: '1/9' },
    source: `${SIRAJIYYAH}, ch. on sharers (sons' daughters made residuary by a son's son)`,
  },
  {
    name: 'daughter and full sister (sister residuary with daughters)',
    heirs: { daughter: 1, fullSister: 1, fullBrothersSon: 1 },
    shares: { daughter: '1/2', fullSister: '1/2' },
    excluded: { fullBrothersSon: 'fullSister' },
    source: `${SIRAJIYYAH}, ch. on residuaries ('asaba ma'a al-ghayr: "make sisters with daughters residuaries")`,
  },
  {
    name: 'daughter, paternal half-sister, full brothers son',
    heirs: { daughter: 1, paternalHalfSister: 1, fullBrothersSon: 1 },
    shares: { daughter: '1/2', paternalHalfSister: '1/2' },
    excluded: { fullBrothersSon: 'paternalHalfSister' },
    source: `${SIRAJIYYAH}, ch. on residuaries ('asaba ma'a al-ghayr)`,
  },
  {
    name: 'full sister and paternal half-sister (completion of two-thirds)',
    heirs: { fullSister: 1, paternalHalfSister: 1, fullPaternalUncle: 1 },
    shares: { fullSister: '1/2', paternalHalfSister: '1/6', fullPaternalUncle: '1/3' },
    source: `Qur'an 4:176; ${SIRAJIYYAH}, ch. on sharers (consanguine sisters)`,
  },
  {
    name: 'two full sisters, paternal half-brother and half-sister',
    heirs: { fullSister: 2, paternalHalfBrother: 1, paternalHalfSister: 1 },
    shares: { fullSister: '2/3', paternalHalfBrother: '2/9', paternalHalfSister: '1/9' },
    source: `${SIRAJIYYAH}, ch. on sharers (consanguine sisters made residuary by their brother)`,
  },
  {
    name: 'wife, maternal half-brother and half-sister, paternal uncle',
    heirs: { wife: 1, maternalHalfBrother: 1, maternalHalfSister: 1, fullPaternalUncle: 1 },
    shares: { wife: '1/4', maternalHalfBrother: '1/6', maternalHalfSister: '1/6', fullPaternalUncle: '5/12' },
    source: 'Qur\'an 4:12 (uterine siblings "sharers in a third", male and female equal)',
  },
  {
    name: 'mother, maternal half-brother, full brother (mother reduced by two siblings)',
    heirs: { mother: 1, maternalHalfBrother: 1, fullBrother: 1 },
    shares: { mother: '1/6', maternalHalfBrother: '1/6', fullBrother: '2/3' },
    source: 'Qur\'an 4:11 ("if he has brothers, his mother has a sixth"); ' + SIRAJIYYAH,
  },
  {
    name: 'wife and paternal half uncles son (most distant agnate)',
    heirs: { wife: 1, paternalHalfPaternalUnclesSon: 2 },
    shares: { wife: '1/4', paternalHalfPaternalUnclesSon: '3/4' },
    source: `${SIRAJIYYAH}, ch. on residuaries (order of agnates)`,
  },
  {
    name: 'husband and full sister (two halves)',
    heirs: { husband: 1, fullSister: 1 },
    shares: { husband: '1/2', fullSister: '1/2' },
    source: "Qur'an 4:12 and 4:176; " + SIRAJIYYAH,
  },

  // --- Exclusion (hajb) ----------------------------------------------------------------
  {
    name: 'son excludes sons son',
    heirs: { son: 1, sonsSon: 2 },
    shares: { son: '1/1' },
    excluded: { sonsSon: 'son' },
    source: `${SIRAJIYYAH}, ch. on exclusion`,
  },
  {
    name: 'two daughters exclude sons daughter',
    heirs: { daughter: 2, sonsDaughter: 1, fullBrother: 1 },
    shares: { daughter: '2/3', fullBrother: '1/3' },
    excluded: { sonsDaughter: 'daughter' },
    source: `${SIRAJIYYAH}, ch. on sharers and exclusion`,
  },
  {
    name: 'mother excludes maternal grandmother',
    heirs: { mother: 1, maternalGrandmother: 1, son: 1 },
    shares: { mother: '1/6', son: '5/6' },
    excluded: { maternalGrandmother: 'mother' },
    source: `${SIRAJIYYAH}, ch. on exclusion ("the mother excludes all grandmothers")`,
  },
  {
    name: 'grandmothers share one sixth',
    heirs: { paternalGrandmother: 1, maternalGrandmother: 1, son: 1 },
    shares: { paternalGrandmother: '1/12', maternalGrandmother: '1/12', son: '5/6' },
    source: `Sunan Abi Dawud 2894 (the grandmother's sixth); ${SIRAJIYYAH}`,
  },
  {
    name: 'father excludes paternal grandmother (Hanafi)',
    heirs: { father: 1, paternalGrandmother: 1, son: 1 },
    madhhab: 'hanafi',
    shares: { father: '1/6', son: '5/6' },
    excluded: { paternalGrandmother: 'father' },
    source: `${SIRAJIYYAH}, ch. on exclusion; ${MUGHNI} (majority view)`,
  },
  {
    name: "father excludes paternal grandmother (Shafi'i)",
    heirs: { father: 1, paternalGrandmother: 1, maternalGrandmother: 1 },
    madhhab: 'shafii',
    shares: { father: '5/6', maternalGrandmother: '1/6' },
    excluded: { paternalGrandmother: 'father' },
    source: `${MUGHNI} (view of Zayd, followed by Malik and al-Shafi'i: the grandmother does not inherit with her son)`,
  },
  {
    name: 'father excludes paternal grandmother (Maliki)',
    heirs: { father: 1, paternalGrandmother: 1, daughter: 1 },
    madhhab: 'maliki',
    shares: { daughter: '1/2', father: '1/2' },
    excluded: { paternalGrandmother: 'father' },
    source: "Malik, al-Muwatta', Kitab al-Fara'id (inheritance of grandmothers)",
  },
  {
    name: 'both grandmothers with the father (Hanbali)',
    heirs: { father: 1, paternalGrandmother: 1, maternalGrandmother: 1 },
    madhhab: 'hanbali',
    shares: { father: '5/6', paternalGrandmother: '1/12', maternalGrandmother: '1/12' },
    source: `${MUGHNI} (the grandmother inherits with her son; grandmothers share the sixth)`,
  },
  {
    name: 'paternal grandmother inherits with the father (Hanbali)',
    heirs: { father: 1, paternalGrandmother: 1, son: 1 },
    madhhab: 'hanbali',
    shares: { father: '1/6', paternalGrandmother: '1/6', son: '2/3' },
    source: `${MUGHNI} (the grandmother inherits with her son, after 'Umar and Ibn Mas'ud)`,
  },
  {
    name: 'father excludes brothers yet they reduce the mother',
    heirs: { father: 1, mother: 1, fullBrother: 2 },
    shares: { mother: '1/6', father: '5/6' },
    excluded: { fullBrother: 'father' },
    source: `Qur'an 4:11; ${SIRAJIYYAH}, ch. on exclusion (the excluded who still exclude)`,
  },
  {
    name: 'husband, father, mother, two brothers (no Umariyya)',
    heirs: { husband: 1, father: 1, mother: 1, fullBrother: 2 },
    shares: { husband: '1/2', mother: '1/6', father: '1/3' },
    excluded: { fullBrother: 'father' },
    source: `Qur'an 4:11; ${COULSON}, ch. on the parents`,
  },
  {
    name: 'full sister with daughter excludes paternal half-brother',
    heirs: { daughter: 1, fullSister: 1, paternalHalfBrother: 1 },
    shares: { daughter: '1/2', fullSister: '1/2' },
    excluded: { paternalHalfBrother: 'fullSister' },
    source: `${SIRAJIYYAH}, ch. on residuaries (sister with daughter ranks as a brother)`,
  },
  {
    name: 'full sister with daughter excludes paternal half-sister',
    heirs: { daughter: 1, fullSister: 1, paternalHalfSister: 1 },
    shares: { daughter: '1/2', fullSister: '1/2' },
    excluded: { paternalHalfSister: 'fullSister' },
    source: `${SIRAJIYYAH}, ch. on residuaries`,
  },
  {
    name: 'two full sisters exclude paternal half-sister',
    heirs: { fullSister: 2, paternalHalfSister: 1, fullPaternalUncle: 1 },
    shares: { fullSister: '2/3', fullPaternalUncle: '1/3' },
    excluded: { paternalHalfSister: 'fullSister' },
    source: `${SIRAJIYYAH}, ch. on sharers (consanguine sisters)`,
  },
  {
    name: 'daughter excludes maternal half-brother',
    heirs: { daughter: 1, maternalHalfBrother: 1, fullPaternalUncle: 1 },
    shares: { daughter: '1/2', fullPaternalUncle: '1/2' },
    excluded: { maternalHalfBrother: 'daughter' },
    source: `Qur'an 4:12 (kalala); ${SIRAJIYYAH}, ch. on exclusion`,
  },
  {
    name: 'sons daughter excludes maternal half-sister',
    heirs: { sonsDaughter: 1, maternalHalfSister: 1, fullPaternalUncle: 1 },
    shares: { sonsDaughter: '1/2', fullPaternalUncle: '1/2' },
    excluded: { maternalHalfSister: 'sonsDaughter' },
    source: `${SIRAJIYYAH}, ch. on exclusion`,
  },
  {
    name: 'grandfather excludes maternal half-sister',
    heirs: { paternalGrandfather: 1, maternalHalfSister: 1 },
    shares: { paternalGrandfather: '1/1' },
    excluded: { maternalHalfSister: 'paternalGrandfather' },
    source: `${SIRAJIYYAH}, ch. on exclusion (uterine siblings excluded by the father's father)`,
  },
  {
    name: 'paternal half-brother excludes full brothers son',
    heirs: { paternalHalfBrother: 1, fullBrothersSon: 1 },
    shares: { paternalHalfBrother: '1/1' },
    excluded: { fullBrothersSon: 'paternalHalfBrother' },
    source: `${SIRAJIYYAH}, ch. on residuaries (nearer degree before strength of blood)`,
  },
  {
    name: 'paternal half-brothers son excludes full uncle',
    heirs: { paternalHalfBrothersSon: 1, fullPaternalUncle: 1 },
    shares: { paternalHalfBrothersSon: '1/1' },
    excluded: { fullPaternalUncle: 'paternalHalfBrothersSon' },
    source: `${SIRAJIYYAH}, ch. on residuaries (class before degree)`,
  },
  {
    name: 'full uncle excludes half uncle and cousins',
    heirs: { fullPaternalUncle: 1, paternalHalfPaternalUncle: 1, fullPaternalUnclesSon: 1 },
    shares: { fullPaternalUncle: '1/1' },
    excluded: { paternalHalfPaternalUncle: 'fullPaternalUncle', fullPaternalUnclesSon: 'fullPaternalUncle' },
    source: `${SIRAJIYYAH}, ch. on residuaries`,
  },

  // --- 'Umariyyatan ------------------------------------------------------------------
  {
    name: "'Umariyya: husband, father, mother",
    heirs: { husband: 1, father: 1, mother: 1 },
    shares: { husband: '1/2', mother: '1/6', father: '1/3' },
    special: 'umariyyatan',
    source: `${SIRAJIYYAH}, ch. on sharers (mother: a third of the remainder); ${COULSON}`,
  },
  {
    name: "'Umariyya: wife, father, mother",
    heirs: { wife: 1, father: 1, mother: 1 },
    shares: { wife: '1/4', mother: '1/4', father: '1/2' },
    special: 'umariyyatan',
    source: `${SIRAJIYYAH}, ch. on sharers; ${COULSON}`,
  },
  {
    name: 'husband, mother, grandfather (no Umariyya with the grandfather)',
    heirs: { husband: 1, mother: 1, paternalGrandfather: 1 },
    shares: { husband: '1/2', mother: '1/3', paternalGrandfather: '1/6' },
    source: `${SIRAJIYYAH}, ch. on sharers (the grandfather does not reduce the mother to a third of the remainder)`,
  },

  // --- 'Awl ---------------------------------------------------------------------------
  {
    name: "'awl 6 to 7: husband and two full sisters",
    heirs: { husband: 1, fullSister: 2 },
    shares: { husband: '3/7', fullSister: '4/7' },
    awl: ['6', '7'],
    source: `${SIRAJIYYAH}, ch. on 'awl`,
  },
  {
    name: "'awl 6 to 8: husband, mother, two full sisters",
    heirs: { husband: 1, mother: 1, fullSister: 2 },
    shares: { husband: '3/8', mother: '1/8', fullSister: '1/2' },
    awl: ['6', '8'],
    source: `${SIRAJIYYAH}, ch. on 'awl`,
  },
  {
    name: "'awl 6 to 10 (Umm al-Furukh / Shurayhiyya)",
    heirs: { husband: 1, mother: 1, fullSister: 2, maternalHalfBrother: 1, maternalHalfSister: 1 },
    shares: {
      husband: '3/10',
      mother: '1/10',
      fullSister: '2/5',
      maternalHalfBrother: '1/10',
      maternalHalfSister: '1/10',
    },
    awl: ['6', '10'],
    source: `${SIRAJIYYAH}, ch. on 'awl; ${MUGHNI} (Umm al-Furukh)`,
  },
  {
    name: "'awl 24 to 27 (Minbariyya)",
    heirs: { wife: 1, daughter: 2, father: 1, mother: 1 },
    shares: { wife: '1/9', daughter: '16/27', father: '4/27', mother: '4/27' },
    awl: ['24', '27'],
    source: `${SIRAJIYYAH}, ch. on 'awl ('Ali's answer from the pulpit); ${COULSON}`,
  },
  {
    name: "'awl 12 to 13: husband, daughter, mother, father",
    heirs: { husband: 1, daughter: 1, mother: 1, father: 1 },
    shares: { husband: '3/13', daughter: '6/13', mother: '2/13', father: '2/13' },
    awl: ['12', '13'],
    source: `${SIRAJIYYAH}, ch. on 'awl`,
  },
  {
    name: "'awl 12 to 17: wife, two full sisters, mother, two maternal half-siblings",
    heirs: { wife: 1, fullSister: 2, mother: 1, maternalHalfBrother: 2 },
    shares: { wife: '3/17', fullSister: '8/17', mother: '2/17', maternalHalfBrother: '4/17' },
    awl: ['12', '17'],
    source: `${SIRAJIYYAH}, ch. on 'awl (twelve raised to seventeen, the largest 'awl of base 12)`,
  },

  // --- Radd -----------------------------------------------------------------------------
  {
    name: 'radd: mother and daughter',
    heirs: { mother: 1, daughter: 1 },
    shares: { mother: '1/4', daughter: '3/4' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd`,
  },
  {
    name: 'radd with a spouse: wife, mother, daughter',
    heirs: { wife: 1, mother: 1, daughter: 1 },
    shares: { wife: '1/8', mother: '7/32', daughter: '21/32' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd (the spouse takes first; the rest returns to the others)`,
  },
  {
    name: 'radd with a spouse: husband and daughter',
    heirs: { husband: 1, daughter: 1 },
    shares: { husband: '1/4', daughter: '3/4' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd`,
  },
  {
    name: 'radd: mother and maternal half-sister',
    heirs: { mother: 1, maternalHalfSister: 1 },
    shares: { mother: '2/3', maternalHalfSister: '1/3' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd`,
  },
  {
    name: 'radd: maternal grandmother and daughter',
    heirs: { maternalGrandmother: 1, daughter: 1 },
    shares: { maternalGrandmother: '1/4', daughter: '3/4' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd`,
  },
  {
    name: 'radd: a daughter alone takes all',
    heirs: { daughter: 1 },
    shares: { daughter: '1/1' },
    radd: true,
    source: `${SIRAJIYYAH}, ch. on radd`,
  },
  {
    name: 'radd to a husband who is the only heir',
    heirs: { husband: 1 },
    shares: { husband: '1/1' },
    radd: true,
    source: "Ibn 'Abidin, Radd al-Muhtar, Kitab al-Fara'id (radd to a spouse when no other heir or kindred)",
  },

  // --- Mushtaraka ----------------------------------------------------------------------
  {
    name: 'mushtaraka (Hanafi): full brother takes nothing',
    heirs: { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 },
    madhhab: 'hanafi',
    shares: { husband: '1/2', mother: '1/6', maternalHalfBrother: '1/3', fullBrother: '0/1' },
    special: 'mushtaraka',
    source: `${SIRAJIYYAH}, ch. on residuaries; ${MUGHNI} (Himariyya: view of 'Ali)`,
  },
  {
    name: 'mushtaraka (Hanbali): full brother takes nothing',
    heirs: { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 },
    madhhab: 'hanbali',
    shares: { husband: '1/2', mother: '1/6', maternalHalfBrother: '1/3', fullBrother: '0/1' },
    special: 'mushtaraka',
    source: `${MUGHNI} (Himariyya)`,
  },
  {
    name: "mushtaraka (Shafi'i): full brother shares the third",
    heirs: { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 },
    madhhab: 'shafii',
    shares: { husband: '1/2', mother: '1/6', maternalHalfBrother: '2/9', fullBrother: '1/9' },
    special: 'mushtaraka',
    source: `${MUGHNI} (Himariyya: the view of 'Umar, Zayd, Malik and al-Shafi'i); ${COULSON}`,
  },
  {
    name: 'mushtaraka (Maliki) with brother and sister',
    heirs: { husband: 1, mother: 1, maternalHalfBrother: 1, maternalHalfSister: 1, fullBrother: 1, fullSister: 1 },
    madhhab: 'maliki',
    shares: {
      husband: '1/2',
      mother: '1/6',
      maternalHalfBrother: '1/12',
      maternalHalfSister: '1/12',
      fullBrother: '1/12',
      fullSister: '1/12',
    },
    special: 'mushtaraka',
    source: "Malik, al-Muwatta', Kitab al-Fara'id (the shared case: all share the third equally)",
  },
  {
    name: "mushtaraka (Shafi'i) with a grandmother in the mother's place",
    heirs: { husband: 1, maternalGrandmother: 1, maternalHalfSister: 2, fullBrother: 2 },
    madhhab: 'shafii',
    shares: { husband: '1/2', maternalGrandmother: '1/6', maternalHalfSister: '1/6', fullBrother: '1/6' },
    special: 'mushtaraka',
    source: `${MUGHNI} (Himariyya: a grandmother counts as the mother)`,
  },

  // --- Grandfather with siblings and Akdariyya -------------------------------------------
  {
    name: 'Akdariyya (Hanafi): grandfather excludes the sister',
    heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullSister: 1 },
    madhhab: 'hanafi',
    shares: { husband: '1/2', mother: '1/3', paternalGrandfather: '1/6' },
    excluded: { fullSister: 'paternalGrandfather' },
    source: `${SIRAJIYYAH}, ch. on the grandfather (Abu Hanifa: the grandfather excludes siblings)`,
  },
  {
    name: "Akdariyya (Shafi'i)",
    heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullSister: 1 },
    madhhab: 'shafii',
    shares: { husband: '1/3', mother: '2/9', paternalGrandfather: '8/27', fullSister: '4/27' },
    awl: ['6', '9'],
    special: 'akdariyya',
    source: `${SIRAJIYYAH}, ch. on the grandfather (Zayd's Akdariyya, base 27); ${MUGHNI}`,
  },
  {
    name: 'Akdariyya (Maliki)',
    heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullSister: 1 },
    madhhab: 'maliki',
    shares: { husband: '1/3', mother: '2/9', paternalGrandfather: '8/27', fullSister: '4/27' },
    awl: ['6', '9'],
    special: 'akdariyya',
    source: "Malik, al-Muwatta', Kitab al-Fara'id (the Akdariyya)",
  },
  {
    name: 'grandfather and full brother (Hanafi)',
    heirs: { paternalGrandfather: 1, fullBrother: 1 },
    madhhab: 'hanafi',
    shares: { paternalGrandfather: '1/1' },
    excluded: { fullBrother: 'paternalGrandfather' },
    source: `${SIRAJIYYAH}, ch. on the grandfather (Abu Hanifa, after Abu Bakr)`,
  },
  {
    name: "grandfather and full brother (Shafi'i): muqasama",
    heirs: { paternalGrandfather: 1, fullBrother: 1 },
    madhhab: 'shafii',
    shares: { paternalGrandfather: '1/2', fullBrother: '1/2' },
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (Zayd: sharing as a brother)`,
  },
  {
    name: 'grandfather and three full brothers (Hanbali): one third',
    heirs: { paternalGrandfather: 1, fullBrother: 3 },
    madhhab: 'hanbali',
    shares: { paternalGrandfather: '1/3', fullBrother: '2/3' },
    special: 'grandfather-with-siblings',
    source: `${MUGHNI} (the grandfather never below a third when there is no sharer)`,
  },
  {
    name: 'grandfather and full sister (Maliki)',
    heirs: { paternalGrandfather: 1, fullSister: 1 },
    madhhab: 'maliki',
    shares: { paternalGrandfather: '2/3', fullSister: '1/3' },
    special: 'grandfather-with-siblings',
    source: "Malik, al-Muwatta', Kitab al-Fara'id (inheritance of the grandfather)",
  },
  {
    name: "wife, grandfather, two full brothers (Shafi'i)",
    heirs: { wife: 1, paternalGrandfather: 1, fullBrother: 2 },
    madhhab: 'shafii',
    shares: { wife: '1/4', paternalGrandfather: '1/4', fullBrother: '1/2' },
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (muqasama = third of the remainder)`,
  },
  {
    name: "husband, mother, grandfather, two full brothers (Shafi'i): one sixth",
    heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullBrother: 2 },
    madhhab: 'shafii',
    shares: { husband: '1/2', mother: '1/6', paternalGrandfather: '1/6', fullBrother: '1/6' },
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (a sixth of the whole is best)`,
  },
  {
    name: "'Ashariyya (Zayd): grandfather, full sister, paternal half-brother",
    heirs: { paternalGrandfather: 1, fullSister: 1, paternalHalfBrother: 1 },
    madhhab: 'shafii',
    shares: { paternalGrandfather: '2/5', fullSister: '1/2', paternalHalfBrother: '1/10' },
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (mu'adda; al-'Ashriyya of Zayd); ${MUGHNI}`,
  },
  {
    name: "'Ishriniyya (Zayd): grandfather, full sister, two paternal half-sisters",
    heirs: { paternalGrandfather: 1, fullSister: 1, paternalHalfSister: 2 },
    madhhab: 'hanbali',
    shares: { paternalGrandfather: '2/5', fullSister: '1/2', paternalHalfSister: '1/10' },
    special: 'grandfather-with-siblings',
    source: `${MUGHNI} (al-'Ishriniyya of Zayd)`,
  },
  {
    name: 'Mukhtasara (Zayd): mother, grandfather, full sister, paternal half-brother and half-sister',
    heirs: { mother: 1, paternalGrandfather: 1, fullSister: 1, paternalHalfBrother: 1, paternalHalfSister: 1 },
    madhhab: 'shafii',
    shares: {
      mother: '1/6',
      paternalGrandfather: '5/18',
      fullSister: '1/2',
      paternalHalfBrother: '1/27',
      paternalHalfSister: '1/54',
    },
    special: 'grandfather-with-siblings',
    source: `${MUGHNI} (Mukhtasarat Zayd, base 54); ${SIRAJIYYAH}, ch. on the grandfather`,
  },
  {
    name: "mu'adda: grandfather, full brother, paternal half-brother (Hanbali)",
    heirs: { paternalGrandfather: 1, fullBrother: 1, paternalHalfBrother: 1 },
    madhhab: 'hanbali',
    shares: { paternalGrandfather: '1/3', fullBrother: '2/3', paternalHalfBrother: '0/1' },
    special: 'grandfather-with-siblings',
    source: `${MUGHNI} (mu'adda: the consanguine brother counted against the grandfather, then excluded)`,
  },
  {
    name: 'wife, grandfather, full brother (Hanafi)',
    heirs: { wife: 1, paternalGrandfather: 1, fullBrother: 1 },
    madhhab: 'hanafi',
    shares: { wife: '1/4', paternalGrandfather: '3/4' },
    excluded: { fullBrother: 'paternalGrandfather' },
    source: `${SIRAJIYYAH}, ch. on the grandfather (Abu Hanifa)`,
  },
  {
    name: 'grandfather, daughter, full brother (Hanafi)',
    heirs: { paternalGrandfather: 1, daughter: 1, fullBrother: 1 },
    madhhab: 'hanafi',
    shares: { daughter: '1/2', paternalGrandfather: '1/2' },
    excluded: { fullBrother: 'paternalGrandfather' },
    source: `${SIRAJIYYAH}, ch. on the grandfather`,
  },
  {
    name: "grandfather, daughter, full brother (Shafi'i)",
    heirs: { paternalGrandfather: 1, daughter: 1, fullBrother: 1 },
    madhhab: 'shafii',
    shares: { daughter: '1/2', paternalGrandfather: '1/4', fullBrother: '1/4' },
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (muqasama of the remainder with a sharer)`,
  },
  {
    name: "less than a sixth left: husband, daughter, mother, grandfather, full brother (Shafi'i)",
    heirs: { husband: 1, daughter: 1, mother: 1, paternalGrandfather: 1, fullBrother: 1 },
    madhhab: 'shafii',
    shares: { husband: '3/13', daughter: '6/13', mother: '2/13', paternalGrandfather: '2/13', fullBrother: '0/1' },
    awl: ['12', '13'],
    special: 'grandfather-with-siblings',
    source: `${SIRAJIYYAH}, ch. on the grandfather (the grandfather keeps his sixth, by 'awl; the siblings fall)`,
  },
  {
    name: "mother excludes the full brother (Ja'fari)",
    heirs: { mother: 1, fullBrother: 1 },
    madhhab: 'jafari',
    shares: { mother: '1/1' },
    excluded: { fullBrother: 'mother' },
    radd: true,
    source:
      'Iran Civil Code arts. 862, 863 (a nearer class excludes the further) and 906 (a parent alone takes the whole)',
  },
  {
    name: "husband, parents and a daughter: no 'awl (Ja'fari)",
    heirs: { husband: 1, father: 1, mother: 1, daughter: 1 },
    madhhab: 'jafari',
    shares: { husband: '1/4', daughter: '5/12', father: '1/6', mother: '1/6' },
    source: "al-Saduq, al-Muqni', bab al-mawarith (the daughter takes the 5 of 12 left); Iran Civil Code art. 913",
  },
];
