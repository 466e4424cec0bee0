/**
 * The memoir's name reading, run in a worker thread (see prepareNames in ./names.ts and src/core/worker-pool.ts):
 * compromise's tagger and the rules of ./names.ts over a batch of texts. Arguments and results are plain data.
 */
import { readNames, type Names } from './names.js';

export const tasks = {
  /** The reading of each text, in order. */
  read: (texts: string[]): Names[] => texts.map(readNames),
};
