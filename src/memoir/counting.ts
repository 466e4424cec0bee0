/**
 * The memoir's character counts in the store (src/memoir/character.ts counts; this reads and recounts them), and the
 * writing transaction that keeps them, whose names are read off the main thread (./names.ts).
 */
import type { Store, Tx } from '../store/port.js';
import { CharacterTally, texts as countedTexts, type CharacterCountsRecord } from './character.js';
import { holdNames, namesKept } from './names.js';
import { type PhraseChunkRecord, PhraseCounts } from './phrase-counts.js';
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
  { phrases = true }: { phrases?: boolean } = {},
): Promise<CharacterTally | undefined> {
  const record = await tx.get<CharacterCountsRecord>(MEMOIR_CHARACTER, characterCountsId(ownerId));
  if (!CharacterTally.current(record)) return undefined;
  if (!phrases) return CharacterTally.fromRecord(record, undefined);
  const counts = await PhraseCounts.load(record.phraseSegments, (id) => tx.get<PhraseChunkRecord>(MEMOIR_PHRASES, id));
  return counts && CharacterTally.fromRecord(record, counts);
}

/**
 * Stores the counts, the phrase chunks they add, and deletes the account's chunks they no longer list (merged into
 * newer ones, or left by counts made again from every text).
 */
export async function storeTally(tx: Tx, ownerId: string, tally: CharacterTally, now: string): Promise<void> {
  const present = await tx.idsBy(MEMOIR_PHRASES, 'ownerId', ownerId);
  const { counts, chunks } = tally.toRecords(characterCountsId(ownerId), ownerId, now);
  const listed = new Set(counts.phraseSegments.flat());
  await Promise.all([
    tx.put(MEMOIR_CHARACTER, counts),
    ...chunks.map((c) => tx.put(MEMOIR_PHRASES, c)),
    ...present.filter((id) => !listed.has(id)).map((id) => tx.delete(MEMOIR_PHRASES, id)),
  ]);
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
        return await store.transact((tx) =>
          fn(tx, async () => {
            const [entries, answers] = await everything(tx, ownerId);
            // Held since the rerun, or every name kept already (an account's first write, a memoir read lately):
            // counted in the same synchronous step as the check, so nothing can put them out in between.
            if (everyText || namesKept(countedTexts(entries, answers))) return CharacterTally.of(entries, answers);
            throw new RecountNeeded();
          }),
        );
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
