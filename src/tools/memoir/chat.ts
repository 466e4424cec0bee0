import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { cursorPageInput, CursorPageMetaSchema } from '../../core/pagination.js';
import { chat, chatHistory, chatModelFor, prepareChat } from '../../memoir/agent.js';
import type { GrantedAccess } from '../../accounts/grants.js';
import { priceOf, withCharge } from '../../memoir/charge.js';
import { cachedEmbedder } from '../../memoir/embeddings.js';
import { type Audience, storeSpouseReadings } from '../../memoir/memoir.js';
import { MEMOIR_LIMITS, userKeyOf } from '../../memoir/records.js';
import type { Store } from '../../store/port.js';
import { defineTool, READ, type ToolContext, WRITE } from '../define.js';
import { ChargeSchema, ChatMessageSchema, memoirPath, ModeSchema } from './schemas.js';

export const memoirChatTool = defineTool({
  name: 'memoir_chat',
  example: { message: 'What was your childhood home like?' },
  title: 'Talk with the memoir agent',
  description:
    "Asks the memoir agent a question. It answers in the person's voice from their own entries only, citing the entry ids it used; when nothing relevant " +
    'was written it says it does not know. `mode: "demo"` when no language model is configured. Needs scope `chat`; counts in the AI-chat rate limit; costs one chat_message credit price when it answers from entries (a "don\'t know" is free).',
  domain: 'memoir',
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'chat',
  annotations: WRITE,
  input: z
    .strictObject({
      message: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.chatMessage)
        .describe(`The question, 1 to ${MEMOIR_LIMITS.chatMessage} characters.`),
    })
    .describe('The message.'),
  output: z
    .object({
      mode: ModeSchema,
      message: ChatMessageSchema,
      reply: ChatMessageSchema,
      citations: z
        .array(
          z
            .object({
              id: z
                .string()
                .describe(
                  'Entry id (jrn_...), answer id (qa:<questionId>), media id (med_...) or "profile" for the name.',
                ),
              kind: z
                .enum(['journal', 'answer', 'transcript', 'caption', 'profile'])
                .describe(
                  'What was cited: a journal entry, a questionnaire answer, a recording transcript, a photo caption or the profile.',
                ),
              excerpt: z
                .string()
                .describe('The retrieved passage (up to two sentences) the answer quotes from, not the whole record.'),
            })
            .describe('A cited source.'),
        )
        .describe('The sources the answer used.'),
      grounded: z
        .boolean()
        .describe('Whether the answer rests on at least one entry (false: the agent said it does not know).'),
      charge: ChargeSchema,
    })
    .describe('The exchange.'),
  rest: { method: 'POST', shape: 'data', ...memoirPath('/chat'), extraStatuses: [402] },
  handler: (input, ctx) => answerChat(ctx, ctx.store, ctx.principal.ownerId, userKeyOf(ctx.principal), input.message),
});

/**
 * One paid exchange with a memoir's agent: the answer is drawn from the memoir in `memoir` (of account `memoirOwner`)
 * and the exchange is kept in the caller's own account under `userKey`, paid from `allowance` (credits the memoir's
 * owner prepaid for heirs) while it holds the price, else from the caller's credits. An heir's (`audience: 'heir'`)
 * question is answered without the owner's private entries. A "don't know" (nothing relevant written) asks no model
 * and is free.
 */
export async function answerChat(
  ctx: ToolContext,
  memoir: Store,
  memoirOwner: string,
  userKey: string,
  rawMessage: string,
  audience: Audience = 'owner',
  allowance?: GrantedAccess['allowance'],
) {
  const message = rawMessage.trim();
  if (!message) throw ApiError.validation('Invalid message', [{ field: 'message', reason: 'must not be only spaces' }]);
  const model = await chatModelFor(ctx.config.llm);
  const prepared = await prepareWithEmbeddings(ctx, memoir, memoirOwner, message, audience);
  if (prepared.unstored.length > 0)
    // Derived data only: should it fail, the next question makes and stores it again.
    await storeSpouseReadings(memoir, memoirOwner, prepared.unstored).catch((err: Error) =>
      ctx.log.warn({ requestId: ctx.requestId, err: err.name }, 'memoir: spouse readings could not be stored'),
    );
  const run = () =>
    chat(
      { store: ctx.store, clock: ctx.clock, model, signal: ctx.signal },
      ctx.principal.ownerId,
      userKey,
      message,
      prepared,
    );
  if (prepared.passages.length === 0)
    return { ...(await run()), charge: { action: 'chat_message' as const, units: 0, credits: 0 } };
  // An allowance the memoir's owner prepaid (heirs' chat) pays first, when it holds the whole price.
  const price = priceOf(ctx.config, 'chat_message', 1);
  if (allowance && price.credits > 0 && (await allowance.take(price.credits))) {
    try {
      return { ...(await run()), charge: { action: 'chat_message' as const, units: price.units, credits: 0 } };
    } catch (err) {
      await allowance.giveBack(price.credits);
      throw err;
    }
  }
  const { result, charge } = await withCharge(ctx, 'chat_message', 1, { type: 'chat_message', id: ctx.requestId }, run);
  return { ...result, charge };
}

/**
 * The passages for a chat: with a provider configured, lexical and embedding scores combined, the vectors cached in
 * the caller's own account; when the provider cannot embed, the lexical retrieval alone (logged by error name only:
 * a provider's message may echo the text).
 */
async function prepareWithEmbeddings(
  ctx: ToolContext,
  memoir: Store,
  memoirOwner: string,
  message: string,
  audience: Audience,
) {
  const llm = ctx.config.llm;
  if (!llm) return prepareChat(memoir, memoirOwner, message, audience);
  const embedder = cachedEmbedder(llm, ctx.store, ctx.principal.ownerId, () => ctx.clock.now());
  try {
    return await prepareChat(memoir, memoirOwner, message, audience, embedder);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    ctx.log.warn(
      { requestId: ctx.requestId, err: (err as Error).name },
      'memoir: embeddings failed; answering from the lexical retrieval',
    );
    return prepareChat(memoir, memoirOwner, message, audience);
  }
}

export const listMemoirChatTool = defineTool({
  name: 'list_memoir_chat',
  example: { limit: 20 },
  title: 'Chat history',
  description:
    "This user's chat with the memoir agent, newest first, cursor-paged (continue with nextCursor until hasMore is false). Needs scope `chat`.",
  domain: 'memoir',
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...cursorPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(ChatMessageSchema).describe('This page.'), pagination: CursorPageMetaSchema })
    .describe('Messages.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/chat/history') },
  handler: (input, ctx) =>
    chatHistory(ctx.store, ctx.cursors, ctx.principal.ownerId, userKeyOf(ctx.principal), input.cursor, input.limit),
});
