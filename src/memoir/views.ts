/**
 * What the memoir shows of itself, read through the caller's account view of the store: today's prompt (the one
 * write here: the prompt chosen for the day is kept), the insights over the journal and the answers, and the
 * character file heirs meet.
 */
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/port.js';
import { texts as countedTexts, emptyCharacter, isPrivate, sharedEntries } from './character.js';
import { storedTally } from './counting.js';
import { elizaCharacter } from './character-eliza.js';
import { DEFAULT_AGENT_NAME, journalFor, readProfile, type Audience } from './memoir.js';
import { holdNames } from './names.js';
import { allQuestions, categoryOf } from './questions.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_JOURNAL,
  MEMOIR_PROMPTS,
  type AnswerRecord,
  type JournalEntry,
  type PromptRecord,
} from './records.js';
import { moodScore, RANK_LIMITS, ranked, stableHash, themesIn, topPeople, topPlaces } from './text.js';

/** Days within which a user is not shown the same prompt again. */
export const PROMPT_REPEAT_DAYS = 28;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/**
 * Today's prompt for this user: chosen once per user and UTC day and kept, so
 * asking again gives the same one. It favours the category least covered by
 * answers and journal themes, skips questions already answered, and never
 * repeats a prompt shown within PROMPT_REPEAT_DAYS. Deterministic given the
 * date and the data (ties are broken by a hash of the user and the date).
 */
export async function dailyPrompt(store: Store, ownerId: string, userKey: string, clock: Clock) {
  const date = dayOf(clock.now());
  const id = `mprm_${ownerId}_${stableHash(userKey).toString(36)}_${date}`;
  const record = await store.transact(async (tx) => {
    const kept = await tx.get<PromptRecord>(MEMOIR_PROMPTS, id);
    if (kept) return kept;
    const [answers, entryIds, tally, shown] = await Promise.all([
      tx.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
      tx.idsBy(MEMOIR_JOURNAL, 'ownerId', ownerId),
      storedTally(tx, ownerId, { phrases: false }),
      tx.findBy<PromptRecord>(MEMOIR_PROMPTS, 'ownerId', ownerId),
    ]);
    // How much the memoir already says of each theme, as the character model counts it (entries not private, and
    // the answers): from the stored counts when they are in step, else from the texts (counting up to 10,000 long
    // entries at every user's first prompt of the day held the event loop for seconds).
    const themes = tally?.inStepWith(entryIds.length)
      ? ranked(tally.themes, RANK_LIMITS.themes)
      : themesIn(countedTexts(await tx.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId), answers));
    const recent = new Set(
      shown
        .filter(
          (p) =>
            p.userKey === userKey && daysBetween(p.date, date) < PROMPT_REPEAT_DAYS && daysBetween(p.date, date) >= 0,
        )
        .map((p) => p.promptId),
    );
    const answered = new Set(answers.flatMap((a) => Object.keys(a.answers)));
    const memoirThemes = new Map(themes.map((t) => [t.name, t.count]));
    const questions = allQuestions();
    let pool = questions.filter((q) => !answered.has(q.id) && !recent.has(q.id));
    if (pool.length === 0) pool = questions.filter((q) => !recent.has(q.id));
    if (pool.length === 0) pool = questions;
    const coverage = (category: string) => {
      const c = categoryOf(category);
      return (
        c.questions.filter((q) => answered.has(q.id)).length / c.questions.length +
        Math.min(1, (memoirThemes.get(category) ?? 0) / 10)
      );
    };
    const seed = `${userKey}|${date}`;
    pool.sort(
      (a, b) =>
        coverage(a.category) - coverage(b.category) ||
        stableHash(`${seed}|${a.category}`) - stableHash(`${seed}|${b.category}`) ||
        stableHash(`${seed}|${a.id}`) - stableHash(`${seed}|${b.id}`),
    );
    const q = pool[0]!;
    const rec: PromptRecord = { id, ownerId, userKey, date, promptId: q.id, category: q.category, text: q.text };
    await tx.put(MEMOIR_PROMPTS, rec);
    return rec;
  });
  return { date: record.date, promptId: record.promptId, category: record.category, text: record.text };
}

/**
 * Counts of each non-null value, as a plain object. Built from a Map with
 * Object.fromEntries, so a mood such as "__proto__" or "constructor" is an
 * ordinary key, never the object's prototype.
 */
function countBy(values: ReadonlyArray<string | null>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Object.fromEntries(counts);
}

export async function insights(store: Store, ownerId: string, audience: Audience = 'owner') {
  const [all, answers, tally] = await store.transact(
    (tx) =>
      Promise.all([
        tx.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
        tx.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
        // Not for an heir: a grant covers what heirs may read, and the counts are not a record of theirs to read.
        audience === 'owner' ? storedTally(tx, ownerId, { phrases: false }) : undefined,
      ]),
    { readOnly: true },
  );
  const entries = audience === 'owner' ? all : sharedEntries(all);
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));
  const allTexts = [
    ...sorted.map((e) => e.content),
    ...answers.flatMap((a) => Object.values(a.answers).map((x) => x.answer)),
  ];
  // The stored character counts, kept at each write, already count the entries that are not private and the answers:
  // when they are in step, only the owner's private entries are read here (a memoir longer than the names cache had
  // every text read again, in the reading thread, at each call). Otherwise, and for an heir, every text is.
  const counted = tally?.inStepWith(all.length) ? tally : undefined;
  const toRead = counted ? sorted.filter(isPrivate).map((e) => e.content) : allTexts;
  // Their people and places, read off this thread first and held only until counted (src/memoir/names.ts).
  const release = await holdNames(toRead);
  let people: ReturnType<typeof topPeople>;
  let places: ReturnType<typeof topPlaces>;
  try {
    people = topPeople(toRead, undefined, counted);
    places = topPlaces(toRead, undefined, counted);
  } finally {
    release();
  }
  const themes = themesIn(toRead, undefined, counted);
  const byDay = new Map<string, JournalEntry[]>();
  for (const e of sorted) {
    const d = e.createdAt.slice(0, 10);
    const list = byDay.get(d);
    if (list) list.push(e);
    else byDay.set(d, [e]);
  }
  const moodOverTime = [...byDay.entries()].map(([date, list]) => {
    const scores = list.map((e) => moodScore(e.mood)).filter((s): s is number => s !== null);
    return {
      date,
      entries: list.length,
      moods: countBy(list.map((e) => e.mood)),
      averageScore: scores.length ? Math.round((scores.reduce((x, y) => x + y, 0) / scores.length) * 100) / 100 : null,
    };
  });
  const moodCounts = countBy(sorted.map((e) => e.mood));
  return {
    themes,
    moodOverTime,
    moodCounts,
    people,
    places,
    totals: {
      journalEntries: entries.length,
      answers: answers.reduce((n, a) => n + Object.keys(a.answers).length, 0),
      words: allTexts.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0),
      writingDays: byDay.size,
    },
  };
}

export async function characterOf(store: Store, ownerId: string, format: 'json' | 'eliza') {
  const [profile, entries, answers] = await Promise.all([
    readProfile(store, ownerId),
    // The character file is the agent heirs meet: built from what is not private, like the model itself.
    journalFor(store, ownerId, 'heir'),
    store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
  ]);
  const name = profile?.agentName ?? DEFAULT_AGENT_NAME;
  const character = profile?.character ?? emptyCharacter();
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    format,
    agentName: name,
    character,
    eliza: format === 'eliza' ? elizaCharacter(name, character, sorted, answers) : null,
  };
}
