/**
 * The memoir's records as texts to search (src/memoir/retrieval.ts): journal entries with their date and prompt as
 * context, questionnaire answers with their question, transcripts and captions already made for media, and the
 * person's name.
 */
import { answersInOrder } from './character.js';
import { allQuestions } from './questions.js';
import type { AnswerRecord, JournalEntry, MediaRecord } from './records.js';
import type { SourceDoc } from './retrieval.js';
import { storedSpouseReading } from './spouse.js';

const QUESTIONS = new Map(allQuestions().map((q) => [q.id, q]));

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** "2019-04-07T..." → "April 2019": a question may name the month or year an entry was written. */
function dateWords(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Texts a media record already has (a transcript, a caption or a description), under the names inference uses. */
export function mediaTexts(m: MediaRecord): SourceDoc[] {
  const out: SourceDoc[] = [];
  const visit = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || depth > 3) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (typeof x === 'string' && x.trim() && /^(transcript|text|caption|description)$/i.test(k))
        out.push({ id: m.id, kind: /transcript|text/i.test(k) ? 'transcript' : 'caption', text: x });
      else visit(x, depth + 1);
    }
  };
  visit(m.inference, 0);
  if (typeof m.caption === 'string' && m.caption.trim()) out.push({ id: m.id, kind: 'caption', text: m.caption });
  return out;
}

export function memoirDocs(input: {
  name?: string | null;
  entries: readonly JournalEntry[];
  answers: readonly AnswerRecord[];
  media?: readonly MediaRecord[];
}): SourceDoc[] {
  const docs: SourceDoc[] = [];
  if (input.name) docs.push({ id: 'profile', kind: 'profile', text: `My name is ${input.name}.`, category: 'profile' });
  for (const e of input.entries)
    docs.push({
      id: e.id,
      kind: 'journal',
      text: e.content,
      context: [e.promptUsed ?? '', dateWords(e.createdAt)].join(' '),
      spouse: storedSpouseReading(e.spouseReading),
    });
  // In questionnaire order, whatever order the engine keeps: equal scores then cite the earlier question first.
  for (const x of answersInOrder(input.answers))
    docs.push({
      id: `qa:${x.questionId}`,
      kind: 'answer',
      text: x.answer,
      context: QUESTIONS.get(x.questionId)?.text ?? '',
      category: x.category,
      questionId: x.questionId,
    });
  for (const m of input.media ?? []) docs.push(...mediaTexts(m));
  return docs;
}
