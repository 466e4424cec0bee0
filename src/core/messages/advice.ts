/**
 * A generated contract's analysis (warnings and suggestions) in words a person reads, in their language. The service
 * writes its analysis in English for developers; each warning carries a stable `code` and its figures as `params`,
 * and each suggestion has a coded twin in `advice` (same English text, with code and params). Sentences are said
 * from code and params through one table merged from every chain's words (./solana-words.ts, ./ton-words.ts,
 * ./evm-words.ts), never from the English text. What has no words (developers' notes, anything without a code)
 * stays as the service wrote it, marked as English.
 */
import type { SayParams, WarningParams } from './coded.js';
import { EVM_WORDS } from './evm-words.js';
import { numberFormats, type Locale } from './index.js';
import { SOLANA_WORDS } from './solana-words.js';
import { TON_WORDS } from './ton-words.js';

export type { SayParams, WarningParams } from './coded.js';

export interface AnalysisInput {
  /** A warning is said from its `code` and `params`; one without a code stays English. */
  warnings: Array<{ id: string; severity: string; message: string; code?: string; params?: WarningParams }>;
  suggestions: string[];
  /** The suggestions with their codes: `message` is the suggestion's English text, as in `suggestions`. */
  advice?: Array<{ code: string; params: WarningParams; message: string }>;
}

export interface AnalysisInWords {
  /** Each warning: in the reader's words, or as the service wrote it (`english`). */
  warnings: Array<{ id: string; severity: string; message: string; english: boolean }>;
  /** The suggestions with words, once each. */
  advice: string[];
  /** The suggestions without words (technical notes), as the service wrote them. */
  technical: string[];
}

/** Every chain's words for a locale, by code (codes are prefixed by chain, so they never collide). */
const CODED: Record<Locale, Readonly<Record<string, SayParams | undefined>>> = {
  en: { ...SOLANA_WORDS.en, ...TON_WORDS.en, ...EVM_WORDS.en },
  ar: { ...SOLANA_WORDS.ar, ...TON_WORDS.ar, ...EVM_WORDS.ar },
  es: { ...SOLANA_WORDS.es, ...TON_WORDS.es, ...EVM_WORDS.es },
  fr: { ...SOLANA_WORDS.fr, ...TON_WORDS.fr, ...EVM_WORDS.fr },
};

/** The words of a code in a locale, or undefined (no words, or params that do not fit them). */
export function sayCoded(code: string, params: WarningParams, locale: Locale): string | undefined {
  const say = CODED[locale][code];
  if (!say) return undefined;
  try {
    return say(params, numberFormats(locale), locale);
  } catch {
    // Params that do not fit the words (a record from an older service): the English text is shown instead.
    return undefined;
  }
}

export function analysisInWords(analysis: AnalysisInput, locale: Locale = 'en'): AnalysisInWords {
  const warnings = analysis.warnings.map((w) => {
    const said = w.code === undefined ? undefined : sayCoded(w.code, w.params ?? {}, locale);
    return { id: w.id, severity: w.severity, message: said ?? w.message, english: said === undefined };
  });
  const coded = new Map((analysis.advice ?? []).map((a) => [a.message, a]));
  const advice: string[] = [];
  const technical: string[] = [];
  for (const s of analysis.suggestions) {
    const a = coded.get(s);
    const said = a ? sayCoded(a.code, a.params, locale) : undefined;
    if (said === undefined) technical.push(s);
    else if (!advice.includes(said)) advice.push(said);
  }
  return { warnings, advice, technical };
}
