/**
 * The heir's side of heirs' access: claiming a share with its code, then
 * reading the memoir and talking with its agent while the share is open. The
 * wrapper opens the share (tools declaring `grant`), so these handlers only
 * ever see the owner's memoir read-only through ctx.granted; what the heir
 * writes (the conversation) and pays (credits) is the heir's own.
 */
import { z } from 'zod';
import { USERS, type UserRecord } from '../../accounts/sessions.js';
import { type GrantedAccess, type GrantRecord, grantState } from '../../accounts/grants.js';
import { chatHistory, chatTexts } from '../../memoir/agent.js';
import { heirShareView } from '../../memoir/heirs.js';
import { getQuestionnaire, journalFor, listJournal } from '../../memoir/memoir.js';
import { characterOf, insights } from '../../memoir/views.js';
import { MEMOIR_ANSWERS, MEMOIR_LIMITS, MEMOIR_MEDIA, userKeyOf, type AnswerRecord } from '../../memoir/records.js';
import { cursorPageInput, offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { defineTool, READ, type ToolContext, WRITE, WRITE_IDEMPOTENT } from '../define.js';
import { getMemoirInsightsTool } from './agent.js';
import { answerChat, listMemoirChatTool, memoirChatTool } from './chat.js';
import { ShareId, ShareState } from './heirs.js';
import { getQuestionnaireTool, listJournalEntriesTool } from './journal.js';
import { CharacterSchema, memoirPath } from './schemas.js';

const HEIR = { domain: 'memoir', scope: 'chat', principals: ['session', 'key'], bucket: 'default' } as const;
const NOTE =
  'Needs an open share claimed by your account (404 unknown share, 403 SHARE_NOT_AVAILABLE while it is not open); keys need scope `chat`.';
const EXAMPLE_SHARE = 'shr_01JD000000000000000000000B';

/** The share the wrapper opened (always set for tools declaring `grant`). */
export function granted(ctx: ToolContext): GrantedAccess {
  if (!ctx.granted) throw new Error('a shared-memoir tool must declare grant');
  return ctx.granted;
}

const HeldShareSchema = z
  .object({
    shareId: ShareId,
    title: z.string().describe("The memoir's name."),
    state: ShareState,
    permissions: z.array(z.enum(['read', 'chat']).describe('A permission.')).describe('What you may do with it.'),
    claimedAt: z.string().nullable().describe('When you claimed it (ISO 8601).'),
    opensAt: z.string().nullable().describe('When it opens (ISO 8601), or null while not scheduled.'),
    expiresAt: z.string().nullable().describe('When it closes (ISO 8601), or null while not scheduled.'),
  })
  .describe('A share of a memoir you hold.');

export const claimMemoirShareTool = defineTool({
  ...HEIR,
  name: 'claim_memoir_share',
  title: 'Claim a memoir share',
  description:
    "Claims the share of a memoir whose code its owner gave you, for your account. A share bound to an email can only be claimed by a signed-in user with that email, and a signed-in user must have confirmed their address first (403 EMAIL_NOT_VERIFIED). It can be read once the owner's dead man's switch has fired and the share opened. Keys need scope `chat`.",
  annotations: WRITE_IDEMPOTENT,
  example: { code: 'shc_' + 'A'.repeat(43) },
  input: z
    .strictObject({ code: z.string().min(1).max(200).describe('The claim code (shc_...).') })
    .describe('The code.'),
  output: HeldShareSchema,
  rest: { method: 'POST', shape: 'data', ...memoirPath('/shared/claim'), extraStatuses: [409] },
  // A share is often bound to an address: claiming it before the address is confirmed would let whoever registered
  // that address first (without reading its mail) take the share.
  confirmedAddress:
    'Confirm your email address first: open the link mailed to it at registration, then claim the share.',
  handler: async (input, ctx) => {
    const user = ctx.principal.userId ? await ctx.store.get<UserRecord>(USERS, ctx.principal.userId) : undefined;
    const grant = await ctx.grants.claim(input.code.trim(), user?.email ?? null, ctx.clock.now().toISOString());
    embedSharedAhead(ctx, grant);
    return heirShareView(grant, ctx.clock.now());
  },
});

/**
 * A share claimed open, to talk with: what the heir's chat searches of the memoir has its passages embedded in the
 * background, in the heir's account where that chat keeps its vectors (src/memoir/embed-ahead.ts), so that the heir's
 * first question sends the provider the question alone. A share that opens later is embedded by that first question.
 */
function embedSharedAhead(ctx: ToolContext, grant: GrantRecord): void {
  const ahead = ctx.memoirAhead;
  const now = ctx.clock.now();
  if (!ahead || grantState(grant, now) !== 'open' || !grant.permissions.includes('chat')) return;
  ahead.noteFrom(
    ctx.store,
    ctx.principal.ownerId,
    async () => {
      const opened = await ctx.grants.open(grant.id, 'chat', now);
      return chatTexts(opened.store, opened.grantorId, 'heir');
    },
    () => ctx.clock.now(),
  );
}

export const listHeldMemoirSharesTool = defineTool({
  ...HEIR,
  name: 'list_held_memoir_shares',
  title: 'List the memoir shares you hold',
  description: 'The memoir shares your account has claimed, newest first, with their state. Keys need scope `chat`.',
  annotations: READ,
  example: { page: 1, limit: 20 },
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(HeldShareSchema).describe('The shares on this page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of shares held.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/shared') },
  handler: async (input, ctx) => {
    const now = ctx.clock.now();
    return paginateOffset(
      (await ctx.grants.held()).map((g) => heirShareView(g, now)),
      input.page,
      input.limit,
    );
  },
});

export const getSharedMemoirTool = defineTool({
  ...HEIR,
  grant: 'read',
  name: 'get_shared_memoir',
  title: 'Open a shared memoir',
  description: `The memoir of a share you hold: the agent's name, its character model and what the memoir holds. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE },
  input: z.strictObject({ shareId: ShareId }).describe('The share.'),
  output: z
    .object({
      share: HeldShareSchema,
      agentName: z.string().describe("The agent's name."),
      character: CharacterSchema,
      journalEntries: z.number().int().describe('Journal entries written.'),
      answeredQuestions: z.number().int().describe('Questionnaire answers given.'),
      media: z.number().int().describe('Photos, recordings and videos kept.'),
    })
    .describe('The shared memoir.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/shared/:shareId') },
  handler: async (_input, ctx) => {
    const g = granted(ctx);
    const [character, entries, answers, media] = await Promise.all([
      characterOf(g.store, g.grantorId, 'json'),
      journalFor(g.store, g.grantorId, 'heir'),
      g.store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', g.grantorId),
      g.store.findBy(MEMOIR_MEDIA, 'ownerId', g.grantorId),
    ]);
    return {
      share: heirShareView(g.grant, ctx.clock.now()),
      agentName: character.agentName,
      character: character.character,
      journalEntries: entries.length,
      answeredQuestions: answers.reduce((n, a) => n + Object.keys(a.answers).length, 0),
      // What the owner kept private is not counted: for the heir it does not exist.
      media: media.filter((m) => m.private !== true).length,
    };
  },
});

export const listSharedMemoirJournalTool = defineTool({
  ...HEIR,
  grant: 'read',
  name: 'list_shared_memoir_journal',
  title: "Read a shared memoir's journal",
  description: `The journal entries of a memoir you hold a share of, newest first, offset-paged; entries its owner kept private are not listed. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, page: 1, limit: 20 },
  input: z.strictObject({ shareId: ShareId, ...offsetPageInput }).describe('The share and paging.'),
  output: listJournalEntriesTool.output,
  rest: { method: 'GET', shape: 'list', ...memoirPath('/shared/:shareId/journal') },
  handler: (input, ctx) => listJournal(granted(ctx).store, granted(ctx).grantorId, input.page, input.limit, 'heir'),
});

export const getSharedMemoirQuestionnaireTool = defineTool({
  ...HEIR,
  grant: 'read',
  name: 'get_shared_memoir_questionnaire',
  title: "Read a shared memoir's answers",
  description: `The questions of a category with the answers the memoir's owner gave. Unknown category: 404. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, category: 'childhood' },
  input: z
    .strictObject({ shareId: ShareId, category: getQuestionnaireTool.input.shape.category })
    .describe('The share and category.'),
  output: getQuestionnaireTool.output,
  rest: { method: 'GET', shape: 'data', ...memoirPath('/shared/:shareId/questionnaire/:category') },
  handler: (input, ctx) => getQuestionnaire(granted(ctx).store, granted(ctx).grantorId, input.category),
});

export const getSharedMemoirInsightsTool = defineTool({
  ...HEIR,
  grant: 'read',
  name: 'get_shared_memoir_insights',
  title: "A shared memoir's insights",
  description: `Themes, mood over time and the people and places a shared memoir mentions most. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE },
  input: z.strictObject({ shareId: ShareId }).describe('The share.'),
  output: getMemoirInsightsTool.output,
  rest: { method: 'GET', shape: 'data', ...memoirPath('/shared/:shareId/insights') },
  handler: (_input, ctx) => insights(granted(ctx).store, granted(ctx).grantorId, 'heir'),
});

/** The conversation of one user with a shared agent: kept in the heir's own account, apart from their own memoir's chat. */
const sharedChatKey = (ctx: ToolContext, shareId: string) => `share:${shareId}:${userKeyOf(ctx.principal)}`;

export const sharedMemoirChatTool = defineTool({
  ...HEIR,
  grant: 'chat',
  bucket: 'chat',
  name: 'shared_memoir_chat',
  title: "Talk with a shared memoir's agent",
  description:
    "Asks the agent of a memoir you hold a share of. It answers in its owner's voice from their entries only, citing them, and says it does not know otherwise. " +
    'The conversation is kept in your account. A grounded answer costs one chat_message price, paid from the chat allowance the owner prepaid on your share while it lasts ' +
    '(charge.credits is then 0), else from your credits; a "don\'t know" is free. Counts in the AI-chat rate limit. ' +
    `403 SHARE_NOT_AVAILABLE when the share does not permit chat. ${NOTE}`,
  annotations: WRITE,
  example: { shareId: EXAMPLE_SHARE, message: 'What did you love about your childhood home?' },
  input: z
    .strictObject({
      shareId: ShareId,
      message: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.chatMessage)
        .describe(`The question, 1 to ${MEMOIR_LIMITS.chatMessage} characters.`),
    })
    .describe('The share and message.'),
  output: memoirChatTool.output,
  rest: { method: 'POST', shape: 'data', ...memoirPath('/shared/:shareId/chat'), extraStatuses: [402] },
  // Read from the owner's memoir; the exchange is the heir's, kept and paid in the heir's own account.
  handler: (input, ctx) =>
    answerChat(
      ctx,
      granted(ctx).store,
      granted(ctx).grantorId,
      sharedChatKey(ctx, input.shareId),
      input.message,
      'heir',
      granted(ctx).allowance,
    ),
});

export const listSharedMemoirChatTool = defineTool({
  ...HEIR,
  grant: 'chat',
  name: 'list_shared_memoir_chat',
  title: "Your conversation with a shared memoir's agent",
  description: `Your messages with the agent of a shared memoir, newest first, cursor-paged. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, limit: 20 },
  input: z.strictObject({ shareId: ShareId, ...cursorPageInput }).describe('The share and paging.'),
  output: listMemoirChatTool.output,
  rest: { method: 'GET', shape: 'list', ...memoirPath('/shared/:shareId/chat/history') },
  handler: (input, ctx) =>
    chatHistory(
      ctx.store,
      ctx.cursors,
      ctx.principal.ownerId,
      sharedChatKey(ctx, input.shareId),
      input.cursor,
      input.limit,
    ),
});
