import { describe, expect, it } from 'vitest';
import { keptNames, namesReadings } from '../../src/memoir/names.js';
import {
  holdSearch,
  keptPassages,
  searchMemoir,
  searchTextReadings,
  type SourceDoc,
} from '../../src/memoir/retrieval.js';
import { ticker } from '../support/loop.js';
import { withReadingCaches } from '../support/reading-caches.js';

// A search keeps what it made of each text (passages, their terms) for the next question: what it answers must stay
// what the memoir says now, whoever the text belongs to.

const docs = (garden: string): SourceDoc[] => [
  { id: 'jrn_sea', kind: 'journal', text: 'David went to sea with the merchant navy before settling in Hull.' },
  { id: 'jrn_garden', kind: 'journal', text: garden },
];

describe("the memoir search's kept passages", () => {
  it('answer the same question the same way, and follow an edited entry', () => {
    const before = docs('Frank grew leeks and sweet peas on the allotment.');
    const first = searchMemoir(before, 'Who grew leeks on the allotment?');
    expect(first.passages.map((p) => p.id)).toEqual(['jrn_garden']);
    expect(searchMemoir(before, 'Who grew leeks on the allotment?')).toEqual(first);
    // The entry now says something else: the search reads the new text, not the passages kept for the old one.
    const after = docs('Frank kept bees behind the chapel.');
    expect(searchMemoir(after, 'Who grew leeks on the allotment?').answered).toBe(false);
    expect(searchMemoir(after, 'Who kept bees?').passages.map((p) => p.id)).toEqual(['jrn_garden']);
  });

  it('cite the record asking, when another record holds the same text', () => {
    const text = 'Frank grew leeks and sweet peas on the allotment.';
    searchMemoir(docs(text), 'Who grew leeks?');
    const other: SourceDoc[] = [
      { id: 'qa:garden.what', kind: 'answer', text, context: 'What did your family grow?', category: 'garden' },
    ];
    const found = searchMemoir(other, 'Who grew leeks?');
    expect(found.passages).toEqual([expect.objectContaining({ id: 'qa:garden.what', kind: 'answer', text })]);
  });

  it('are made in the reading thread when prepared, so the search itself reads nothing', async () => {
    const many: SourceDoc[] = Array.from({ length: 120 }, (_, i) => ({
      id: `jrn_prepared${i}`,
      kind: 'journal',
      text: `On day ${i} my wife Margaret and I married again in Whitby. We grew leeks on the allotment at Roundhay.`,
    }));
    const [texts, names] = [searchTextReadings(), namesReadings()];
    const turns = ticker();
    const release = await holdSearch(many);
    expect(turns.stop()).toBeGreaterThan(0);
    const found = searchMemoir(many, 'Who grew leeks with Margaret?');
    release();
    expect(found.answered).toBe(true);
    expect([searchTextReadings(), namesReadings()]).toEqual([texts, names]);
    expect([keptPassages.heldCount, keptNames.heldCount]).toEqual([0, 0]);
  });

  it('holds the passages it made while the search runs, past the bound and whatever else is searched', async () => {
    const doc = (who: string, i: number): SourceDoc => ({
      id: `jrn_${who}${i}`,
      kind: 'journal',
      text: `${who} ${i}: we grew leeks and marrows on the allotment at Roundhay, and my wife Margaret won a prize.`,
    });
    const mine = Array.from({ length: 30 }, (_, i) => doc('Held', i));
    const others = Array.from({ length: 30 }, (_, i) => doc('Other', i));
    await withReadingCaches(Math.floor(mine.reduce((n, d) => n + d.text.length, 0) / 4), async () => {
      const release = await holdSearch(mine);
      (await holdSearch(others))();
      const before = searchTextReadings();
      expect(searchMemoir(mine, 'Who grew leeks?').answered).toBe(true);
      expect(searchTextReadings()).toBe(before);
      release();
      expect(keptPassages.chars).toBeLessThanOrEqual(keptPassages.maxChars);
      expect([keptPassages.heldCount, keptNames.heldCount]).toEqual([0, 0]);
    });
  });
});
