import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { mediaPrograms } from '../../src/memoir/exec.js';
import { shortestSpeechSeconds, synthesize } from '../../src/memoir/voice.js';
import { grant, multipartBody, requireProgram, wordErrorRate } from './support.js';

// Festival and ffmpeg run for real: the synthesised speech is transcribed by
// pocketsphinx (WER < 0.3), the avatar MP4 has the requested length and sound.

const exec = promisify(execFile);
const SENTENCE = 'my grandfather planted apple trees behind the house';
let server: TestServer;
let user: TestSession;
let work: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  await requireProgram('text2wave', 'festival festvox-us-slt-hts');
  await requireProgram('pocketsphinx_continuous', 'pocketsphinx pocketsphinx-en-us');
  await requireProgram('ffmpeg', 'ffmpeg');
  server = await startTestServer();
  user = await registerUser(server.app);
  work = await tmpDir('svc-memoir-voice-');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await work?.cleanup();
});

const post = (session: TestSession, url: string, payload: object, headers: Record<string, string> = {}, csrf = true) =>
  server.app.inject({ method: 'POST', url, headers: { ...sessionHeaders(session, { csrf }), ...headers }, payload });

async function transcript(bytes: Buffer, name: string): Promise<string> {
  const file = path.join(work.dir, name);
  await writeFile(file, bytes);
  await exec('ffmpeg', ['-v', 'error', '-y', '-i', file, '-ar', '16000', '-ac', '1', `${file}.16k.wav`]);
  const { stdout } = await exec('pocketsphinx_continuous', ['-infile', `${file}.16k.wav`, '-logfn', '/dev/null']);
  return stdout.trim();
}

async function probe(bytes: Buffer, name: string) {
  const file = path.join(work.dir, name);
  await writeFile(file, bytes);
  const { stdout } = await exec('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  return JSON.parse(stdout) as {
    format: { duration: string };
    streams: Array<{ codec_type: string; codec_name: string }>;
  };
}

describe('voice', () => {
  it('401 without a session, 403 without CSRF, 402 without credits (nothing delivered, nothing run)', async () => {
    const anon = await server.app.inject({
      method: 'POST',
      url: '/api/svcloom/voice/synthesize',
      payload: { text: 'hello' },
    });
    expect(anon.statusCode).toBe(401);
    expect((await post(user, '/api/svcloom/voice/synthesize', { text: 'hello' }, {}, false)).json().error.code).toBe(
      'CSRF_FAILED',
    );
    const programs = mediaPrograms.stats.granted;
    const poor = await post(user, '/api/svcloom/voice/synthesize', { text: 'hello there' });
    expect(poor.statusCode).toBe(402);
    expect(poor.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_CREDITS' } });
    // Refused before festival ran: an empty wallet does not get the speech made, then refused.
    expect(mediaPrograms.stats.granted).toBe(programs);
    const long = await post(user, '/api/svcloom/voice/synthesize', { text: 'x'.repeat(1001) });
    expect(long.json().error.code).toBe('VALIDATION_ERROR');
    // The format comes from Accept: a body naming one is refused, not silently answered in another format.
    const inBody = await post(user, '/api/svcloom/voice/synthesize', { text: 'hello', format: 'opus' });
    expect(inBody.statusCode).toBe(400);
    expect(inBody.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'format', reason: expect.stringContaining('Accept header') }],
    });
  });

  it('speaks the text intelligibly (pocketsphinx WER < 0.3), WAV or Opus by Accept, charged per second', async () => {
    await grant(server, user.accountId, 100);
    const wav = await post(user, '/api/v1/svcloom/voice/synthesize', { text: SENTENCE });
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.headers['x-memoir-voice-style']).toBe('base');
    const seconds = Number(wav.headers['x-media-duration']);
    expect(Number(wav.headers['x-credits-charged'])).toBe(Math.ceil(seconds));
    expect(wordErrorRate(SENTENCE, await transcript(wav.rawPayload, 'a.wav'))).toBeLessThan(0.3);
    const opus = await post(user, '/api/svcloom/voice/synthesize', { text: 'hello there' }, { accept: 'audio/ogg' });
    expect(opus.headers['content-type']).toBe('audio/ogg');
    expect(opus.rawPayload.subarray(0, 4).toString()).toBe('OggS');
    expect((await probe(opus.rawPayload, 'o.ogg')).streams[0]!.codec_name).toBe('opus');
  }, 60_000);

  it('checks the wallet against a lower bound of the speech: never more seconds than the speech lasts', async () => {
    const texts = [
      SENTENCE,
      'hello there',
      'Antidisestablishmentarianism, incomprehensibilities; uncharacteristically!',
      '!!! ??? ... --- ,,, ;;; ::: ... !!!',
      'The quick brown fox jumps over the lazy dog. '.repeat(4).trim(),
    ];
    for (const text of texts) {
      const speech = await synthesize(text, { factor: 1, format: 'wav' });
      expect(shortestSpeechSeconds(text), text).toBeLessThanOrEqual(speech.durationSeconds);
    }
    expect(shortestSpeechSeconds(texts[4]!)).toBeGreaterThan(4);
  }, 60_000);

  it("with the person's recordings: a matched voice style, the pitch moved toward theirs", async () => {
    // A low voice sample: festival speech moved down, as if from a recording.
    await writeFile(path.join(work.dir, 's.txt'), 'I remember the orchard and the long summers of my childhood.');
    await exec('text2wave', [
      '-eval',
      '(voice_cmu_us_slt_arctic_hts)',
      path.join(work.dir, 's.txt'),
      '-o',
      path.join(work.dir, 's.wav'),
    ]);
    await exec('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      path.join(work.dir, 's.wav'),
      '-af',
      'asetrate=16000*0.8,aresample=16000',
      path.join(work.dir, 'low.wav'),
    ]);
    const { body, contentType } = multipartBody([
      {
        name: 'file',
        filename: 'me.wav',
        contentType: 'audio/wav',
        data: await readFile(path.join(work.dir, 'low.wav')),
      },
    ]);
    const up = await server.app.inject({
      method: 'POST',
      url: '/api/svcloom/media/upload',
      headers: { ...sessionHeaders(user), 'content-type': contentType },
      payload: body,
    });
    expect(up.statusCode).toBe(201);
    const status = (await server.app.inject({ url: '/api/svcloom/voice/status', headers: sessionHeaders(user) })).json()
      .data;
    expect(status).toMatchObject({ samples: 1, voice: { style: 'matched', baseVoice: 'cmu_us_slt_arctic_hts' } });
    expect(status.medianPitchHz).toBeLessThan(status.basePitchHz);
    expect(status.voice.pitchFactor).toBeLessThan(0.95);
    const res = await post(user, '/api/svcloom/voice/synthesize', { text: SENTENCE });
    expect(res.headers['x-memoir-voice-style']).toBe('matched');
    expect(wordErrorRate(SENTENCE, await transcript(res.rawPayload, 'm.wav'))).toBeLessThan(0.3);
  }, 60_000);
});

describe('avatar', () => {
  it('renders an MP4 (H.264 + AAC) of the requested duration from an uploaded photo', async () => {
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#aa5533' } })
      .jpeg()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    const up = await server.app.inject({
      method: 'POST',
      url: '/api/svcloom/media/upload',
      headers: { ...sessionHeaders(user), 'content-type': contentType },
      payload: body,
    });
    const photoId = up.json().data.id as string;
    const res = await post(user, '/api/svcloom/avatar/generate', {
      photoUrl: photoId,
      text: SENTENCE,
      style: 'stylized',
      durationSeconds: 6,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(Number(res.headers['x-credits-charged'])).toBe(6 * 2);
    const info = await probe(res.rawPayload, 'a.mp4');
    expect(Math.abs(Number(info.format.duration) - 6)).toBeLessThanOrEqual(0.5);
    expect(info.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
  }, 120_000);

  it('refuses durations over 60 s, non-photos, unknown ids and private URLs', async () => {
    expect(
      (await post(user, '/api/svcloom/avatar/generate', { photoUrl: 'med_x', text: 'hi', durationSeconds: 61 })).json()
        .error.code,
    ).toBe('VALIDATION_ERROR');
    expect(
      (
        await post(user, '/api/svcloom/avatar/generate', {
          photoUrl: 'med_01JD0000000000000000000000',
          text: 'hi',
          durationSeconds: 2,
        })
      ).statusCode,
    ).toBe(404);
    const priv = await post(user, '/api/svcloom/avatar/generate', {
      photoUrl: 'https://127.0.0.1/me.jpg',
      text: 'hi',
      durationSeconds: 2,
    });
    expect(priv.statusCode).toBe(400);
    expect(priv.json().error.details[0].field).toBe('photoUrl');
    const http = await post(user, '/api/svcloom/avatar/generate', {
      photoUrl: 'http://example.com/me.jpg',
      text: 'hi',
      durationSeconds: 2,
    });
    expect(http.statusCode).toBe(400);
  });
});
