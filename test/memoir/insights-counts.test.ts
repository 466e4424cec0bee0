import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterCountsId } from '../../src/memoir/counting.js';
import { addJournalEntry, answerQuestionnaire } from '../../src/memoir/memoir.js';
import { keptNames } from '../../src/memoir/names.js';
import { textsReadInThread } from '../../src/memoir/reading-pool.js';
import { MEMOIR_CHARACTER } from '../../src/memoir/records.js';
import { insights } from '../../src/memoir/views.js';
import type { Store } from '../../src/store/port.js';
import { FakeClock, tmpStore } from '../helpers.js';

// The owner's insights count the people, places and themes of the memoir from the character counts kept at each
// write, reading only the private entries (which those counts leave out): the same figures as counting every text,
// without handing every text of a long memoir to the tagger at each call. An heir's grant does not cover the counts:
// their insights (private entries left out) are counted from the texts.

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await tmpStore()));
afterAll(() => cleanup());

const OWNER = 'acct_INSIGHTSCOUNTS00000000000000';

/** As after a start: no names kept in this process. */
function forgetNames(): void {
  const bound = keptNames.maxChars;
  keptNames.resize(0);
  keptNames.resize(bound);
}

describe('insights from the stored character counts', () => {
  beforeAll(async () => {
    const clock = new FakeClock();
    const shared = [
      'My sister Jean and I grew up in Leeds. We walked to Roundhay Park every Sunday with our mother.',
      'Jean married Tom in 1962 at St Aidan’s Church. I was so proud of her, and we danced until midnight.',
      'Frank and I moved to Whitby in 1970. He fished and I taught at the school by the harbour.',
      'I prayed at St Aidan’s every week, and my faith carried me through the hard years after the war.',
    ];
    for (const content of shared) {
      await addJournalEntry(store, OWNER, 'key:test', { content }, clock);
      clock.advance(86_400_000);
    }
    for (const content of [
      'A secret: Margaret from Harrogate lent me money in 1975, and Frank never knew.',
      'Margaret and I took the train to Harrogate again. I never told Jean.',
    ]) {
      await addJournalEntry(store, OWNER, 'key:test', { content, private: true }, clock);
      clock.advance(86_400_000);
    }
    await answerQuestionnaire(
      store,
      OWNER,
      'family',
      [
        {
          questionId: 'family.parents',
          answer: 'My mother Edith baked bread in Leeds; my father Albert mended boats.',
        },
      ],
      clock,
    );
  });

  it('are the figures of every text, for the owner (private entries included) and for an heir (left out)', async () => {
    const fromCounts = [await insights(store, OWNER, 'owner'), await insights(store, OWNER, 'heir')];
    const counts = await store.get(MEMOIR_CHARACTER, characterCountsId(OWNER));
    expect(counts).toBeDefined();
    await store.delete(MEMOIR_CHARACTER, characterCountsId(OWNER));
    try {
      const fromTexts = [await insights(store, OWNER, 'owner'), await insights(store, OWNER, 'heir')];
      expect(fromCounts).toEqual(fromTexts);
    } finally {
      await store.put(MEMOIR_CHARACTER, counts!);
    }
    const [owner, heir] = fromCounts;
    expect(owner!.people.map((p) => p.name)).toContain('Margaret');
    expect(heir!.people.map((p) => p.name)).not.toContain('Margaret');
    expect(heir!.people).toContainEqual(expect.objectContaining({ name: 'Jean', relation: 'sister' }));
    expect(owner!.places.map((p) => p.name)).toContain('Harrogate');
    expect(heir!.places.map((p) => p.name)).not.toContain('Harrogate');
    expect(heir!.themes.length).toBeGreaterThan(0);
  });

  it("read only the owner's private entries when the counts are in step", async () => {
    forgetNames();
    let sent = textsReadInThread('names');
    await insights(store, OWNER, 'owner');
    expect(textsReadInThread('names')).toBe(sent + 2);
    // Counts of an older version or missing: every text is read (then rebuilt at the next write).
    const counts = await store.get(MEMOIR_CHARACTER, characterCountsId(OWNER));
    await store.delete(MEMOIR_CHARACTER, characterCountsId(OWNER));
    try {
      forgetNames();
      sent = textsReadInThread('names');
      await insights(store, OWNER, 'owner');
      expect(textsReadInThread('names')).toBe(sent + 7);
    } finally {
      await store.put(MEMOIR_CHARACTER, counts!);
    }
  });
});
