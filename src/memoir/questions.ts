import { readFileSync } from 'node:fs';
import { ApiError } from '../core/errors.js';

export interface Question {
  id: string;
  text: string;
}
export interface Category {
  id: string;
  title: string;
  questions: Question[];
}

/** The questionnaire (src/memoir/questions.json): question ids are stable; new ones are added, never renamed. */
export const CATEGORIES: readonly Category[] = (
  JSON.parse(readFileSync(new URL('./questions.json', import.meta.url), 'utf8')) as { categories: Category[] }
).categories;

const BY_ID = new Map(CATEGORIES.map((c) => [c.id, c]));
const QUESTION_IDS = new Set(CATEGORIES.flatMap((c) => c.questions.map((q) => q.id)));

for (const c of CATEGORIES) {
  for (const q of c.questions)
    if (!q.id.startsWith(`${c.id}.`)) throw new Error(`question ${q.id} is not named after its category ${c.id}`);
}
if (QUESTION_IDS.size !== CATEGORIES.reduce((n, c) => n + c.questions.length, 0))
  throw new Error('duplicate question ids in questions.json');

/** The category, or 404 NOT_FOUND naming the known ones. */
export function categoryOf(id: string): Category {
  const c = BY_ID.get(id);
  if (!c)
    throw new ApiError(
      'NOT_FOUND',
      `Questionnaire category "${id.slice(0, 60)}" not found; known categories: ${CATEGORIES.map((k) => k.id).join(', ')}.`,
    );
  return c;
}

export function allQuestions(): Array<Question & { category: string }> {
  return CATEGORIES.flatMap((c) => c.questions.map((q) => ({ ...q, category: c.id })));
}
