/**
 * English stop words (the stopword package's list), read on first use: the package keeps the lists of some sixty
 * languages in one file, whose evaluation took 5 to 10 ms of every start, and only the memoir's reading of a text and
 * the docs search use the English one, neither of them in a first call.
 */
import { createRequire } from 'node:module';

let english: ReadonlySet<string> | undefined;

/** The English stop words, loaded (synchronously, once) when first asked for. */
export function englishStopWords(): ReadonlySet<string> {
  english ??= new Set((createRequire(import.meta.url)('stopword') as { eng: string[] }).eng);
  return english;
}
