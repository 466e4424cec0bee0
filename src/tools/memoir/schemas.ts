import { z } from 'zod';
import { MEMOIR_LIMITS } from '../../memoir/records.js';

/** Memoir routes live under /svcloom: /api/v1/svcloom/... and the legacy /api/svcloom/.... */
export const memoirPath = (path: string) => ({ path: `/svcloom${path}`, aliases: [`/api/svcloom${path}`] });

export const Mention = z
  .object({
    name: z.string().describe('The name, place, trait or phrase.'),
    count: z.number().int().describe('How often it occurs.'),
    relation: z
      .string()
      .optional()
      .describe('For a person named as kin ("my sister Jean"): the relation to the writer, e.g. "sister".'),
  })
  .describe('Something mentioned, with its count.');

export const CharacterSchema = z
  .object({
    traits: z.array(Mention).describe('Personality traits shown by the writing (lexicon matches), strongest first.'),
    values: z.array(Mention).describe('Values the person holds, strongest first.'),
    people: z
      .array(Mention)
      .describe(
        'People mentioned most: names (with their relation when written as kin) and unnamed kin such as "my mother".',
      ),
    places: z.array(Mention).describe('Places mentioned most.'),
    recurringPhrases: z.array(Mention).describe('Phrases of 2 to 4 words found in at least two texts.'),
    topics: z
      .array(z.string().describe('A topic.'))
      .describe('Themes written about and questionnaire categories answered.'),
    style: z
      .object({
        averageSentenceWords: z.number().describe('Mean words per sentence.'),
        exclamationRate: z.number().describe('Share of sentences ending with "!".'),
        questionRate: z.number().describe('Share of sentences ending with "?".'),
        firstPersonRate: z.number().describe('Share of words that are I, me, my, we, our.'),
        favouriteWords: z.array(z.string().describe('A word.')).describe('Content words used most (at least twice).'),
        descriptors: z.array(z.string().describe('A descriptor.')).describe('The style in words.'),
      })
      .describe('How the person writes.'),
    modelTraits: z
      .array(z.string().describe('A trait.'))
      .describe('Traits added by the language model (empty in demo mode).'),
    modelValues: z
      .array(z.string().describe('A value.'))
      .describe('Values added by the language model (empty in demo mode).'),
    sources: z
      .object({
        journalEntries: z.number().int().describe('Journal entries read.'),
        answers: z.number().int().describe('Questionnaire answers read.'),
      })
      .describe('What the model was built from.'),
    updatedAt: z.string().nullable().describe('When it was last rebuilt (ISO 8601), null before any entry.'),
  })
  .describe('The character model.');

export const ModeSchema = z
  .enum(['demo', 'model'])
  .describe(
    '"demo": no language model configured, answers come from retrieval alone; "model": a configured model answered.',
  );

export const JournalEntrySchema = z
  .object({
    id: z.string().describe('Entry id (jrn_...).'),
    title: z.string().nullable().describe('The heading the writer gave it, or null.'),
    content: z.string().describe('What was written.'),
    mood: z.string().nullable().describe('The mood given, lower-cased, or null.'),
    promptUsed: z.string().nullable().describe('The prompt answered, or null.'),
    happenedAt: z
      .string()
      .nullable()
      .describe(
        'When the memory happened: a day (YYYY-MM-DD), a year (YYYY) or a decade (e.g. 1960s); null when not given.',
      ),
    private: z
      .boolean()
      .describe(
        'Kept for the owner alone: never shown to heirs, used in their chat or in the character model they see.',
      ),
    themes: z.array(z.string().describe('A theme.')).describe('Themes found in the entry.'),
    createdAt: z.string().describe('When it was written (ISO 8601).'),
    updatedAt: z.string().nullable().describe('When it was last edited (ISO 8601), or null if never.'),
  })
  .describe('A journal entry.');

export const ChargeSchema = z
  .object({
    action: z
      .enum(['chat_message', 'media_inference', 'voice', 'avatar'])
      .describe('The paid action (see GET /api/svcloom/credits/packs for prices).'),
    units: z
      .number()
      .int()
      .describe('Units charged: messages, started minutes of media, started seconds of audio or video.'),
    credits: z.number().int().describe('Credits taken from the wallet (0 when nothing was charged).'),
  })
  .describe('The charge for this call.');

export const ChatMessageSchema = z
  .object({
    id: z.string().describe('Message id (msg_...).'),
    role: z.enum(['user', 'agent']).describe('Who wrote it.'),
    content: z.string().describe('The text.'),
    citations: z
      .array(z.string().describe('A cited id.'))
      .describe(
        'Ids of the records the answer used: journal entries (jrn_...), answers (qa:<questionId>), media (med_...) or "profile".',
      ),
    mode: ModeSchema,
    createdAt: z.string().describe('When (ISO 8601).'),
  })
  .describe('A chat message.');

export const AgentNameInput = z
  .string()
  .min(1)
  .max(MEMOIR_LIMITS.agentName)
  .describe(`The agent's name, 1 to ${MEMOIR_LIMITS.agentName} characters.`);

/** When a memory happened, as the tools take it (src/memoir/memoir.ts checkHappenedAt checks the day is real). */
export const HappenedAtInput = z
  .string()
  .min(4)
  .max(10)
  .regex(/^(?:\d{4}-\d{2}-\d{2}|\d{4}|\d{3}0s)$/, 'a day (YYYY-MM-DD), a year (YYYY) or a decade (e.g. 1960s)')
  .describe('When the memory happened: a day (YYYY-MM-DD), a year (YYYY) or a decade (e.g. 1960s).');

export const JournalTitleInput = z
  .string()
  .min(1)
  .max(MEMOIR_LIMITS.journalTitle)
  .describe(`A heading for the entry, 1 to ${MEMOIR_LIMITS.journalTitle} characters.`);

export const PrivateInput = z
  .boolean()
  .describe(
    'true: kept for you alone: never shown to heirs, never used to answer them, and left out of the character model.',
  );
