import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMOIR_MEDIA } from '../../src/memoir/records.js';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, multipartBody, requireProgram, wordErrorRate } from './support.js';

// Uploads typed by their bytes, size limits per kind, inference of photos,
// audio and video with real sharp/exifr/music-metadata/ffprobe/pocketsphinx.
// Fixtures are made here: sharp draws a JPEG with EXIF, festival speaks, ffmpeg films.

const exec = promisify(execFile);
const SENTENCE = 'my mother baked bread every sunday in our kitchen';
let server: TestServer;
let user: TestSession;
let other: TestSession;
let work: { dir: string; cleanup: () => Promise<void> };
let wav: Buffer;
let mp4: Buffer;

beforeAll(async () => {
  await requireProgram('text2wave', 'festival festvox-us-slt-hts');
  await requireProgram('pocketsphinx_continuous', 'pocketsphinx pocketsphinx-en-us');
  await requireProgram('ffmpeg', 'ffmpeg');
  server = await startTestServer({
    config: { memoirUploadLimits: { photo: 60_000, audio: 5_000_000, video: 5_000_000 } },
  });
  user = await registerUser(server.app);
  other = await registerUser(server.app);
  await grant(server, user.accountId, 100);
  work = await tmpDir('svc-memoir-media-');
  await writeFile(path.join(work.dir, 's.txt'), SENTENCE);
  await exec('text2wave', [
    '-eval',
    '(voice_cmu_us_slt_arctic_hts)',
    path.join(work.dir, 's.txt'),
    '-o',
    path.join(work.dir, 's.wav'),
  ]);
  wav = await readFile(path.join(work.dir, 's.wav'));
  await exec('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=160x120:d=4',
    '-i',
    path.join(work.dir, 's.wav'),
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    path.join(work.dir, 'v.mp4'),
  ]);
  mp4 = await readFile(path.join(work.dir, 'v.mp4'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await work?.cleanup();
});

async function upload(
  session: TestSession,
  file: { filename: string; contentType: string; data: Buffer },
  extra: Array<{ name: string; value: string }> = [],
  opts: { csrf?: boolean } = {},
) {
  const { body, contentType } = multipartBody([...extra, { name: 'file', ...file }]);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/svcloom/media/upload',
    headers: { ...sessionHeaders(session, opts), 'content-type': contentType },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#88aa33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'svc test' },
      IFD2: { DateTimeOriginal: '1999:12:31 23:58:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 42/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '9/1 8/1 0/1' },
    })
    .toBuffer();

async function staged(): Promise<string[]> {
  return readdir(path.join(server.dataDir, 'memoir-media', '.staging')).catch(() => []);
}

describe('uploads', () => {
  it('needs a session and the CSRF token before anything is stored', async () => {
    const file = { filename: 'a.jpg', contentType: 'image/jpeg', data: await jpeg() };
    const { body, contentType } = multipartBody([{ name: 'file', ...file }]);
    const anon = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    expect((await upload(user, file, [], { csrf: false })).body.error.code).toBe('CSRF_FAILED');
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/svcloom/media', headers: sessionHeaders(user) })).json()
        .data,
    ).toEqual([]);
  });

  it('types files by their bytes: a lying name or Content-Type changes nothing', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const disguised = await upload(user, { filename: 'song.mp3', contentType: 'audio/mpeg', data: png });
    expect(disguised.status).toBe(201);
    expect(disguised.body.data).toMatchObject({ kind: 'photo', mime: 'image/png', originalName: 'song.mp3' });
    const text = await upload(user, {
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      data: Buffer.from('#!/bin/sh\necho not a photo\n'.repeat(50)),
    });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const pdf = await upload(user, {
      filename: 'x.png',
      contentType: 'image/png',
      data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'),
    });
    expect(pdf.status).toBe(415);
    expect(await staged()).toEqual([]);
  });

  it("refuses a file past its kind's limit with 413, keeping nothing", async () => {
    const noise = randomBytes(200 * 200 * 3);
    const big = await sharp(noise, { raw: { width: 200, height: 200, channels: 3 } })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(60_000);
    const res = await upload(user, { filename: 'big.png', contentType: 'image/png', data: big });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await staged()).toEqual([]);
  });

  it('stores files 0600 and infers photo metadata, GPS only when asked', async () => {
    const up = await upload(
      user,
      { filename: 'holiday.jpg', contentType: 'application/octet-stream', data: await jpeg() },
      [{ name: 'durationMinutes', value: '0' }],
    );
    expect(up.status).toBe(201);
    const id = up.body.data.id as string;
    const files = await readdir(path.join(server.dataDir, 'memoir-media', user.accountId));
    const mine = files.find((f) => f.startsWith(id))!;
    expect((await stat(path.join(server.dataDir, 'memoir-media', user.accountId, mine))).mode & 0o777).toBe(0o600);
    const inf = await server.app.inject({
      method: 'GET',
      url: `/api/svcloom/media/${id}/inference`,
      headers: sessionHeaders(user),
    });
    expect(inf.json().data.inference).toMatchObject({
      kind: 'photo',
      width: 64,
      height: 48,
      format: 'jpeg',
      takenAt: '1999-12-31T23:58:00',
      gps: null,
      gpsAvailable: true,
    });
    expect(inf.json().data.charge).toEqual({ action: 'media_inference', units: 1, credits: 5 });
    const withGps = await server.app.inject({
      method: 'GET',
      url: `/api/svcloom/media/${id}/inference?includeGps=true`,
      headers: sessionHeaders(user),
    });
    expect(withGps.json().data.inference.gps.latitude).toBeCloseTo(38.7, 5);
    expect(withGps.json().data.inference.gps.longitude).toBeCloseTo(-9.1333, 3);
    // Another user: 404 for the same id, for inference and delete alike.
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/svcloom/media/${id}/inference`,
          headers: sessionHeaders(other),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/svcloom/media/${id}`, headers: sessionHeaders(other) }))
        .statusCode,
    ).toBe(404);
    // Delete removes the record and the file.
    const del = await server.app.inject({
      method: 'DELETE',
      url: `/api/svcloom/media/${id}`,
      headers: sessionHeaders(user),
    });
    expect(del.json().data).toEqual({ id, deleted: true });
    expect(
      (await readdir(path.join(server.dataDir, 'memoir-media', user.accountId))).filter((f) => f.startsWith(id)),
    ).toEqual([]);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/svcloom/media/${id}/inference`,
          headers: sessionHeaders(user),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('audio: duration and a pocketsphinx transcript of festival speech (WER < 0.3)', async () => {
    const up = await upload(user, { filename: 'voice.jpg', contentType: 'image/jpeg', data: wav });
    expect(up.body.data).toMatchObject({ kind: 'audio' });
    expect(up.body.data.durationSeconds).toBeGreaterThan(1);
    const inf = (
      await server.app.inject({
        method: 'GET',
        url: `/api/svcloom/media/${up.body.data.id}/inference`,
        headers: sessionHeaders(user),
      })
    ).json().data;
    expect(inf.inference).toMatchObject({ kind: 'audio', hasAudio: true, channels: 1 });
    expect(wordErrorRate(SENTENCE, inf.inference.transcript)).toBeLessThan(0.3);
    expect(inf.charge).toMatchObject({ units: 1 });
    expect(inf.cached).toBe(false);
    // includeGps changes nothing for audio: the kept result answers, transcript and all, for nothing.
    const again = (
      await server.app.inject({
        method: 'GET',
        url: `/api/svcloom/media/${up.body.data.id}/inference?includeGps=true`,
        headers: sessionHeaders(user),
      })
    ).json().data;
    expect(again).toMatchObject({ cached: true, charge: { action: 'media_inference', units: 0, credits: 0 } });
    expect(again.inference).toEqual(inf.inference);
  }, 60_000);

  it('video: ffprobe facts and the transcript of its audio', async () => {
    const up = await upload(user, { filename: 'clip.txt', contentType: 'text/plain', data: mp4 });
    expect(up.body.data).toMatchObject({ kind: 'video', mime: 'video/mp4' });
    const inf = (
      await server.app.inject({
        method: 'GET',
        url: `/api/svcloom/media/${up.body.data.id}/inference`,
        headers: sessionHeaders(user),
      })
    ).json().data;
    expect(inf.inference).toMatchObject({ kind: 'video', width: 160, height: 120, codec: 'h264', hasAudio: true });
    expect(wordErrorRate(SENTENCE, inf.inference.transcript)).toBeLessThan(0.3);
    const list = (
      await server.app.inject({ method: 'GET', url: '/api/svcloom/media', headers: sessionHeaders(user) })
    ).json().data;
    expect(list.map((m: { kind: string }) => m.kind)).toEqual(['video', 'audio', 'photo']);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/svcloom/media', headers: sessionHeaders(other) })).json()
        .data,
    ).toEqual([]);
  }, 60_000);
});

describe('inference results are kept', () => {
  const inference = (session: TestSession, id: string, includeGps = false) =>
    server.app.inject({
      method: 'GET',
      url: `/api/svcloom/media/${id}/inference${includeGps ? '?includeGps=true' : ''}`,
      headers: sessionHeaders(session),
    });
  const wallet = async (session: TestSession) =>
    (await server.app.inject({ url: '/api/svcloom/credits/wallet', headers: sessionHeaders(session) })).json().data
      .balance as number;

  it('a second call answers from the kept result: debited once, the charge shown as 0, cached: true', async () => {
    const id = (await upload(user, { filename: 'a.jpg', contentType: 'image/jpeg', data: await jpeg() })).body.data
      .id as string;
    const before = await wallet(user);
    const first = (await inference(user, id)).json().data;
    expect(first).toMatchObject({ cached: false, charge: { action: 'media_inference', units: 1, credits: 5 } });
    expect(await wallet(user)).toBe(before - 5);
    const second = await inference(user, id);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({
      cached: true,
      charge: { action: 'media_inference', units: 0, credits: 0 },
      media: { id },
    });
    expect(second.json().data.inference).toEqual(first.inference);
    expect(await wallet(user)).toBe(before - 5);
    // The kept result is the account's: another user still gets 404.
    expect((await inference(other, id)).statusCode).toBe(404);
  });

  it('GPS is kept apart: a result with the location never answers a call without it', async () => {
    const id = (await upload(user, { filename: 'b.jpg', contentType: 'image/jpeg', data: await jpeg() })).body.data
      .id as string;
    const before = await wallet(user);
    const withGps = (await inference(user, id, true)).json().data;
    expect(withGps).toMatchObject({ cached: false, inference: { gpsAvailable: true } });
    expect(withGps.inference.gps.latitude).toBeCloseTo(38.7, 5);
    // Without includeGps: no location, though a result with one is kept (this one is computed and paid for).
    const plain = (await inference(user, id)).json().data;
    expect(plain).toMatchObject({ cached: false, inference: { gps: null, gpsAvailable: true } });
    const plainAgain = (await inference(user, id)).json().data;
    expect(plainAgain).toMatchObject({ cached: true, inference: { gps: null } });
    // Neither coordinate anywhere in the answer: as no number of it, nor written in a text (the longitude, negative,
    // as no timestamp can hold it; "38.7" alone would be no proof: a timestamp's "…:38.718Z" holds it now and then).
    const { latitude, longitude } = withGps.inference.gps as { latitude: number; longitude: number };
    const values: unknown[] = [];
    JSON.stringify(plainAgain, (_key, value: unknown) => {
      values.push(value);
      return value;
    });
    expect(values.filter((v) => v === latitude || v === longitude)).toEqual([]);
    expect(JSON.stringify(plainAgain)).not.toContain(String(longitude));
    const gpsAgain = (await inference(user, id, true)).json().data;
    expect(gpsAgain).toMatchObject({ cached: true });
    expect(gpsAgain.inference.gps).toEqual(withGps.inference.gps);
    expect(await wallet(user)).toBe(before - 10);
  });

  it('a failed inference is refunded and keeps nothing; deleting the item deletes what was kept', async () => {
    const id = (await upload(user, { filename: 'c.jpg', contentType: 'image/jpeg', data: await jpeg() })).body.data
      .id as string;
    const dir = path.join(server.dataDir, 'memoir-media', user.accountId);
    const file = path.join(dir, (await readdir(dir)).find((f) => f.startsWith(id))!);
    const before = await wallet(user);
    // The file is gone from under the record: the inference fails.
    await rename(file, `${file}.away`);
    const failed = await inference(user, id);
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(failed.json().success).toBe(false);
    expect(await wallet(user)).toBe(before);
    expect((await server.services.store.get(MEMOIR_MEDIA, id))?.inference).toBeUndefined();
    // Back in place: the next call runs and is charged (nothing was kept from the failure), the one after is kept.
    await rename(`${file}.away`, file);
    expect((await inference(user, id)).json().data).toMatchObject({ cached: false, charge: { credits: 5 } });
    expect((await inference(user, id)).json().data).toMatchObject({ cached: true, charge: { credits: 0 } });
    expect(await wallet(user)).toBe(before - 5);
    expect((await server.services.store.get(MEMOIR_MEDIA, id))?.inference).toBeDefined();
    // Deleted with the item: no record, no kept result.
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/svcloom/media/${id}`, headers: sessionHeaders(user) }))
        .statusCode,
    ).toBe(200);
    expect(await server.services.store.get(MEMOIR_MEDIA, id)).toBeUndefined();
    expect((await inference(user, id)).statusCode).toBe(404);
  });
});
