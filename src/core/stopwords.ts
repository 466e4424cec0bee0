/**
 * Stop words (the stopword package's lists), read on first use: the package keeps the lists of some sixty
 * languages in one file, whose evaluation took 5 to 10 ms of every start, and only the memoir's reading of a text and
 * the docs search use the English one, neither of them in a first call.
 */
import { createRequire } from 'node:module';

let lists: Readonly<Record<string, readonly string[] | undefined>> | undefined;
let english: ReadonlySet<string> | undefined;

/** The package's lists by ISO 639-3 code, loaded (synchronously, once) when first asked for. */
const stopwordLists = () => {
  lists ??= createRequire(import.meta.url)('stopword') as Record<string, readonly string[] | undefined>;
  return lists;
};

/** The English stop words, loaded (synchronously, once) when first asked for. */
export function englishStopWords(): ReadonlySet<string> {
  english ??= new Set(stopwordLists().eng);
  return english;
}

/** The package's stop words of these languages (ISO 639-3 codes: `zho`, `jpn`, `hin`...), together. */
export function stopWordsIn(languages: readonly string[]): string[] {
  const all = stopwordLists();
  return languages.flatMap((code) => all[code] ?? []);
}
