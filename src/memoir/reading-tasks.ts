/**
 * The memoir's reading, run in its worker thread (see ./reading-pool.ts and src/core/worker-pool.ts): people and
 * places by compromise's tagger and the rules of ./names.ts, and the passages and stems the search keeps per text
 * (./retrieval.ts). Arguments and results are plain data (maps included).
 */
import { readNames, type Names } from './names.js';
import { windowsWithTerms, type Windows } from './retrieval.js';

export const tasks = {
  /** The reading of each text, in order. */
  names: (texts: string[]): Names[] => texts.map(readNames),
  /** The search's passages of each text, with their terms, in order. */
  windows: (texts: string[]): Windows[] => texts.map(windowsWithTerms),
};
