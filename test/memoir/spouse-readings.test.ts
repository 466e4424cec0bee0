import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareChat } from '../../src/memoir/agent.js';
import { addJournalEntry, publicEntry, updateJournalEntry } from '../../src/memoir/memoir.js';
import { namesReadings } from '../../src/memoir/names.js';
import { textsReadInThread } from '../../src/memoir/reading-pool.js';
import { MEMOIR_JOURNAL, type JournalEntry } from '../../src/memoir/records.js';
import { memoirDocs } from '../../src/memoir/retrieval-docs.js';
import { holdSpouse, keptSpouse, spouseKeyOf, spouseOf, spouseReadings } from '../../src/memoir/spouse.js';
import type { Store } from '../../src/store/port.js';
import { FakeClock, tmpStore } from '../helpers.js';
import { ticker } from '../support/loop.js';
import { forgetReadings } from '../support/reading-caches.js';

// What a journal entry says of the owner's husband or wife is read off the main thread as the entry is written and
// stored with it: a chat's first question after a start reads it there instead of handing every text of the memoir
// to the tagger again (for a memoir of a thousand long entries, seconds of the reading thread at each start).

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await tmpStore()));
afterAll(() => cleanup());

const entriesOf = (ownerId: string) => store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId);

describe("an entry's spouse reading", () => {
  it('is stored as the entry is written, and a chat after a start uses it instead of reading the texts', async () => {
    const ownerId = 'acct_SPOUSEREADINGSTORED00000000';
    const clock = new FakeClock();
    const texts = [
      'I met Alfred at the Mecca ballroom in Leeds in 1961. He trod on my feet twice.',
      'My husband Alfred and I were married at St Aidan’s in June 1963.',
      ...Array.from(
        { length: 10 },
        (_, i) => `Summer ${i}: we took the children to Filey and Alfred built sandcastles.`,
      ),
    ];
    for (const content of texts) {
      await addJournalEntry(store, ownerId, 'key:test', { content }, clock);
      clock.advance(60_000);
    }
    const entries = await entriesOf(ownerId);
    expect(entries).toHaveLength(texts.length);
    for (const e of entries) expect(e.spouseReading?.of).toBe(spouseKeyOf(e.content));
    const married = entries.find((e) => e.content.startsWith('My husband'))!;
    expect(married.spouseReading?.reading.kin).toEqual(['Alfred']);
    forgetReadings();
    const before = [textsReadInThread('spouse'), textsReadInThread('names'), spouseReadings(), namesReadings()];
    const { passages } = await prepareChat(store, ownerId, 'How did you meet Grandad?');
    expect(passages[0]?.text).toContain('Mecca ballroom');
    // Nothing read of the spouse or of names, here or in the reading thread: every reading came from the entries.
    expect([textsReadInThread('spouse'), textsReadInThread('names'), spouseReadings(), namesReadings()]).toEqual(
      before,
    );
    expect(keptSpouse.heldCount).toBe(0);
  });

  it('follows an edit, and a reading stored for another text or of another shape is not used', async () => {
    const ownerId = 'acct_SPOUSEREADINGEDITED00000000';
    const clock = new FakeClock();
    const { entry } = await addJournalEntry(
      store,
      ownerId,
      'key:test',
      { content: 'My husband Alfred and I were married at St Aidan’s in 1963.' },
      clock,
    );
    expect(Object.keys(publicEntry(entry))).not.toContain('spouseReading');
    const { entry: edited } = await updateJournalEntry(
      store,
      ownerId,
      entry.id,
      { content: 'My husband Bernard and I were married at St Aidan’s in 1963. He was a kind man.' },
      clock,
    );
    expect(edited.spouseReading?.of).toBe(spouseKeyOf(edited.content));
    expect(edited.spouseReading?.reading.kin).toEqual(['Bernard']);
    const [stored] = await entriesOf(ownerId);
    expect(stored?.spouseReading).toEqual(edited.spouseReading);
    // A title alone keeps the reading of the text it has.
    const { entry: titled } = await updateJournalEntry(store, ownerId, entry.id, { title: 'Our wedding' }, clock);
    expect(titled.spouseReading).toEqual(edited.spouseReading);

    // Stored for another text (an entry written before its text changed by other means), or not a reading at all:
    // the text is read again, and what it says wins.
    const forged = (spouseReading: unknown): JournalEntry => ({ ...stored!, spouseReading }) as JournalEntry;
    const mallory = {
      kin: ['Mallory', 'Mallory'],
      said: { male: 0, female: 9 },
      marriages: [],
      sexes: { male: [], female: ['Mallory'] },
    };
    for (const spouseReading of [
      { of: spouseKeyOf('another text'), reading: mallory },
      { of: spouseKeyOf(stored!.content), reading: { ...mallory, kin: 'Mallory' } },
      { of: spouseKeyOf(stored!.content) },
    ]) {
      await store.put(MEMOIR_JOURNAL, forged(spouseReading));
      forgetReadings();
      const sent = textsReadInThread('spouse');
      const docs = memoirDocs({ entries: await entriesOf(ownerId), answers: [] });
      const { passages } = await prepareChat(store, ownerId, 'When did you marry Grandad?');
      expect(textsReadInThread('spouse')).toBe(sent + 1);
      expect(spouseOf(docs)).toEqual({ name: 'Bernard', sex: 'male' });
      expect(passages[0]?.text).toContain('Bernard');
    }
  });

  it('held for a long memoir from the records alone, giving the event loop turns while its texts are digested', async () => {
    const reading = { kin: [], said: { male: 0, female: 0 }, marriages: [], sexes: { male: [], female: [] } };
    // Some 2.4 million characters: more than one slice of digests.
    const docs = Array.from({ length: 1_200 }, (_, i) => {
      const text = `Entry ${i}. ${'We walked along the cliffs above the bay and talked about nothing much. '.repeat(28)}`;
      return { id: `jrn_long${i}`, kind: 'journal' as const, text, spouse: { of: spouseKeyOf(text), reading } };
    });
    forgetReadings();
    const sent = textsReadInThread('spouse');
    const turns = ticker();
    const release = await holdSpouse(docs);
    try {
      expect(turns.stop()).toBeGreaterThan(0);
      expect(spouseOf(docs)).toEqual({});
      expect(textsReadInThread('spouse')).toBe(sent);
      expect(keptSpouse.heldCount).toBe(docs.length);
    } finally {
      release();
    }
    expect(keptSpouse.heldCount).toBe(0);
  });
});
