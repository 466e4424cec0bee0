/**
 * Retrieval for the memoir agent: finds the passages (windows of two sentences, not whole entries) that answer a
 * question, from journal entries, questionnaire answers, media transcripts and captions, and the profile.
 *
 * Score of a passage = BM25 over Porter stems of the question's own words
 *   + the same for WordNet synonyms and hypernyms of those words and the intent's topic words, at lower weights
 *   + a boost when the passage belongs to a questionnaire category the question's intent names.
 * A question is answered only when the best passage covers enough of the question's specific words (weighted by
 * how rare they are in the memoir) or its intent: below that the agent says it does not know, so a question nothing
 * answers does not get a loosely related passage as its answer.
 *
 * With a provider configured, searchMemoirWithEmbeddings adds the passages' embedding similarity to the question
 * (src/memoir/embeddings.ts) to that score.
 */
import type { Intent } from './intents.js';
import { cosine } from './embeddings.js';
import { isPersonNoun } from './lexicon.js';
import { parseQuestion, type Query, stemOf, WEIGHT } from './question.js';
import { holdInThread } from './reading-pool.js';
import { TextCache } from './text-cache.js';
import { isStopword } from './stop-words.js';
import { holdSpouse, type StoredSpouseReading, spouseSteps } from './spouse.js';
import { isUnspacedWord, joinSentences, sentences, words } from './words.js';
import { atOnce, inTurns, SLICE, type Steps, turn } from './turns.js';

export { parseQuestion, type Query, stemOf } from './question.js';

export type SourceKind = 'journal' | 'answer' | 'transcript' | 'caption' | 'profile';

/** A record the memoir holds, as text to search. */
export interface SourceDoc {
  /** The record's id, what an answer cites (jrn_..., qa:<questionId>, med_..., profile). */
  id: string;
  kind: SourceKind;
  text: string;
  /** Words that describe the record without being quoted: a questionnaire question, a date. */
  context?: string;
  /** The questionnaire category (answers) or "profile". */
  category?: string;
  questionId?: string;
  /** What the text says of the owner's spouse, as its record stored it (./spouse.ts): not read again when current. */
  spouse?: StoredSpouseReading | undefined;
}

export interface Passage {
  id: string;
  kind: SourceKind;
  text: string;
  score: number;
}

interface Unit {
  doc: SourceDoc;
  text: string;
  terms: ReadonlyMap<string, number>;
  context: ReadonlySet<string>;
  length: number;
}

const CATEGORY_BOOST = 1.2;
const QUESTION_BOOST = 1.5;
/** Share of the question's specific words (by rarity) one of the top passages must cover. */
const MIN_COVERAGE = 0.5;
/** A passage scoring below this share of the best one is not cited: it would mix unrelated sentences in. */
const RELATIVE_FLOOR = 0.4;
const K1 = 1.2;
const B = 0.75;

function termsOf(text: string): string[] {
  return words(text)
    .filter((w) => (w.length > 1 || isUnspacedWord(w)) && !isStopword(w))
    .map(stemOf);
}

/** A text's passages with their terms: what a search reads of it, whatever the question (never changed once made). */
export type Windows = ReadonlyArray<{ text: string; terms: ReadonlyMap<string, number>; length: number }>;

/**
 * Texts' passages and context terms, kept by text (./text-cache.ts): a chat searches every record of the memoir at
 * each question, and splitting and stemming them all again was most of a search (some 50 ms of the main thread for
 * 200 long entries, at every message). Contexts are short (a questionnaire's question, a date).
 */
export const keptPassages = new TextCache<Windows>(2_000_000);
const contexts = new TextCache<ReadonlySet<string>>(200_000);
let searchReadings = 0;

/** How many texts a search split and stemmed in this thread (not kept, not prepared): for tests of the cache. */
export function searchTextReadings(): number {
  return searchReadings;
}

/**
 * Before a search of `docs`: what it reads of their texts and not kept yet (passages and stems, and what `spouseOf`
 * reads of each), read in the memoir's reading thread (./reading-pool.ts) and held kept until the function it
 * resolves with is called (in a `finally`), so that the search itself, synchronous, holds this thread only for the
 * scoring.
 */
export async function holdSearch(docs: readonly SourceDoc[]): Promise<() => void> {
  const releaseSpouse = await holdSpouse(docs);
  try {
    const releasePassages = await holdInThread<Windows>(
      'windows',
      keptPassages,
      docs.map((d) => d.text),
    );
    return () => {
      releaseSpouse();
      releasePassages();
    };
  } catch (err) {
    releaseSpouse();
    throw err;
  }
}

/**
 * The texts of the passages made of a text's sentences: windows of two sentences, one sentence apart; a short record
 * (up to two sentences) is one passage.
 */
function windowTexts(all: readonly string[]): string[] {
  if (all.length <= 2) return [joinSentences(all)];
  const out: string[] = [];
  for (let i = 0; i + 1 < all.length; i++) out.push(joinSentences([all[i]!, all[i + 1]!]));
  return out;
}

/**
 * The version of the passages texts are cut into (`passageTexts`, and the sentences of ./words.ts it reads): bump it
 * whenever they change, so that the catch-up (./embed-catch-up.ts) embeds again the memoirs it had marked done, whose
 * new passages would otherwise be left to their next question. 2: Thai and Lao sentences end at a space, Khmer's and
 * Burmese's at their full stops (they were one sentence to a line).
 */
export const PASSAGES_VERSION = 2;

/**
 * The texts of a text's passages, as a search makes them (what a chat embeds of it): for embedding them ahead of the
 * questions (./embed-ahead.ts).
 */
export function passageTexts(text: string): string[] {
  return windowTexts(sentences(text));
}

/**
 * A text's passages with their terms: windows of two sentences, one sentence apart. Made by the reading thread for
 * `holdSearch`, or here for a text not prepared.
 */
export function windowsWithTerms(text: string): Windows {
  const all = sentences(text);
  const texts = windowTexts(all);
  const windowOf = (window: string, lists: ReadonlyArray<readonly string[]>) => {
    const terms = new Map<string, number>();
    let length = 0;
    for (const list of lists) {
      for (const t of list) terms.set(t, (terms.get(t) ?? 0) + 1);
      length += list.length;
    }
    return { text: window, terms, length };
  };
  // A short record is one passage.
  if (all.length <= 2) return [windowOf(texts[0]!, [termsOf(texts[0]!)])];
  // Each sentence is in two windows: its words are stemmed once, and a window's terms are its two sentences' (no word
  // spans the space, or the Chinese full stop, that joins them, so they are the terms of the joined text, in order).
  const lists = all.map(termsOf);
  return texts.map((window, i) => windowOf(window, [lists[i]!, lists[i + 1]!]));
}

/** A record's passages: one group of units, with what the search reads of the record as a whole. */
interface Group {
  doc: SourceDoc;
  units: Unit[];
  /** How many of the record's passages hold each stem. */
  stems: ReadonlyMap<string, number>;
  context: ReadonlySet<string>;
}

/** How many of a text's passages hold each stem, made once per passages kept (a text read again gets them again). */
const stemCounts = new WeakMap<Windows, ReadonlyMap<string, number>>();

function stemsOf(windows: Windows): ReadonlyMap<string, number> {
  let counts = stemCounts.get(windows);
  if (!counts) {
    const made = new Map<string, number>();
    for (const w of windows) for (const t of w.terms.keys()) made.set(t, (made.get(t) ?? 0) + 1);
    stemCounts.set(windows, made);
    counts = made;
  }
  return counts;
}

/** The memoir's passages, record by record. */
function* groupsOf(docs: readonly SourceDoc[]): Steps<Group[]> {
  const groups: Group[] = [];
  let made = 0;
  for (const doc of docs) {
    const context = contexts.remember(doc.context ?? '', () => new Set(termsOf(doc.context ?? '')));
    const windows = keptPassages.remember(doc.text, () => {
      searchReadings++;
      return windowsWithTerms(doc.text);
    });
    groups.push({ doc, units: windows.map((w) => ({ doc, ...w, context })), stems: stemsOf(windows), context });
    made += windows.length;
    if (made >= SLICE) {
      made = 0;
      yield;
    }
  }
  return groups;
}

/**
 * The idf of a stem over every passage of the memoir, made for the stems a question asks about only (summed record by
 * record, not passage by passage), each once.
 */
function idfTable(groups: readonly Group[]): (stem: string) => number {
  const n = groups.reduce((sum, g) => sum + g.units.length, 0);
  const known = new Map<string, number>();
  return (stem) => {
    let idf = known.get(stem);
    if (idf === undefined) {
      let df = 0;
      for (const g of groups) df += g.stems.get(stem) ?? 0;
      idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      known.set(stem, idf);
    }
    return idf;
  };
}

function boostOf(u: Unit, intents: readonly Intent[]): number {
  let boost = 0;
  for (const i of intents) {
    if (u.doc.questionId && i.questions?.includes(u.doc.questionId)) boost = Math.max(boost, QUESTION_BOOST);
    else if (u.doc.category && i.categories.includes(u.doc.category)) boost = Math.max(boost, CATEGORY_BOOST);
  }
  return boost;
}

interface Scored {
  unit: Unit;
  score: number;
  evidence: number;
}

/** Every passage's score, in the memoir's order. */
function* scoreUnits(groups: readonly Group[], q: Query, idf: (stem: string) => number): Steps<Scored[]> {
  const units = groups.flatMap((g) => g.units);
  // An age asked for counts as a word of the question that the passages giving an age hold, as rare as they are.
  const ageWeight = q.age ? yield* rarity(units, (u) => AGE.test(u.text)) : 0;
  // A question about someone's work counts a trade the passage gives ("He was a firefighter") as one of its words.
  const tradeWeight = q.trade ? WEIGHT.intent * (yield* rarity(units, (u) => givesTrade(u.text))) : 0;
  const avg = units.reduce((s, u) => s + u.length, 0) / Math.max(1, units.length);
  // A question that is all its intent ("Is there anything you still want to do?") is answered by the questionnaire's
  // answer to the question the intent names, whatever its words.
  const allIntent = q.own.every((s) => q.intentStems.has(s));
  const out: Scored[] = [];
  for (const unit of units) {
    let score = 0;
    for (const t of q.terms) {
      const tf = unit.terms.get(t.stem) ?? (MONEY_STEMS.has(t.stem) && AMOUNT_IN_WORDS.test(unit.text) ? 1 : 0);
      if (tf > 0) score += t.weight * idf(t.stem) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * unit.length) / avg)));
      else if (unit.context.has(t.stem)) score += t.weight * WEIGHT.context * idf(t.stem);
    }
    if (q.age && AGE.test(unit.text)) score += ageWeight;
    if (tradeWeight > 0 && givesTrade(unit.text)) score += tradeWeight;
    const evidence = score;
    const named = allIntent && q.intents.some((i) => unit.doc.questionId && i.questions?.includes(unit.doc.questionId));
    out.push({ unit, score: score > 0 || named ? score + boostOf(unit, q.intents) : 0, evidence });
    if (out.length % SLICE === 0) yield;
  }
  return out;
}

/** Best first, equal scores in the memoir's order (as a stable sort of them all), the many zeros left as they are. */
function bestFirst<T extends { score: number }>(scored: readonly T[]): T[] {
  const positive = scored.filter((s) => s.score > 0);
  const rest = scored.filter((s) => !(s.score > 0));
  return [...positive.sort((a, b) => b.score - a.score), ...rest];
}

const AMOUNT =
  /[$£€¥]\s?\d|\b(dollars?|bucks|cents|pounds|quid|euros?|shillings?|pence|francs?|marks|escudos?|lire|pesos?|rupees?|grand)\b|\b\d[\d,.]*\s?(k|m)\b/i;

/** The words for money itself, which a passage naming a sum covers. */
const MONEY_STEMS = new Set(['money', 'cash', 'savings'].map((w) => stemOf(w)));
/** A sum, in figures or in words ("eleven thousand dollars"). */
const AMOUNT_IN_WORDS = new RegExp(`${AMOUNT.source}|\\b(hundred|thousand|million)\\b`, 'i');

/** Numbers as a memoir writes an age: "17", "seventeen", "twenty-one". */
const NUMBER = String.raw`(\d{1,3}|(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(-[a-z]+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)`;
/** An age in a passage: "I was seventeen", "17 years old", "aged 20", "at nineteen". */
const AGE = new RegExp(
  String.raw`\b(I|he|she|we|they) (was|were) ${NUMBER}\b|\b${NUMBER} years? old\b|\baged? ${NUMBER}\b|\bat (the age of )?${NUMBER}\b(?! ?(o'clock|am|pm|in the|percent|%))`,
  'i',
);

/** "He was a firefighter", "worked as a welder", "became a school teacher": the trade a passage gives. */
const TRADE =
  /\b(?:was|were|is|am|became|worked as|work as|job as|trained as|retired as)\s+(?:an?|the)\s+([a-z-]+)(?:\s+([a-z-]+))?/gi;
/** Nouns for people that say who someone is, not their trade ("he was a good man", "she was a widow"). */
const NOT_TRADES = new Set(
  'man men woman women boy girl child kid baby person people friend widow widower fool mother father son daughter wife husband brother sister stranger neighbour neighbor member guest fan believer grandmother grandfather baby orphan twin bride groom saint devil angel sinner adult'.split(
    ' ',
  ),
);
const trades = new TextCache<boolean>(200_000);

/** Whether a passage gives someone's trade: a noun for a person after "was a", "worked as a"... (not a "good man"). */
function givesTrade(text: string): boolean {
  return trades.remember(text, () =>
    Array.from(text.matchAll(TRADE)).some((m) =>
      [m[1], m[2]].some((w) => w !== undefined && !NOT_TRADES.has(w.toLowerCase()) && isPersonNoun(w)),
    ),
  );
}

/** The idf of a word held by the passages `holds` picks: what a passage's age or trade weighs, as rare as it is. */
function* rarity(units: readonly Unit[], holds: (u: Unit) => boolean): Steps<number> {
  let df = 0;
  for (let i = 0; i < units.length; i++) {
    if (holds(units[i]!)) df++;
    if ((i + 1) % SLICE === 0) yield;
  }
  return Math.log(1 + (units.length - df + 0.5) / (df + 0.5));
}

/** The words of a question about a price that an amount in a passage answers. */
const PRICE_STEMS = new Set(
  ['cost', 'price', 'pay', 'paid', 'worth', 'charg', 'spend', 'spent', 'earn'].map((w) => stemOf(w)),
);

/** Whether a passage is of the question's intent: its questionnaire category, or one of the intent's words. */
function onTopicOf(u: Unit, q: Query): boolean {
  return (
    boostOf(u, q.intents) > 0 ||
    q.intents.some((i) => i.words.some((w) => u.terms.has(stemOf(w)))) ||
    (q.trade && givesTrade(u.text))
  );
}

/** Share of the question's own specific words, weighted by rarity, that the passage (or its context) holds. */
function coverage(u: Unit, q: Query, idf: (s: string) => number): number {
  // A question all of whose words are its intent's ("Where are you from?") is covered by a passage on that intent.
  if (q.own.length === 0) return q.intents.length > 0 && onTopicOf(u, q) ? 1 : 0;
  // "What did the car cost?" is covered by "we bought the car for $900": the amount is the cost.
  const priced = q.amount && AMOUNT.test(u.text);
  // A word that only names the intent ("living" in "for a living") is covered by a passage of that intent.
  const onTopic = onTopicOf(u, q);
  // "money" is covered by a sum: "I paid eleven thousand dollars" answers "What was your worst money mistake?".
  const has = (x: string) =>
    u.terms.has(x) ||
    u.context.has(x) ||
    (priced && PRICE_STEMS.has(x)) ||
    (MONEY_STEMS.has(x) && AMOUNT_IN_WORDS.test(u.text));
  let total = 0;
  let hit = 0;
  let whole = false;
  for (const s of q.own) {
    total += idf(s);
    const alt = q.alternatives.get(s);
    if (has(s) || (onTopic && q.intentStems.has(s)) || (alt && [...alt.full].some(has))) {
      hit += idf(s);
      whole = true;
    } else if (alt && [...alt.parts].some(has)) {
      hit += idf(s) / 2;
      whole = true;
    } else if (alt && [...alt.half].some(has)) hit += idf(s) / 2;
  }
  // A related word alone does not answer a question of one word: "What is your password?" is not answered by "a man
  // who kept his word" (a place within the one asked of does: "Did you ever go to Portugal?", "Lisbon").
  return !whole && q.own.length === 1 ? 0 : hit / total;
}

export interface Retrieval {
  passages: Passage[];
  /** The best passage's score and whether it passed the threshold (false: the agent does not know). */
  answered: boolean;
}

/** The passages of the best-scored units, one per record, none below RELATIVE_FLOOR of the best, at most `limit`. */
function passagesOf(scored: ReadonlyArray<{ unit: Unit; score: number }>, limit: number): Passage[] {
  const best = scored[0];
  if (!best) return [];
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const s of scored) {
    if (seen.has(s.unit.doc.id) || s.score < best.score * RELATIVE_FLOOR) continue;
    seen.add(s.unit.doc.id);
    passages.push({
      id: s.unit.doc.id,
      kind: s.unit.doc.kind,
      text: s.unit.text,
      score: Math.round(s.score * 1000) / 1000,
    });
    if (passages.length >= limit) break;
  }
  return passages;
}

/** The lexical scoring of every passage, best first, and whether one of the top ones covers the question. */
function* lexical(docs: readonly SourceDoc[], question: string) {
  const groups = yield* groupsOf(docs);
  const q = parseQuestion(question, yield* spouseSteps(docs));
  const idf = idfTable(groups);
  const inOrder = yield* scoreUnits(groups, q, idf);
  const scored = bestFirst(inOrder);
  const answered = scored
    .slice(0, 3)
    .some(
      (s) =>
        s.score > 0 &&
        coverage(s.unit, q, idf) >= MIN_COVERAGE &&
        (!q.amount || AMOUNT.test(s.unit.text)) &&
        (!q.age || AGE.test(s.unit.text)),
    );
  return { units: inOrder.map((s) => s.unit), scored, answered };
}

/** What a search answers from its lexical scoring. */
function lexicalAnswer({ scored, answered }: { scored: Scored[]; answered: boolean }, limit: number): Retrieval {
  if (!answered) return { passages: [], answered: false };
  return {
    passages: passagesOf(
      scored.filter((s) => s.score > 0),
      limit,
    ),
    answered: true,
  };
}

/** The passages that answer `question`, best first, one per record, at most `limit`; none below the threshold. */
export function searchMemoir(docs: readonly SourceDoc[], question: string, limit = 3): Retrieval {
  return lexicalAnswer(atOnce(lexical(docs, question)), limit);
}

/**
 * `searchMemoir`, giving the event loop a turn between slices of the memoir's passages (./turns.ts): what a chat
 * runs, so that a long memoir's search does not hold every other request for its whole length.
 */
export async function searchMemoirInTurns(docs: readonly SourceDoc[], question: string, limit = 3): Promise<Retrieval> {
  return lexicalAnswer(await inTurns(lexical(docs, question)), limit);
}

/** How the lexical and the embedding scores are combined (each scaled to 0..1 first). */
export const SEMANTIC = {
  /** Share of the combined score that is lexical; the rest is the embedding similarity. */
  lexicalShare: 0.6,
  /** Cosine similarity at or below which a passage gets no semantic credit. */
  floor: 0.2,
  /**
   * Cosine similarity from which a passage answers the question even when its words do not cover it (a paraphrase).
   * High on purpose: below it, a question the lexical test finds unanswered stays unanswered.
   */
  answer: 0.8,
} as const;

/**
 * searchMemoir with embeddings: every passage and the question are embedded (`embed` caches them), and a passage's
 * score is its lexical score (scaled by the best one) combined with its cosine similarity to the question (above a
 * floor). The question counts as answered when the lexical test says so or a passage is very close in meaning.
 */
export async function searchMemoirWithEmbeddings(
  docs: readonly SourceDoc[],
  question: string,
  embed: (texts: readonly string[]) => Promise<ArrayLike<number>[]>,
  limit = 3,
): Promise<Retrieval> {
  const { units, scored, answered } = await inTurns(lexical(docs, question));
  if (units.length === 0) return { passages: [], answered: false };
  const vectors = await embed([question, ...units.map((u) => u.text)]);
  const [qv, ...uv] = vectors as [ArrayLike<number>, ...ArrayLike<number>[]];
  const similarity = new Map<Unit, number>();
  for (const [i, u] of units.entries()) {
    // A few microseconds a passage of 1,536 dimensions: a memoir of thousands gives other requests turns.
    if (i > 0 && i % SLICE === 0) await turn();
    similarity.set(u, cosine(qv, uv[i]!));
  }
  const bestLexical = scored[0]?.score ?? 0;
  const semantic = (u: Unit) => Math.max(0, (similarity.get(u)! - SEMANTIC.floor) / (1 - SEMANTIC.floor));
  const combined = scored
    .map((s) => ({
      unit: s.unit,
      score:
        SEMANTIC.lexicalShare * (bestLexical > 0 ? s.score / bestLexical : 0) +
        (1 - SEMANTIC.lexicalShare) * semantic(s.unit),
    }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const close = Math.max(...similarity.values()) >= SEMANTIC.answer;
  if (!answered && !close) return { passages: [], answered: false };
  return { passages: passagesOf(combined, limit), answered: true };
}
