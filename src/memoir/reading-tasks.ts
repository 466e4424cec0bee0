/**
 * The memoir's reading, run in its worker thread (see ./reading-pool.ts and src/core/worker-pool.ts): people and
 * places by compromise's tagger and the rules of ./names.ts, and the passages and stems the search keeps per text
 * (./retrieval.ts), and what each text says of the owner's spouse (./spouse.ts). Arguments and results are plain
 * data (maps included).
 */
import { namesIn, type Names } from './names.js';
import { windowsWithTerms, type Windows } from './retrieval.js';
import { readSpouse, type SpouseReading } from './spouse.js';

export const tasks = {
  /**
   * The reading of each text, in order, kept in this thread too: a journal entry's text is read for the spouse first
   * (./spouse.ts), then for its names, as it is written.
   */
  names: (texts: string[]): Names[] => texts.map((text) => namesIn(text)),
  /** The search's passages of each text, with their terms, in order. */
  windows: (texts: string[]): Windows[] => texts.map(windowsWithTerms),
  /** What each text says of the owner's husband or wife, in order. */
  spouse: (texts: string[]): SpouseReading[] => texts.map(readSpouse),
};
