/**
 * Relationship words of Urdu and Persian written in their own (Perso-Arabic) script, each with the word of the plan
 * checks' tables it is read as: mostly its Latin spelling in src/law/islamic/relationship-words-languages.ts and
 * src/law/family-words-languages.ts ("پسر" is "pesar", "بھائی" "bhai"), so that script and Latin letters read alike
 * in both checks, the ambiguous words ("برادر", "همسر") too; an English word where the Latin tables have none ("ماں")
 * or only the fara'id ones do ("خاوند", "پسر پسر": the same heir there, and the civil-law spouse or grandchild). A
 * table only, read by src/law/arabic-family-words.ts through `arabicKey` (heh goal and do-chashmi heh as heh, bari
 * yeh and Farsi yeh as yeh, keheh as kaf), which makes an Urdu spelling of an Arabic word ("والدہ", "خالہ",
 * "زوجہ", "والدین") that word of the Arabic table.
 *
 * Left out, as in Latin letters: Persian "زن" (woman as often as wife), "خانم" (lady), Urdu "بیگم" (a title), and
 * "دادا" and "نانا" (the Urdu grandfathers). Also left out: Persian "دایی" (maternal uncle), whose key is Urdu
 * "دائی" (midwife); Urdu "اہلیہ" (wife), whose key is Arabic "أهلية" (legal capacity); "امی" and "ابو" (Urdu mother
 * and father; Arabic "my mother" or "unlettered", and "father of"); "اولاد" (offspring, Arabic "boys" as often).
 */
export const URDU_PERSIAN_SCRIPT_WORDS: Readonly<Record<string, string>> = {
  // spouses (ur, fa)
  شوہر: 'shohar',
  شوهر: 'shohar',
  خاوند: 'husband',
  بیوی: 'biwi',
  همسر: 'hamsar',
  // children and grandchildren
  بیٹا: 'beta',
  بیٹی: 'beti',
  پسر: 'pesar',
  دختر: 'dokhtar',
  فرزند: 'farzand',
  پوتا: 'pota',
  پوتی: 'poti',
  نواسہ: 'nawasa',
  نواسی: 'nawasi',
  نوه: 'naveh',
  'پسر پسر': 'sons son',
  'دختر پسر': 'sons daughter',
  'پسر دختر': 'daughters son',
  'دختر دختر': 'daughters daughter',
  // parents and grandparents
  ماں: 'mother',
  باپ: 'father',
  پدر: 'pedar',
  مادر: 'madar',
  پدربزرگ: 'pedarbozorg',
  'پدر بزرگ': 'pedarbozorg',
  مادربزرگ: 'madarbozorg',
  'مادر بزرگ': 'madarbozorg',
  دادی: 'dadi',
  نانی: 'nani',
  // brothers and sisters, uncles, aunts, nephews and cousins
  بھائی: 'bhai',
  بہن: 'behen',
  برادر: 'baradar',
  خواهر: 'khahar',
  چچا: 'chacha',
  تایا: 'taya',
  ماموں: 'mamun',
  پھوپھی: 'phuphi',
  پھپھو: 'phuppo',
  عمو: 'amu',
  بھتیجا: 'bhatija',
  'پسر برادر': 'pesar-e baradar',
  'پسر عمو': 'pesar amu',
  پسرعمو: 'pesar amu',
  // relatives who are no heirs, and others
  بھتیجی: 'bhatiji',
  بھانجا: 'bhanja',
  بھانجی: 'bhanji',
  چچی: 'chachi',
  ممانی: 'mumani',
  بہو: 'bahu',
  داماد: 'damad',
  سسر: 'sasur',
  ساس: 'saas',
  'سوتیلا بیٹا': 'sautela beta',
  'سوتیلی بیٹی': 'sauteli beti',
  دوست: 'dost',
  پڑوسی: 'padosi',
  ہمسایہ: 'hamsaya',
  همسایه: 'hamsaya',
};
