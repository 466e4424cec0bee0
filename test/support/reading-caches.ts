/** The memoir's reading caches are the process's: a test or bench that bounds them puts their bounds back. */
import { keptNames } from '../../src/memoir/names.js';
import { keptPassages } from '../../src/memoir/retrieval.js';
import { keptSpouse } from '../../src/memoir/spouse.js';

/** Runs `fn` with both reading caches (names, search passages) bounded to `chars` characters of text. */
export async function withReadingCaches<T>(chars: number, fn: () => Promise<T> | T): Promise<T> {
  const bounds = [keptNames.maxChars, keptPassages.maxChars] as const;
  keptNames.resize(chars);
  keptPassages.resize(chars);
  try {
    return await fn();
  } finally {
    keptNames.resize(bounds[0]);
    keptPassages.resize(bounds[1]);
  }
}

/** As after a start: nothing of any text kept in this process (names, search passages, spouse readings). */
export function forgetReadings(): void {
  for (const cache of [keptSpouse, keptNames, keptPassages]) {
    const bound = cache.maxChars;
    cache.resize(0);
    cache.resize(bound);
  }
}
