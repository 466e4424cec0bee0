/**
 * Heirs see and hear: through an open share, an heir lists the owner's photos
 * and recordings, downloads each one, and hears text spoken in the owner's
 * matched voice style; items the owner kept private are not there for them.
 * The owner may prepay a chat allowance on a share, spent on the heir's chat
 * before the heir's own credits. The wrapper opens the share (tools declaring
 * `grant`): another account's share is 404, one not open 403.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { fileDownloadOutput } from '../file-output.js';
import { ApiError } from '../../core/errors.js';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { captionFromName } from '../../memoir/export.js';
import { MAX_PREPAID_CREDITS, prepayHeirChat } from '../../memoir/heir-allowance.js';
import { mediaFile } from '../../memoir/media.js';
import { MEMOIR_MEDIA, type MediaRecord } from '../../memoir/records.js';
import { defineTool, type FileAnswer, READ, SESSION_ONLY, WRITE } from '../define.js';
import { ShareId } from './heirs.js';
import { memoirPath } from './schemas.js';
import { granted } from './shared.js';
import { FORMAT_FROM_ACCEPT, MEDIA_HEADERS, mediaAnswer, speak, synthesizeVoiceTool } from './voice.js';

const HEIR = { domain: 'memoir', scope: 'chat', principals: ['session', 'key'], bucket: 'default' } as const;
const NOTE =
  'Needs an open share claimed by your account (404 unknown share, 403 SHARE_NOT_AVAILABLE while it is not open); keys need scope `chat`.';
const EXAMPLE_SHARE = 'shr_01JD000000000000000000000B';
const MediaId = z
  .string()
  .regex(/^med_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Media id (med_...).');

/** Whether an heir may see a media item: everything but what its owner marked private. */
const forHeirs = (m: MediaRecord) => m.private !== true;

/** A shared media item, or 404 (unknown, another memoir's, or private: all the same to the heir). */
async function sharedMedia(store: import('../../store/port.js').Store, id: string): Promise<MediaRecord> {
  const m = await store.get<MediaRecord>(MEMOIR_MEDIA, id);
  if (!m || !forHeirs(m)) throw ApiError.notFound(`Media item ${id.slice(0, 60)}`);
  return m;
}

const SharedMediaSchema = z
  .object({
    id: z.string().describe('Media id (med_...): download it with GET .../media/:id/file.'),
    kind: z.enum(['photo', 'audio', 'video']).describe('Photo, audio recording or video.'),
    mime: z.string().describe('Its media type.'),
    size: z.number().int().describe('Bytes.'),
    caption: z
      .string()
      .nullable()
      .describe(
        "The owner's caption; else, for a photo, its description by the vision model; else the file's name when it reads as words; else null.",
      ),
    durationSeconds: z.number().nullable().describe('Length of audio and video, seconds (null for photos).'),
    transcript: z.string().nullable().describe('What is said in a recording, when it was transcribed; else null.'),
  })
  .describe('A photo or recording of the shared memoir.');

/** The caption the owner wrote, if any. */
const ownCaption = (m: MediaRecord): string | null =>
  typeof m.caption === 'string' && m.caption.trim() ? m.caption.trim() : null;

function sharedView(m: MediaRecord) {
  const inferred = (field: string): string | null => {
    for (const key of ['plain', 'gps']) {
      const v = (m.inference?.[key] as Record<string, unknown> | undefined)?.[field];
      if (typeof v === 'string' && v.trim()) return v.trim();
    }
    return null;
  };
  return {
    id: m.id,
    kind: m.kind,
    mime: m.mime,
    size: m.size,
    caption: ownCaption(m) ?? inferred('description') ?? captionFromName(m.originalName),
    durationSeconds: m.durationSeconds ?? null,
    transcript: inferred('transcript'),
  };
}

export const listSharedMemoirMediaTool = defineTool({
  ...HEIR,
  grant: 'read',
  name: 'list_shared_memoir_media',
  title: "A shared memoir's photos and recordings",
  description: `The photos, audio recordings and videos of a memoir you hold a share of, newest first, offset-paged, with captions and transcripts where there are some; what the owner kept private is not listed. Download each with GET .../media/:id/file. ${NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, page: 1, limit: 20 },
  input: z.strictObject({ shareId: ShareId, ...offsetPageInput }).describe('The share and paging.'),
  output: z
    .object({ items: z.array(SharedMediaSchema).describe('This page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of media.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/shared/:shareId/media') },
  handler: async (input, ctx) => {
    const g = granted(ctx);
    const all = await g.store.findBy<MediaRecord>(MEMOIR_MEDIA, 'ownerId', g.grantorId);
    const items = all
      .filter(forHeirs)
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map(sharedView);
    return paginateOffset(items, input.page, input.limit);
  },
});

/** A media file as the answer's body, streamed from disk. */
function mediaFileAnswer(output: Record<string, unknown>): FileAnswer {
  const out = output as { stream: Readable; contentType: string; fileName: string; size: number };
  return {
    contentType: out.contentType,
    headers: {
      'Content-Disposition': `inline; filename="${out.fileName}"`,
      'Content-Length': out.size,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    body: out.stream,
  };
}

export const getSharedMemoirMediaFileTool = defineTool({
  name: 'get_shared_memoir_media_file',
  example: { shareId: EXAMPLE_SHARE, id: 'med_01JD0000000000000000000000' },
  title: "Download a shared memoir's photo or recording",
  description:
    'The bytes of a photo, recording or video of a memoir you hold a share of (its own type, shown inline), while the share is open: 404 for a share you do not ' +
    'hold or an item it does not show (private, deleted or another memoir’s), 403 SHARE_NOT_AVAILABLE while it is not open. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  grant: 'read',
  annotations: READ,
  input: z.strictObject({ shareId: ShareId, id: MediaId }).describe('The share and item.'),
  output: fileDownloadOutput('The file, read as it is sent; never serialised.'),
  rest: {
    method: 'GET',
    shape: 'data',
    ...memoirPath('/shared/:shareId/media/:id/file'),
    extraStatuses: [404],
    file: mediaFileAnswer,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'shareId',
          required: true,
          description: 'A share you hold (shr_...), open now.',
          schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_SHARE,
        },
        {
          in: 'path',
          name: 'id',
          required: true,
          description: 'A media item of the shared memoir (med_...).',
          schema: { type: 'string', pattern: '^med_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: 'med_01JD0000000000000000000000',
        },
      ],
      success: {
        description: 'The file, in its own media type.',
        headers: {
          'Content-Disposition': {
            description: 'inline; filename="memoir-<kind>.<ext>".',
            schema: { type: 'string', maxLength: 100 },
          },
          'Cache-Control': {
            description: 'private, no-store: it is personal.',
            schema: { type: 'string', enum: ['private, no-store'] },
          },
        },
        content: {
          'image/*': { schema: { type: 'string', format: 'binary', description: 'A photo.' } },
          'audio/*': { schema: { type: 'string', format: 'binary', description: 'A recording.' } },
          'video/*': { schema: { type: 'string', format: 'binary', description: 'A video.' } },
        },
      },
    },
  },
  handler: async (input, ctx) => {
    const g = granted(ctx);
    const m = await sharedMedia(g.store, input.id);
    const file = mediaFile(ctx.config.dataDir, m);
    // A record whose file is gone (removed by hand) is as absent as a deleted item.
    await access(file).catch(() => {
      throw ApiError.notFound(`Media item ${m.id}`);
    });
    return { stream: createReadStream(file), contentType: m.mime, fileName: `memoir-${m.kind}.${m.ext}`, size: m.size };
  },
});

export const synthesizeSharedMemoirVoiceTool = defineTool({
  name: 'synthesize_shared_memoir_voice',
  example: { shareId: EXAMPLE_SHARE, text: 'I planted the apple tree the year your mother was born.' },
  title: "Hear text in a shared memoir's voice",
  description:
    "Speaks text in the matched voice style of a memoir you hold a share of (its owner's recordings set the pitch) and answers with the audio: WAV, " +
    'or Ogg Opus when Accept asks for audio/ogg or audio/opus. Your credits, per started second of audio. 404 for a share you do not hold, ' +
    '403 SHARE_NOT_AVAILABLE while it is not open. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  grant: 'read',
  cancellable: true,
  annotations: WRITE,
  input: z.strictObject({ shareId: ShareId, ...synthesizeVoiceTool.input.shape }).describe('The share and the text.'),
  output: synthesizeVoiceTool.output,
  rest: {
    method: 'POST',
    shape: 'data',
    ...memoirPath('/shared/:shareId/voice/synthesize'),
    extraStatuses: [402, 404],
    ...FORMAT_FROM_ACCEPT,
    file: mediaAnswer,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'shareId',
          required: true,
          description: 'A share you hold (shr_...), open now.',
          schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_SHARE,
        },
      ],
      // The owner's route's body (the document keeps it once, as a component).
      requestBody: structuredClone(synthesizeVoiceTool.rest.docs!.requestBody!),
      success: structuredClone({ ...synthesizeVoiceTool.rest.docs!.success!, headers: MEDIA_HEADERS }),
    },
  },
  // The voice is the owner's (read through the share); the credits are the heir's.
  handler: (input, ctx) => speak(ctx, granted(ctx).store, granted(ctx).grantorId, input, 'heir'),
});

export const prepayMemoirHeirChatTool = defineTool({
  name: 'prepay_memoir_heir_chat',
  domain: 'memoir',
  scope: 'chat',
  principals: ['session', 'key'],
  bucket: 'default',
  example: { shareId: EXAMPLE_SHARE, credits: 50 },
  title: "Prepay an heir's chat",
  description:
    "Moves credits from your wallet to the chat allowance of one of your memoir's shares: the heir holding it then talks with the agent on them, and on " +
    'their own credits only once they run out. Taken from your wallet now (402 INSUFFICIENT_CREDITS when it is short: nothing moves); 404 for a share ' +
    'that is not yours, 409 for a withdrawn one. Keys need scope `chat` (sessions have it).',
  annotations: WRITE,
  input: z
    .strictObject({
      shareId: ShareId,
      credits: z
        .number()
        .int()
        .min(1)
        .max(MAX_PREPAID_CREDITS)
        .describe(`Credits to add to the allowance, 1 to ${MAX_PREPAID_CREDITS}.`),
    })
    .describe('The share and the credits.'),
  output: z
    .object({
      shareId: ShareId,
      chatAllowance: z.number().int().describe('Credits the allowance holds now.'),
      credits: z.number().int().describe('Credits taken from your wallet by this call.'),
    })
    .describe('The allowance.'),
  rest: {
    method: 'POST',
    shape: 'data',
    ...memoirPath('/heirs/shares/:shareId/allowance'),
    extraStatuses: [402, 404, 409],
  },
  handler: (input, ctx) => prepayHeirChat(ctx, ctx.principal.ownerId, input.shareId, input.credits),
});
