/**
 * The memoir's media inference tool: what the service reads from a media item (size, time, place, duration, a
 * transcript, a photo's description by the vision model), paid per started minute and kept with the item. Apart from
 * ./media.ts (upload, list, caption, delete), whose items it reads.
 */
import { z } from 'zod';
import { withCharge } from '../../memoir/charge.js';
import {
  cachedInference,
  checkImagePixels,
  getMedia,
  infer,
  inferenceKey,
  measureSeconds,
  mediaFile,
  publicMedia,
  storeInference,
} from '../../memoir/media.js';
import { describeHints, describePhoto } from '../../memoir/photo-description.js';
import { mediaTexts } from '../../memoir/retrieval-docs.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';
import { embedAhead } from './journal.js';
import { KindSchema, MediaId, MediaSchema } from './media.js';
import { ChargeSchema, memoirPath } from './schemas.js';

export const getMemoirMediaInferenceTool = defineTool({
  name: 'get_memoir_media_inference',
  example: { id: 'med_01JD0000000000000000000000' },
  title: 'Media inference',
  description:
    'What the service reads from a media item: photos (sharp, exifr): size, format, when taken, GPS only with includeGps=true, and, where a vision model is configured, ' +
    'a description of what the photo shows (a copy without its metadata is sent to the model; the description is searched by the chat and captions the book ' +
    'when the owner wrote no caption); audio (music-metadata) and video ' +
    '(ffprobe): duration, codecs, and a speech transcript (pocketsphinx). Costs credits per started minute of media (photos: one); the charge is shown. ' +
    'The result is kept with the media item: asking again (with the same includeGps, for a photo) answers from it for 0 credits, with cached=true; ' +
    'a failed inference is refunded and keeps nothing; deleting the item deletes it. Unknown id: 404. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  cancellable: true,
  annotations: READ,
  input: z
    .strictObject({
      id: MediaId,
      includeGps: z.boolean().default(false).describe('Include where a photo was taken (kept private unless asked).'),
    })
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
          gpsAvailable: z
            .boolean()
            .describe('Whether the photo carries a location (shown even when the location itself is withheld).'),
          durationSeconds: z.number().nullable().describe('Length of audio or video, seconds.'),
          codec: z.string().nullable().describe('Codec (audio, video).'),
          sampleRate: z.number().nullable().describe('Audio sample rate, Hz.'),
          channels: z.number().int().nullable().describe('Audio channels.'),
          hasAudio: z.boolean().describe('Whether there is sound.'),
          transcript: z.string().nullable().describe('Speech recognised in the audio (pocketsphinx, en-us), or null.'),
          description: z
            .string()
            .nullable()
            .describe(
              'What a photo shows, in words, by the configured vision model (naming people only as the caption or the memoir names them); null without a model, and for audio and video.',
            ),
        })
        .describe('The inference.'),
      charge: ChargeSchema,
      cached: z
        .boolean()
        .describe(
          'True when this is the result of an earlier paid call, kept with the media item (charged 0 credits this time).',
        ),
    })
    .describe('Inference.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/media/:id/inference'), extraStatuses: [402] },
  handler: async (input, ctx) => {
    const m = await getMedia(ctx.store, input.id);
    const key = inferenceKey(m, input.includeGps);
    const llm = ctx.config.llm;
    const describes = m.kind === 'photo' && llm !== undefined;
    const kept = cachedInference(m, key);
    // A photo kept without a description (read before a vision model was configured) is read again: the price promises one.
    if (kept && !(describes && !kept.description))
      return {
        media: publicMedia(m),
        inference: { ...kept, description: kept.description ?? null },
        charge: { action: 'media_inference' as const, units: 0, credits: 0 },
        cached: true,
      };
    const file = mediaFile(ctx.config.dataDir, m);
    // A photo declaring too many pixels (kept from before uploads were checked) is refused before anything is charged.
    if (m.kind === 'photo') await checkImagePixels(file, 'id');
    const seconds = m.durationSeconds ?? (await measureSeconds(m, file, ctx.signal));
    const minutes = m.kind === 'photo' ? 1 : Math.max(1, Math.ceil(seconds / 60));
    // Stored inside the paid work: if it cannot be stored, the call fails and is refunded like a failed inference.
    const { result, charge } = await withCharge(
      ctx,
      'media_inference',
      minutes,
      { type: 'media_item', id: m.id },
      async () => {
        const describe =
          describes && llm
            ? async (photo: string) => describePhoto(llm, photo, await describeHints(ctx.store, m), ctx.signal)
            : undefined;
        const inference = await infer(m, file, { includeGps: input.includeGps, signal: ctx.signal, describe });
        await storeInference(ctx.store, m.id, key, inference);
        return inference;
      },
    );
    // The transcript or description the chat will search (a caption was noted when written).
    await embedAhead(
      ctx,
      mediaTexts({ ...m, caption: undefined, inference: { [key]: result } }).map((d) => d.text),
    );
    return { media: publicMedia(m), inference: result, charge, cached: false };
  },
});
