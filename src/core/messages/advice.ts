/**
 * A generated contract's analysis (warnings and suggestions) in words a person reads, in their language. The service
 * writes its analysis in English for developers. A warning with a `code` (Solana) is said from its `params`, the
 * figures as data (./solana-words.ts). A warning without one (EVM) is known by its id and a suggestion by how it
 * opens, and their figures (days, guardians, a beneficiary's number) are read from that English text. What has no words here stays as the service wrote it, marked as English.
 */
import { ADVICE_WORDS, SUGGESTIONS, type SuggestionId } from './advice-words.js';
import type { Say } from './catalog.js';
import { SOLANA_WORDS, type SayParams, type WarningParams } from './solana-words.js';

export type { AdviceCatalog, Say } from './catalog.js';
export { SUGGESTIONS, WARNING_IDS, type SuggestionId, type WarningId } from './advice-words.js';
import { numberFormats, type Locale } from './index.js';

export interface AnalysisInput {
  /** A warning with a `code` is said from its `params`; one without (EVM for now) from the figures of its message. */
  warnings: Array<{ id: string; severity: string; message: string; code?: string; params?: WarningParams }>;
  suggestions: string[];
}

export interface AnalysisInWords {
  /** Each warning: in the reader's words, or as the service wrote it (`english`). */
  warnings: Array<{ id: string; severity: string; message: string; english: boolean }>;
  /** The suggestions with words, once each. */
  advice: string[];
  /** The suggestions without words (technical notes), as the service wrote them. */
  technical: string[];
}

/** The figures of an English sentence, in order ("1,726,812" is one figure). */
export const figuresOf = (text: string): number[] =>
  (text.match(/\d[\d,]*(\.\d+)?/g) ?? []).map((x) => Number(x.replace(/,/g, '')));

export function analysisInWords(analysis: AnalysisInput, locale: Locale = 'en'): AnalysisInWords {
  const words = ADVICE_WORDS[locale];
  const f = numberFormats(locale);
  const coded = SOLANA_WORDS[locale] as Record<string, SayParams | undefined>;
  const warnings = analysis.warnings.map((w) => {
    const english = { id: w.id, severity: w.severity, message: w.message, english: true };
    if (w.code !== undefined) {
      // A coded warning is never read from its English text: without words for its code it stays English.
      const sayCode = coded[w.code];
      return sayCode ? { ...english, message: sayCode(w.params ?? {}, f), english: false } : english;
    }
    const say = (words.warnings as Record<string, Say | undefined>)[w.id];
    return say ? { ...english, message: say(figuresOf(w.message), f), english: false } : english;
  });
  const advice: string[] = [];
  const technical: string[] = [];
  for (const s of analysis.suggestions) {
    const hit = (Object.entries(SUGGESTIONS) as Array<[SuggestionId, RegExp]>).find(([, re]) => re.test(s));
    if (!hit) {
      technical.push(s);
      continue;
    }
    const sentence = words.suggestions[hit[0]](figuresOf(s), f);
    if (!advice.includes(sentence)) advice.push(sentence);
  }
  return { warnings, advice, technical };
}
