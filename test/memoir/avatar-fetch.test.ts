import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES } from '../../src/memoir/fetch-photo.js';
import { tmpDir } from '../helpers.js';
import { startServe, type Served } from '../support/cli.js';
import { uniqueEmail } from '../support/session.js';
import { makeCert } from '../webhooks/helpers.js';
import { requireProgram } from './support.js';

// POST /svcloom/avatar/generate with an HTTPS photoUrl, fetched for real: a
// local HTTPS server on 127.0.0.1 with a certificate made here (openssl). The
// service runs as `svc serve` in its own process, set up the way an operator
// would reach a private host: SVC_WEBHOOK_ALLOW=127.0.0.1 lets the address
// guard through to loopback, and NODE_EXTRA_CA_CERTS makes Node trust the
// certificate (the route passes no CA of its own to fetchPhoto, and no config
// field is meant for one, so nothing test-only is added to the service).

const exec = promisify(execFile);
/** The photo's colour: the video must show it. */
const RGB = [200, 50, 20] as const;

let work: Awaited<ReturnType<typeof tmpDir>>;
let photos: https.Server;
const sockets = new Set<Duplex>();
let photoBase = '';
let served: Served;
let session: { cookie: string; csrf: string; accountId: string };
let adminKey = '';

async function api(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(served.url + url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res;
}

const avatar = (photoUrl: string) =>
  api(
    'POST',
    '/api/v1/svcloom/avatar/generate',
    { photoUrl, text: 'hello from the garden', style: 'natural', durationSeconds: 3 },
    { cookie: session.cookie, 'x-csrf-token': session.csrf },
  );
const balance = async () =>
  (
    (await (await api('GET', '/api/svcloom/credits/wallet', undefined, { cookie: session.cookie })).json()) as {
      data: { balance: number };
    }
  ).data.balance;

beforeAll(async () => {
  await requireProgram('openssl', 'openssl');
  await requireProgram('ffmpeg', 'ffmpeg');
  await requireProgram('text2wave', 'festival festvox-us-slt-hts');
  work = await tmpDir('svc-avatar-fetch-');
  const tls = makeCert();
  const caFile = path.join(work.dir, 'ca.pem');
  await writeFile(caFile, tls.cert);
  const jpeg = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: RGB[0], g: RGB[1], b: RGB[2] } },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
  const big = Buffer.alloc(MAX_PHOTO_BYTES + 64 * 1024);
  jpeg.copy(big); // starts like a JPEG, but is larger than the cap
  photos = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (req.url === '/me.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url === '/moved.jpg') res.writeHead(302, { location: `${photoBase}/me.jpg` }).end();
    else if (req.url === '/page.jpg')
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html><body>not a photo</body></html>'.repeat(20));
    else if (req.url === '/huge.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(big);
    else res.writeHead(404).end();
  });
  photos.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
  photoBase = `https://127.0.0.1:${(photos.address() as AddressInfo).port}`;

  served = await startServe(path.join(work.dir, 'data'), {
    SVC_WEBHOOK_ALLOW: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
  });
  // The first start prints an internal key once (it grants the test user credits).
  for (let i = 0; i < 200 && !adminKey; i++) {
    adminKey = /(svc_sk_[A-Za-z0-9_-]{43})/.exec(served.stderr())?.[1] ?? '';
    if (!adminKey) await new Promise((r) => setTimeout(r, 50));
  }
  expect(adminKey).toMatch(/^svc_sk_/);
  const email = uniqueEmail('avatar');
  const registered = await api('POST', '/api/auth/register', { email, password: 'correct horse battery staple' });
  expect(registered.status).toBe(202);
  // Registering gives no session (its answer is the same for a taken address): the user signs in next.
  const reg = await api('POST', '/api/auth/login', { email, password: 'correct horse battery staple' });
  expect(reg.status).toBe(200);
  const body = (await reg.json()) as { data: { account: { id: string }; csrfToken: string } };
  const cookie = reg.headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_session='))!
    .split(';')[0]!;
  session = { cookie, csrf: body.data.csrfToken, accountId: body.data.account.id };
  const granted = await api(
    'POST',
    `/api/v1/accounts/${session.accountId}/credits`,
    { amount: 50, reason: 'avatar fetch test' },
    { authorization: `Bearer ${adminKey}` },
  );
  expect(granted.status).toBe(201);
}, 120_000);

afterAll(async () => {
  served?.child.kill('SIGTERM');
  await served?.exited;
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => (photos ? photos.close(() => resolve()) : resolve()));
  await work?.cleanup();
});

describe('avatar from an HTTPS photo URL', () => {
  it('fetches the photo over HTTPS and renders an MP4 of it, of the requested length', async () => {
    const res = await avatar(`${photoBase}/me.jpg`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.subarray(0, 300).toString()).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Number(res.headers.get('x-credits-charged'))).toBe(3 * 2);
    const file = path.join(work.dir, 'avatar.mp4');
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
    const info = JSON.parse(stdout) as {
      format: { duration: string };
      streams: Array<{ codec_type: string; codec_name: string }>;
    };
    expect(Math.abs(Number(info.format.duration) - 3)).toBeLessThanOrEqual(0.5);
    expect(info.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    // A frame shows the fetched photo: above the waveform, its colour (H.264 moves it a little).
    const { stdout: raw } = await exec(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        '1',
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'crop=320:240:80:60',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ],
      {
        encoding: 'buffer',
        maxBuffer: 4 * 1024 * 1024,
      },
    );
    const mean = [0, 1, 2].map((c) => {
      let sum = 0;
      for (let i = c; i < raw.length; i += 3) sum += raw[i]!;
      return sum / (raw.length / 3);
    });
    for (const [c, want] of RGB.entries()) expect(Math.abs(mean[c]! - want)).toBeLessThan(25);
  }, 120_000);

  it('still refuses a redirect, a page that is not an image, and a photo over the size cap, charging nothing', async () => {
    const before = await balance();
    const moved = await avatar(`${photoBase}/moved.jpg`);
    expect(moved.status).toBe(400);
    expect(await moved.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'photoUrl', reason: 'the server answered 302' }] },
    });
    const page = await avatar(`${photoBase}/page.jpg`);
    expect(page.status).toBe(415);
    expect(await page.json()).toMatchObject({
      success: false,
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', details: [{ field: 'photoUrl' }] },
    });
    const huge = await avatar(`${photoBase}/huge.jpg`);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', details: [{ field: 'photoUrl' }] },
    });
    expect(await balance()).toBe(before);
  }, 60_000);

  it('trusts only what the operator allowed: another loopback port without the test certificate is refused', async () => {
    // The allow-list lets loopback through the guard, but TLS still has to verify: a plain self-signed server fails.
    const other = makeCert();
    const stranger = https.createServer({ key: other.key, cert: other.cert }, (_req, res) =>
      res.writeHead(200).end('x'),
    );
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    try {
      const res = await avatar(`https://127.0.0.1:${(stranger.address() as AddressInfo).port}/me.jpg`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as {
        success: boolean;
        error: { code: string; details: Array<{ field: string; reason: string }> };
      };
      expect(body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', details: [{ field: 'photoUrl' }] },
      });
      expect(body.error.details[0]!.reason).toMatch(/^the server's certificate is not trusted \([A-Z_]+\)$/);
    } finally {
      stranger.closeAllConnections();
      await new Promise<void>((resolve) => stranger.close(() => resolve()));
    }
  }, 60_000);
});
