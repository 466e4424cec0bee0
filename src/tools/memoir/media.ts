import path from 'node:path';
import { z } from 'zod';
import {
  quotaExceeded,
  releaseStorage,
  reserveStorage,
  shrinkReservation,
  storageUsage,
  StorageUsageSchema,
} from '../../accounts/quota.js';
import type { Principal } from '../../accounts/principal.js';
import { accountStore } from '../../accounts/tenancy.js';
import { ApiError } from '../../core/errors.js';
import {
  commitUpload,
  DEFAULT_UPLOAD_LIMITS,
  deleteMedia,
  discardStaged,
  listMedia,
  MAX_CAPTION,
  measureSeconds,
  newStagingId,
  publicMedia,
  stageUpload,
  stagingDir,
  updateMedia,
  uploadFileName,
  type Staged,
} from '../../memoir/media.js';
import type { MediaRecord } from '../../memoir/records.js';
import { mediaTexts } from '../../memoir/retrieval-docs.js';
import { medianPitch, pcm16k } from '../../memoir/voice.js';
import { offsetPageInput, OffsetPageMetaSchema } from '../../core/pagination.js';
import {
  defineTool,
  DELETE,
  READ,
  type ReceivedForm,
  type Services,
  SESSION_ONLY,
  WRITE,
  WRITE_IDEMPOTENT,
} from '../define.js';
import { embedAhead } from './journal.js';
import { memoirPath } from './schemas.js';

export const KindSchema = z.enum(['photo', 'audio', 'video']).describe("The kind, decided by the file's content.");

export const MediaSchema = z
  .object({
    id: z.string().describe('Media id (med_...).'),
    kind: KindSchema,
    mime: z.string().describe('MIME type found from the content (magic bytes).'),
    size: z.number().int().describe('Bytes.'),
    originalName: z.string().nullable().describe('The file name the client gave (shown only; never used as a path).'),
    caption: z.string().nullable().describe("The owner's caption (update_memoir_media), or null."),
    private: z
      .boolean()
      .describe('Whether it is kept from heirs: they never list, download or reach it through their chat or book.'),
    durationMinutes: z.number().nullable().describe('The duration the client declared, if any.'),
    durationSeconds: z.number().nullable().describe('Measured duration of audio and video, seconds (null for photos).'),
    createdAt: z.string().describe('When it was uploaded (ISO 8601).'),
    updatedAt: z.string().optional().describe('When its caption or privacy last changed (ISO 8601); absent: never.'),
  })
  .describe('A media item.');

export const MediaId = z.string().min(1).max(64).describe('Media id (med_...).');

/** The largest file any kind of upload may be. */
function largestUpload(services: Services): number {
  const limits = services.config.memoirUploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  return Math.max(limits.photo, limits.audio, limits.video);
}

/**
 * Reads an upload form: room in the account's storage quota is reserved first (the request's length bounds the file),
 * then the one file is streamed to the staging area and typed by its bytes (src/memoir/media.ts), and the optional
 * durationMinutes field is checked. The staged file and the reservation are given back if anything fails.
 */
async function readUpload(form: ReceivedForm, services: Services, principal: Principal) {
  const limits = services.config.memoirUploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  const quota = { defaultLimit: services.config.storageQuotaBytes, now: services.clock.now() };
  const store = accountStore(services.store, principal.ownerId);
  const stagingId = newStagingId();
  let staged: Staged | undefined;
  let reserved = false;
  const giveBack = async () => {
    if (staged) await discardStaged(services.config.dataDir, staged.stagingId);
    staged = undefined;
    // If the store cannot be reached now, the reservation lapses by itself.
    if (reserved) {
      await releaseStorage(store, principal.ownerId, stagingId, quota).catch((err: unknown) =>
        services.log.warn({ err: (err as Error).name }, "could not release an upload's storage reservation"),
      );
    }
  };
  try {
    const declared = form.declaredLength;
    const { bytes: room, before } = await reserveStorage(
      store,
      principal.ownerId,
      stagingId,
      declared !== undefined ? { bytes: declared } : { bytes: largestUpload(services), atLeast: 1 },
      quota,
    );
    reserved = true;
    const fields = new Map<string, string>();
    let originalName: string | null = null;
    for await (const part of form.parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || staged) {
          part.file.resume();
          throw ApiError.validation('Exactly one file, in the field "file".', [
            { field: part.fieldname, reason: 'unexpected file field' },
          ]);
        }
        try {
          originalName = uploadFileName(part.filename);
        } catch (err) {
          part.file.resume();
          throw err;
        }
        staged = await stageUpload(services.config.dataDir, part.file, limits, {
          stagingId,
          cap: { bytes: room, refuse: (size) => quotaExceeded(before, size) },
        });
      } else {
        fields.set(part.fieldname, part.value);
      }
    }
    if (!staged) throw ApiError.validation('No file was sent.', [{ field: 'file', reason: 'required' }]);
    // The room the file did not take is free for other uploads at once.
    if (staged.size < room) await shrinkReservation(store, principal.ownerId, stagingId, staged.size, quota);
    const unknown = [...fields.keys()].filter((f) => f !== 'durationMinutes');
    if (unknown.length)
      throw ApiError.validation(
        'Unknown form fields.',
        unknown.map((field) => ({ field, reason: 'unknown field' })),
      );
    let durationMinutes: number | null = null;
    const declaredMinutes = fields.get('durationMinutes');
    if (declaredMinutes !== undefined) {
      durationMinutes = Number(declaredMinutes);
      if (!/^\d+(\.\d+)?$/.test(declaredMinutes.trim()) || durationMinutes > 24 * 60) {
        throw ApiError.validation('Invalid durationMinutes.', [
          { field: 'durationMinutes', reason: 'a number of minutes from 0 to 1440' },
        ]);
      }
    }
    const input = { ...staged, originalName, durationMinutes };
    return {
      input,
      settle: async (done: boolean) => {
        // A recorded upload owns its file and its room; a failed one gives both back.
        if (done) staged = undefined;
        else await giveBack();
      },
    };
  } catch (err) {
    await giveBack();
    throw err;
  }
}

/**
 * Records an upload: the route streams the multipart form to the staging area (readUpload), then the tool commits
 * the staged file. Over REST only: binary uploads are not MCP tools.
 */
export const uploadMemoirMediaTool = defineTool({
  name: 'upload_memoir_media',
  // The input as the route makes it from the form; clients send the form (rest.docs shows it).
  example: {
    stagingId: '0123456789abcdef0123456789abcdef',
    kind: 'photo',
    mime: 'image/jpeg',
    ext: 'jpg',
    size: 48213,
    originalName: 'holiday.jpg',
    durationMinutes: null,
  },
  title: 'Upload a photo, audio or video',
  description:
    'multipart/form-data with `file` (a photo, audio or video, recognised by its content: a lying name or Content-Type changes nothing; anything else is 415) ' +
    "and optionally `durationMinutes`. Size limits per kind, and at most 100 megapixels for a photo (413 past them). The account's storage quota is " +
    "checked before anything is stored: 413 QUOTA_EXCEEDED with used, limit and needed bytes (the request's length counts). A broken form is 400, " +
    'another Content-Type 415. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: WRITE,
  input: z
    .strictObject({
      stagingId: z
        .string()
        .regex(/^[0-9a-f]{32}$/)
        .describe('The staged upload.'),
      kind: KindSchema,
      mime: z.string().max(100).describe('Detected MIME type.'),
      ext: z
        .string()
        .regex(/^[a-z0-9]{1,10}$/)
        .describe('Detected extension.'),
      size: z.number().int().min(1).describe('Bytes.'),
      originalName: z.string().max(255).nullable().describe('Client file name.'),
      durationMinutes: z
        .number()
        .min(0)
        .max(24 * 60)
        .nullable()
        .describe('Declared duration, minutes.'),
    })
    .describe('A staged upload.'),
  output: MediaSchema,
  rest: {
    method: 'POST',
    shape: 'data',
    status: 201,
    ...memoirPath('/media/upload'),
    extraStatuses: [415],
    multipart: {
      // The client's file name is kept as sent (preservePath), so that a name holding a path is refused, not cut short.
      limits: (config) => {
        const limits = config.memoirUploadLimits ?? DEFAULT_UPLOAD_LIMITS;
        return {
          fileSize: Math.max(limits.photo, limits.audio, limits.video),
          files: 1,
          fields: 4,
          fieldSize: 1024,
          parts: 6,
        };
      },
      read: readUpload,
    },
    docs: {
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: {
                  type: 'string',
                  format: 'binary',
                  description:
                    'The photo, audio or video (one file). Its type is decided by its bytes, not by its name or Content-Type.',
                },
                durationMinutes: {
                  type: 'number',
                  minimum: 0,
                  maximum: 1440,
                  description: 'The duration the client declares, minutes (optional).',
                },
              },
              required: ['file'],
              additionalProperties: false,
              description: 'The upload form.',
            },
            // A file's bytes cannot be shown in JSON: the example stands for them (send the file itself).
            example: { file: '<the bytes of holiday.jpg>', durationMinutes: 0 },
            encoding: { file: { contentType: 'image/*, audio/*, video/*' } },
          },
        },
      },
      success: {
        description: 'Success envelope.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                success: { type: 'boolean', enum: [true], description: 'Always true on success.' },
                data: { $ref: '#/components/schemas/MemoirMedia' },
                meta: { $ref: '#/components/schemas/Meta' },
              },
              required: ['success', 'data', 'meta'],
              additionalProperties: false,
              description: 'The stored media item.',
            },
          },
        },
      },
    },
  },
  handler: async (input, ctx) => {
    const staged = path.join(stagingDir(ctx.config.dataDir), input.stagingId);
    const seconds =
      input.kind === 'photo'
        ? null
        : await measureSeconds({ kind: input.kind } as MediaRecord, staged, ctx.signal).catch(() => null);
    // The speaker's pitch, for the matched voice style (the first 30 s are enough).
    const pitch =
      input.kind === 'photo'
        ? null
        : await pcm16k(staged, 30, ctx.signal).then(
            (s) => medianPitch(s),
            () => null,
          );
    const record = await commitUpload(
      { store: ctx.store, clock: ctx.clock, dataDir: ctx.config.dataDir, defaultQuota: ctx.config.storageQuotaBytes },
      ctx.principal.ownerId,
      input,
      {
        originalName: input.originalName,
        durationMinutes: input.durationMinutes,
        durationSeconds: seconds,
        medianPitchHz: pitch,
      },
    );
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
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({
      items: z.array(MediaSchema).describe('The media on this page.'),
      pagination: OffsetPageMetaSchema,
      storage: StorageUsageSchema,
    })
    .describe("A page of media, with the account's storage usage."),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/media'), metaFields: ['storage'] },
  handler: async (input, ctx) => ({
    ...(await listMedia(ctx.store, ctx.principal.ownerId, input.page, input.limit)),
    storage: await storageUsage(ctx.store, ctx.principal.ownerId, {
      defaultLimit: ctx.config.storageQuotaBytes,
      now: ctx.clock.now(),
    }),
  }),
});

export const deleteMemoirMediaTool = defineTool({
  name: 'delete_memoir_media',
  example: { id: 'med_01JD0000000000000000000000' },
  title: 'Delete a media item',
  description:
    'Deletes a media item: its file and its record. Unknown id: 404. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: DELETE,
  input: z.strictObject({ id: MediaId }).describe('The item.'),
  output: z
    .object({ id: z.string().describe('The deleted id.'), deleted: z.literal(true).describe('Always true.') })
    .describe('Deleted.'),
  rest: { method: 'DELETE', shape: 'data', ...memoirPath('/media/:id') },
  handler: (input, ctx) => deleteMedia({ store: ctx.store, dataDir: ctx.config.dataDir }, input.id),
});

export const updateMemoirMediaTool = defineTool({
  name: 'update_memoir_media',
  example: { id: 'med_01JD0000000000000000000000', caption: 'Jean and me at the lake, summer 1962', private: false },
  title: 'Caption a media item or keep it private',
  description:
    "Changes a photo's, recording's or video's caption (null or empty removes it; at most 500 characters) or whether it is private. A private item is " +
    "the owner's alone: heirs do not list or download it, and neither their chat nor their book uses it or its description. The caption is searched by " +
    'the chat, captions the book, and is given to the vision model as a hint of who is in a photo. Give at least one field (else 400). Unknown id: 404. ' +
    'Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      id: MediaId,
      caption: z
        .string()
        .max(MAX_CAPTION)
        .nullable()
        .optional()
        .describe(`The owner's caption, at most ${MAX_CAPTION} characters; null or empty removes it.`),
      private: z.boolean().optional().describe('True keeps the item from heirs; false shares it with them.'),
    })
    .describe('The item and what to change.'),
  output: MediaSchema,
  rest: { method: 'PATCH', shape: 'data', ...memoirPath('/media/:id') },
  handler: async (input, ctx) => {
    const { id, ...patch } = input;
    const updated = await updateMedia(ctx.store, ctx.clock, id, patch);
    if (patch.caption)
      await embedAhead(
        ctx,
        mediaTexts({ ...updated, inference: undefined }).map((d) => d.text),
      );
    return publicMedia(updated);
  },
});
