import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCharacter,
  CharacterTally,
  type CharacterCountsRecord,
  type CharacterModel,
} from '../../src/memoir/character.js';
import { forgetPhraseChunks, type PhraseChunkRecord, PhraseCounts } from '../../src/memoir/phrase-counts.js';
import type { JournalEntry } from '../../src/memoir/records.js';
import { phrasesOf } from '../../src/memoir/text.js';

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

/** A store of chunk records in a Map, as saveCharacter keeps it: the chunks listed, and no others. */
class Chunks {
  readonly records = new Map<string, PhraseChunkRecord>();
  reads = 0;

  save(tally: CharacterTally, chunkChars?: number): CharacterCountsRecord {
    const { counts, chunks } = tally.toRecords('mchr_x', OWNER, 'now', chunkChars);
    for (const c of chunks) this.records.set(c.id, c);
    const listed = new Set(counts.phraseSegments.flat());
    for (const id of [...this.records.keys()]) if (!listed.has(id)) this.records.delete(id);
    return structuredClone(counts);
  }

  async load(counts: CharacterCountsRecord, keep: number): Promise<CharacterTally> {
    const phrases = await PhraseCounts.load(counts.phraseSegments, async (id) => {
      this.reads++;
      return structuredClone(this.records.get(id));
    });
    const tally = CharacterTally.fromRecord(counts, phrases, keep);
    expect(tally).toBeDefined();
    return tally!;
  }
}

const model = (tally: CharacterTally): CharacterModel => tally.model(undefined, null);

/** An added text, or which of the texts held to remove. */
type Op = string | number;

/**
 * Applies the writes one by one, storing the tally and reading it back after each, and checks it against a recount.
 * Returns how often the bound of the kept phrases went up and down.
 */
async function run(ops: Op[], keep: number, cold: boolean): Promise<{ raised: number; lowered: number }> {
  const chunks = new Chunks();
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
    const counts = chunks.save(tally, 60);
    if (counts.phrasesAtLeast > bound) raised++;
    if (counts.phrasesAtLeast < bound) lowered++;
    bound = counts.phrasesAtLeast;
    // The record keeps exactly the phrases held by the bound or more, with their counts.
    const scratch = CharacterTally.of(entries, [], keep).phraseCounts();
    expect(Object.fromEntries(counts.recurring.names.map((n, i) => [n, counts.recurring.counts[i]]))).toEqual(
      Object.fromEntries([...scratch].filter(([, n]) => n >= counts.phrasesAtLeast)),
    );
    if (cold) forgetPhraseChunks();
    tally = await chunks.load(counts, keep);
    expect(tally.phraseCounts()).toEqual(scratch);
    expect(model(tally)).toEqual(buildCharacter(entries, [], undefined, null));
  }
  return { raised, lowered };
}

describe('phrase counts in segments', () => {
  it('random additions and removals, stored and read back each time: the model equals a rebuild, every count a recount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: textArb }, { weight: 1, arbitrary: fc.nat() }), {
          minLength: 30,
          maxLength: 60,
        }),
        fc.integer({ min: 100, max: 160 }),
        fc.boolean(),
        async (ops, keep, cold) => {
          await run(ops, keep, cold);
        },
      ),
      { numRuns: 40 },
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
    const { raised, lowered } = await run(ops, 100, false);
    expect(raised).toBeGreaterThan(0);
    expect(lowered).toBeGreaterThan(0);
  });

  it('a long memoir: the counts record stays bounded, the segments few, and each write stores about its own phrases', async () => {
    const chunks = new Chunks();
    const keep = 40;
    let tally = CharacterTally.of([], [], keep);
    const texts: string[] = [];
    let written = 0;
    let maxSegments = 0;
    for (let i = 0; i < 400; i++) {
      // Words that recur (a small vocabulary) and words of this text alone.
      const text = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} word${i} and more${i} of day${i}. We remember ${WORDS[(i * 5) % WORDS.length]} home.`;
      tally.addEntry(text);
      texts.push(text);
      const before = new Set(chunks.records.keys());
      const counts = chunks.save(tally);
      written += [...chunks.records.keys()]
        .filter((id) => !before.has(id))
        .reduce((n, id) => n + chunks.records.get(id)!.lines.length, 0);
      maxSegments = Math.max(maxSegments, counts.phraseSegments.length);
      expect(counts.recurring.names.length).toBeLessThanOrEqual(keep);
      tally = await chunks.load(counts, keep);
    }
    const all = tally.phraseCounts();
    expect(all).toEqual(CharacterTally.of(texts.map(entry), [], keep).phraseCounts());
    const total = [...all].reduce((n, [p, c]) => n + p.length + String(c).length + 2, 0);
    // Stored lines over the whole run: a small multiple of what is held at the end (each phrase rewritten by a few
    // merges), where one record rewritten at every write would have stored some 200 times that.
    expect(written / total).toBeLessThan(12);
    expect(maxSegments).toBeLessThanOrEqual(Math.ceil(Math.log2(all.size)) + 1);
    expect(model(tally)).toEqual(buildCharacter(texts.map(entry), [], undefined, null));
  });

  it('segments split into chunks of the given size read back whole; a chunk missing or malformed is not read as counts', async () => {
    const counts = new PhraseCounts();
    const phrases = [...phrasesOf('my mother baked bread every sunday in lisbon and we ate it by the sea')];
    for (const p of phrases) counts.change(p, 1);
    counts.change(phrases[0]!, 1);
    const records = counts.commit(OWNER, 40);
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
