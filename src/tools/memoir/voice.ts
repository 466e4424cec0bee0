import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { fetchPhoto } from '../../memoir/fetch-photo.js';
import { requireCharge, withCharge } from '../../memoir/charge.js';
import { checkImagePixels, getMedia, mediaFile } from '../../memoir/media.js';
import { MEMOIR_MEDIA, type MediaRecord } from '../../memoir/records.js';
import {
  BASE_VOICE,
  baseVoicePitch,
  MAX_AVATAR_SECONDS,
  MAX_SYNTH_CHARS,
  pitchFactor,
  renderAvatar,
  shortestSpeechSeconds,
  speakable,
  synthesize,
} from '../../memoir/voice.js';
import type { Store } from '../../store/port.js';
import {
  defineTool,
  type FileAnswer,
  type OpenApiFragment,
  OUTBOUND,
  READ,
  type RestMapping,
  SESSION_ONLY,
  type ToolContext,
  WRITE,
} from '../define.js';
import { readFile } from 'node:fs/promises';
import { ChargeSchema, memoirPath } from './schemas.js';

/** The person's voice samples: audio and video with measured speech (for heirs, none the owner kept private). */
export async function voiceProfile(store: Store, ownerId: string, audience: 'owner' | 'heir' = 'owner') {
  const media = (await store.findBy<MediaRecord>(MEMOIR_MEDIA, 'ownerId', ownerId)).filter(
    (m) => m.kind !== 'photo' && !(audience === 'heir' && m.private === true),
  );
  const pitches = media
    .map((m) => m.medianPitchHz)
    .filter((p): p is number => typeof p === 'number')
    .sort((a, b) => a - b);
  const seconds = media.reduce((n, m) => n + (m.durationSeconds ?? 0), 0);
  const median = pitches.length ? pitches[Math.floor(pitches.length / 2)]! : null;
  return { samples: media.length, minutes: Math.round((seconds / 60) * 100) / 100, medianPitchHz: median };
}

export const VoiceStyle = z
  .object({
    style: z
      .enum(['matched', 'base'])
      .describe('"matched": the base voice moved toward the person\'s measured pitch; "base": no usable samples yet.'),
    baseVoice: z.string().describe('The festival voice used.'),
    pitchFactor: z.number().describe('Pitch applied relative to the base voice (1: unchanged; bounded 0.75 to 1.33).'),
  })
  .describe('The voice style used.');

export const getVoiceStatusTool = defineTool({
  name: 'get_memoir_voice_status',
  example: {},
  title: 'Voice profile',
  description:
    "The person's voice samples (uploaded audio and video with speech), their minutes and measured median pitch, and the matched voice style that " +
    'synthesis uses: a base voice moved toward their pitch. It is a matched voice style, not a copy of their voice. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({}).describe('No input.'),
  output: z
    .object({
      samples: z.number().int().describe('Audio and video items.'),
      minutes: z.number().describe('Their total length, minutes.'),
      medianPitchHz: z.number().nullable().describe("Median pitch of the person's speech, Hz (null without samples)."),
      basePitchHz: z.number().nullable().describe('Median pitch of the base voice, Hz.'),
      voice: VoiceStyle,
    })
    .describe('Voice profile.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/voice/status') },
  handler: async (_input, ctx) => {
    const profile = await voiceProfile(ctx.store, ctx.principal.ownerId);
    const base = profile.medianPitchHz ? await baseVoicePitch().catch(() => null) : null;
    const factor = pitchFactor(profile.medianPitchHz, base);
    return {
      ...profile,
      basePitchHz: base,
      voice: {
        style: profile.medianPitchHz && base ? ('matched' as const) : ('base' as const),
        baseVoice: BASE_VOICE,
        pitchFactor: factor,
      },
    };
  },
});

/** Headers the audio and video answers carry, as the OpenAPI document declares them. */
export const MEDIA_HEADERS: OpenApiFragment = {
  'X-Memoir-Voice-Style': {
    description: '"matched" (base voice moved toward the person\'s measured pitch) or "base" (no usable samples).',
    schema: { type: 'string', enum: ['matched', 'base'] },
  },
  'X-Memoir-Pitch-Factor': {
    description: 'Pitch applied relative to the base voice (1: unchanged).',
    schema: { type: 'number', minimum: 0.75, maximum: 1.33 },
  },
  'X-Credits-Charged': {
    description: 'Credits charged for this answer.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  'X-Media-Duration': {
    description: 'Length of the audio or video, seconds.',
    schema: { type: 'number', minimum: 0, maximum: 86_400 },
  },
};

/** The text to synthesise, as the OpenAPI document declares it. */
const SPOKEN_TEXT: OpenApiFragment = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_SYNTH_CHARS,
  description: `Text to speak, 1 to ${MAX_SYNTH_CHARS} characters.`,
};

const binary = (description: string): OpenApiFragment => ({ type: 'string', format: 'binary', description });

/** The audio or video bytes of a speech or avatar output, with the voice and charge in headers. */
export function mediaAnswer(output: Record<string, unknown>): FileAnswer {
  const out = output as {
    audioBase64?: string;
    videoBase64?: string;
    contentType?: string;
    durationSeconds: number;
    voice: { style: string; pitchFactor: number };
    charge: { credits: number };
  };
  return {
    contentType: out.contentType ?? 'video/mp4',
    headers: {
      'X-Memoir-Voice-Style': out.voice.style,
      'X-Memoir-Pitch-Factor': out.voice.pitchFactor,
      'X-Credits-Charged': out.charge.credits,
      'X-Media-Duration': String(out.durationSeconds),
    },
    body: Buffer.from(String(out.audioBase64 ?? out.videoBase64), 'base64'),
  };
}

/** WAV unless the client asks for Ogg Opus. */
function audioFormat(accept: string | string[] | undefined): 'wav' | 'opus' {
  const text = Array.isArray(accept) ? accept.join(',') : accept;
  return text && /audio\/(ogg|opus)/i.test(text) && !/audio\/(wav|wave|x-wav)/i.test(text) ? 'opus' : 'wav';
}

/** A voice route's audio format, from the Accept header only (its REST body has no `format`): spread into `rest`. */
export const FORMAT_FROM_ACCEPT = {
  fromHeaders: (headers) => ({ format: audioFormat(headers.accept) }),
  headerOnly: {
    format: 'the audio format comes from the Accept header (audio/ogg or audio/opus for Ogg Opus, WAV otherwise)',
  },
} satisfies Pick<RestMapping, 'fromHeaders' | 'headerOnly'>;

const SpeechText = z
  .string()
  .min(1)
  .max(MAX_SYNTH_CHARS)
  .describe(`Text to speak, 1 to ${MAX_SYNTH_CHARS} characters.`);

/** Answers with the audio bytes (WAV, or Ogg Opus when Accept asks for it). */
export const synthesizeVoiceTool = defineTool({
  name: 'synthesize_memoir_voice',
  example: { text: 'I planted the apple tree the year your mother was born.' },
  title: 'Speak text in the matched voice style',
  description:
    'Synthesises speech (festival, ' +
    BASE_VOICE +
    ') in the matched voice style and answers with the audio: WAV, or Ogg Opus when Accept asks for audio/ogg or audio/opus. ' +
    'Credits per started second of audio. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  cancellable: true,
  annotations: WRITE,
  input: z
    .strictObject({
      text: SpeechText,
      format: z.enum(['wav', 'opus']).default('wav').describe('Audio format (from the Accept header).'),
    })
    .describe('The text.'),
  output: z
    .object({
      audioBase64: z.string().describe('The audio.'),
      contentType: z.enum(['audio/wav', 'audio/ogg']).describe('Its media type.'),
      durationSeconds: z.number().describe('Its length, seconds.'),
      voice: VoiceStyle,
      charge: ChargeSchema,
    })
    .describe('Speech.'),
  rest: {
    method: 'POST',
    shape: 'data',
    ...memoirPath('/voice/synthesize'),
    extraStatuses: [402],
    ...FORMAT_FROM_ACCEPT,
    file: mediaAnswer,
    docs: {
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
          },
        },
      },
      success: {
        description:
          'The speech, in the matched voice style: WAV by default, Ogg Opus when Accept asks for audio/ogg (or audio/opus).',
        headers: MEDIA_HEADERS,
        content: { 'audio/wav': { schema: binary('WAV (PCM).') }, 'audio/ogg': { schema: binary('Ogg Opus.') } },
      },
    },
  },
  handler: (input, ctx) => speak(ctx, ctx.store, ctx.principal.ownerId, input),
});

/**
 * Speech in the matched voice style of the memoir in `memoir` (of account `memoirOwner`), paid from the caller's
 * credits: the owner's own call, or an heir's through an open share.
 */
export async function speak(
  ctx: ToolContext,
  memoir: Store,
  memoirOwner: string,
  input: { text: string; format: 'wav' | 'opus' },
  audience: 'owner' | 'heir' = 'owner',
) {
  const text = speakable(input.text);
  if (!text) throw ApiError.validation('Nothing to say', [{ field: 'text', reason: 'must contain visible text' }]);
  // A wallet that cannot pay for the shortest speech the text could make is refused before anything runs.
  await requireCharge(ctx, 'voice', shortestSpeechSeconds(text));
  const profile = await voiceProfile(memoir, memoirOwner, audience);
  const base = profile.medianPitchHz ? await baseVoicePitch() : null;
  const factor = pitchFactor(profile.medianPitchHz, base);
  // Synthesised first (about 1 s per 50 s of audio) so the charge is the real length; delivered only once paid.
  const speech = await synthesize(text, { factor, format: input.format, signal: ctx.signal });
  const { charge } = await withCharge(
    ctx,
    'voice',
    speech.durationSeconds,
    { type: 'voice', id: ctx.requestId },
    async () => undefined,
  );
  return {
    audioBase64: speech.audio.toString('base64'),
    contentType: speech.contentType,
    durationSeconds: Math.round(speech.durationSeconds * 1000) / 1000,
    voice: {
      style: factor !== 1 ? ('matched' as const) : ('base' as const),
      baseVoice: BASE_VOICE,
      pitchFactor: factor,
    },
    charge,
  };
}

/**
 * An animated portrait: the photo with slow motion (a zoom) and the speech; the mouth does not move, so it is not
 * called a talking avatar. Answers with the video/mp4 bytes.
 */
export const generateAvatarTool = defineTool({
  name: 'generate_memoir_avatar',
  example: {
    photoUrl: 'med_01JD0000000000000000000000',
    text: 'Hello, my dears.',
    style: 'stylized',
    durationSeconds: 5,
  },
  title: 'Animated portrait video',
  description:
    'Renders an animated portrait: an MP4 (H.264 + AAC) of a photo with slow motion (a zoom) and a waveform driven by the speech, with `text` spoken in the ' +
    'matched voice style; the mouth does not move. Exactly durationSeconds long (at most ' +
    `${MAX_AVATAR_SECONDS}). photoUrl is an uploaded photo's media id (med_...) or an HTTPS URL (fetched through the address guard, at most 10 MB). ` +
    'Credits per second of video. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  cancellable: true,
  annotations: OUTBOUND,
  input: z
    .strictObject({
      photoUrl: z
        .string()
        .min(1)
        .max(2048)
        .describe("An uploaded photo's media id (med_...) or an HTTPS URL of an image."),
      text: SpeechText,
      style: z
        .enum(['stylized', 'natural'])
        .default('stylized')
        .describe('"stylized" (richer colours, vignette) or "natural".'),
      durationSeconds: z
        .number()
        .min(1)
        .max(MAX_AVATAR_SECONDS)
        .describe(`Video length, 1 to ${MAX_AVATAR_SECONDS} seconds.`),
    })
    .describe('The animated portrait.'),
  output: z
    .object({
      videoBase64: z.string().describe('The MP4.'),
      durationSeconds: z.number().describe('Its length, seconds.'),
      voice: VoiceStyle,
      charge: ChargeSchema,
    })
    .describe('The animated portrait.'),
  rest: {
    method: 'POST',
    shape: 'data',
    ...memoirPath('/avatar/generate'),
    extraStatuses: [402, 404, 415],
    file: mediaAnswer,
    docs: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                photoUrl: {
                  type: 'string',
                  minLength: 1,
                  maxLength: 2048,
                  description: "An uploaded photo's media id (med_...) or an HTTPS URL of an image.",
                },
                text: SPOKEN_TEXT,
                style: {
                  type: 'string',
                  enum: ['stylized', 'natural'],
                  default: 'stylized',
                  description: '"stylized" (richer colours, vignette) or "natural".',
                },
                durationSeconds: {
                  type: 'number',
                  minimum: 1,
                  maximum: MAX_AVATAR_SECONDS,
                  description: `Video length, 1 to ${MAX_AVATAR_SECONDS} seconds.`,
                },
              },
              required: ['photoUrl', 'text', 'durationSeconds'],
              additionalProperties: false,
              description: 'The animated portrait.',
            },
          },
        },
      },
      success: {
        description: 'The MP4 (H.264 + AAC).',
        headers: MEDIA_HEADERS,
        content: { 'video/mp4': { schema: binary('The video.') } },
      },
    },
  },
  handler: async (input, ctx) => {
    const text = speakable(input.text);
    if (!text) throw ApiError.validation('Nothing to say', [{ field: 'text', reason: 'must contain visible text' }]);
    let photo: Buffer;
    if (/^med_/.test(input.photoUrl)) {
      const m = await getMedia(ctx.store, input.photoUrl);
      if (m.kind !== 'photo')
        throw ApiError.validation('Not a photo', [
          { field: 'photoUrl', reason: `media item ${m.id} is ${m.kind}, not a photo` },
        ]);
      photo = await readFile(mediaFile(ctx.config.dataDir, m));
    } else {
      photo = await fetchPhoto(input.photoUrl, { allow: ctx.config.webhookAllow, signal: ctx.signal });
    }
    // Its pixel count, from the header, before anything decodes it or anything is charged.
    await checkImagePixels(photo, 'photoUrl');
    const profile = await voiceProfile(ctx.store, ctx.principal.ownerId);
    const base = profile.medianPitchHz ? await baseVoicePitch() : null;
    const factor = pitchFactor(profile.medianPitchHz, base);
    const seconds = Math.ceil(input.durationSeconds);
    const { result, charge } = await withCharge(
      ctx,
      'avatar',
      seconds,
      { type: 'avatar', id: ctx.requestId },
      async () => {
        const speech = await synthesize(text, { factor, format: 'wav', signal: ctx.signal });
        return renderAvatar(photo, speech.audio, {
          seconds: input.durationSeconds,
          style: input.style,
          signal: ctx.signal,
        });
      },
    );
    return {
      videoBase64: result.toString('base64'),
      durationSeconds: input.durationSeconds,
      voice: {
        style: factor !== 1 ? ('matched' as const) : ('base' as const),
        baseVoice: BASE_VOICE,
        pitchFactor: factor,
      },
      charge,
    };
  },
});
