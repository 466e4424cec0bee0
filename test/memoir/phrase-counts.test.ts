import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCharacter,
  CharacterTally,
  KEPT_PHRASES,
  type CharacterCountsRecord,
  type CharacterModel,
} from '../../src/memoir/character.js';
import { characterCountsId, compactPhrases, storedTally, storeTally } from '../../src/memoir/counting.js';
import {
  forgetPhraseChunks,
  type MergeOptions,
  PHRASE_CACHE_CHARS,
  type PhraseChunkRecord,
  PhraseCounts,
  sizePhraseCache,
} from '../../src/memoir/phrase-counts.js';
import { type JournalEntry, MEMOIR_CHARACTER, MEMOIR_PHRASES } from '../../src/memoir/records.js';
import { phrasesOf } from '../../src/memoir/text.js';
import type { Tx } from '../../src/store/port.js';
import { overriding } from '../support/store-wrap.js';
import { openEngineStore } from './support.js';

// The phrase counts behind the character model live in immutable segments (src/memoir/phrase-counts.ts) and the counts
// record keeps only the phrases held by `phrasesAtLeast` texts or more. Whatever the writes, with the bound raised and
// lowered on the way, the model must equal a full rebuild and every phrase's count a count from the texts.

const OWNER = 'acct_PHRASES00000000000000000001';
const WORDS = [
  ...['bread', 'sea', 'the', 'and', 'my', 'mother', 'lisbon', 'remember', 'smell', 'work', 'home', 'we'],
  ...['garden', 'boat', 'church', 'winter', 'father', 'porto', 'music', 'letters'],
];

/** Sentences that recur across texts (their phrases are held by many texts) and sentences of random words. */
const SENTENCES = [
  'My mother baked bread every Sunday in Lisbon.',
  'I still remember the smell of the sea.',
  'We moved to Porto and worked hard.',
  'My father fixed boats in the harbour.',
  'We sang in the church choir each winter.',
  'The garden behind the house was full of roses.',
  'I wrote long letters to my brother in Oslo.',
];
const sentenceArb = fc.oneof(
  fc.constantFrom(...SENTENCES),
  fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 7 }).map((w) => `${w.join(' ')}.`),
);
const textArb = fc.array(sentenceArb, { minLength: 1, maxLength: 4 }).map((s) => s.join(' '));

const entry = (content: string, i: number): JournalEntry =>
  ({ id: `mjrn_${i}`, ownerId: OWNER, content, createdAt: 'now', updatedAt: 'now' }) as unknown as JournalEntry;

let opened: Awaited<ReturnType<typeof openEngineStore>>;
beforeAll(async () => {
  opened = await openEngineStore('lowdb');
});
afterAll(async () => {
  await opened?.close();
});
let accounts = 0;

/** One account's counts in the store, written and read as the memoir does (storeTally, compactPhrases, storedTally). */
class Memoir {
  readonly ownerId = `acct_PHRASES${String(++accounts).padStart(21, '0')}`;
  compactions = 0;

  constructor(
    readonly keep: number,
    readonly merge: MergeOptions,
  ) {}

  /** Stores the tally, compacts when that is due, and checks the account holds exactly the chunks listed. */
  async save(tally: CharacterTally): Promise<CharacterCountsRecord> {
    const store = opened.store;
    const due = await store.transact((tx) => storeTally(tx, this.ownerId, tally, 'now', this.merge));
    if (due && (await compactPhrases(store, this.ownerId, this.merge))) this.compactions++;
    const counts = (await store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, characterCountsId(this.ownerId)))!;
    expect(await this.chunkIds()).toEqual(counts.phraseSegments.flat().sort());
    return counts;
  }

  async load(): Promise<CharacterTally> {
    const tally = await opened.store.transact((tx) => storedTally(tx, this.ownerId, { keep: this.keep }));
    expect(tally).toBeDefined();
    return tally!;
  }

  async chunkIds(): Promise<string[]> {
    return (await opened.store.findBy<PhraseChunkRecord>(MEMOIR_PHRASES, 'ownerId', this.ownerId))
      .map((c) => c.id)
      .sort();
  }
}

const model = (tally: CharacterTally): CharacterModel => tally.model(undefined, null);

/** An added text, or which of the texts held to remove. */
type Op = string | number;

/**
 * Applies the writes one by one, storing the tally and reading it back after each, and checks it against a recount.
 * Returns how often the bound of the kept phrases went up and down.
 */
async function run(
  ops: Op[],
  keep: number,
  cold: boolean,
  mergeInWrite: number,
): Promise<{ raised: number; lowered: number; compactions: number }> {
  const memoir = new Memoir(keep, { chunkChars: 60, mergeInWrite });
  let texts: string[] = [];
  let tally = CharacterTally.of([], [], keep);
  let bound = 2;
  let raised = 0;
  let lowered = 0;
  for (const op of ops) {
    if (typeof op === 'string') {
      tally.addEntry(op);
      texts.push(op);
    } else if (texts.length > 0) {
      const i = op % texts.length;
      expect(tally.removeStoredEntry({ content: texts[i]! })).toBe(true);
      texts = texts.filter((_, j) => j !== i);
    }
    const entries = texts.map(entry);
    expect(model(tally)).toEqual(buildCharacter(entries, [], undefined, null));
    const counts = await memoir.save(tally);
    if (counts.phrasesAtLeast > bound) raised++;
    if (counts.phrasesAtLeast < bound) lowered++;
    bound = counts.phrasesAtLeast;
    // The record keeps exactly the phrases held by the bound or more, with their counts.
    const scratch = CharacterTally.of(entries, [], keep).phraseCounts();
    expect(Object.fromEntries(counts.recurring.names.map((n, i) => [n, counts.recurring.counts[i]]))).toEqual(
      Object.fromEntries([...scratch].filter(([, n]) => n >= counts.phrasesAtLeast)),
    );
    if (cold) forgetPhraseChunks();
    tally = await memoir.load();
    expect(tally.phraseCounts()).toEqual(scratch);
    expect(model(tally)).toEqual(buildCharacter(entries, [], undefined, null));
  }
  return { raised, lowered, compactions: memoir.compactions };
}

describe('phrase counts in segments', () => {
  it('random additions and removals, stored and read back each time: the model equals a rebuild, every count a recount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: textArb }, { weight: 1, arbitrary: fc.nat() }), {
          minLength: 30,
          maxLength: 45,
        }),
        fc.integer({ min: 100, max: 160 }),
        fc.boolean(),
        fc.integer({ min: 5, max: 400 }),
        async (ops, keep, cold, mergeInWrite) => {
          await run(ops, keep, cold, mergeInWrite);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('the bound of the kept phrases rises as sentences recur and falls back to 2 as their texts are removed', async () => {
    // Text i holds sentence k when k divides i: the sentences recur with counts far apart, then go one text at a time.
    const texts = Array.from({ length: 48 }, (_, i) =>
      [
        ...SENTENCES.filter((_, k) => i % (k + 1) === 0),
        `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}.`,
      ].join(' '),
    );
    const ops: Op[] = [...texts, ...texts.map(() => 0)];
    const { raised, lowered, compactions } = await run(ops, 100, false, 100);
    expect(raised).toBeGreaterThan(0);
    expect(lowered).toBeGreaterThan(0);
    expect(compactions).toBeGreaterThan(0);
  });

  it('a long memoir: the counts record stays bounded, the segments few, and each write stores about its own phrases', async () => {
    const keep = 40;
    const memoir = new Memoir(keep, { mergeInWrite: 300 });
    let tally = CharacterTally.of([], [], keep);
    const texts: string[] = [];
    let written = 0;
    let maxSegments = 0;
    for (let i = 0; i < 400; i++) {
      // Words that recur (a small vocabulary) and words of this text alone.
      const text = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} word${i} and more${i} of day${i}. We remember ${WORDS[(i * 5) % WORDS.length]} home.`;
      tally.addEntry(text);
      texts.push(text);
      const before = new Set(await memoir.chunkIds());
      const counts = await memoir.save(tally);
      for (const id of await memoir.chunkIds())
        if (!before.has(id)) written += (await opened.store.get<PhraseChunkRecord>(MEMOIR_PHRASES, id))!.lines.length;
      maxSegments = Math.max(maxSegments, counts.phraseSegments.length);
      expect(counts.recurring.names.length).toBeLessThanOrEqual(keep);
      tally = await memoir.load();
    }
    // The longer merges were made after the writes, by compactions.
    expect(memoir.compactions).toBeGreaterThan(0);
    const all = tally.phraseCounts();
    expect(all).toEqual(CharacterTally.of(texts.map(entry), [], keep).phraseCounts());
    const total = [...all].reduce((n, [p, c]) => n + p.length + String(c).length + 2, 0);
    // Stored lines over the whole run: a small multiple of what is held at the end (each phrase rewritten by a few
    // merges), where one record rewritten at every write would have stored some 200 times that.
    expect(written / total).toBeLessThan(12);
    expect(maxSegments).toBeLessThanOrEqual(Math.ceil(Math.log2(all.size)) + 1);
    expect(model(tally)).toEqual(buildCharacter(texts.map(entry), [], undefined, null));
  });

  it('a compaction is swapped in after a write made meanwhile, and dropped after counts made again from every text', async () => {
    for (const meanwhile of ['a write', 'a recount'] as const) {
      const memoir = new Memoir(KEPT_PHRASES, { mergeInWrite: 5 });
      const texts = SENTENCES.map((x, i) => `${x} ${WORDS[i]} ${WORDS[i + 1]} day ${i}.`);
      let tally = CharacterTally.of([], []);
      let due = false;
      for (const t of texts) {
        tally.addEntry(t);
        due = await opened.store.transact((tx) => storeTally(tx, memoir.ownerId, tally, 'now', memoir.merge));
        if (due) break;
        tally = await memoir.load();
      }
      expect(due).toBe(true);
      const held = texts.slice(0, tally.journalEntries);
      // The competing transaction runs once the merge is made, just before the compaction's own.
      const extra = 'We sailed to Oslo in the winter of the storm.';
      const target = opened.store;
      const racing = overriding(target, {
        transact: async (fn: (tx: Tx) => Promise<unknown>) => {
          const competing = meanwhile === 'a write' ? await memoir.load() : CharacterTally.of(held.map(entry), []);
          if (meanwhile === 'a write') competing.addEntry(extra);
          await target.transact((tx) => storeTally(tx, memoir.ownerId, competing, 'now', { mergeInWrite: 0 }));
          return target.transact(fn);
        },
      });
      const swapped = await compactPhrases(racing, memoir.ownerId, memoir.merge);
      expect(swapped).toBe(meanwhile === 'a write');
      const now = meanwhile === 'a write' ? [...held, extra] : held;
      forgetPhraseChunks();
      expect((await memoir.load()).phraseCounts()).toEqual(CharacterTally.of(now.map(entry), []).phraseCounts());
      const counts = (await opened.store.get<CharacterCountsRecord>(
        MEMOIR_CHARACTER,
        characterCountsId(memoir.ownerId),
      ))!;
      expect(await memoir.chunkIds()).toEqual(counts.phraseSegments.flat().sort());
    }
  });

  it('a memoir larger than the cache keeps its first chunks and reads only the rest again, not all of them each time', async () => {
    // Eight segments (no merges), read one after another as a write reads them.
    const counts = new PhraseCounts();
    const records: PhraseChunkRecord[] = [];
    for (let segment = 0; segment < 8; segment++) {
      for (let i = 0; i < 50; i++) counts.change(`phrase ${segment} number ${String(i).padStart(4, '0')}`, 1);
      records.push(...counts.commit(OWNER, { chunkChars: 200, mergeInWrite: 0 }));
    }
    expect(counts.stored()).toHaveLength(8);
    const byId = new Map(records.map((r) => [r.id, r]));
    const size = records.reduce((n, r) => n + r.lines.length + 4 * r.lines.split('\n').length, 0);
    sizePhraseCache(Math.floor(size / 2));
    try {
      let gets = 0;
      const read = async (id: string) => {
        gets++;
        return byId.get(id);
      };
      for (let round = 0; round < 3; round++) {
        gets = 0;
        const back = await PhraseCounts.load(counts.stored(), read);
        expect(back!.all()).toEqual(counts.all());
        if (round === 0) expect(gets).toBe(records.length);
        // Least recently used alone, each round would put out every chunk before its next use and read all again.
        else expect(gets).toBeLessThan(records.length * 0.7);
        expect(gets).toBeGreaterThan(0);
      }
    } finally {
      sizePhraseCache(PHRASE_CACHE_CHARS);
    }
  });

  it('segments split into chunks of the given size read back whole; a chunk missing or malformed is not read as counts', async () => {
    const counts = new PhraseCounts();
    const phrases = [...phrasesOf('my mother baked bread every sunday in lisbon and we ate it by the sea')];
    for (const p of phrases) counts.change(p, 1);
    counts.change(phrases[0]!, 1);
    const records = counts.commit(OWNER, { chunkChars: 40 });
    expect(records.length).toBeGreaterThan(3);
    for (const r of records) expect(r.lines.length).toBeLessThanOrEqual(40);
    const byId = new Map(records.map((r) => [r.id, r]));
    forgetPhraseChunks();
    const back = await PhraseCounts.load(counts.stored(), async (id) => byId.get(id));
    expect(back!.all()).toEqual(counts.all());
    expect(back!.count(phrases[0]!)).toBe(2);
    expect(back!.count('not a phrase here')).toBe(0);

    const [first, second] = records;
    for (const broken of [
      undefined,
      { ...first!, lines: '' },
      { ...first!, lines: 'b a\t1\na b\t1' }, // not sorted
      { ...first!, lines: 'a b\t0' }, // a zero count
      { ...first!, lines: 'a b 1' }, // no tab
      { ...first!, lines: 'a b\tone' },
      { ...first!, lines: second!.lines }, // chunks out of order
    ]) {
      forgetPhraseChunks();
      const loaded = await PhraseCounts.load(counts.stored(), async (id) => (id === first!.id ? broken : byId.get(id)));
      expect(loaded).toBeUndefined();
    }
    expect(await PhraseCounts.load('not a list', async () => undefined)).toBeUndefined();
    expect(await PhraseCounts.load([[]], async () => undefined)).toBeUndefined();
  });
});
