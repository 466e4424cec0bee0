import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { accountStore } from '../../src/accounts/tenancy.js';
import { ApiError } from '../../src/core/errors.js';
import { CursorCodec } from '../../src/core/pagination.js';
import type { Store } from '../../src/store/index.js';
import type { Tx } from '../../src/store/port.js';
import { chat, chatHistory, DONT_KNOW, prepareChat, refineCharacter, retrieve } from '../../src/memoir/agent.js';
import {
  addJournalEntry,
  agentStatus,
  answerQuestionnaire,
  deleteJournalEntry,
  getQuestionnaire,
  getSetup,
  listJournal,
  setSetup,
  updateJournalEntry,
} from '../../src/memoir/memoir.js';
import { characterOf, dailyPrompt, insights, PROMPT_REPEAT_DAYS } from '../../src/memoir/views.js';
import { characterCountsId } from '../../src/memoir/counting.js';
import { keptNames, namesReadings } from '../../src/memoir/names.js';
import { keptPassages, searchTextReadings } from '../../src/memoir/retrieval.js';
import { CATEGORIES } from '../../src/memoir/questions.js';
import { MEMOIR_CHARACTER, MEMOIR_CHAT, MEMOIR_JOURNAL, MEMOIR_MEDIA, memoirId } from '../../src/memoir/records.js';
import { countReads } from '../support/store-wrap.js';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { addEntry, ledgerSum } from '../../src/credits/ledger.js';
import { withCharge } from '../../src/memoir/charge.js';
import {
  commitUpload,
  DEFAULT_UPLOAD_LIMITS,
  deleteMedia,
  getMedia,
  listMedia,
  mediaFile,
  stageUpload,
} from '../../src/memoir/media.js';
import { FakeClock } from '../helpers.js';
import { withReadingCaches } from '../support/reading-caches.js';
import { MEMOIR_ENGINES, openEngineStore, type MemoirEngine } from './support.js';

// The memoir's domain behaviour, the same on every store engine: lowdb (the embedded default) and PostgreSQL (several
// instances; its jsonb keeps neither key order nor NUL characters, and its transactions may run more than once).

const A = 'acct_AAAAAAAAAAAAAAAAAAAAAAAAAA';
const B = 'acct_BBBBBBBBBBBBBBBBBBBBBBBBBB';

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
}

const STORY = [
  {
    content: 'My mother baked bread every Sunday in our kitchen in Lisbon. I still remember the smell of the bread.',
    mood: 'nostalgic',
  },
  {
    content: 'I worked hard at the shipyard for thirty years. Hard work never frightened me, and I am grateful for it.',
    mood: 'proud',
  },
  { content: 'Maria and I married in 1968 in Porto. I still remember the smell of the sea that day.', mood: 'happy' },
  { content: 'When my brother Tomas died I felt lost for a long time. Faith carried me through.', mood: 'sad' },
];

describe.each(MEMOIR_ENGINES)('memoir domain on %s', (engine: MemoirEngine) => {
  let opened: Awaited<ReturnType<typeof openEngineStore>>;
  let a: Store;
  let b: Store;
  const clock = new FakeClock(Date.UTC(2026, 0, 1, 9));
  const fresh = () => openEngineStore(engine);

  beforeAll(async () => {
    opened = await openEngineStore(engine);
    a = accountStore(opened.store, A);
    b = accountStore(opened.store, B);
    for (const e of STORY) {
      await addJournalEntry(a, A, 'usr_a', e, clock);
      clock.advance(86_400_000);
    }
  });
  afterAll(async () => {
    await opened?.close();
  });

  describe('setup', () => {
    it('is unconfigured until named, then keeps the name', async () => {
      expect(await getSetup(b, B)).toEqual({ configured: false, agentName: null, personName: null, setupAt: null });
      await setSetup(b, B, '  Grandpa   Joe ', clock);
      expect(await getSetup(b, B)).toMatchObject({ configured: true, agentName: 'Grandpa Joe', personName: null });
      expect(await code(setSetup(b, B, '\u202eevil', clock))).toBe('VALIDATION_ERROR');
      expect((await getSetup(b, B)).agentName).toBe('Grandpa Joe');
      // The person's own name (their book's title): set, kept when left out, refused when invalid, cleared by null.
      await setSetup(b, B, 'Grandpa Joe', clock, ' Joseph  Alder ');
      await setSetup(b, B, 'Grandpa Joe', clock);
      expect((await getSetup(b, B)).personName).toBe('Joseph Alder');
      expect(await code(setSetup(b, B, 'Grandpa Joe', clock, '\u202eevil'))).toBe('VALIDATION_ERROR');
      expect((await getSetup(b, B)).personName).toBe('Joseph Alder');
      await setSetup(b, B, 'Grandpa Joe', clock, null);
      expect((await getSetup(b, B)).personName).toBeNull();
    });
  });

  describe('journal', () => {
    it("lists the account's own entries newest first, and refuses empty content", async () => {
      const list = await listJournal(a, A, 1, 10);
      expect(list.items.map((e) => e.content)).toEqual(STORY.map((s) => s.content).reverse());
      expect(list.pagination.total).toBe(4);
      expect(list.items[0]!.themes).toContain('loss');
      expect((await listJournal(b, B, 1, 10)).items).toEqual([]);
      expect(await code(addJournalEntry(a, A, 'usr_a', { content: '   ' }, clock))).toBe('VALIDATION_ERROR');
      expect((await listJournal(a, A, 1, 10)).pagination.total).toBe(4);
    });
  });

  describe('pages', () => {
    it('lists journal entries and media newest first, reading only the page asked for', async () => {
      const C = 'acct_CCCCCCCCCCCCCCCCCCCCCCCCCC';
      const c = accountStore(opened.store, C);
      const journal: string[] = [];
      const media: string[] = [];
      await c.transact(async (tx) => {
        for (let i = 0; i < 60; i++) {
          const at = clock.now();
          const entry = {
            id: memoirId('jrn', at.getTime()),
            ownerId: C,
            authorKey: 'usr_c',
            content: `Entry number ${i}.`,
            mood: null,
            promptUsed: null,
            createdAt: at.toISOString(),
          };
          journal.push(entry.id);
          await tx.put(MEMOIR_JOURNAL, entry);
          const item = {
            id: memoirId('med', at.getTime()),
            ownerId: C,
            kind: 'photo',
            mime: 'image/png',
            ext: 'png',
            size: 10,
            file: `f${i}.png`,
            originalName: null,
            durationMinutes: null,
            durationSeconds: null,
            createdAt: at.toISOString(),
          };
          media.push(item.id);
          await tx.put(MEMOIR_MEDIA, item);
          clock.advance(1000);
        }
      });
      const newest = (ids: string[], from: number, n: number) => [...ids].reverse().slice(from, from + n);
      for (const [collection, list, expected] of [
        [MEMOIR_JOURNAL, () => listJournal(c, C, 2, 25), journal],
        [MEMOIR_MEDIA, () => listMedia(c, C, 2, 25), media],
      ] as const) {
        const reads = countReads(opened.store, collection);
        try {
          const page = await list();
          expect(page.items.map((e) => e.id)).toEqual(newest(expected, 25, 25));
          expect(page.pagination).toMatchObject({ page: 2, limit: 25, total: 60, pages: 3, hasNext: true });
          // The page's 25 records, not the account's 60.
          expect(reads.count()).toBe(25);
        } finally {
          reads.restore();
        }
      }
      expect((await listJournal(c, C, 3, 25)).items.map((e) => e.id)).toEqual(newest(journal, 50, 25));
    });
  });

  describe('questionnaires', () => {
    it('404 for an unknown category, 400 for unknown question ids, completion per category', async () => {
      expect(await code(getQuestionnaire(a, A, 'astrology'))).toBe('NOT_FOUND');
      expect(await code(answerQuestionnaire(a, A, 'astrology', [], clock))).toBe('NOT_FOUND');
      expect(
        await code(answerQuestionnaire(a, A, 'childhood', [{ questionId: 'work.first-job', answer: 'x' }], clock)),
      ).toBe('VALIDATION_ERROR');
      expect(
        await code(
          answerQuestionnaire(
            a,
            A,
            'childhood',
            [
              { questionId: 'childhood.home', answer: 'a' },
              { questionId: 'childhood.home', answer: 'b' },
            ],
            clock,
          ),
        ),
      ).toBe('VALIDATION_ERROR');
      const q = await answerQuestionnaire(
        a,
        A,
        'childhood',
        [{ questionId: 'childhood.home', answer: 'A small white house near the river in Lisbon, with a fig tree.' }],
        clock,
      );
      const total = CATEGORIES.find((c) => c.id === 'childhood')!.questions.length;
      expect(q).toMatchObject({ category: 'childhood', answered: 1, total });
      expect(q.questions.find((x) => x.id === 'childhood.home')!.answer).toMatch(/fig tree/);
      // The entries, media and chat messages are counted, not read.
      const reads = countReads(opened.store, MEMOIR_JOURNAL);
      const status = await agentStatus(a, A).finally(reads.restore);
      expect(status.journalCount).toBe(4);
      expect(reads.count()).toBe(0);
      expect(status.questionnaire.find((c) => c.category === 'childhood')).toMatchObject({ answered: 1, total });
      expect(status.questionnaire.find((c) => c.category === 'work')).toMatchObject({ answered: 0 });
      // B sees none of it.
      expect((await getQuestionnaire(b, B, 'childhood')).answered).toBe(0);
    });
  });

  describe('daily prompt', () => {
    it('is the same all day, favours uncovered categories, skips answered questions, and does not repeat within weeks', async () => {
      const c = new FakeClock(Date.UTC(2026, 2, 1, 8));
      const first = await dailyPrompt(a, A, 'usr_a', c);
      c.advance(3 * 3600_000);
      expect(await dailyPrompt(a, A, 'usr_a', c)).toEqual(first);
      expect(first.promptId).not.toBe('childhood.home');
      // childhood has an answer and family is covered by the journal: the prompt comes from a less covered category.
      expect(['childhood', 'family']).not.toContain(first.category);
      const seen = [first.promptId];
      for (let d = 1; d < PROMPT_REPEAT_DAYS; d++) {
        c.advance(86_400_000);
        seen.push((await dailyPrompt(a, A, 'usr_a', c)).promptId);
      }
      expect(new Set(seen).size).toBe(seen.length);
    });

    it("weighs the memoir's themes from the stored counts, as the texts would, reading no entry", async () => {
      const withCounts = await fresh();
      const without = await fresh();
      const day = new FakeClock(Date.UTC(2026, 4, 3, 10));
      try {
        for (const opened of [withCounts, without]) {
          const s = accountStore(opened.store, A);
          for (const e of [
            ...STORY,
            { content: 'As a child I played at school with every boy and girl of our street.' },
          ])
            await addJournalEntry(s, A, 'usr_a', e, day);
        }
        // As an account whose counts are missing (an older version's): the themes come from the texts.
        await without.store.delete(MEMOIR_CHARACTER, characterCountsId(A));
        const reads = countReads(withCounts.store, MEMOIR_JOURNAL);
        let counted: Awaited<ReturnType<typeof dailyPrompt>>;
        try {
          counted = await dailyPrompt(accountStore(withCounts.store, A), A, 'usr_t', day);
          expect(reads.count()).toBe(0);
        } finally {
          reads.restore();
        }
        expect(await dailyPrompt(accountStore(without.store, A), A, 'usr_t', day)).toEqual(counted);
        // Family, work, love, faith and childhood are written of: the prompt comes from a category they leave out.
        expect(['values', 'advice', 'legacy', 'places']).toContain(counted.category);
      } finally {
        await withCounts.close();
        await without.close();
      }
    });

    it('is deterministic given the date and the data', async () => {
      const one = await fresh();
      const two = await fresh();
      const day = new FakeClock(Date.UTC(2026, 4, 2, 10));
      const p1 = await dailyPrompt(accountStore(one.store, A), A, 'usr_x', day);
      const p2 = await dailyPrompt(accountStore(two.store, A), A, 'usr_x', day);
      expect(p1).toEqual(p2);
      await one.close();
      await two.close();
    });
  });

  describe('character and insights', () => {
    it('extracts people, places, traits, values and recurring phrases, updated on each entry', async () => {
      const before = (await characterOf(a, A, 'json')).character;
      expect(before.people.map((p) => p.name)).toEqual(expect.arrayContaining(['my mother', 'Maria', 'Tomas']));
      // Kin named with a name are the name, with the relation.
      expect(before.people.find((p) => p.name === 'Tomas')).toMatchObject({ relation: 'brother' });
      expect(before.places.map((p) => p.name)).toEqual(expect.arrayContaining(['Lisbon', 'Porto']));
      expect(before.people.map((p) => p.name)).not.toContain('Lisbon');
      expect(before.traits.map((t) => t.name)).toEqual(expect.arrayContaining(['grateful', 'hardworking']));
      expect(before.values.map((t) => t.name)).toEqual(expect.arrayContaining(['hard work', 'faith']));
      expect(before.recurringPhrases.map((p) => p.name)).toContain('remember the smell of');
      await addJournalEntry(
        a,
        A,
        'usr_a',
        { content: 'Today I phoned Ingrid, my oldest friend, and we laughed about the old days.', mood: 'happy' },
        clock,
      );
      const after = (await characterOf(a, A, 'json')).character;
      expect(after.people.map((p) => p.name)).toContain('Ingrid');
      expect(after.sources.journalEntries).toBe(before.sources.journalEntries + 1);
    });

    it('exports an ElizaOS character file', async () => {
      await setSetup(a, A, 'Grandpa Antonio', clock);
      const { eliza } = await characterOf(a, A, 'eliza');
      expect(eliza).toMatchObject({
        name: 'Grandpa Antonio',
        style: { all: expect.any(Array), chat: expect.any(Array), post: [] },
      });
      for (const field of ['bio', 'lore', 'topics', 'adjectives', 'messageExamples'])
        expect(Array.isArray((eliza as Record<string, unknown>)[field])).toBe(true);
      expect(eliza!.lore[0]).toMatch(/My mother baked bread/);
      expect(eliza!.messageExamples[0]![1]).toEqual({
        name: 'Grandpa Antonio',
        content: { text: expect.stringMatching(/fig tree/) },
      });
      expect(eliza!.adjectives).toContain('grateful');
    });

    it('insights: themes, mood over time, most-mentioned people', async () => {
      const i = await insights(a, A);
      expect(i.themes.map((t) => t.name)).toEqual(expect.arrayContaining(['family', 'work', 'loss']));
      expect(i.moodOverTime.slice(0, 4).map((m) => Object.keys(m.moods)[0])).toEqual([
        'nostalgic',
        'proud',
        'happy',
        'sad',
      ]);
      expect(i.moodOverTime[3]!.averageScore).toBeLessThan(0);
      expect(i.moodOverTime[1]!.averageScore).toBeGreaterThan(0);
      expect(i.people[0]!.count).toBeGreaterThanOrEqual(1);
      expect(i.totals.journalEntries).toBe(5);
      expect((await insights(b, B)).totals.journalEntries).toBe(0);
    });

    it('reads the names of entries, answers, insights and a chat search outside the main thread', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const before = namesReadings();
      const mark = `${engine}-${Date.now()}`;
      await addJournalEntry(s, A, 'u', { content: `My wife Margaret and I married in Whitby (${mark}).` }, clock);
      const second = await addJournalEntry(
        s,
        A,
        'u',
        { content: `Margaret and I walked to Lake Qarun (${mark}).` },
        clock,
      );
      await updateJournalEntry(
        s,
        A,
        second.entry.id,
        { content: `Margaret and I swam in Lake Qarun (${mark}).` },
        clock,
      );
      await answerQuestionnaire(
        s,
        A,
        'childhood',
        [{ questionId: 'childhood.home', answer: `Leeds, with Jean (${mark}).` }],
        clock,
      );
      const seen = await insights(s, A);
      expect(seen.places.map((p) => p.name)).toContain('Lake Qarun');
      await prepareChat(s, A, 'Tell me about Grandma');
      await deleteJournalEntry(s, A, second.entry.id, clock);
      expect(namesReadings()).toBe(before);
      await one.close();
    });

    it('counts a memoir again, after its counts were lost, without reading its names in the main thread', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const mark = `${engine}-recount-${Date.now()}`;
      // Entries stored without their counts, as after an upgrade that changed how they are counted.
      await s.transact(async (tx) => {
        for (const [i, person] of ['Winifred', 'Bartholomew', 'Winifred'].entries())
          await tx.put(MEMOIR_JOURNAL, {
            id: memoirId('jrn', Date.UTC(2025, 0, 1) + i),
            ownerId: A,
            authorKey: 'u',
            content: `My aunt ${person} took me to Scarborough (${mark} ${i}).`,
            mood: null,
            promptUsed: null,
            createdAt: new Date(Date.UTC(2025, 0, 1) + i).toISOString(),
          });
      });
      const before = namesReadings();
      const { character } = await addJournalEntry(s, A, 'u', { content: `Winifred again (${mark}).` }, clock);
      expect(character.people.map((p) => p.name)).toEqual(expect.arrayContaining(['Winifred', 'Bartholomew']));
      expect(character.sources.journalEntries).toBe(4);
      expect(namesReadings()).toBe(before);
      await one.close();
    });

    it("counts an account's first entry, and a memoir whose names are kept, in one run of the transaction", async () => {
      const one = await fresh();
      let runs = 0;
      const s = accountStore(one.store, A);
      // The account's store, its transactions counted.
      const counted = new Proxy(s, {
        get(target, prop) {
          if (prop === 'transact')
            return (fn: (tx: Tx) => Promise<unknown>, opts?: { readOnly?: boolean }) =>
              target.transact((tx) => {
                runs++;
                return fn(tx);
              }, opts);
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const mark = `${engine}-first-${Date.now()}`;
      const { character } = await addJournalEntry(counted, A, 'u', { content: `My aunt Hilda (${mark}).` }, clock);
      expect(character.people.map((p) => p.name)).toContain('Hilda');
      expect(runs).toBe(1);
      // Counts lost (as after an upgrade) while the names are kept: counted again at once.
      await s.transact(async (tx) => tx.delete(MEMOIR_CHARACTER, characterCountsId(A)));
      runs = 0;
      const again = await addJournalEntry(counted, A, 'u', { content: `Hilda again (${mark}).` }, clock);
      expect(again.character.sources.journalEntries).toBe(2);
      expect(runs).toBe(1);
      await one.close();
    });

    it('reads nothing in the main thread for a memoir longer than what is kept, and lets go of what it held', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const mark = `${engine}-long-${Date.now()}`;
      const line = 'My sister Edith and I took the train from Whitby to Robin Hood Bay with Mr Collins. ';
      try {
        const ids: string[] = [];
        for (let i = 0; i < 8; i++)
          ids.push((await addJournalEntry(s, A, 'u', { content: `${mark} ${i}: ${line.repeat(4)}` }, clock)).entry.id);
        // Room for half of this memoir's texts, in both caches.
        await withReadingCaches(1_400, async () => {
          const before = [namesReadings(), searchTextReadings()];
          const seen = await insights(s, A);
          expect(seen.people.map((p) => p.name)).toContain('Edith');
          await prepareChat(s, A, 'Where did Edith go by train?');
          await addJournalEntry(s, A, 'u', { content: `${mark} again: ${line}` }, clock);
          await updateJournalEntry(s, A, ids[2]!, { content: `${mark} changed: ${line}` }, clock);
          await deleteJournalEntry(s, A, ids[3]!, clock);
          await expect(
            updateJournalEntry(accountStore(one.store, B), B, ids[4]!, { content: 'not mine' }, clock),
          ).rejects.toMatchObject({ code: 'NOT_FOUND' });
          expect([namesReadings(), searchTextReadings()]).toEqual(before);
          // Every step let go of what it held: the caches are back within their bounds.
          expect([keptNames.heldCount, keptPassages.heldCount]).toEqual([0, 0]);
          expect(keptNames.chars).toBeLessThanOrEqual(1_400);
        });
      } finally {
        await one.close();
      }
    });

    it('moods named like object properties are ordinary moods', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      for (const mood of ['__proto__', 'constructor', 'toString', '__proto__'])
        await addJournalEntry(s, A, 'u', { content: 'x', mood }, clock);
      const i = await insights(s, A);
      expect(Object.getPrototypeOf(i.moodCounts)).toBe(Object.prototype);
      expect(Object.entries(i.moodCounts)).toEqual([
        ['__proto__', 2],
        ['constructor', 1],
        ['tostring', 1],
      ]);
      expect(i.moodOverTime.every((d) => d.averageScore === 0)).toBe(true);
      await one.close();
    });
  });

  describe('the agent', () => {
    const codec = new CursorCodec('memoir-test-secret-0123456789');

    it('demo mode answers from the entries it retrieved, citing their real ids, deterministically', async () => {
      const ids = (await listJournal(a, A, 1, 100)).items;
      const bread = ids.find((e) => e.content.includes('bread'))!;
      const r1 = await chat({ store: a, clock, model: undefined }, A, 'usr_a', 'Who baked bread on Sundays?');
      expect(r1.mode).toBe('demo');
      expect(r1.reply.citations[0]).toBe(bread.id);
      expect(r1.reply.content).toMatch(/My mother baked bread every Sunday/);
      const r2 = await chat({ store: a, clock, model: undefined }, A, 'usr_a', 'Who baked bread on Sundays?');
      expect(r2.reply.content).toBe(r1.reply.content);
      for (const id of r1.reply.citations) expect(ids.map((e) => e.id).concat(['qa:childhood.home'])).toContain(id);
    });

    it('says it does not know when nothing relevant exists, and invents nothing', async () => {
      const model = new FakeListChatModel({ responses: ['I flew to the moon in 1969 [jrn_FAKE].'] });
      for (const m of [undefined, model]) {
        const r = await chat({ store: a, clock, model: m }, A, 'usr_a', 'What about cryptocurrency trading?');
        expect(r.reply.content).toBe(DONT_KNOW);
        expect(r.reply.citations).toEqual([]);
        expect(r.grounded).toBe(false);
      }
      // The model was never asked.
      expect(model.i).toBe(0);
      // Another account's entries are not retrieved either.
      expect((await chat({ store: b, clock, model: undefined }, B, 'usr_b', 'Who baked bread?')).reply.content).toBe(
        DONT_KNOW,
      );
    });

    it('with a model: grounded prompt, cited ids kept only when they were retrieved', async () => {
      const passages = retrieve((await a.findBy('memoir_journal', 'ownerId', A)) as never, [], 'shipyard work');
      const id = passages[0]!.id;
      const model = new FakeListChatModel({
        responses: [`I spent thirty years at the shipyard [${id}], and I met Elvis there [jrn_INVENTED].`],
      });
      const r = await chat({ store: a, clock, model }, A, 'usr_a', 'Tell me about the shipyard work');
      expect(r.mode).toBe('model');
      expect(r.reply.citations).toEqual([id]);
      expect(r.citations[0]!.excerpt).toMatch(/shipyard/);
    });

    it('keeps history per user, cursor-paged newest first', async () => {
      const page1 = await chatHistory(a, codec, A, 'usr_a', undefined, 3);
      expect(page1.items).toHaveLength(3);
      expect(page1.pagination.hasMore).toBe(true);
      const page2 = await chatHistory(a, codec, A, 'usr_a', page1.pagination.nextCursor!, 100);
      const all = [...page1.items, ...page2.items];
      expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
      expect(all.map((m) => m.id)).toEqual([...all.map((m) => m.id)].sort().reverse());
      expect((await chatHistory(a, codec, A, 'usr_other', undefined, 10)).items).toEqual([]);
      expect(await code(chatHistory(a, codec, A, 'usr_other', page1.pagination.nextCursor!, 10))).toBe(
        'VALIDATION_ERROR',
      );
    });

    it("pages a user's chat reading only that page's messages", async () => {
      // 60 messages of usr_walk among another user's 60 in the same account, and 30 of another account's chat under
      // the same user key (a user of two accounts).
      const walker = 'usr_walk';
      const mine: string[] = [];
      await opened.store.transact(async (tx) => {
        for (let i = 0; i < 60; i++) {
          const at = clock.now().toISOString();
          const msg = (ownerId: string, userKey: string) => ({
            id: memoirId('msg', clock.now().getTime()),
            ownerId,
            userKey,
            role: 'user',
            content: `question ${i}`,
            citations: [],
            mode: 'demo',
            createdAt: at,
          });
          const m = msg(A, walker);
          mine.push(m.id);
          await tx.put(MEMOIR_CHAT, m);
          await tx.put(MEMOIR_CHAT, msg(A, 'usr_talker'));
          if (i % 2 === 0) await tx.put(MEMOIR_CHAT, msg(B, walker));
          clock.advance(1000);
        }
      });
      const reads = countReads(opened.store, MEMOIR_CHAT);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      try {
        do {
          const page = await chatHistory(a, codec, A, walker, cursor, 25);
          seen.push(...page.items.map((m) => m.id));
          cursor = page.pagination.nextCursor ?? undefined;
          pages += 1;
        } while (cursor);
      } finally {
        reads.restore();
      }
      expect(pages).toBe(3);
      expect(seen).toEqual([...mine].reverse());
      // The page's own messages, and a few to tell the accounts apart: not the account's whole chat at every page.
      expect(reads.count()).toBeLessThanOrEqual(60 + 8 * pages);
      expect((await chatHistory(b, codec, B, walker, undefined, 100)).items).toHaveLength(30);
    });

    it('refines the character with the model when configured, ignoring unreadable answers', async () => {
      const model = new FakeListChatModel({
        responses: ['Sure! {"traits": ["Stubborn", "loyal"], "values": ["loyalty"]}', 'no json here'],
      });
      expect(await refineCharacter({ store: a, clock, model }, A, 'I never gave up on my friends.')).toEqual({
        traits: ['stubborn', 'loyal'],
        values: ['loyalty'],
      });
      expect(await refineCharacter({ store: a, clock, model }, A, 'More.')).toBeUndefined();
      const c = (await characterOf(a, A, 'json')).character;
      expect(c.modelTraits).toEqual(['stubborn', 'loyal']);
      expect(c.modelValues).toEqual(['loyalty']);
    });
  });
  describe('answers, media and credits', () => {
    it('answers come back in questionnaire order, whatever order they were given in and whatever the engine keeps', async () => {
      // PostgreSQL's jsonb orders an object's keys by length, lowdb keeps insertion order: neither may decide.
      const one = await fresh();
      const s = accountStore(one.store, A);
      await setSetup(s, A, 'Rosa', clock);
      await answerQuestionnaire(
        s,
        A,
        'family',
        [
          { questionId: 'family.children', answer: 'Three children, and each one surprised me.' },
          { questionId: 'family.grandparents', answer: 'My grandparents kept goats in the hills.' },
          { questionId: 'family.parents', answer: 'My parents ran a small bakery.' },
        ],
        clock,
      );
      await answerQuestionnaire(
        s,
        A,
        'childhood',
        [{ questionId: 'childhood.games', answer: 'We played marbles in the dust.' }],
        clock,
      );
      const { eliza } = await characterOf(s, A, 'eliza');
      // The questionnaire's order, as in the exported book: childhood before family, parents before grandparents.
      expect(eliza!.messageExamples.map((m) => m[1]!.content.text)).toEqual([
        'We played marbles in the dust.',
        'My parents ran a small bakery.',
        'My grandparents kept goats in the hills.',
        'Three children, and each one surprised me.',
      ]);
      // Two answers scoring the same: the one earlier in the questionnaire is cited first, on every engine.
      await answerQuestionnaire(
        s,
        A,
        'values',
        [
          { questionId: 'values.money', answer: 'Harbour lanterns glowed.' },
          { questionId: 'values.honesty', answer: 'Harbour lanterns glowed.' },
        ],
        clock,
      );
      const r = await chat({ store: s, clock, model: undefined }, A, 'usr_a', 'Tell me about the harbour lanterns');
      expect(r.reply.citations).toEqual(['qa:values.honesty', 'qa:values.money']);
      await one.close();
    });

    it('media records: committed, listed newest first, found, deleted with their file, never across accounts', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const other = accountStore(one.store, B);
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const commit = async (name: string) => {
        const staged = await stageUpload(one.dataDir, Readable.from([png]), DEFAULT_UPLOAD_LIMITS);
        clock.advance(1000);
        return commitUpload({ store: s, clock, dataDir: one.dataDir }, A, staged, {
          originalName: name,
          durationMinutes: null,
          durationSeconds: null,
          medianPitchHz: null,
        });
      };
      const first = await commit('first.png');
      const second = await commit('second.png');
      expect(first).toMatchObject({ kind: 'photo', mime: 'image/png', size: png.length, originalName: 'first.png' });
      expect((await listMedia(s, A, 1, 20)).items.map((m) => m.id)).toEqual([second.id, first.id]);
      expect(await getMedia(s, first.id)).toEqual(first);
      expect(await code(getMedia(other, first.id))).toBe('NOT_FOUND');
      expect((await listMedia(other, B, 1, 20)).items).toEqual([]);
      expect(existsSync(mediaFile(one.dataDir, first))).toBe(true);
      expect(await deleteMedia({ store: s, dataDir: one.dataDir }, first.id)).toEqual({ id: first.id, deleted: true });
      expect(existsSync(mediaFile(one.dataDir, first))).toBe(false);
      expect(await code(getMedia(s, first.id))).toBe('NOT_FOUND');
      expect(await code(deleteMedia({ store: other, dataDir: one.dataDir }, second.id))).toBe('NOT_FOUND');
      expect((await listMedia(s, A, 1, 20)).items.map((m) => m.id)).toEqual([second.id]);
      expect((await agentStatus(s, A)).mediaCount).toBe(1);
      await one.close();
    });

    it('a chat charged through the memoir: debited, refunded when the work fails, 402 with nothing run when short', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const ctx = {
        store: s,
        clock,
        config: loadConfig({}, {}),
        log: createLogger('silent'),
        principal: { ownerId: A },
      };
      await addEntry(one.store, clock, A, {
        kind: 'grant',
        amount: 2,
        idempotencyKey: 'seed',
        reference: { type: 'operator', id: 'test' },
      });
      await addJournalEntry(s, A, 'usr_a', { content: 'We kept bees behind the barn.' }, clock);
      const prepared = await prepareChat(s, A, 'Tell me about the bees');
      const paid = await withCharge(ctx, 'chat_message', 1, { type: 'chat_message', id: 'req_1' }, () =>
        chat({ store: s, clock, model: undefined }, A, 'usr_a', 'Tell me about the bees', prepared),
      );
      expect(paid.charge).toEqual({ action: 'chat_message', units: 1, credits: 1 });
      expect(paid.result.grounded).toBe(true);
      expect(await ledgerSum(one.store, A)).toBe(1);
      const failing = withCharge(ctx, 'chat_message', 1, { type: 'chat_message', id: 'req_2' }, async () => {
        throw new ApiError('SERVICE_UNAVAILABLE', 'the model did not answer');
      });
      expect(await code(failing)).toBe('SERVICE_UNAVAILABLE');
      expect(await ledgerSum(one.store, A)).toBe(1);
      await withCharge(ctx, 'chat_message', 1, { type: 'chat_message', id: 'req_3' }, async () => 'ok');
      let ran = false;
      const short = withCharge(ctx, 'chat_message', 1, { type: 'chat_message', id: 'req_4' }, async () => (ran = true));
      const err = await short.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        details: [expect.objectContaining({ required: 1, available: 0 })],
      });
      expect(ran).toBe(false);
      expect(await ledgerSum(one.store, A)).toBe(0);
      // One exchange (two messages) was stored: the failed and refused ones left nothing in the history.
      expect(
        (await chatHistory(s, new CursorCodec('memoir-test-secret-0123456789'), A, 'usr_a', undefined, 10)).items,
      ).toHaveLength(2);
      await one.close();
    });

    it('concurrent writes to one memoir all land, and the character counts every one of them', async () => {
      const one = await fresh();
      const s = accountStore(one.store, A);
      const texts = Array.from(
        { length: 8 },
        (_, i) => `Day ${i}: I walked with my sister Clara to the harbour in Galway and we laughed.`,
      );
      await Promise.all([
        ...texts.map((content) => addJournalEntry(s, A, 'usr_a', { content }, clock)),
        answerQuestionnaire(
          s,
          A,
          'family',
          [{ questionId: 'family.parents', answer: 'My father fixed boats.' }],
          clock,
        ),
        answerQuestionnaire(
          s,
          A,
          'family',
          [{ questionId: 'family.siblings', answer: 'My only sister is Clara.' }],
          clock,
        ),
      ]);
      expect((await listJournal(s, A, 1, 100)).pagination.total).toBe(8);
      expect((await getQuestionnaire(s, A, 'family')).answered).toBe(2);
      const { character } = await characterOf(s, A, 'json');
      expect(character.sources).toEqual({ journalEntries: 8, answers: 2 });
      expect(character.people.find((p) => p.name === 'Clara')?.count).toBe(9);
      await one.close();
    });
  });
});
