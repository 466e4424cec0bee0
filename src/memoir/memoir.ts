/**
 * The memoir's records, read and written through the caller's account view of
 * the store (handlers get nothing else). Every write is one transaction whose
 * function only touches `tx`, so an adapter may retry it.
 */
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { hasUnsafeNameChars } from '../core/names.js';
import { paginateOffset } from '../core/pagination.js';
import type { Store, Tx } from '../store/port.js';
import { type CharacterTally, emptyCharacter, sharedEntries, type CharacterModel } from './character.js';
import { countingTransaction, fullTally, storedTally, storeTally } from './counting.js';
import { newestPage } from './pages.js';
import { CATEGORIES, categoryOf } from './questions.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_CHAT,
  MEMOIR_JOURNAL,
  MEMOIR_LIMITS,
  MEMOIR_MEDIA,
  MEMOIR_PROFILES,
  memoirId,
  type AnswerRecord,
  type JournalEntry,
} from './records.js';
import { spouseKeyOf, spouseReadingFor, type StoredSpouseReading } from './spouse.js';
import { themesOf } from './text.js';

export interface ProfileRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  agentName: string | null;
  /** The person whose memoir it is, as their book is titled (absent until set). */
  personName?: string | null;
  setupAt: string | null;
  character: CharacterModel;
  updatedAt: string;
}

export const profileId = (ownerId: string) => `mprof_${ownerId}`;
const answersId = (ownerId: string, category: string) => `mqa_${ownerId}_${category}`;

/** The name an agent goes by before its owner names it. */
export const DEFAULT_AGENT_NAME = 'Memoir agent';

async function profileIn(tx: Pick<Tx, 'get'>, ownerId: string): Promise<ProfileRecord | undefined> {
  return tx.get<ProfileRecord>(MEMOIR_PROFILES, profileId(ownerId));
}

export async function readProfile(store: Store, ownerId: string): Promise<ProfileRecord | undefined> {
  return store.get<ProfileRecord>(MEMOIR_PROFILES, profileId(ownerId));
}

export async function getSetup(store: Store, ownerId: string) {
  const p = await readProfile(store, ownerId);
  return {
    configured: !!p?.agentName,
    agentName: p?.agentName ?? null,
    personName: p?.personName ?? null,
    setupAt: p?.setupAt ?? null,
  };
}

export function cleanName(raw: string, field = 'agentName'): string {
  const name = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!name || hasUnsafeNameChars(name)) {
    throw ApiError.validation(field === 'agentName' ? 'Invalid agent name' : 'Invalid name', [
      { field, reason: 'must be visible text without control characters' },
    ]);
  }
  return name;
}

/**
 * Names the agent, and, when given, the person whose memoir it is (their book's title; null clears it, absent keeps
 * it).
 */
export async function setSetup(
  store: Store,
  ownerId: string,
  agentName: string,
  clock: Clock,
  personName?: string | null,
) {
  const name = cleanName(agentName);
  const person = personName ? cleanName(personName, 'personName') : personName;
  const now = clock.now().toISOString();
  return store.transact(async (tx) => {
    const existing = await profileIn(tx, ownerId);
    const named = person === undefined ? {} : { personName: person };
    const profile: ProfileRecord = existing
      ? { ...existing, agentName: name, ...named, setupAt: existing.setupAt ?? now, updatedAt: now }
      : {
          id: profileId(ownerId),
          ownerId,
          agentName: name,
          ...named,
          setupAt: now,
          character: emptyCharacter(),
          updatedAt: now,
        };
    await tx.put(MEMOIR_PROFILES, profile);
    return { configured: true, agentName: name, personName: profile.personName ?? null, setupAt: profile.setupAt };
  });
}

/** Stores the counts and the profile's character model computed from them (inside the writing transaction). */
async function saveCharacter(tx: Tx, ownerId: string, tally: CharacterTally, now: string): Promise<CharacterModel> {
  const existing = await profileIn(tx, ownerId);
  const character = tally.model(existing?.character, now);
  const profile: ProfileRecord = existing
    ? { ...existing, character, updatedAt: now }
    : { id: profileId(ownerId), ownerId, agentName: null, setupAt: null, character, updatedAt: now };
  await Promise.all([storeTally(tx, ownerId, tally, now), tx.put(MEMOIR_PROFILES, profile)]);
  return character;
}

/**
 * Rebuilds the character counts and model from every entry and answer: for whatever removes one (the incremental
 * update only adds), and for tests. Writes nothing else.
 */
export async function rebuildCharacter(store: Store, ownerId: string, clock: Clock): Promise<CharacterModel> {
  const now = clock.now().toISOString();
  return store.transact(async (tx) => saveCharacter(tx, ownerId, await fullTally(tx, ownerId), now));
}

export interface JournalInput {
  content: string;
  mood?: string | undefined;
  promptUsed?: string | undefined;
  title?: string | undefined;
  happenedAt?: string | undefined;
  private?: boolean | undefined;
}

/** What an edit may change; null clears a field. */
export interface JournalPatch {
  content?: string | undefined;
  mood?: string | null | undefined;
  title?: string | null | undefined;
  happenedAt?: string | null | undefined;
  private?: boolean | undefined;
}

/** Who reads the journal: its owner sees every entry, an heir never a private one. */
export type Audience = 'owner' | 'heir';

/** `YYYY-MM-DD` (a real day), `YYYY`, or a decade `YYY0s`. */
const HAPPENED_AT = /^(?:(\d{4})-(\d{2})-(\d{2})|\d{4}|\d{3}0s)$/;

/** When a memory happened, checked: a real calendar day, a year, or a decade; else a 400 naming the field. */
export function checkHappenedAt(raw: string): string {
  const value = raw.trim();
  const m = HAPPENED_AT.exec(value);
  const dayIsReal =
    !m?.[1] ||
    (() => {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return (
        d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
      );
    })();
  if (!m || !dayIsReal)
    throw ApiError.validation('Invalid date of the memory', [
      {
        field: 'happenedAt',
        reason: 'must be a day (YYYY-MM-DD), a year (YYYY) or a decade (e.g. 1960s)',
      },
    ]);
  return value;
}

function checkContent(raw: string): string {
  const content = raw.trim();
  if (!content)
    throw ApiError.validation('Invalid journal entry', [
      { field: 'content', reason: 'must not be empty or only spaces' },
    ]);
  return content;
}

const cleanTitle = (raw: string | null | undefined) => raw?.replace(/\s+/g, ' ').trim() || null;

export function publicEntry(e: JournalEntry) {
  return {
    id: e.id,
    title: e.title ?? null,
    content: e.content,
    mood: e.mood,
    promptUsed: e.promptUsed,
    happenedAt: e.happenedAt ?? null,
    private: e.private === true,
    themes: themesOf(e.content),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt ?? null,
  };
}

export async function addJournalEntry(
  store: Store,
  ownerId: string,
  authorKey: string,
  input: JournalInput,
  clock: Clock,
) {
  const content = checkContent(input.content);
  const happenedAt = input.happenedAt === undefined ? null : checkHappenedAt(input.happenedAt);
  const now = clock.now();
  const entry: JournalEntry = {
    id: memoirId('jrn', now.getTime()),
    ownerId,
    authorKey,
    content,
    mood: input.mood?.trim().toLowerCase() || null,
    promptUsed: input.promptUsed?.trim() || null,
    title: cleanTitle(input.title),
    happenedAt,
    private: input.private === true,
    // What a chat reads of it about the owner's spouse, read off this thread now rather than at each chat's first
    // question after a start (for a long memoir, most of what that question took).
    spouseReading: await spouseReadingFor(content),
    createdAt: now.toISOString(),
  };
  // Its names are read off this thread before the transaction (src/memoir/names.ts); the counts inside it find them.
  const character = await countingTransaction(store, ownerId, [content], async (tx, recount) => {
    const [ids, stored] = await Promise.all([tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId), storedTally(tx, ownerId)]);
    const count = ids.length;
    if (count >= MEMOIR_LIMITS.journalEntriesPerAccount) {
      throw ApiError.validation('Journal is full', [
        { field: 'content', reason: `an account holds at most ${MEMOIR_LIMITS.journalEntriesPerAccount} entries` },
      ]);
    }
    await tx.put(MEMOIR_JOURNAL, entry);
    // The stored counts, when they count exactly the entries there were, take the new entry alone; otherwise (none
    // yet, an older version, out of step) everything is counted again.
    let tally = stored?.inStepWith(count) ? stored : undefined;
    if (tally) tally.addStoredEntry(entry);
    else tally = await recount();
    return saveCharacter(tx, ownerId, tally, entry.createdAt);
  });
  return { entry, character };
}

const entryNotFound = () => new ApiError('NOT_FOUND', 'Journal entry not found');

/**
 * Before an edit or a deletion: the entry's text (its counts are taken back) and its new text, whose names the
 * transaction reads off this thread (src/memoir/names.ts). Another account's entry is not read; the transaction says
 * 404.
 */
async function entryTexts(store: Store, ownerId: string, id: string, content?: string): Promise<string[]> {
  const current = await store.get<JournalEntry>(MEMOIR_JOURNAL, id);
  const texts = current?.ownerId === ownerId ? [current.content] : [];
  if (typeof content === 'string') texts.push(content.trim());
  return texts;
}

/**
 * Edits an entry: its text, title, mood, when it happened, whether it is private. The character model follows in the
 * same transaction: the old text's counts are taken back and the new one's added (everything is counted again when
 * the stored counts are out of step). Unknown id, or another account's: 404.
 */
export async function updateJournalEntry(store: Store, ownerId: string, id: string, patch: JournalPatch, clock: Clock) {
  const now = clock.now().toISOString();
  const texts = await entryTexts(store, ownerId, id, patch.content);
  const newText = patch.content?.trim();
  const spouseReading = newText ? await spouseReadingFor(newText) : undefined;
  return countingTransaction(store, ownerId, texts, async (tx, recount) => {
    const [before, ids, stored] = await Promise.all([
      tx.get<JournalEntry>(MEMOIR_JOURNAL, id),
      tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId),
      storedTally(tx, ownerId),
    ]);
    // Whose entry it is comes first: another account's id is a 404 whatever the change asked.
    if (!before || before.ownerId !== ownerId) throw entryNotFound();
    const fields = (['content', 'mood', 'title', 'happenedAt', 'private'] as const).filter(
      (f) => patch[f] !== undefined,
    );
    if (fields.length === 0)
      throw ApiError.validation('Nothing to change', [
        { field: 'content', reason: 'give at least one of content, title, mood, happenedAt, private' },
      ]);
    const content = patch.content === undefined ? undefined : checkContent(patch.content);
    const happenedAt =
      patch.happenedAt === undefined ? undefined : patch.happenedAt === null ? null : checkHappenedAt(patch.happenedAt);
    const after: JournalEntry = {
      ...before,
      ...(content !== undefined ? { content, spouseReading } : {}),
      ...(patch.mood !== undefined ? { mood: patch.mood?.trim().toLowerCase() || null } : {}),
      ...(patch.title !== undefined ? { title: cleanTitle(patch.title) } : {}),
      ...(happenedAt !== undefined ? { happenedAt } : {}),
      ...(patch.private !== undefined ? { private: patch.private } : {}),
      updatedAt: now,
    };
    await tx.put(MEMOIR_JOURNAL, after);
    let tally = stored?.inStepWith(ids.length) && stored.removeStoredEntry(before) ? stored : undefined;
    if (tally) tally.addStoredEntry(after);
    else tally = await recount();
    const character = await saveCharacter(tx, ownerId, tally, now);
    return { entry: after, character };
  });
}

/** Deletes an entry; the character model no longer counts it (same transaction). Unknown id, or another account's: 404. */
export async function deleteJournalEntry(store: Store, ownerId: string, id: string, clock: Clock) {
  const now = clock.now().toISOString();
  return countingTransaction(store, ownerId, await entryTexts(store, ownerId, id), async (tx, recount) => {
    const [before, ids, stored] = await Promise.all([
      tx.get<JournalEntry>(MEMOIR_JOURNAL, id),
      tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId),
      storedTally(tx, ownerId),
    ]);
    if (!before || before.ownerId !== ownerId) throw entryNotFound();
    await tx.delete(MEMOIR_JOURNAL, id);
    const tally = stored?.inStepWith(ids.length) && stored.removeStoredEntry(before) ? stored : await recount();
    const character = await saveCharacter(tx, ownerId, tally, now);
    return { id, deleted: true as const, character };
  });
}

/**
 * Stores with the owner's journal entries the spouse readings a chat made of their current texts (entries written
 * before entries stored them, or with a reading of an older version), in transactions of a few hundred; an entry
 * edited or deleted meanwhile is left as it is. Answers how many were stored.
 */
export async function storeSpouseReadings(
  store: Store,
  ownerId: string,
  found: ReadonlyArray<{ id: string } & StoredSpouseReading>,
): Promise<number> {
  let stored = 0;
  for (let i = 0; i < found.length; i += STORE_READINGS_BATCH) {
    const batch = found.slice(i, i + STORE_READINGS_BATCH);
    stored += await store.transact(async (tx) => {
      let n = 0;
      for (const { id, of, reading } of batch) {
        const entry = await tx.get<JournalEntry>(MEMOIR_JOURNAL, id);
        if (entry?.ownerId !== ownerId || spouseKeyOf(entry.content) !== of) continue;
        await tx.put(MEMOIR_JOURNAL, { ...entry, spouseReading: { of, reading } });
        n++;
      }
      return n;
    });
  }
  return stored;
}

const STORE_READINGS_BATCH = 200;

/** The entries `audience` may read: all for the owner, none marked private for an heir. */
export async function journalFor(store: Store, ownerId: string, audience: Audience): Promise<JournalEntry[]> {
  const entries = await store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId);
  return audience === 'owner' ? entries : sharedEntries(entries);
}

export async function listJournal(
  store: Store,
  ownerId: string,
  page: number,
  limit: number,
  audience: Audience = 'owner',
) {
  if (audience === 'owner') {
    // Every entry is the owner's to list: the page is chosen among the ids, and only its entries are read.
    const { items, pagination } = await newestPage<JournalEntry>(store, MEMOIR_JOURNAL, ownerId, page, limit);
    return { items: items.map(publicEntry), pagination };
  }
  // Heirs: private entries are neither listed nor counted, which takes reading them (heirs list a memoir rarely).
  const entries = await journalFor(store, ownerId, audience);
  // Newest first; ids are ULIDs, so they order like their creation.
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? 1 : -1));
  const { items, pagination } = paginateOffset(sorted, page, limit);
  return { items: items.map(publicEntry), pagination };
}

function completionOf(category: string, record: AnswerRecord | undefined) {
  const c = categoryOf(category);
  const answered = c.questions.filter((q) => record?.answers[q.id]).length;
  return {
    category: c.id,
    title: c.title,
    answered,
    total: c.questions.length,
    completion: Math.round((answered / c.questions.length) * 100) / 100,
  };
}

export async function getQuestionnaire(store: Store, ownerId: string, category: string) {
  const c = categoryOf(category);
  const record = await store.get<AnswerRecord>(MEMOIR_ANSWERS, answersId(ownerId, c.id));
  return {
    ...completionOf(c.id, record),
    questions: c.questions.map((q) => ({
      id: q.id,
      text: q.text,
      answer: record?.answers[q.id]?.answer ?? null,
      answeredAt: record?.answers[q.id]?.answeredAt ?? null,
    })),
  };
}

export async function answerQuestionnaire(
  store: Store,
  ownerId: string,
  category: string,
  answers: Array<{ questionId: string; answer: string }>,
  clock: Clock,
) {
  const c = categoryOf(category);
  const known = new Set(c.questions.map((q) => q.id));
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  answers.forEach((a, i) => {
    if (!known.has(a.questionId))
      details.push({ field: `answers.${i}.questionId`, reason: `unknown question id for category ${c.id}` });
    else if (seen.has(a.questionId))
      details.push({ field: `answers.${i}.questionId`, reason: 'answered twice in one request' });
    else if (!a.answer.trim())
      details.push({ field: `answers.${i}.answer`, reason: 'must not be empty or only spaces' });
    seen.add(a.questionId);
  });
  if (details.length) throw ApiError.validation(`Invalid answers for the ${c.id} questionnaire`, details);
  const now = clock.now().toISOString();
  // The answers' names, and those of the answers they replace, read off this thread (src/memoir/names.ts).
  const earlier = await store.get<AnswerRecord>(MEMOIR_ANSWERS, answersId(ownerId, c.id));
  const texts = [
    ...answers.map((a) => a.answer.trim()),
    ...answers.flatMap((a) => earlier?.answers[a.questionId]?.answer ?? []),
  ];
  await countingTransaction(store, ownerId, texts, async (tx, recount) => {
    const [existing, ids, stored] = await Promise.all([
      tx.get<AnswerRecord>(MEMOIR_ANSWERS, answersId(ownerId, c.id)),
      tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId),
      storedTally(tx, ownerId),
    ]);
    const record: AnswerRecord = existing
      ? { ...existing, answers: { ...existing.answers }, updatedAt: now }
      : { id: answersId(ownerId, c.id), ownerId, category: c.id, answers: {}, updatedAt: now };
    // The stored counts are used when they count exactly the entries there are and this category's answers; an
    // answer given again takes the earlier one's counts back first. Anything out of step: everything is counted again.
    let tally =
      stored && stored.journalEntries === ids.length && stored.answeredIn(c.id) === Object.keys(record.answers).length
        ? stored
        : undefined;
    for (const a of answers) {
      const text = a.answer.trim();
      const before = record.answers[a.questionId];
      if (tally && before && !tally.removeAnswer(c.id, before.answer)) tally = undefined;
      tally?.addAnswer(c.id, text);
      record.answers[a.questionId] = { answer: text, answeredAt: now };
    }
    await tx.put(MEMOIR_ANSWERS, record);
    await saveCharacter(tx, ownerId, tally ?? (await recount()), now);
  });
  return getQuestionnaire(store, ownerId, c.id);
}

export async function agentStatus(store: Store, ownerId: string) {
  // Journal entries, media and chat messages are only counted: their ids, not the records (up to 10,000 entries).
  const [entries, answers, media, chat] = await store.transact(
    (tx) =>
      Promise.all([
        tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId),
        tx.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
        tx.idsBy(MEMOIR_MEDIA, 'ownerId', ownerId),
        tx.idsBy(MEMOIR_CHAT, 'ownerId', ownerId),
      ]),
    { readOnly: true },
  );
  const byCategory = new Map(answers.map((a) => [a.category, a]));
  const questionnaire = CATEGORIES.map((c) => completionOf(c.id, byCategory.get(c.id)));
  const answered = questionnaire.reduce((n, q) => n + q.answered, 0);
  const total = questionnaire.reduce((n, q) => n + q.total, 0);
  return {
    journalCount: entries.length,
    questionnaire,
    answeredQuestions: answered,
    totalQuestions: total,
    overallCompletion: Math.round((answered / total) * 100) / 100,
    mediaCount: media.length,
    chatMessages: chat.length,
  };
}
