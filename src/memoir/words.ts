/**
 * A text read as its sentences and words, in the scripts people write memoirs in: the units every other reading of
 * the memoir builds on (./text.ts, ./retrieval.ts, ./question.ts, ./agent.ts).
 */
import { stopWords } from './stop-words.js';

/**
 * A run of letters and digits, with their combining marks (Hindi's vowel signs, Thai's vowels and tones, Arabic's
 * short vowels, an accent typed as a letter and a mark), and an apostrophe inside ("don't", "O'Brien"). Without the
 * marks, "पिता" was cut into "प" and "त".
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:'[\p{L}\p{M}]+)?/gu;

/** Han ideographs and Japanese kana: scripts written without spaces between words, whose words are often short. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Those, and Thai, Lao, Khmer and Burmese, also written without spaces between words: cut by a dictionary. */
const SEGMENTED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * Hiragana alone, two characters at most: Japanese particles and verb endings ("は", "の", "した"), which tell nothing
 * of what a passage is about.
 */
const KANA_ENDING = /^[\p{Script=Hiragana}ー]{1,2}$/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * The words of a run written without spaces (Chinese, Japanese, Thai...), found by ICU's dictionaries through
 * `Intl.Segmenter` (Node's full ICU; one dictionary serves both Chinese and Japanese): "父亲是渔夫" is "父亲", "是",
 * "渔夫", where the run was one word to the letters-and-digits pattern, and no question could match a part of it.
 */
function unspacedWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const found: string[] = [];
  for (const s of segmenter.segment(run)) if (s.isWordLike && !KANA_ENDING.test(s.segment)) found.push(s.segment);
  return found;
}

/** Whether `word` is Chinese or Japanese, written without spaces: it counts as content whatever its length. */
export const isUnspacedWord = (word: string): boolean => UNSPACED.test(word);

/**
 * The word tokens of `text` as written (case and apostrophes kept), one for one with `words(text)`: runs of letters
 * and digits, those of Chinese, Japanese, Thai, Lao, Khmer and Burmese split into their words.
 */
export function wordsAsWritten(text: string): string[] {
  const found: string[] = [];
  for (const token of text.match(WORD) ?? []) {
    if (SEGMENTED.test(token)) found.push(...unspacedWords(token));
    else found.push(token);
  }
  return found;
}

/** Lower-case word tokens (letters, digits, apostrophes inside words removed). */
export function words(text: string): string[] {
  return wordsAsWritten(text.toLowerCase()).map((w) => w.replace(/'/g, ''));
}

/**
 * Scripts whose short words are content once the stop words are out (their lists are the memoir's, ./stop-words.ts):
 * Hindi's "घर" (home), Arabic's "أب" (father), Thai's; in English or another script without a list, a word of one or
 * two letters is mostly a function word.
 */
const SHORT_CONTENT = /[\p{Script=Devanagari}\p{Script=Arabic}\p{Script=Thai}]/u;

/** Words that tell what a text is about: not stop words or numbers; short ones only in scripts whose stop words are known. */
export function contentWords(text: string): string[] {
  const stops = stopWords();
  return words(text).filter(
    (w) => (w.length > 2 || isUnspacedWord(w) || SHORT_CONTENT.test(w)) && !stops.has(w) && !/^\d+$/.test(w),
  );
}

/**
 * Where a sentence ends: after ".", "!" or "?" and a space, unless the word before the stop is a title or a saint's
 * or a street's "St." ("Mrs. Nowak", "St. Casimir's", "Main St. in Erie"). Journals typed all in lower case split too.
 * The same after Arabic's and Urdu's question mark and full stop ("؟", "۔") and Devanagari's danda ("।", "॥"). Chinese
 * and Japanese write no space after theirs ("。", "！", "？"): a sentence ends there, after any closing quote or
 * bracket ("「…。」"), unless Japanese's "と" follows the quote (「…。」と言った: said within the sentence), and after
 * the last of several marks ("真的吗？！"). Khmer's and Burmese's full stops ("។", "៕", "။") end one with or without
 * a space after them. Thai and Lao have no full stop: a space between two of their words ends a sentence (they write
 * none between the words of one), but not after Thai's repetition mark ("ๆ", "ช้าๆ ค่อยๆ": slowly, gently) or its mark
 * of an abbreviation ("กรุงเทพฯ", Bangkok), nor around a number or a word of another script.
 */
const SENTENCE_END =
  /(?<=[.!?؟۔।॥])(?<!\b(?:Mr|Mrs|Ms|Dr|St|Mt|Ft|Prof|Rev|Fr|Sgt|Capt|Col|Lt|Gen|Gov|Sen|Rep)\.)\s+|(?<=[。！？][」』”’）)]*)(?![」』”’）)と。！？])\s*|(?<=[។៕။])\s*|(?<=\p{Script=Thai})(?<![ๆฯ])\s+(?=\p{Script=Thai})|(?<=\p{Script=Lao})(?<!ໆ)\s+(?=\p{Script=Lao})|\n+/u;

/** A sentence ending as Chinese and Japanese end theirs, with no space after it. */
const UNSPACED_END = /[。！？][」』”’）)]*$/u;

/** Sentences joined into one text: by a space, or by nothing after a Chinese or Japanese full stop. */
export function joinSentences(list: readonly string[]): string {
  let joined = '';
  for (const s of list) joined += joined === '' || UNSPACED_END.test(joined) ? s : ` ${s}`;
  return joined;
}

/** The sentences of `text`, in order. */
export function sentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
