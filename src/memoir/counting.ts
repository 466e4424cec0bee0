/**
 * The memoir's character counts in the store (src/memoir/character.ts counts; this reads and recounts them), and the
 * writing transaction that keeps them, whose names are read off the main thread (./names.ts).
 */
import type { Store, Tx } from '../store/port.js';
import { CharacterTally, texts as countedTexts, type CharacterCountsRecord } from './character.js';
import { holdNames, namesKept } from './names.js';
import { type MergeOptions, type PhraseChunkRecord, PhraseCounts, type StoredSegment } from './phrase-counts.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_CHARACTER,
  MEMOIR_JOURNAL,
  MEMOIR_PHRASES,
  type AnswerRecord,
  type JournalEntry,
} from './records.js';

export const characterCountsId = (ownerId: string) => `mchr_${ownerId}`;

/**
 * The stored character counts, when they are of this version and well formed (else undefined: rebuild), with every
 * phrase's count read from its segments (those this process keeps are not read again). `phrases: false`: the counts
 * only, for reading (insights, prompts), not for making the model or being stored again.
 */
export async function storedTally(
  tx: Pick<Tx, 'get'>,
  ownerId: string,
  { phrases = true, keep }: { phrases?: boolean; keep?: number } = {},
): Promise<CharacterTally | undefined> {
  const record = await tx.get<CharacterCountsRecord>(MEMOIR_CHARACTER, characterCountsId(ownerId));
  if (!CharacterTally.current(record)) return undefined;
  if (!phrases) return CharacterTally.fromRecord(record, undefined, keep);
  const counts = await PhraseCounts.load(record.phraseSegments, (id) => tx.get<PhraseChunkRecord>(MEMOIR_PHRASES, id));
  return counts && CharacterTally.fromRecord(record, counts, keep);
}

/**
 * Stores the counts, the phrase chunks they add, and deletes the account's chunks they no longer list (merged into
 * newer ones, or left by counts made again from every text). Resolves whether a compaction is due (noted for
 * countingTransaction too). `merge`: sizes (smaller in tests).
 */
export async function storeTally(
  tx: Tx,
  ownerId: string,
  tally: CharacterTally,
  now: string,
  merge?: MergeOptions,
): Promise<boolean> {
  const present = await tx.idsBy(MEMOIR_PHRASES, 'ownerId', ownerId);
  const { counts, chunks, compact } = tally.toRecords(characterCountsId(ownerId), ownerId, now, merge);
  // Noted for after the transaction (countingTransaction): harmless should this attempt not commit.
  if (compact) compactionDue.add(ownerId);
  const listed = new Set(counts.phraseSegments.flat());
  await Promise.all([
    tx.put(MEMOIR_CHARACTER, counts),
    ...chunks.map((c) => tx.put(MEMOIR_PHRASES, c)),
    ...present.filter((id) => !listed.has(id)).map((id) => tx.delete(MEMOIR_PHRASES, id)),
  ]);
  return compact;
}

/** Accounts whose phrase segments are due a compaction (storeTally notes them; countingTransaction makes it). */
const compactionDue = new Set<string>();

/**
 * Merges the account's newest phrase segments as their sizes say (PhraseCounts.compaction), in turns of the event loop
 * outside any transaction, then swaps the merged segment in for them in one, if they are still listed together (a
 * write meanwhile may have added a segment after them; counts made again from every text list others, and the merge is
 * dropped). Resolves whether it was swapped in.
 */
export async function compactPhrases(store: Store, ownerId: string, merge?: MergeOptions): Promise<boolean> {
  const id = characterCountsId(ownerId);
  const record = await store.get<CharacterCountsRecord>(MEMOIR_CHARACTER, id);
  if (!CharacterTally.current(record)) return false;
  const phrases = await PhraseCounts.load(record.phraseSegments, (c) =>
    store.get<PhraseChunkRecord>(MEMOIR_PHRASES, c),
  );
  const made = await phrases?.compaction(ownerId, merge);
  if (!made) return false;
  const first = made.replaces[0]![0];
  return store.transact(async (tx) => {
    const current = await tx.get<CharacterCountsRecord>(MEMOIR_CHARACTER, id);
    if (!CharacterTally.current(current) || !Array.isArray(current.phraseSegments)) return false;
    const listed = current.phraseSegments;
    const at = listed.findIndex((s) => Array.isArray(s) && s[0] === first);
    const same = (a: unknown, b: StoredSegment) =>
      Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
    if (at === -1 || !made.replaces.every((s, i) => same(listed[at + i], s))) return false;
    const phraseSegments = [
      ...listed.slice(0, at),
      ...(made.segment.length > 0 ? [made.segment] : []),
      ...listed.slice(at + made.replaces.length),
    ];
    await Promise.all([
      tx.put(MEMOIR_CHARACTER, { ...current, phraseSegments }),
      ...made.chunks.map((c) => tx.put(MEMOIR_PHRASES, c)),
      ...made.replaces.flat().map((c) => tx.delete(MEMOIR_PHRASES, c)),
    ]);
    return true;
  });
}

/** Every entry and answer of the account. */
async function everything(tx: Pick<Tx, 'findBy'>, ownerId: string) {
  return Promise.all([
    tx.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
    tx.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
  ]);
}

/** The counts of everything written so far, read in full (after a deletion, or counts of an older version). */
export async function fullTally(tx: Tx, ownerId: string): Promise<CharacterTally> {
  const [entries, answers] = await everything(tx, ownerId);
  return CharacterTally.of(entries, answers);
}

/** Thrown inside a counting transaction that needs every text counted again, before their names are prepared. */
class RecountNeeded extends Error {}

/**
 * A writing transaction that keeps the character counts, with the names of `texts` (those it counts) read off this
 * thread first and held until it is done (src/memoir/names.ts). `recount` counts every text again (the stored counts
 * are missing, of an older version or out of step: an account's first write, or every account's next one after an
 * upgrade). When it is needed and some of the names it would read are not kept, the transaction is abandoned (it
 * wrote nothing), the names of every counted text are read off this thread too, and it runs again: a recount of a long
 * memoir would otherwise read them all in the main thread, seconds of it for every other request.
 */
export async function countingTransaction<T>(
  store: Store,
  ownerId: string,
  texts: string[],
  fn: (tx: Tx, recount: () => Promise<CharacterTally>) => Promise<T>,
): Promise<T> {
  const releases = [await holdNames(texts)];
  let everyText = false;
  try {
    for (;;) {
      try {
        const result = await store.transact((tx) =>
          fn(tx, async () => {
            const [entries, answers] = await everything(tx, ownerId);
            // Held since the rerun, or every name kept already (an account's first write, a memoir read lately):
            // counted in the same synchronous step as the check, so nothing can put them out in between.
            if (everyText || namesKept(countedTexts(entries, answers))) return CharacterTally.of(entries, answers);
            throw new RecountNeeded();
          }),
        );
        if (compactionDue.delete(ownerId))
          // Derived data: should the compaction fail, the counts stay right and the next write notes it due again.
          await compactPhrases(store, ownerId).catch(() => false);
        return result;
      } catch (err) {
        if (!(err instanceof RecountNeeded) || everyText) throw err;
        everyText = true;
        const [entries, answers] = await everything(store, ownerId);
        releases.push(await holdNames(countedTexts(entries, answers)));
      }
    }
  } finally {
    for (const release of releases) release();
  }
}
