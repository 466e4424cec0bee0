/**
 * The character model: who the person is, as far as their own words show it.
 * Built deterministically from journal entries and questionnaire answers, and
 * refined by the language model when one is configured (its traits and values
 * are kept beside the extracted ones, marked as the model's).
 */
import { allQuestions } from './questions.js';
import type { AnswerRecord, JournalEntry } from './records.js';
import { recurringPhrases, sentences, styleOf, themesIn, topPeople, topPlaces, traitsIn, valuesIn, type Mention, type Style } from './text.js';

export interface CharacterModel {
  traits: Mention[];
  values: Mention[];
  people: Mention[];
  places: Mention[];
  recurringPhrases: Mention[];
  topics: string[];
  style: Style;
  /** Added by the language model from the latest entry (empty in demo mode). */
  modelTraits: string[];
  modelValues: string[];
  sources: { journalEntries: number; answers: number };
  updatedAt: string | null;
}

/** Position of each question in the questionnaire (questions.json order). */
const QUESTION_ORDER = new Map(allQuestions().map((q, i) => [q.id, i]));

export interface GivenAnswer {
  category: string;
  questionId: string;
  answer: string;
  answeredAt: string;
}

/**
 * Every answer given, in questionnaire order (categories, then questions, as in questions.json; an id no longer in
 * the questionnaire after them, by id). Never the key order of a record's `answers`: PostgreSQL's jsonb keeps
 * object keys sorted by length, lowdb in insertion order, and what the agent cites or shows must not depend on it.
 */
export function answersInOrder(records: readonly AnswerRecord[]): GivenAnswer[] {
  const out = records.flatMap((r) => Object.entries(r.answers).map(([questionId, x]) => ({ category: r.category, questionId, answer: x.answer, answeredAt: x.answeredAt })));
  const rank = (id: string) => QUESTION_ORDER.get(id) ?? Number.MAX_SAFE_INTEGER;
  return out.sort((a, b) => rank(a.questionId) - rank(b.questionId) || (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0));
}

export function texts(entries: readonly JournalEntry[], answers: readonly AnswerRecord[]): string[] {
  return [...entries.map((e) => e.content), ...answersInOrder(answers).map((x) => x.answer)];
}

export function buildCharacter(
  entries: readonly JournalEntry[],
  answers: readonly AnswerRecord[],
  previous: Pick<CharacterModel, 'modelTraits' | 'modelValues'> | undefined,
  now: string | null,
): CharacterModel {
  const all = texts(entries, answers);
  const covered = answers.filter((a) => Object.keys(a.answers).length > 0).map((a) => a.category);
  return {
    traits: traitsIn(all),
    values: valuesIn(all),
    people: topPeople(all),
    places: topPlaces(all),
    recurringPhrases: recurringPhrases(all),
    topics: [...new Set([...themesIn(all).map((t) => t.name), ...covered])],
    style: styleOf(all),
    modelTraits: previous?.modelTraits ?? [],
    modelValues: previous?.modelValues ?? [],
    sources: { journalEntries: entries.length, answers: answers.reduce((n, a) => n + Object.keys(a.answers).length, 0) },
    updatedAt: now,
  };
}

export function emptyCharacter(): CharacterModel {
  return buildCharacter([], [], undefined, null);
}

/**
 * An ElizaOS character file (docs.elizaos.ai, "Character Interface"): name, bio,
 * lore, topics, adjectives, style {all, chat, post}, messageExamples (groups of
 * {name, content: {text}}), postExamples, plugins.
 */
export function elizaCharacter(name: string, model: CharacterModel, entries: readonly JournalEntry[], answers: readonly AnswerRecord[]) {
  const adjectives = [...new Set([...model.traits.map((t) => t.name), ...model.modelTraits])];
  const bio: string[] = [];
  if (adjectives.length) bio.push(`${name} is ${adjectives.slice(0, 3).join(', ')}.`);
  if (model.values.length) bio.push(`${name} cares about ${model.values.slice(0, 3).map((v) => v.name).join(', ')}.`);
  if (model.people.length) bio.push(`${name} often speaks of ${model.people.slice(0, 3).map((p) => p.name).join(', ')}.`);
  if (model.places.length) bio.push(`${name} has ties to ${model.places.slice(0, 3).map((p) => p.name).join(', ')}.`);
  if (bio.length === 0) bio.push(`${name} has only begun to write their memoir.`);
  // Lore: the first sentence of each of the latest entries, in their own words.
  const lore = entries
    .slice(-10)
    .map((e) => sentences(e.content)[0])
    .filter((s): s is string => !!s);
  const messageExamples = answersInOrder(answers).slice(0, 5).map((a) => [
    { name: '{{user1}}', content: { text: `Tell me about ${a.questionId.replace(/^[^.]+\./, '').replace(/-/g, ' ')}.` } },
    { name, content: { text: a.answer.slice(0, 400) } },
  ]);
  const chat = [...model.style.descriptors];
  if (model.recurringPhrases.length) chat.push(`uses phrases such as "${model.recurringPhrases.slice(0, 3).map((p) => p.name).join('", "')}"`);
  return {
    name,
    bio,
    lore,
    topics: model.topics,
    adjectives,
    style: { all: [...model.style.descriptors, 'answers from their own memories only'], chat, post: [] as string[] },
    messageExamples,
    postExamples: [] as string[],
    plugins: [] as string[],
  };
}
