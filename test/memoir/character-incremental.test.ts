import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import {
  buildCharacter,
  CHARACTER_COUNTS_VERSION,
  CharacterTally,
  type CharacterCountsRecord,
  type StoredCounts,
} from '../../src/memoir/character.js';
import { characterCountsId, storedTally } from '../../src/memoir/counting.js';
import { forgetPhraseChunks } from '../../src/memoir/phrase-counts.js';
import { addJournalEntry, answerQuestionnaire, rebuildCharacter } from '../../src/memoir/memoir.js';
import { characterOf } from '../../src/memoir/views.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_CHARACTER,
  MEMOIR_JOURNAL,
  MEMOIR_PHRASES,
  type AnswerRecord,
  type JournalEntry,
} from '../../src/memoir/records.js';
import type { Store, Tx } from '../../src/store/port.js';
import { FakeClock } from '../helpers.js';
import { MEMOIR_ENGINES, openEngineStore, type MemoirEngine } from './support.js';

// The character model is kept up to date from counts (src/memoir/character.ts CharacterTally): a new entry or answer
// adds its own counts instead of rereading everything. Whatever the sequence of writes, the model must equal a full
// rebuild (buildCharacter) of the same records, and the stored counts must equal counts made from scratch.

/** Pieces that make phrases recur across texts, with names, places, kin, lexicon cues and odd words. */
const FRAGMENTS = [
  'My mother baked bread every Sunday in Lisbon.',
  'I still remember the smell of the sea!',
  'Maria and I married in Porto.',
  'When my late brother Tomas died I felt lost.',
  'We moved to New York and worked hard.',
  'Hard work never frightened me?',
  'I remember the smell of the bread',
  'we laughed and prayed at church',
  'my best friend Ingrid helped us',
  'Faith carried me through hard times.',
  'constructor toString hasOwnProperty',
  'Constructor visited Oslo',
  'our children and grandchildren',
  'I was grateful, curious and patient.',
  'We saved money for the garden',
  '😀 café in Zürich',
  '\n',
];
const WORDS = [
  'bread',
  'sea',
  'the',
  'and',
  'I',
  'my',
  'Lisbon',
  'family',
  'remember',
  'smell',
  'work',
  'home',
  'love',
];
const SEPARATORS = [' ', '. ', '! ', '? ', '\n', ', '];

const textArb = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.constantFrom(...WORDS)), fc.constantFrom(...SEPARATORS)), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.map(([p, s]) => p + s).join(''))
  .filter((t) => t.trim().length > 0);

const QUESTIONS: Record<string, string[]> = {
  family: ['family.parents', 'family.siblings', 'family.children'],
  childhood: ['childhood.home', 'childhood.games'],
  values: ['values.honesty', 'values.money'],
};

type Op =
  | { kind: 'entry'; text: string }
  | { kind: 'answers'; category: string; answers: Array<{ questionId: string; answer: string }> };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: textArb.map((text): Op => ({ kind: 'entry', text })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...Object.keys(QUESTIONS)).chain((category) =>
      fc
        .uniqueArray(fc.constantFrom(...QUESTIONS[category]!), { minLength: 1, maxLength: QUESTIONS[category]!.length })
        .chain((ids) => fc.tuple(...ids.map((id) => textArb.map((answer) => ({ questionId: id, answer })))))
        .map((answers): Op => ({ kind: 'answers', category, answers })),
    ),
  },
);

/** A table as a plain comparable value (the order of names in a table carries no meaning). */
const table = (t: StoredCounts) => Object.fromEntries(t.names.map((n, i) => [`k:${n}`, t.counts[i]]));

function comparable(r: CharacterCountsRecord) {
  return {
    version: r.version,
    journalEntries: r.journalEntries,
    // The order of the categories matters (the model's topics keep it).
    answered: r.answered,
    ...Object.fromEntries(
      (['traits', 'values', 'themes', 'people', 'places', 'recurring', 'words'] as const).map((k) => [k, table(r[k])]),
    ),
    phrasesAtLeast: r.phrasesAtLeast,
    style: r.style,
  };
}

/** A store whose transactions count the full reads (findBy) of the journal and the answers. */
function counting(store: Store): { store: Store; reads: { journal: number; answers: number } } {
  const reads = { journal: 0, answers: 0 };
  const bound = <T extends object>(target: T, override: Partial<Record<PropertyKey, unknown>>): T =>
    new Proxy(target, {
      get(t, p) {
        if (p in override) return override[p];
        const v = Reflect.get(t, p, t) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  const countTx = (tx: Tx): Tx =>
    bound(tx, {
      findBy: (collection: string, field: string, value: string) => {
        if (collection === MEMOIR_JOURNAL) reads.journal++;
        if (collection === MEMOIR_ANSWERS) reads.answers++;
        return tx.findBy(collection, field, value);
      },
    });
  return {
    reads,
    store: bound(store, {
      transact: (fn: (tx: Tx) => Promise<unknown>, opts?: object) => store.transact((tx) => fn(countTx(tx)), opts),
    }),
  };
}

describe.each(MEMOIR_ENGINES)('incremental character model, %s store', (engine: MemoirEngine) => {
  let opened: Awaited<ReturnType<typeof openEngineStore>>;
  let accounts = 0;
  const nextAccount = () => `acct_${engine.toUpperCase().padEnd(8, 'X')}${String(++accounts).padStart(18, '0')}`;

  beforeAll(async () => {
    opened = await openEngineStore(engine);
  });
  afterAll(async () => {
    await opened?.close();
  });

  /** What a full rebuild of the account's records gives, and the stored model and counts. */
  async function check(store: Store, ownerId: string) {
    const [entries, answers, record, { character }] = await Promise.all([
      store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
      store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
      store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, characterCountsId(ownerId)),
      characterOf(store, ownerId, 'json'),
    ]);
    expect(character).toEqual(buildCharacter(entries, answers, character, character.updatedAt));
    const scratch = CharacterTally.of(entries, answers);
    expect(comparable(record!)).toEqual(comparable(scratch.toRecords('x', ownerId, 'now').counts));
    // Every phrase's count, summed over the stored segments, equals a count from the texts, and the account holds
    // exactly the chunks its counts list.
    const stored = await store.transact((tx) => storedTally(tx, ownerId));
    expect(stored!.phraseCounts()).toEqual(scratch.phraseCounts());
    expect((await store.findBy<{ id: string }>(MEMOIR_PHRASES, 'ownerId', ownerId)).map((c) => c.id).sort()).toEqual(
      record!.phraseSegments.flat().sort(),
    );
  }

  it('random sequences of entries and answers (answers given again included): the model equals a full rebuild after every write', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: engine === 'postgres' ? 8 : 14 }), async (ops) => {
        const ownerId = nextAccount();
        const store = accountStore(opened.store, ownerId);
        for (const op of ops) {
          clock.advance(60_000);
          if (op.kind === 'entry') await addJournalEntry(store, ownerId, 'usr', { content: op.text }, clock);
          else await answerQuestionnaire(store, ownerId, op.category, op.answers, clock);
          await check(store, ownerId);
        }
      }),
      { numRuns: engine === 'postgres' ? 12 : 40 },
    );
  });

  it('after the first write, new entries and answers read neither the journal nor the answers in full', async () => {
    const clock = new FakeClock(Date.UTC(2026, 1, 1));
    const ownerId = nextAccount();
    const { store: raw, reads } = counting(opened.store);
    const store = accountStore(raw, ownerId);
    await addJournalEntry(store, ownerId, 'usr', { content: 'My mother baked bread in Lisbon.' }, clock);
    // The first write finds no counts and counts everything (one full read each).
    expect(reads).toEqual({ journal: 1, answers: 1 });
    for (let i = 0; i < 5; i++)
      await addJournalEntry(
        store,
        ownerId,
        'usr',
        { content: `Day ${i}: I remember the smell of the bread in Lisbon.` },
        clock,
      );
    await answerQuestionnaire(
      store,
      ownerId,
      'family',
      [{ questionId: 'family.parents', answer: 'My mother baked bread.' }],
      clock,
    );
    await answerQuestionnaire(
      store,
      ownerId,
      'family',
      [{ questionId: 'family.parents', answer: 'My father fixed boats in Porto.' }],
      clock,
    );
    expect(reads).toEqual({ journal: 1, answers: 1 });
    const { character } = await characterOf(store, ownerId, 'json');
    expect(character.sources).toEqual({ journalEntries: 6, answers: 1 });
    expect(character.places.map((p) => p.name)).toEqual(['Lisbon', 'Porto']);
    expect(character.recurringPhrases.map((p) => p.name)).toEqual(
      expect.arrayContaining(['bread in lisbon', 'i remember the smell']),
    );
    await check(store, ownerId);
  });

  it('counts of an older version, malformed counts, or an entry removed behind them: counted again in full, once', async () => {
    const clock = new FakeClock(Date.UTC(2026, 2, 1));
    const ownerId = nextAccount();
    const { store: raw, reads } = counting(opened.store);
    const store = accountStore(raw, ownerId);
    for (const content of [
      'We sailed to Oslo with Ingrid.',
      'Ingrid laughed at the sea.',
      'I remember Oslo in winter.',
    ]) {
      await addJournalEntry(store, ownerId, 'usr', { content }, clock);
    }
    const id = characterCountsId(ownerId);
    const stored = (await store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, id))!;

    // An older version, with counts that are wrong for this one: thrown away.
    await store.put(MEMOIR_CHARACTER, {
      ...stored,
      version: CHARACTER_COUNTS_VERSION - 1,
      people: { names: ['Nobody'], counts: [99] },
    });
    reads.journal = 0;
    await addJournalEntry(store, ownerId, 'usr', { content: 'Ingrid moved to Bergen.' }, clock);
    expect(reads.journal).toBe(1);
    expect((await characterOf(store, ownerId, 'json')).character.people.map((p) => p.name)).not.toContain('Nobody');
    await check(store, ownerId);

    // Malformed (a negative count): thrown away too.
    const current = (await store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, id))!;
    await store.put(MEMOIR_CHARACTER, { ...current, words: { names: ['sea'], counts: [-3] } });
    reads.journal = 0;
    await addJournalEntry(store, ownerId, 'usr', { content: 'The sea was calm.' }, clock);
    expect(reads.journal).toBe(1);
    await check(store, ownerId);

    // A phrase chunk missing (and not kept by this process): counted again in full.
    const listed = (await store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, id))!.phraseSegments.flat();
    expect(listed.length).toBeGreaterThan(0);
    await store.delete(MEMOIR_PHRASES, listed[0]!);
    forgetPhraseChunks();
    reads.journal = 0;
    await addJournalEntry(store, ownerId, 'usr', { content: 'The sea was grey.' }, clock);
    expect(reads.journal).toBe(1);
    await check(store, ownerId);

    // An entry deleted without the counts knowing: the count no longer matches, everything is counted again.
    const entries = await store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId);
    await store.delete(MEMOIR_JOURNAL, entries[0]!.id);
    reads.journal = 0;
    await addJournalEntry(store, ownerId, 'usr', { content: 'Snow in Bergen.' }, clock);
    expect(reads.journal).toBe(1);
    expect((await characterOf(store, ownerId, 'json')).character.sources.journalEntries).toBe(entries.length);
    await check(store, ownerId);

    // An answer changed elsewhere: taking its counts back fails, so everything is counted again.
    await answerQuestionnaire(
      store,
      ownerId,
      'values',
      [{ questionId: 'values.honesty', answer: 'Honesty above all.' }],
      clock,
    );
    const answers = (await store.get<AnswerRecord>(MEMOIR_ANSWERS, `mqa_${ownerId}_values`))!;
    await store.put(MEMOIR_ANSWERS, {
      ...answers,
      answers: { 'values.honesty': { answer: 'Something never counted: Zanzibar.', answeredAt: answers.updatedAt } },
    });
    reads.answers = 0;
    await answerQuestionnaire(
      store,
      ownerId,
      'values',
      [{ questionId: 'values.honesty', answer: 'Honesty, and kindness.' }],
      clock,
    );
    expect(reads.answers).toBe(1);
    await check(store, ownerId);

    // rebuildCharacter (for whatever deletes): the same model as the incremental one.
    const before = (await characterOf(store, ownerId, 'json')).character;
    const rebuilt = await rebuildCharacter(store, ownerId, { now: () => new Date(before.updatedAt!) });
    expect(rebuilt).toEqual(before);
  });
});
