import { describe, expect, it } from 'vitest';
import { themesIn, traitsIn, valuesIn } from '../../src/memoir/text.js';

// Traits, values and themes are counted from cue words and phrases: a cue of one word as often as a text has that
// word (whole words only), a cue of several as often as those words run in that order, across punctuation.

describe('lexicon counts', () => {
  it('counts every occurrence of one-word and several-word cues, whole words only', () => {
    const text = 'He passed away in May. I miss him; I miss him still. Missing him is hard, and the sea misses nobody.';
    // "passed away" once, "miss" twice ("missing" and "misses" are other words); "sea" is nature.
    expect(themesIn([text])).toEqual([
      { name: 'loss', count: 3 },
      { name: 'nature', count: 1 },
    ]);
    // Across punctuation: "worked hard" once, "hard work" twice ("hard. Hard work", "work hard, work hard"), "work
    // hard" twice.
    const work = 'I worked hard. Hard work, they said: work hard, work hard!';
    expect(valuesIn([work])).toEqual([{ name: 'hard work', count: 5 }]);
    expect(traitsIn(['We saved money and I fixed the roof.']).map((t) => t.name)).toContain('practical');
  });

  it('sums the counts of several texts', () => {
    expect(themesIn(['My mother baked bread.', 'Mother and father, mother again.'])).toEqual([
      { name: 'family', count: 4 },
      { name: 'food', count: 1 },
    ]);
  });
});
