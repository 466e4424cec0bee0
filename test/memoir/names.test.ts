import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { holdNames, keptNames, namesIn, namesReadings, readNames } from '../../src/memoir/names.js';
import { READ_JOB_CHARS } from '../../src/memoir/reading-pool.js';
import { ticker } from '../support/loop.js';
import { withReadingCaches } from '../support/reading-caches.js';

// People and places read by the language library, measured on a fixture of memoir sentences with the names a reader
// would pick out (test/fixtures/memoir-names.json): precision and recall are printed, and each has a floor.

interface Sample {
  text: string;
  people: string[];
  places: string[];
  kin?: Record<string, string>;
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/memoir-names.json', import.meta.url), 'utf8')) as {
  sentences: Sample[];
  heldOut: Sample[];
};
// Both sets count: `heldOut` was written after the rules and shows how far they carry to sentences not tuned on.
const sentences = [...fixture.sentences, ...fixture.heldOut];

const FLOOR = 0.85;

/** Precision and recall of found names against expected ones, counted as multisets per sentence. */
function score(pairs: Array<{ expected: string[]; found: string[] }>) {
  let tp = 0;
  let found = 0;
  let expected = 0;
  const wrong: string[] = [];
  for (const p of pairs) {
    const left = [...p.expected];
    for (const f of p.found) {
      const i = left.indexOf(f);
      if (i !== -1) {
        tp++;
        left.splice(i, 1);
      } else wrong.push(`+${f}`);
    }
    wrong.push(...left.map((m) => `-${m}`));
    found += p.found.length;
    expected += p.expected.length;
  }
  return { precision: tp / Math.max(1, found), recall: tp / Math.max(1, expected), wrong };
}

const named = (people: string[]) => people.filter((p) => !p.startsWith('my '));

describe('names from the language library', () => {
  const read = sentences.map((s) => ({ s, names: namesIn(s.text) }));

  it(`finds people with precision and recall of at least ${FLOOR}`, () => {
    const r = score(read.map(({ s, names }) => ({ expected: s.people, found: named(names.people) })));
    console.log(
      `people: precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} (${sentences.length} sentences) ${r.wrong.join(' ')}`,
    );
    expect(r.precision).toBeGreaterThanOrEqual(FLOOR);
    expect(r.recall).toBeGreaterThanOrEqual(FLOOR);
  });

  it(`finds places with precision and recall of at least ${FLOOR}`, () => {
    const r = score(read.map(({ s, names }) => ({ expected: s.places, found: names.places })));
    console.log(`places: precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} ${r.wrong.join(' ')}`);
    expect(r.precision).toBeGreaterThanOrEqual(FLOOR);
    expect(r.recall).toBeGreaterThanOrEqual(FLOOR);
  });

  it('gives kin their relation', () => {
    const r = score(
      read.map(({ s, names }) => ({
        expected: Object.entries(s.kin ?? {}).map(([n, rel]) => `${n}:${rel}`),
        found: names.kin.map((k) => `${k.name}:${k.relation}`),
      })),
    );
    console.log(`kin: precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} ${r.wrong.join(' ')}`);
    expect(r.precision).toBeGreaterThanOrEqual(FLOOR);
    expect(r.recall).toBeGreaterThanOrEqual(FLOOR);
    expect(namesIn('My sister Jean wrote every fortnight.').kin).toEqual([{ name: 'Jean', relation: 'sister' }]);
  });

  it('prints the held-out sentences alone', () => {
    const held = fixture.heldOut.map((s) => ({ s, names: namesIn(s.text) }));
    const p = score(held.map(({ s, names }) => ({ expected: s.people, found: named(names.people) })));
    const l = score(held.map(({ s, names }) => ({ expected: s.places, found: names.places })));
    console.log(
      `held out (${held.length}): people P ${p.precision.toFixed(3)} R ${p.recall.toFixed(3)}, places P ${l.precision.toFixed(3)} R ${l.recall.toFixed(3)} ${[...p.wrong, ...l.wrong].join(' ')}`,
    );
    expect(held.length).toBeGreaterThan(0);
  });

  it('never takes days, months, brands or streets for people', () => {
    const people = named(
      namesIn(
        'On Saturdays and Fridays in May we shopped at Amazon and Woolworths on Harehills Lane, then walked to Lake Qarun.',
      ).people,
    );
    expect(people).toEqual([]);
    expect(namesIn('We walked round Roundhay Park and swam in Lake Qarun.').places).toEqual([
      'Roundhay Park',
      'Lake Qarun',
    ]);
  });

  it('reads a whole memoir once, then answers again from what it read', () => {
    // Insights and retrieval read every entry of an account at each call: a memoir of a few hundred entries is read
    // by the tagger once, and a text read again moves to the back of the queue for eviction.
    const entries = Array.from({ length: 300 }, (_, i) => `Entry ${i}: my sister Jean and I walked to Lake Qarun.`);
    for (const text of entries) namesIn(text);
    const before = namesReadings();
    for (const text of entries) expect(namesIn(text).kin).toEqual([{ name: 'Jean', relation: 'sister' }]);
    expect(namesReadings()).toBe(before);
    namesIn(`${entries[0]} Again.`);
    expect(namesReadings()).toBe(before + 1);
  });

  it('reads prepared texts in its own thread, a job at a time, and answers the calls that follow from them', async () => {
    const sentence = 'my brother Tom and I sailed from Hull to Lake Windermere with Mrs Dunn. ';
    const texts = Array.from({ length: 150 }, (_, i) => `Prepared entry ${i}: ${sentence.repeat(10)}`);
    // More than one job's worth: the reading thread takes them in several jobs.
    expect(texts.reduce((n, t) => n + t.length, 0)).toBeGreaterThan(2 * READ_JOB_CHARS);
    const before = namesReadings();
    const turns = ticker();
    const release = await holdNames([...texts, ...texts.slice(0, 10)]);
    // This thread's event loop kept turning while they were read, and none was read here.
    expect(turns.stop()).toBeGreaterThan(0);
    for (const text of texts) expect(namesIn(text)).toEqual(readNames(text));
    expect(namesIn(texts[3]!).kin[0]).toEqual({ name: 'Tom', relation: 'brother' });
    expect(namesReadings()).toBe(before);
    release();
    // Prepared again: nothing left to read.
    const again = ticker();
    (await holdNames(texts))();
    expect(again.stop()).toBe(0);
    expect(keptNames.heldCount).toBe(0);
  });

  it('holds what it read until let go: a memoir longer than the bound, and other reads meanwhile, put none of it out', async () => {
    const sentence = 'my cousin Agnes and I walked from Settle to Malham Tarn with Mr Kaye. ';
    const mine = Array.from({ length: 12 }, (_, i) => `Held entry ${i}: ${sentence.repeat(3)}`);
    const others = Array.from({ length: 12 }, (_, i) => `Another memoir ${i}: ${sentence.repeat(3)}`);
    // Room for a third of this memoir.
    await withReadingCaches(Math.floor(mine.reduce((n, t) => n + t.length, 0) / 3), async () => {
      const release = await holdNames(mine);
      // Another account's step reads its own texts while this one still holds.
      (await holdNames(others))();
      const before = namesReadings();
      for (const text of mine) expect(namesIn(text)).toEqual(readNames(text));
      expect(namesReadings()).toBe(before);
      expect(keptNames.chars).toBeGreaterThan(keptNames.maxChars);
      release();
      // Let go: back within the bound, and nothing held.
      expect(keptNames.chars).toBeLessThanOrEqual(keptNames.maxChars);
      expect(keptNames.heldCount).toBe(0);
      namesIn(mine[0]!);
      expect(namesReadings()).toBe(before + 1);
    });
  });
});
