/**
 * Relationship words written in Arabic, read as the English words the plan checks know. Owners who plan under
 * Islamic law, and the assistants writing for them, often give `relationship` in Arabic ("زوجة", "ابن الابن",
 * "أخ لأب"): each is mapped to the English word of the same meaning, which the fara'id classifier
 * (src/law/islamic/relationships.ts) and the civil-law one (src/law/family-words.ts) then read as they read English.
 * The words are those of the fara'id books and of everyday use; a word that needs more detail in English ("جدة",
 * grandmother) maps to the English word that is just as ambiguous there, so the same question is asked. Urdu and
 * Persian written in the same script are read too, through the table of src/law/urdu-persian-script-words.ts.
 */

import { foldArabicLetters } from '../core/arabic-letters.js';
import { URDU_PERSIAN_SCRIPT_WORDS } from './urdu-persian-script-words.js';

/** Each Arabic word or phrase (written naturally, keyed after `arabicKey`) and the English word it means. */
const ARABIC_WORDS: Record<string, string> = {
  // spouses
  زوج: 'husband',
  زوجة: 'wife',
  // children and grandchildren
  ابن: 'son',
  بنت: 'daughter',
  ابنة: 'daughter',
  ولد: 'child',
  طفل: 'child',
  'ابن الابن': 'sons son',
  'ابن ابن': 'sons son',
  'حفيد من الابن': 'sons son',
  'بنت الابن': 'sons daughter',
  'بنت ابن': 'sons daughter',
  'حفيدة من الابن': 'sons daughter',
  حفيد: 'grandson',
  حفيدة: 'granddaughter',
  'ابن البنت': 'daughters son',
  'ابن بنت': 'daughters son',
  'بنت البنت': 'daughters daughter',
  'بنت بنت': 'daughters daughter',
  // parents and grandparents
  أب: 'father',
  والد: 'father',
  أم: 'mother',
  والدة: 'mother',
  والدان: 'parents',
  والدين: 'parents',
  أبوان: 'parents',
  أبوين: 'parents',
  'أبو الأب': 'paternal grandfather',
  'أب الأب': 'paternal grandfather',
  'جد لأب': 'paternal grandfather',
  'جد من الأب': 'paternal grandfather',
  'أبو الأم': 'maternal grandfather',
  'أب الأم': 'maternal grandfather',
  'جد لأم': 'maternal grandfather',
  'جد من الأم': 'maternal grandfather',
  جد: 'grandfather',
  'أم الأب': 'paternal grandmother',
  'جدة لأب': 'paternal grandmother',
  'جدة من الأب': 'paternal grandmother',
  'أم الأم': 'maternal grandmother',
  'جدة لأم': 'maternal grandmother',
  'جدة من الأم': 'maternal grandmother',
  جدة: 'grandmother',
  // brothers and sisters
  'أخ شقيق': 'full brother',
  'أخت شقيقة': 'full sister',
  'أخ لأب': 'paternal half brother',
  'أخ من الأب': 'paternal half brother',
  'أخت لأب': 'paternal half sister',
  'أخت من الأب': 'paternal half sister',
  'أخ لأم': 'maternal half brother',
  'أخ من الأم': 'maternal half brother',
  'أخت لأم': 'maternal half sister',
  'أخت من الأم': 'maternal half sister',
  أخ: 'brother',
  أخت: 'sister',
  'ابن الأخ الشقيق': 'full brothers son',
  'ابن أخ شقيق': 'full brothers son',
  'ابن الأخ لأب': 'paternal half brothers son',
  'ابن أخ لأب': 'paternal half brothers son',
  'ابن الأخ': 'brothers son',
  'ابن أخ': 'brothers son',
  'ابن الأخت': 'sisters son',
  'بنت الأخ': 'brothers daughter',
  'بنت الأخت': 'sisters daughter',
  // uncles, aunts and cousins
  'عم شقيق': 'full paternal uncle',
  'عم لأب': 'paternal half paternal uncle',
  عم: 'paternal uncle',
  'ابن العم الشقيق': 'full paternal uncles son',
  'ابن عم شقيق': 'full paternal uncles son',
  'ابن العم لأب': 'paternal half paternal uncles son',
  'ابن عم لأب': 'paternal half paternal uncles son',
  'ابن العم': 'paternal uncles son',
  'ابن عم': 'paternal uncles son',
  'بنت العم': 'paternal uncles daughter',
  عمة: 'paternal aunt',
  خال: 'maternal uncle',
  خالة: 'maternal aunt',
  // relatives by marriage, step-relatives, others
  'زوجة الابن': 'daughter in law',
  'زوج البنت': 'son in law',
  'ابن الزوج': 'stepson',
  'ابن الزوجة': 'stepson',
  ربيب: 'stepson',
  'بنت الزوج': 'stepdaughter',
  'بنت الزوجة': 'stepdaughter',
  ربيبة: 'stepdaughter',
  طليق: 'ex husband',
  طليقة: 'ex wife',
  'ابن بالتبني': 'adopted son',
  'بنت بالتبني': 'adopted daughter',
  'أخ من الرضاعة': 'milk brother',
  'أخت من الرضاعة': 'milk sister',
  صديق: 'friend',
  صديقة: 'friend',
  جار: 'neighbour',
  جارة: 'neighbour',
  'جمعية خيرية': 'charity',
  خيرية: 'charity',
  مسجد: 'mosque',
  وقف: 'waqf',
  'بيت المال': 'public treasury',
};

/**
 * The letters of Urdu and Persian that Arabic does not use, kept as letters of their own: پ pe, ٹ tte, چ che, ڈ dde,
 * ڑ rre, ژ zhe, گ gaf, ں noon ghunna ("ماں" is not "مان").
 */
const PERSO_ARABIC_LETTERS = '\u0679\u067e\u0686\u0688\u0691\u0698\u06af\u06ba';
const NOT_A_LETTER = new RegExp(`[^\\u0621-\\u064a${PERSO_ARABIC_LETTERS}]+`, 'g');
const A_LETTER = new RegExp(`[\\u0621-\\u064a${PERSO_ARABIC_LETTERS}]`);

/**
 * The forms of heh and yeh Urdu and Persian write for the Arabic ones, made the Arabic letter: heh goal ہ, the
 * do-chashmi heh ھ (Urdu's mark of an aspirate, "بھائی"; no two words read here differ by it alone), ae ە and teh
 * marbuta goal ۃ as heh; bari yeh ے as yeh (Farsi yeh and keheh are foldArabicLetters'). The hamza over ۂ, ۀ, ۓ and
 * ئ is a mark NFKD parts from its letter.
 */
const foldPersoArabicLetters = (text: string): string =>
  text.replace(/[\u06c1\u06be\u06d5\u06c3]/g, '\u0647').replace(/\u06d2/g, '\u064a');

/**
 * The form an Arabic-script word is compared in: diacritics and punctuation dropped, the letters people type one for
 * another made one (foldArabicLetters and foldPersoArabicLetters; NFKD parts the hamza forms of alef from their
 * hamza), and the article "ال" dropped from every word ("الأخ الشقيق" is "أخ شقيق").
 */
export function arabicKey(text: string): string {
  return foldPersoArabicLetters(foldArabicLetters(text.normalize('NFKD').replace(/\p{M}/gu, '')))
    .replace(NOT_A_LETTER, ' ')
    .trim()
    .split(' ')
    .map((w) => (w.length > 3 && w.startsWith('\u0627\u0644') ? w.slice(2) : w))
    .join(' ');
}

/** Urdu and Persian first, so that an Arabic word they share a key with keeps its Arabic reading. */
const BY_KEY = new Map<string, string>();
for (const table of [URDU_PERSIAN_SCRIPT_WORDS, ARABIC_WORDS])
  for (const [word, english] of Object.entries(table)) BY_KEY.set(arabicKey(word), english);

/** Whether a text has Arabic-script letters: only then is it looked up here. */
export const hasArabic = (text: string): boolean => A_LETTER.test(text);

/**
 * The English word an Arabic relationship means (for an Urdu or Persian word in their script, the word of the tables
 * it is read as, often its Latin spelling), or undefined when it is not one of ours (or not in Arabic script).
 */
export function englishForArabic(text: string): string | undefined {
  return hasArabic(text) ? BY_KEY.get(arabicKey(text)) : undefined;
}

/** Every Arabic word known, with its English word (for tests and documentation). */
export const ARABIC_FAMILY_WORDS: Readonly<Record<string, string>> = ARABIC_WORDS;
