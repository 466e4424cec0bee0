import { z } from 'zod';
import { agentStatus, getSetup } from '../../memoir/memoir.js';
import { characterOf, dailyPrompt, insights } from '../../memoir/views.js';
import { userKeyOf } from '../../memoir/records.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';
import { CharacterSchema, memoirPath, Mention, ModeSchema } from './schemas.js';

const Empty = z.strictObject({}).describe('No input.');

export const getMemoirAgentTool = defineTool({
  name: 'get_memoir_agent',
  example: {},
  title: 'The memoir agent',
  description:
    'The agent\'s name, whether a language model is configured (`mode: "demo"` when not: answers then come from the person\'s own entries by retrieval) ' +
    'and the character profile. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: Empty,
  output: z
    .object({
      agentName: z.string().describe("The agent's name (a default before setup)."),
      configured: z.boolean().describe('Whether the agent has been named.'),
      mode: ModeSchema,
      model: z.string().nullable().describe('The configured model name, or null in demo mode.'),
      character: CharacterSchema,
    })
    .describe('The agent.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/agent') },
  handler: async (_input, ctx) => {
    const [setup, c] = await Promise.all([
      getSetup(ctx.store, ctx.principal.ownerId),
      characterOf(ctx.store, ctx.principal.ownerId, 'json'),
    ]);
    return {
      agentName: c.agentName,
      configured: setup.configured,
      mode: (ctx.config.llm ? 'model' : 'demo') as 'model' | 'demo',
      model: ctx.config.llm?.model ?? null,
      character: c.character,
    };
  },
});

const Completion = z
  .object({
    category: z.string().describe('Category id.'),
    title: z.string().describe('Category title.'),
    answered: z.number().int().describe('Questions answered.'),
    total: z.number().int().describe('Questions in the category.'),
    completion: z.number().describe('answered / total, 0 to 1.'),
  })
  .describe('Completion of one questionnaire category.');

export const getMemoirAgentStatusTool = defineTool({
  name: 'get_memoir_agent_status',
  example: {},
  title: 'Memoir progress',
  description:
    'Journal count, questionnaire completion per category and overall, media and chat counts. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: Empty,
  output: z
    .object({
      journalCount: z.number().int().describe('Journal entries written.'),
      questionnaire: z.array(Completion).describe('Completion per category.'),
      answeredQuestions: z.number().int().describe('Questions answered in all categories.'),
      totalQuestions: z.number().int().describe('Questions in all categories.'),
      overallCompletion: z.number().describe('answeredQuestions / totalQuestions, 0 to 1.'),
      mediaCount: z.number().int().describe('Media items uploaded.'),
      chatMessages: z.number().int().describe('Chat messages stored (both sides).'),
    })
    .describe('Progress.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/agent/status') },
  handler: (_input, ctx) => agentStatus(ctx.store, ctx.principal.ownerId),
});

export const getMemoirPromptTool = defineTool({
  name: 'get_memoir_prompt',
  example: {},
  title: "Today's journaling prompt",
  description:
    'A journaling prompt chosen for this user and day (UTC): the same all day, favouring the least covered topics, skipping questions already answered, ' +
    'and not repeated within four weeks. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: Empty,
  output: z
    .object({
      date: z.string().describe('The day (YYYY-MM-DD, UTC).'),
      promptId: z.string().describe('The question id the prompt comes from (stable).'),
      category: z.string().describe('Its questionnaire category.'),
      text: z.string().describe('The prompt.'),
    })
    .describe('The prompt.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/prompt') },
  handler: (_input, ctx) => dailyPrompt(ctx.store, ctx.principal.ownerId, userKeyOf(ctx.principal), ctx.clock),
});

export const getMemoirInsightsTool = defineTool({
  name: 'get_memoir_insights',
  example: {},
  title: 'Memoir insights',
  description:
    "Themes, mood over time, most-mentioned people and places, computed from the account's journal and questionnaire answers.",
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool in ./journal.ts explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: READ,
  input: Empty,
  output: z
    .object({
      themes: z.array(Mention).describe('Themes by weight.'),
      moodOverTime: z
        .array(
          z
            .object({
              date: z.string().describe('Day (YYYY-MM-DD).'),
              entries: z.number().int().describe('Entries written that day.'),
              moods: z
                .record(z.string(), z.number().int().describe('Count.'))
                .describe('Moods given that day, with counts.'),
              averageScore: z
                .number()
                .nullable()
                .describe('Mean mood score from -1 (low) to 1 (high), null when no mood was given.'),
            })
            .describe('One day.'),
        )
        .describe('Mood per writing day, oldest first.'),
      moodCounts: z.record(z.string(), z.number().int().describe('Count.')).describe('How often each mood was given.'),
      people: z.array(Mention).describe('People mentioned most.'),
      places: z.array(Mention).describe('Places mentioned most.'),
      totals: z
        .object({
          journalEntries: z.number().int().describe('Journal entries.'),
          answers: z.number().int().describe('Questionnaire answers.'),
          words: z.number().int().describe('Words written.'),
          writingDays: z.number().int().describe('Days with at least one entry.'),
        })
        .describe('Totals.'),
    })
    .describe('Insights.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/insights') },
  handler: (_input, ctx) => insights(ctx.store, ctx.principal.ownerId),
});

const ElizaMessage = z
  .object({
    name: z.string().describe('Speaker.'),
    content: z.object({ text: z.string().describe('Text.') }).describe('Message content.'),
  })
  .describe('One message of an example.');

export const getMemoirCharacterTool = defineTool({
  name: 'get_memoir_character',
  example: { format: 'eliza' },
  title: 'The character model',
  description:
    'The full character model (traits, values, people and places, recurring phrases, style). With `format=eliza`, also an ElizaOS character file ' +
    '(name, bio, lore, topics, adjectives, style, messageExamples) in `eliza`.',
  domain: 'memoir',
  // Scope `chat`, as createJournalEntryTool in ./journal.ts explains.
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({
      format: z.enum(['json', 'eliza']).default('json').describe('"eliza" adds an ElizaOS character file.'),
    })
    .describe('Format.'),
  output: z
    .object({
      format: z.enum(['json', 'eliza']).describe('The format asked for.'),
      agentName: z.string().describe("The agent's name."),
      character: CharacterSchema,
      eliza: z
        .object({
          name: z.string().describe('Character name.'),
          bio: z.array(z.string().describe('A line.')).describe('Biography lines.'),
          lore: z
            .array(z.string().describe('A line.'))
            .describe('Lore: first sentences of recent entries, in their words.'),
          topics: z.array(z.string().describe('A topic.')).describe('Topics.'),
          adjectives: z.array(z.string().describe('An adjective.')).describe('Adjectives.'),
          style: z
            .object({
              all: z.array(z.string().describe('A rule.')).describe('Style for everything.'),
              chat: z.array(z.string().describe('A rule.')).describe('Style for chat.'),
              post: z.array(z.string().describe('A rule.')).describe('Style for posts.'),
            })
            .describe('Style rules.'),
          messageExamples: z
            .array(z.array(ElizaMessage).describe('One example exchange.'))
            .describe(
              "Example exchanges in the person's own words: questionnaire answers, then the latest entries that are not private.",
            ),
          postExamples: z.array(z.string().describe('A post.')).describe('Example posts (none).'),
          plugins: z.array(z.string().describe('A plugin.')).describe('Plugins (none).'),
        })
        .nullable()
        .describe('The ElizaOS character file (format=eliza), else null.'),
    })
    .describe('The character.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/character') },
  handler: (input, ctx) => characterOf(ctx.store, ctx.principal.ownerId, input.format),
});
