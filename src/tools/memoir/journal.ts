import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema } from '../../core/pagination.js';
import { chatModelFor, refineCharacter } from '../../memoir/agent.js';
import { noteWritten } from '../../memoir/embed-ahead.js';
import {
  addJournalEntry,
  answerQuestionnaire,
  deleteJournalEntry,
  updateJournalEntry,
  getQuestionnaire,
  listJournal,
  publicEntry,
  readProfile,
} from '../../memoir/memoir.js';
import { MEMOIR_LIMITS, userKeyOf } from '../../memoir/records.js';
import { DELETE, defineTool, READ, type ToolContext, WRITE, WRITE_IDEMPOTENT } from '../define.js';
import {
  CharacterSchema,
  HappenedAtInput,
  JournalEntrySchema,
  JournalTitleInput,
  memoirPath,
  ModeSchema,
  PrivateInput,
} from './schemas.js';

/**
 * Has the passages of texts just stored embedded in the background, so that the next chat question sends the provider
 * the question alone, or, with nothing embedding ahead, the account's catch-up marks removed (`noteWritten`,
 * src/memoir/embed-ahead.ts). Never fails the write.
 */
export async function embedAhead(ctx: ToolContext, texts: readonly string[]): Promise<void> {
  try {
    await noteWritten(ctx.memoirAhead, ctx.store, ctx.principal.ownerId, texts, () => ctx.clock.now());
  } catch (err) {
    ctx.log.warn(
      { requestId: ctx.requestId, err: (err as Error).name },
      'memoir: a catch-up mark could not be removed',
    );
  }
}

/** With a model configured, lets it refine the character from new text; a failing model changes nothing and fails nothing. */
async function refine(ctx: ToolContext, text: string): Promise<void> {
  const model = await chatModelFor(ctx.config.llm);
  if (!model) return;
  try {
    await refineCharacter({ store: ctx.store, clock: ctx.clock, model }, ctx.principal.ownerId, text);
  } catch (err) {
    // The error's name only: a provider's message may echo the text.
    ctx.log.warn(
      { requestId: ctx.requestId, err: (err as Error).name },
      'memoir: the language model could not refine the character',
    );
  }
}

export const createJournalEntryTool = defineTool({
  name: 'create_journal_entry',
  example: {
    content: 'My mother baked bread every Sunday in our kitchen in Lisbon.',
    mood: 'nostalgic',
    promptUsed: 'Describe the home you grew up in.',
  },
  title: 'Write a journal entry',
  description:
    "Adds an entry to the account's memoir journal and updates the character model (by deterministic extraction, and by the language model when one is configured). " +
    'An entry may say when the memory happened (`happenedAt`: a day, a year or a decade) and be kept private (never shown to heirs, never used to answer them, left out of the character model).',
  domain: 'memoir',
  // There is no memoir scope: the memoir is the AI agent's material, so keys need `chat` (sessions have it). The
  // other memoir tools follow this one.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: WRITE,
  input: z
    .strictObject({
      content: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.journalContent)
        .describe(`What to write down, 1 to ${MEMOIR_LIMITS.journalContent} characters.`),
      mood: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.mood)
        .optional()
        .describe('How the writer feels, one word such as happy, grateful, sad.'),
      promptUsed: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.promptUsed)
        .optional()
        .describe('The prompt this entry answers (e.g. from GET /prompt).'),
      title: JournalTitleInput.optional(),
      happenedAt: HappenedAtInput.optional(),
      private: PrivateInput.optional(),
    })
    .describe('The entry.'),
  output: z
    .object({ entry: JournalEntrySchema, mode: ModeSchema, character: CharacterSchema })
    .describe('The entry and the updated character model.'),
  rest: { method: 'POST', shape: 'data', status: 201, ...memoirPath('/journal') },
  handler: async (input, ctx) => {
    const { entry } = await addJournalEntry(
      ctx.store,
      ctx.principal.ownerId,
      userKeyOf(ctx.principal),
      input,
      ctx.clock,
    );
    // The owner's chat reads private entries too: their passages are embedded all the same.
    await embedAhead(ctx, [entry.content]);
    // A private entry is not shown to the model that shapes the character heirs meet.
    if (!entry.private) await refine(ctx, entry.content);
    const profile = await readProfile(ctx.store, ctx.principal.ownerId);
    return {
      entry: publicEntry(entry),
      mode: (ctx.config.llm ? 'model' : 'demo') as 'model' | 'demo',
      character: profile!.character,
    };
  },
});

export const listJournalEntriesTool = defineTool({
  name: 'list_journal_entries',
  example: { page: 1, limit: 20 },
  title: 'List journal entries',
  description: "The account's journal entries, newest first, offset-paged.",
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool above explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(JournalEntrySchema).describe('This page.'), pagination: OffsetPageMetaSchema })
    .describe('Entries.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/journal') },
  handler: (input, ctx) => listJournal(ctx.store, ctx.principal.ownerId, input.page, input.limit),
});

const JournalId = z.string().min(1).max(64).describe('Journal entry id (jrn_...).');

export const updateJournalEntryTool = defineTool({
  name: 'update_journal_entry',
  example: { id: 'jrn_01JD0000000000000000000000', happenedAt: '1960s', private: true },
  title: 'Edit a journal entry',
  description:
    'Changes an entry: its text, title, mood, when the memory happened (`happenedAt`: a day, a year or a decade; null clears it) or whether it is private. ' +
    'The character model and insights follow at once. Give at least one field (else 400). Unknown id: 404.',
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool above explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      id: JournalId,
      content: createJournalEntryTool.input.shape.content.optional(),
      title: JournalTitleInput.nullable().optional().describe('A new title for the entry; null removes it.'),
      mood: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.mood)
        .nullable()
        .optional()
        .describe('How the writer feels, one word; null clears it.'),
      happenedAt: HappenedAtInput.nullable()
        .optional()
        .describe('When the memory happened: a day (YYYY-MM-DD), a year (YYYY) or a decade (YYYYs); null clears it.'),
      private: PrivateInput.optional(),
    })
    .describe('The entry and what to change.'),
  output: z
    .object({ entry: JournalEntrySchema, character: CharacterSchema })
    .describe('The entry as now stored and the character model after the edit.'),
  rest: { method: 'PATCH', shape: 'data', ...memoirPath('/journal/:id') },
  handler: async (input, ctx) => {
    const { id, ...patch } = input;
    const { entry, character } = await updateJournalEntry(ctx.store, ctx.principal.ownerId, id, patch, ctx.clock);
    if (patch.content !== undefined) await embedAhead(ctx, [entry.content]);
    if (patch.content !== undefined && !entry.private) await refine(ctx, entry.content);
    return {
      entry: publicEntry(entry),
      character: (await readProfile(ctx.store, ctx.principal.ownerId))?.character ?? character,
    };
  },
});

export const deleteJournalEntryTool = defineTool({
  name: 'delete_journal_entry',
  example: { id: 'jrn_01JD0000000000000000000000' },
  title: 'Delete a journal entry',
  description:
    'Deletes an entry for good; the character model and insights no longer count it, and heirs and the agent no longer see it. Unknown id: 404.',
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool above explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: DELETE,
  input: z.strictObject({ id: JournalId }).describe('The entry.'),
  output: z
    .object({
      id: z.string().describe('The deleted id.'),
      deleted: z.literal(true).describe('Always true.'),
      character: CharacterSchema,
    })
    .describe('Deleted, with the character model after it.'),
  rest: { method: 'DELETE', shape: 'data', ...memoirPath('/journal/:id') },
  handler: (input, ctx) => deleteJournalEntry(ctx.store, ctx.principal.ownerId, input.id, ctx.clock),
});

const CategoryParam = z
  .string()
  .min(1)
  .max(60)
  .describe('Questionnaire category: childhood, family, work, values, faith, advice, legacy, places, love.');

const QuestionnaireOutput = z
  .object({
    category: z.string().describe('Category id.'),
    title: z.string().describe('Category title.'),
    answered: z.number().int().describe('Questions answered.'),
    total: z.number().int().describe('Questions in the category.'),
    completion: z.number().describe('answered / total, 0 to 1.'),
    questions: z
      .array(
        z
          .object({
            id: z.string().describe('Stable question id (<category>.<name>).'),
            text: z.string().describe('The question.'),
            answer: z.string().nullable().describe('The answer given, or null.'),
            answeredAt: z.string().nullable().describe('When it was answered (ISO 8601), or null.'),
          })
          .describe('A question.'),
      )
      .describe('The questions, in order.'),
  })
  .describe('A questionnaire.');

export const getQuestionnaireTool = defineTool({
  name: 'get_questionnaire',
  example: { category: 'childhood' },
  title: 'Get a questionnaire',
  description:
    'The questions of a category with the answers given so far (an unanswered questionnaire starts empty). Unknown category: 404.',
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool above explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ category: CategoryParam }).describe('The category.'),
  output: QuestionnaireOutput,
  rest: { method: 'GET', shape: 'data', ...memoirPath('/questionnaire/:category') },
  handler: (input, ctx) => getQuestionnaire(ctx.store, ctx.principal.ownerId, input.category),
});

export const answerQuestionnaireTool = defineTool({
  name: 'answer_questionnaire',
  example: {
    category: 'childhood',
    answers: [{ questionId: 'childhood.home', answer: 'A small white house near the river, with a fig tree.' }],
  },
  title: 'Answer questions',
  description:
    'Saves answers in a category (an answer given again replaces the earlier one) and updates the character model. Unknown category: 404; unknown question id: 400.',
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool above explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      category: CategoryParam,
      answers: z
        .array(
          z
            .strictObject({
              questionId: z.string().min(1).max(100).describe('The question id, from GET /questionnaire/:category.'),
              answer: z
                .string()
                .min(1)
                .max(MEMOIR_LIMITS.answer)
                .describe(`The answer, 1 to ${MEMOIR_LIMITS.answer} characters.`),
            })
            .describe('One answer.'),
        )
        .min(1)
        .max(MEMOIR_LIMITS.answersPerRequest)
        .describe(`1 to ${MEMOIR_LIMITS.answersPerRequest} answers.`),
    })
    .describe('The answers.'),
  output: QuestionnaireOutput,
  rest: { method: 'POST', shape: 'data', ...memoirPath('/questionnaire/:category') },
  handler: async (input, ctx) => {
    const out = await answerQuestionnaire(ctx.store, ctx.principal.ownerId, input.category, input.answers, ctx.clock);
    // Stored trimmed, as the chat reads them.
    await embedAhead(
      ctx,
      input.answers.map((a) => a.answer.trim()),
    );
    await refine(ctx, input.answers.map((a) => a.answer).join('\n\n'));
    return out;
  },
});
