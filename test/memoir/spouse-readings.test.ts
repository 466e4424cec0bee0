import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareChat } from '../../src/memoir/agent.js';
import { addJournalEntry, publicEntry, storeSpouseReadings, updateJournalEntry } from '../../src/memoir/memoir.js';
import { namesReadings } from '../../src/memoir/names.js';
import { textsReadInThread } from '../../src/memoir/reading-pool.js';
import { MEMOIR_JOURNAL, memoirId, type JournalEntry } from '../../src/memoir/records.js';
import { memoirDocs } from '../../src/memoir/retrieval-docs.js';
import { holdSpouse, keptSpouse, spouseKeyOf, spouseOf, spouseReadings } from '../../src/memoir/spouse.js';
import type { Store } from '../../src/store/port.js';
import { FakeClock, startTestServer, type TestServer, tmpStore } from '../helpers.js';
import { ticker } from '../support/loop.js';
import { forgetReadings } from '../support/reading-caches.js';
import { registerUser, sessionHeaders } from '../support/session.js';
import { grant } from './support.js';

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

  it("of entries written before entries stored it, is stored by the owner's next chat, not by an heir's", async () => {
    const ownerId = 'acct_SPOUSEREADINGLEGACY00000000';
    const clock = new FakeClock();
    for (const [i, content] of [
      'My husband Alfred and I were married at St Aidan’s in 1963.',
      'Alfred kept pigeons on the allotment behind the chapel.',
      'We went to Filey every August with the children.',
    ].entries()) {
      const { entry } = await addJournalEntry(store, ownerId, 'key:test', { content }, clock);
      clock.advance(60_000);
      // As an entry written before entries stored their reading: none, or one of another version (another key).
      const { spouseReading, ...legacy } = entry;
      await store.put(
        MEMOIR_JOURNAL,
        i === 2 ? { ...legacy, spouseReading: { ...spouseReading!, of: spouseKeyOf(`0\n${content}`) } } : legacy,
      );
    }
    const ids = (await entriesOf(ownerId)).map((e) => e.id);
    forgetReadings();
    const heir = await prepareChat(store, ownerId, 'Where did Grandad keep pigeons?', 'heir');
    expect(heir.unstored).toEqual([]);
    const owner = await prepareChat(store, ownerId, 'Where did Grandad keep pigeons?');
    expect(owner.passages[0]?.text).toContain('allotment');
    expect(owner.unstored.map((u) => u.id).sort()).toEqual([...ids].sort());
    // One is edited before the readings are stored: its reading, of the old text, is not stored with the new one.
    await updateJournalEntry(store, ownerId, ids[1]!, { content: 'Alfred kept racing pigeons in Leeds.' }, clock);
    const edited = (await entriesOf(ownerId)).find((e) => e.id === ids[1])!;
    expect(await storeSpouseReadings(store, ownerId, owner.unstored)).toBe(2);
    for (const e of await entriesOf(ownerId)) expect(e.spouseReading?.of).toBe(spouseKeyOf(e.content));
    expect((await entriesOf(ownerId)).find((e) => e.id === ids[1])?.spouseReading).toEqual(edited.spouseReading);
    // Another account's entry is not written through this owner's batch.
    expect(await storeSpouseReadings(store, 'acct_SOMEONEELSE0000000000000000', owner.unstored)).toBe(0);
    forgetReadings();
    const sent = textsReadInThread('spouse');
    const again = await prepareChat(store, ownerId, 'Where did Grandad keep pigeons?');
    expect(again.unstored).toEqual([]);
    expect(textsReadInThread('spouse')).toBe(sent);
  });
});

describe("an owner's chat over the API", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('stores the spouse readings its entries lacked', async () => {
    const user = await registerUser(server.app);
    await grant(server, user.accountId, 10);
    const raw = server.services.store;
    for (const [i, content] of ['My wife Dot and I married in Scarborough in 1958.', 'Dot grew dahlias.'].entries()) {
      const at = Date.UTC(2020, 0, 1 + i);
      const entry: JournalEntry = {
        id: memoirId('jrn', at),
        ownerId: user.accountId,
        authorKey: 'key:test',
        content,
        mood: null,
        promptUsed: null,
        createdAt: new Date(at).toISOString(),
      };
      await raw.put(MEMOIR_JOURNAL, entry);
    }
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/chat',
      headers: sessionHeaders(user),
      payload: { message: 'What did Grandma grow?' },
    });
    expect(res.statusCode).toBe(200);
    const entries = await raw.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', user.accountId);
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(e.spouseReading?.of).toBe(spouseKeyOf(e.content));
  });
});
