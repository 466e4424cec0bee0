/**
 * OpenAPI operations for the memoir routes that are not JSON in and JSON out
 * (served by src/http/memoir-upload.ts, hidden from @fastify/swagger because
 * their bodies are multipart or their answers are bytes): POST /media/upload,
 * /voice/synthesize, /avatar/generate and GET /export. Added to the generated document
 * before src/http/openapi.ts finishes it, so they get the same components,
 * error responses and rate headers as every other operation.
 */
import { MAX_AVATAR_SECONDS, MAX_SYNTH_CHARS } from '../memoir/voice.js';
import { generateAvatarTool, synthesizeVoiceTool } from '../tools/memoir/voice.js';
import { exportMemoirTool, exportSharedMemoirTool } from '../tools/memoir/export.js';
import { uploadMemoirMediaTool } from '../tools/memoir/media.js';
import type { AnyTool } from '../tools/define.js';

type Json = Record<string, any>;

const ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };
const error = (description: string): Json => ({ description, content: { 'application/json': { schema: ENVELOPE } } });
/** The errors every one of these routes can answer (same statuses as the JSON routes) and 402 for the paid ones. */
const errors = (paid: boolean, extra: Record<string, Json> = {}): Json => ({
  '400': error('Bad request.'),
  '401': error('No session.'),
  ...(paid ? { '402': error('Not enough credits (INSUFFICIENT_CREDITS, with required and available in error.details); nothing is charged.') } : {}),
  '403': error('CSRF token missing or wrong.'),
  '413': error('Too large.'),
  '429': error('Rate limited.'),
  '500': error('Internal error.'),
  '503': error('Busy.'),
  ...extra,
});

/** Headers the binary answers carry besides the rate headers. */
const BINARY_HEADERS: Json = {
  'X-Memoir-Voice-Style': { description: '"matched" (base voice moved toward the person\'s measured pitch) or "base" (no usable samples).', schema: { type: 'string', enum: ['matched', 'base'] } },
  'X-Memoir-Pitch-Factor': { description: 'Pitch applied relative to the base voice (1: unchanged).', schema: { type: 'number', minimum: 0.75, maximum: 1.33 } },
  'X-Credits-Charged': { description: 'Credits charged for this answer.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 } },
  'X-Media-Duration': { description: 'Length of the audio or video, seconds.', schema: { type: 'number', minimum: 0, maximum: 86_400 } },
};

/** The text to synthesise, as voice and avatar take it. */
const SPOKEN_TEXT: Json = { type: 'string', minLength: 1, maxLength: MAX_SYNTH_CHARS, description: `Text to speak, 1 to ${MAX_SYNTH_CHARS} characters.` };

const binary = (description: string) => ({ type: 'string', format: 'binary', description });

function operation(tool: AnyTool, extra: Json): Json {
  return {
    operationId: tool.name,
    summary: tool.title,
    description: tool.description,
    tags: [tool.domain],
    security: [{ sessionCookie: [] }],
    ...extra,
  };
}

/** A GET answering the memoir as a book (Markdown or PDF), as a file download. */
function bookOperation(tool: AnyTool, parameters: Json[], description: string, extraErrors: Record<string, Json> = {}): Json {
  return operation(tool, {
    parameters: [
      ...parameters,
      {
        in: 'query',
        name: 'format',
        required: false,
        description: '"md" (Markdown, the default) or "pdf".',
        schema: { type: 'string', enum: ['md', 'pdf'], default: 'md' },
        example: 'md',
      },
    ],
    responses: {
      '200': {
        description,
        headers: {
          'Content-Disposition': { description: 'attachment; filename="memoir-<YYYY-MM-DD>.md" (or .pdf).', schema: { type: 'string', maxLength: 100 } },
          'Cache-Control': { description: 'no-store: the book holds personal data.', schema: { type: 'string', enum: ['no-store'] } },
        },
        content: {
          'text/markdown; charset=utf-8': { schema: { type: 'string', description: 'Markdown: entries by theme, answers by category, photos by media id.' } },
          'application/pdf': { schema: binary('PDF: the same, with the photos embedded (scaled down).') },
        },
      },
      ...errors(false, extraErrors),
    },
  });
}

/** The operations, by path, at /api/v1/svcloom (the /api/svcloom aliases are not listed, as for the other memoir routes). */
export function memoirBinaryPaths(): Record<string, Json> {
  const successJson = (doc: Json) => ({ description: 'Success envelope.', content: { 'application/json': { schema: doc } } });
  return {
    '/api/v1/svcloom/media/upload': {
      post: operation(uploadMemoirMediaTool, {
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: binary('The photo, audio or video (one file). Its type is decided by its bytes, not by its name or Content-Type.'),
                  durationMinutes: { type: 'number', minimum: 0, maximum: 1440, description: 'The duration the client declares, minutes (optional).' },
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
        responses: {
          '201': successJson({
            type: 'object',
            properties: {
              success: { type: 'boolean', enum: [true], description: 'Always true on success.' },
              data: { $ref: '#/components/schemas/MemoirMedia' },
              meta: { $ref: '#/components/schemas/Meta' },
            },
            required: ['success', 'data', 'meta'],
            additionalProperties: false,
            description: 'The stored media item.',
          }),
          ...errors(false, { '415': error('Not multipart/form-data, or the file is not a photo, audio or video, judged by the content.') }),
        },
      }),
    },
    '/api/v1/svcloom/voice/synthesize': {
      post: operation(synthesizeVoiceTool, {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { text: SPOKEN_TEXT },
                required: ['text'],
                additionalProperties: false,
                description: 'The text.',
              },
              example: { text: 'I planted the apple tree the year your mother was born.' },
            },
          },
        },
        responses: {
          '200': {
            description: 'The speech, in the matched voice style: WAV by default, Ogg Opus when Accept asks for audio/ogg (or audio/opus).',
            headers: BINARY_HEADERS,
            content: { 'audio/wav': { schema: binary('WAV (PCM).') }, 'audio/ogg': { schema: binary('Ogg Opus.') } },
          },
          ...errors(true),
        },
      }),
    },
    '/api/v1/svcloom/avatar/generate': {
      post: operation(generateAvatarTool, {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  photoUrl: { type: 'string', minLength: 1, maxLength: 2048, description: "An uploaded photo's media id (med_...) or an HTTPS URL of an image." },
                  text: SPOKEN_TEXT,
                  style: { type: 'string', enum: ['stylized', 'natural'], default: 'stylized', description: '"stylized" (richer colours, vignette) or "natural".' },
                  durationSeconds: { type: 'number', minimum: 1, maximum: MAX_AVATAR_SECONDS, description: `Video length, 1 to ${MAX_AVATAR_SECONDS} seconds.` },
                },
                required: ['photoUrl', 'text', 'durationSeconds'],
                additionalProperties: false,
                description: 'The avatar.',
              },
              example: { photoUrl: 'med_01JD0000000000000000000000', text: 'Hello, my dears.', style: 'stylized', durationSeconds: 5 },
            },
          },
        },
        responses: {
          '200': {
            description: 'The MP4 (H.264 + AAC).',
            headers: BINARY_HEADERS,
            content: { 'video/mp4': { schema: binary('The video.') } },
          },
          ...errors(true, { '404': error('No such media item.'), '415': error('The photo is not an image.') }),
        },
      }),
    },
    '/api/v1/svcloom/export': { get: bookOperation(exportMemoirTool, [], 'The book, as a file download.') },
    '/api/v1/svcloom/shared/{shareId}/export': {
      get: bookOperation(
        exportSharedMemoirTool,
        [
          {
            in: 'path',
            name: 'shareId',
            required: true,
            description: 'A share you hold (shr_...), open now.',
            schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
            example: 'shr_01JD000000000000000000000B',
          },
        ],
        'The shared memoir as a book, as a file download.',
        { '403': error('CSRF token missing or wrong, or the share is not open (SHARE_NOT_AVAILABLE, the reason in error.details).'), '404': error('You hold no share with this id.') },
      ),
    },
  };
}
