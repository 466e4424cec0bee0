import { describe, expect, it } from 'vitest';
import { keptNames, namesReadings } from '../../src/memoir/names.js';
import { textsReadInThread } from '../../src/memoir/reading-pool.js';
import {
  holdSearch,
  keptPassages,
  searchMemoir,
  searchMemoirInTurns,
  searchTextReadings,
  type SourceDoc,
} from '../../src/memoir/retrieval.js';
import { keptSpouse, spouseOf, spouseReadings } from '../../src/memoir/spouse.js';
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
    const counts = () => [searchTextReadings(), namesReadings(), spouseReadings()];
    const before = counts();
    const turns = ticker();
    const release = await holdSearch(many);
    expect(turns.stop()).toBeGreaterThan(0);
    const found = searchMemoir(many, 'Who grew leeks with Margaret?');
    const spouse = spouseOf(many);
    release();
    expect(found.answered).toBe(true);
    expect(spouse).toEqual({ name: 'Margaret', sex: 'female' });
    expect(counts()).toEqual(before);
    expect([keptPassages.heldCount, keptNames.heldCount, keptSpouse.heldCount]).toEqual([0, 0, 0]);
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

  it("keeps what each text says of the owner's spouse once read, though the names cache has put the texts out", async () => {
    const many: SourceDoc[] = Array.from({ length: 80 }, (_, i) => ({
      id: `jrn_spouse${i}`,
      kind: 'journal',
      text: `Spring ${i}: my husband Alfred and I were married again at Kirkstall, and he planted roses for me.`,
    }));
    (await holdSearch(many))();
    const chars = many.reduce((n, d) => n + d.text.length, 0);
    await withReadingCaches(Math.floor(chars / 4), async () => {
      const before = ['names', 'spouse', 'windows'].map((t) => textsReadInThread(t as 'names'));
      const [names, spouseRead] = [namesReadings(), spouseReadings()];
      const release = await holdSearch(many);
      const spouse = spouseOf(many);
      const found = searchMemoir(many, 'Where was I married?');
      release();
      expect(spouse).toEqual({ name: 'Alfred', sex: 'male' });
      expect(found.answered).toBe(true);
      const after = ['names', 'spouse', 'windows'].map((t) => textsReadInThread(t as 'names'));
      // The passages a quarter of the memoir's length keeps are read again; nothing of the spouse is, nor any names.
      expect(after[0]).toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect(after[2]!).toBeGreaterThan(before[2]!);
      expect([namesReadings(), spouseReadings()]).toEqual([names, spouseRead]);
    });
  });

  it('in a long memoir, gives the event loop turns while it scores, and answers as the search at once does', async () => {
    const towns = ['Whitby', 'Filey', 'Leeds', 'Harrogate', 'Scarborough', 'Ripon'];
    const long: SourceDoc[] = Array.from({ length: 600 }, (_, i) => ({
      id: `jrn_long${i}`,
      kind: 'journal',
      text:
        `Week ${i}: we drove to ${towns[i % 6]} in the old van. The children sang all the way. ` +
        `Frank bought chips on the front. It rained by the harbour. We came home late and happy. ` +
        (i === 417 ? 'That was the week Frank taught me to play the accordion.' : 'Nobody wanted to leave.'),
    }));
    const release = await holdSearch(long);
    try {
      const question = 'Who taught you the accordion?';
      const whole = searchMemoir(long, question);
      expect(whole.passages[0]?.id).toBe('jrn_long417');
      const turns = ticker();
      const inTurns = await searchMemoirInTurns(long, question);
      expect(turns.stop()).toBeGreaterThan(0);
      expect(inTurns).toEqual(whole);
    } finally {
      release();
    }
  });
});
