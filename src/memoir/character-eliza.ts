/**
 * The character model (./character.ts) exported as an ElizaOS character file,
 * for the memoir export in that format.
 */
import { answersInOrder, type CharacterModel } from './character.js';
import type { AnswerRecord, JournalEntry } from './records.js';
import { allQuestions } from './questions.js';
import { themesOf } from './text.js';
import { sentences } from './words.js';

/** How many example exchanges the character file carries. */
const MESSAGE_EXAMPLES = 5;
const QUESTIONS = new Map(allQuestions().map((q) => [q.id, q.text]));
const topicOf = (questionId: string) => questionId.replace(/^[^.]+\./, '').replace(/-/g, ' ');

/**
 * An ElizaOS character file (docs.elizaos.ai, "Character Interface"): name, bio,
 * lore, topics, adjectives, style {all, chat, post}, messageExamples (groups of
 * {name, content: {text}}), postExamples, plugins.
 */
export function elizaCharacter(
  name: string,
  model: CharacterModel,
  entries: readonly JournalEntry[],
  answers: readonly AnswerRecord[],
) {
  const adjectives = [...new Set([...model.traits.map((t) => t.name), ...model.modelTraits])];
  const bio: string[] = [];
  if (adjectives.length) bio.push(`${name} is ${adjectives.slice(0, 3).join(', ')}.`);
  if (model.values.length)
    bio.push(
      `${name} cares about ${model.values
        .slice(0, 3)
        .map((v) => v.name)
        .join(', ')}.`,
    );
  if (model.people.length)
    bio.push(
      `${name} often speaks of ${model.people
        .slice(0, 3)
        .map((p) => p.name)
        .join(', ')}.`,
    );
  if (model.places.length)
    bio.push(
      `${name} has ties to ${model.places
        .slice(0, 3)
        .map((p) => p.name)
        .join(', ')}.`,
    );
  if (bio.length === 0) bio.push(`${name} has only begun to write their memoir.`);
  // Lore: the first sentence of each of the latest entries, in their own words.
  const lore = entries
    .slice(-10)
    .map((e) => sentences(e.content)[0])
    .filter((s): s is string => !!s);
  // Example exchanges in their own words: questionnaire answers to their question, then the latest entries to the
  // prompt they answered (or their title, or their main theme).
  const exchange = (question: string, answer: string) => [
    { name: '{{user1}}', content: { text: question } },
    { name, content: { text: answer.slice(0, 400) } },
  ];
  const fromAnswers = answersInOrder(answers)
    .slice(0, MESSAGE_EXAMPLES)
    .map((a) => exchange(QUESTIONS.get(a.questionId) ?? `Tell me about ${topicOf(a.questionId)}.`, a.answer));
  const room = MESSAGE_EXAMPLES - fromAnswers.length;
  const fromEntries = (room > 0 ? entries.slice(-room) : []).map((e) => {
    const theme = themesOf(e.content)[0];
    const question =
      e.promptUsed ??
      (e.title ? `Tell me about "${e.title}".` : theme ? `Tell me about ${theme}.` : 'What do you remember?');
    return exchange(question, sentences(e.content).slice(0, 2).join(' '));
  });
  const messageExamples = [...fromAnswers, ...fromEntries];
  const chat = [...model.style.descriptors];
  if (model.recurringPhrases.length)
    chat.push(
      `uses phrases such as "${model.recurringPhrases
        .slice(0, 3)
        .map((p) => p.name)
        .join('", "')}"`,
    );
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
