/**
 * Words for the law check's findings, by the finding's `rule`: each sentence is built from the finding's `params`
 * (figures and short strings as data), never from its English message, which the service keeps for the API. Arabic,
 * Spanish and French are the languages a reader gets from params (one file each); English is in ./law-words-en.ts,
 * out of the wizard's bundle, which gathers every locale (`LAW_WORDS`).
 *
 * Names of heir types, jurisdictions, templates and schools are not here: the caller gives them (`LawNames`), from
 * the words it already shows a person (the wizard's relationship, template and school labels, and its place names).
 * A finding whose params name something the caller has no word for is not said here: it stays in English, and the
 * caller marks it so.
 */
import type { Locale } from './index.js';
import { ar } from './law-words-ar.js';
import { es } from './law-words-es.js';
import { fr } from './law-words-fr.js';
import { type LawFindingInput, type LawNames, type LawWords, sayWith } from './law-words-kit.js';

export * from './law-words-kit.js';

/**
 * The words of the languages a reader gets from params. English is in ./law-words-en.ts, out of the wizard's
 * bundle: English readers get the service's own message (`lawFindingInWords`).
 */
export const READER_WORDS: Record<Exclude<Locale, 'en'>, LawWords> = { ar, es, fr };

/**
 * A law finding in the reader's words: the sentence for its rule, built from its params and the caller's names.
 * English readers get the service's message, which also carries the jurisdiction's own notes. A finding whose
 * rule, params or names have no words here keeps its English message, with `english` set so the caller marks it.
 */
export function lawFindingInWords(
  finding: LawFindingInput,
  locale: Locale,
  names: LawNames,
): { message: string; english: boolean } {
  const english = { message: finding.message, english: true };
  if (locale === 'en') return { message: finding.message, english: false };
  const said = sayWith(READER_WORDS[locale], finding, locale, names);
  return said === undefined ? english : { message: said, english: false };
}
