/**
 * Arabic-script letters people type one for another, made one so that a word matches however it was typed: tatweel
 * (the stretching stroke) dropped, alef wasla as alef, teh marbuta as heh, alef maksura and the Persian yeh as yeh,
 * the Persian kaf as kaf. The hamza forms of alef become alef under NFKD with the marks stripped, which the callers
 * do first. Used by the relationship words (src/law/arabic-family-words.ts) and jurisdiction names
 * (src/law/jurisdiction-index.ts).
 */
export function foldArabicLetters(text: string): string {
  return text
    .replace(/\u0640/g, '')
    .replace(/\u0671/g, '\u0627')
    .replace(/\u0629/g, '\u0647')
    .replace(/[\u0649\u06cc]/g, '\u064a')
    .replace(/\u06a9/g, '\u0643');
}
