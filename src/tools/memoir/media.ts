import path from 'node:path';
import { z } from 'zod';
import { storageUsage, StorageUsageSchema } from '../../accounts/quota.js';
import { withCharge } from '../../memoir/charge.js';
import { cachedInference, checkImagePixels, commitUpload, deleteMedia, getMedia, infer, inferenceKey, listMedia, measureSeconds, mediaFile, publicMedia, stagingDir, storeInference } from '../../memoir/media.js';
import type { MediaRecord } from '../../memoir/records.js';
import { medianPitch, pcm16k } from '../../memoir/voice.js';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { defineTool } from '../define.js';
import { ChargeSchema, memoirPath, READ, SESSION_ONLY, WRITE } from './schemas.js';

const KindSchema = z.enum(['photo', 'audio', 'video']).describe('The kind, decided by the file\'s content.');

export const MediaSchema = z
  .object({
    id: z.string().describe('Media id (med_...).'),
    kind: KindSchema,
    mime: z.string().describe('MIME type found from the content (magic bytes).'),
    size: z.number().int().describe('Bytes.'),
    originalName: z.string().nullable().describe('The file name the client gave (shown only; never used as a path).'),
    durationMinutes: z.number().nullable().describe('The duration the client declared, if any.'),
    durationSeconds: z.number().nullable().describe('Measured duration of audio and video, seconds (null for photos).'),
    createdAt: z.string().describe('When it was uploaded (ISO 8601).'),
  })
  .describe('A media item.');

const MediaId = z.string().min(1).max(64).describe('Media id (med_...).');

/**
 * Records an upload that the multipart route (src/http/memoir-upload.ts) has
 * streamed to the staging area and typed by its bytes. Not registered in TOOLS:
 * binary uploads are REST multipart only; invokeTool still does the checks.
 */
export const uploadMemoirMediaTool = defineTool({
  name: 'upload_memoir_media',
  title: 'Upload a photo, audio or video',
  description:
    'multipart/form-data with `file` (a photo, audio or video, recognised by its content: a lying name or Content-Type changes nothing; anything else is 415) ' +
    'and optionally `durationMinutes`. Size limits per kind, and at most 100 megapixels for a photo (413 past them). The account\'s storage quota is ' +
    'checked before anything is stored: 413 QUOTA_EXCEEDED with used, limit and needed bytes (the request\'s length counts). A broken form is 400, ' +
    'another Content-Type 415. Needs the X-CSRF-Token header. Session (REST) only.',
  ...SESSION_ONLY,
  annotations: WRITE,
  input: z
    .strictObject({
      stagingId: z.string().regex(/^[0-9a-f]{32}$/).describe('The staged upload.'),
      kind: KindSchema,
      mime: z.string().max(100).describe('Detected MIME type.'),
      ext: z.string().regex(/^[a-z0-9]{1,10}$/).describe('Detected extension.'),
      size: z.number().int().min(1).describe('Bytes.'),
      originalName: z.string().max(255).nullable().describe('Client file name.'),
      durationMinutes: z.number().min(0).max(24 * 60).nullable().describe('Declared duration, minutes.'),
    })
    .describe('A staged upload.'),
  output: MediaSchema,
  rest: { method: 'POST', shape: 'data', status: 201, ...memoirPath('/media/upload'), extraStatuses: [415] },
  handler: async (input, ctx) => {
    const staged = path.join(stagingDir(ctx.config.dataDir), input.stagingId);
    const seconds = input.kind === 'photo' ? null : await measureSeconds({ kind: input.kind } as MediaRecord, staged, ctx.signal).catch(() => null);
    // The speaker's pitch, for the matched voice style (the first 30 s are enough).
    const pitch = input.kind === 'photo' ? null : await pcm16k(staged, 30, ctx.signal).then((s) => medianPitch(s), () => null);
    const record = await commitUpload({ store: ctx.store, clock: ctx.clock, dataDir: ctx.config.dataDir, defaultQuota: ctx.config.storageQuotaBytes }, ctx.principal.ownerId, input, {
      originalName: input.originalName,
      durationMinutes: input.durationMinutes,
      durationSeconds: seconds,
      medianPitchHz: pitch,
    });
    return publicMedia(record);
  },
});

export const listMemoirMediaTool = defineTool({
  name: 'list_memoir_media',
  example: { page: 1, limit: 20 },
  title: 'List media',
  description:
    "The account's uploaded photos, audio and video, newest first, and its storage quota: used, reserved (uploads in progress), limit and available bytes " +
    '(in `meta.storage` over REST). Session (REST) only.',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(MediaSchema).describe('The media on this page.'), pagination: OffsetPageMetaSchema, storage: StorageUsageSchema })
    .describe('A page of media, with the account\'s storage usage.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/media'), metaFields: ['storage'] },
  handler: async (input, ctx) => ({
    ...paginateOffset(await listMedia(ctx.store, ctx.principal.ownerId), input.page, input.limit),
    storage: await storageUsage(ctx.store, ctx.principal.ownerId, { defaultLimit: ctx.config.storageQuotaBytes, now: ctx.clock.now() }),
  }),
});

export const deleteMemoirMediaTool = defineTool({
  name: 'delete_memoir_media',
  example: { id: 'med_01JD0000000000000000000000' },
  title: 'Delete a media item',
  description: 'Deletes a media item: its file and its record. Unknown id: 404. Needs the X-CSRF-Token header. Session (REST) only.',
  ...SESSION_ONLY,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ id: MediaId }).describe('The item.'),
  output: z.object({ id: z.string().describe('The deleted id.'), deleted: z.literal(true).describe('Always true.') }).describe('Deleted.'),
  rest: { method: 'DELETE', shape: 'data', ...memoirPath('/media/:id') },
  handler: (input, ctx) => deleteMedia({ store: ctx.store, dataDir: ctx.config.dataDir }, input.id),
});

export const getMemoirMediaInferenceTool = defineTool({
  name: 'get_memoir_media_inference',
  example: { id: 'med_01JD0000000000000000000000' },
  title: 'Media inference',
  description:
    'What the service reads from a media item: photos (sharp, exifr): size, format, when taken, GPS only with includeGps=true; audio (music-metadata) and video ' +
    '(ffprobe): duration, codecs, and a speech transcript (pocketsphinx). Costs credits per started minute of media (photos: one); the charge is shown. ' +
    'The result is kept with the media item: asking again (with the same includeGps, for a photo) answers from it for 0 credits, with cached=true; ' +
    'a failed inference is refunded and keeps nothing; deleting the item deletes it. Unknown id: 404. Session (REST) only.',
  ...SESSION_ONLY,
  cancellable: true,
  annotations: READ,
  input: z
    .strictObject({ id: MediaId, includeGps: z.boolean().default(false).describe('Include where a photo was taken (kept private unless asked).') })
    .describe('The item.'),
  output: z
    .object({
      media: MediaSchema,
      inference: z
        .object({
          kind: KindSchema,
          mime: z.string().describe('MIME type.'),
          width: z.number().int().nullable().describe('Pixels (photos, video).'),
          height: z.number().int().nullable().describe('Pixels (photos, video).'),
          format: z.string().nullable().describe('Container or image format.'),
          takenAt: z.string().nullable().describe('When a photo was taken, from EXIF (ISO 8601), or null.'),
          gps: z
            .object({ latitude: z.number().describe('Degrees.'), longitude: z.number().describe('Degrees.') })
            .nullable()
            .describe('Where a photo was taken: only with includeGps=true.'),
          gpsAvailable: z.boolean().describe('Whether the photo carries a location (shown even when the location itself is withheld).'),
          durationSeconds: z.number().nullable().describe('Length of audio or video, seconds.'),
          codec: z.string().nullable().describe('Codec (audio, video).'),
          sampleRate: z.number().nullable().describe('Audio sample rate, Hz.'),
          channels: z.number().int().nullable().describe('Audio channels.'),
          hasAudio: z.boolean().describe('Whether there is sound.'),
          transcript: z.string().nullable().describe('Speech recognised in the audio (pocketsphinx, en-us), or null.'),
        })
        .describe('The inference.'),
      charge: ChargeSchema,
      cached: z.boolean().describe('True when this is the result of an earlier paid call, kept with the media item (charged 0 credits this time).'),
    })
    .describe('Inference.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/media/:id/inference'), extraStatuses: [402] },
  handler: async (input, ctx) => {
    const m = await getMedia(ctx.store, input.id);
    const key = inferenceKey(m, input.includeGps);
    const kept = cachedInference(m, key);
    if (kept) return { media: publicMedia(m), inference: kept, charge: { action: 'media_inference' as const, units: 0, credits: 0 }, cached: true };
    const file = mediaFile(ctx.config.dataDir, m);
    // A photo declaring too many pixels (kept from before uploads were checked) is refused before anything is charged.
    if (m.kind === 'photo') await checkImagePixels(file, 'id');
    const seconds = m.durationSeconds ?? (await measureSeconds(m, file, ctx.signal));
    const minutes = m.kind === 'photo' ? 1 : Math.max(1, Math.ceil(seconds / 60));
    // Stored inside the paid work: if it cannot be stored, the call fails and is refunded like a failed inference.
    const { result, charge } = await withCharge(ctx, 'media_inference', minutes, { type: 'media_item', id: m.id }, async () => {
      const inference = await infer(m, file, { includeGps: input.includeGps, signal: ctx.signal });
      await storeInference(ctx.store, m.id, key, inference);
      return inference;
    });
    return { media: publicMedia(m), inference: result, charge, cached: false };
  },
});

