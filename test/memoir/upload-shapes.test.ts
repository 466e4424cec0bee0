import { randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMOIR_MEDIA } from '../../src/memoir/records.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { resolveRef } from '../support/openapi.js';
import { grant, multipartBody } from './support.js';

// Every broken multipart shape answers 400 or 415 in the envelope (never a 5xx), stores nothing and keeps no
// reservation; a PNG whose header declares 50000 x 50000 pixels is refused from its header (4xx), and nothing is
// charged, neither credits nor storage.

let server: TestServer;
let user: TestSession;
let png: Buffer;
const URL = '/api/v1/svcloom/media/upload';

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  user = await registerUser(server.app);
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await server?.close();
});

/** CRC-32 (ISO-HDLC, as PNG chunks use), bit by bit. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** A PNG of a few hundred bytes whose IHDR declares width x height (8-bit RGB), with one tiny IDAT row. */
function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const row = Buffer.alloc(1 + 3 * Math.min(width, 64)); // filter byte + a few black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(row)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function post(contentType: string | undefined, body: Buffer | string, session: TestSession = user) {
  const res = await server.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...sessionHeaders(session), ...(contentType ? { 'content-type': contentType } : {}) },
    payload: body,
  });
  return {
    status: res.statusCode,
    body: res.json() as {
      success: boolean;
      error: { code: string; message: string; details?: Array<Record<string, unknown>> };
      meta: { requestId: string };
    },
  };
}

const staging = () => readdir(path.join(server.dataDir, 'memoir-media', '.staging')).catch(() => [] as string[]);
const storage = async (session: TestSession = user) =>
  (await server.app.inject({ url: '/api/v1/svcloom/media', headers: sessionHeaders(session) })).json().meta.storage;

describe('broken multipart bodies', () => {
  const good = () => multipartBody([{ name: 'file', filename: 'x.png', contentType: 'image/png', data: png }]);
  const shapes: Array<[string, () => { contentType: string | undefined; body: Buffer | string }, number]> = [
    ['multipart without a boundary', () => ({ contentType: 'multipart/form-data', body: good().body }), 400],
    [
      'a boundary longer than 70 characters',
      () => ({ contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`, body: good().body }),
      400,
    ],
    [
      'a part cut short (the body truncated inside the file)',
      () => {
        const g = good();
        return { contentType: g.contentType, body: g.body.subarray(0, g.body.length - 40) };
      },
      400,
    ],
    [
      'a body cut inside the part headers',
      () => {
        const g = good();
        return { contentType: g.contentType, body: g.body.subarray(0, 50) };
      },
      400,
    ],
    [
      'a body that is not multipart at all under a multipart Content-Type',
      () => ({ contentType: good().contentType, body: 'just some words' }),
      400,
    ],
    [
      'a NUL in the file name',
      () => multipartBody([{ name: 'file', filename: 'a\u0000b.png', contentType: 'image/png', data: png }]),
      400,
    ],
    [
      'a control character in the file name',
      () => multipartBody([{ name: 'file', filename: 'a\rb.png', contentType: 'image/png', data: png }]),
      400,
    ],
    [
      'a ../ path in the file name',
      () => multipartBody([{ name: 'file', filename: '../x.png', contentType: 'image/png', data: png }]),
      400,
    ],
    [
      'an absolute path in the file name',
      () => multipartBody([{ name: 'file', filename: '/etc/x.png', contentType: 'image/png', data: png }]),
      400,
    ],
    [
      'a Windows path in the file name',
      () => multipartBody([{ name: 'file', filename: '..\\x.png', contentType: 'image/png', data: png }]),
      400,
    ],
    ['no file part', () => multipartBody([{ name: 'durationMinutes', value: '3' }]), 400],
    [
      'the file in another field',
      () => multipartBody([{ name: 'photo', filename: 'x.png', contentType: 'image/png', data: png }]),
      400,
    ],
    [
      'two files',
      () =>
        multipartBody([
          { name: 'file', filename: 'x.png', contentType: 'image/png', data: png },
          { name: 'file', filename: 'y.png', contentType: 'image/png', data: png },
        ]),
      400,
    ],
    [
      'more fields than a form has',
      () =>
        multipartBody([
          ...Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, value: 'x' })),
          { name: 'file', filename: 'x.png', contentType: 'image/png', data: png },
        ]),
      400,
    ],
    ['JSON instead of a form', () => ({ contentType: 'application/json', body: JSON.stringify({ file: 'x' }) }), 415],
    ['the raw file as the body', () => ({ contentType: 'image/png', body: png }), 415],
    ['text', () => ({ contentType: 'text/plain', body: 'hello' }), 415],
    [
      'multipart/mixed',
      () => {
        const g = good();
        return { contentType: g.contentType.replace('form-data', 'mixed'), body: g.body };
      },
      415,
    ],
    ['no Content-Type at all', () => ({ contentType: undefined, body: png }), 415],
  ];

  it.each(shapes)('%s: answered in the envelope, nothing stored, no room held', async (_name, make, status) => {
    const before = (await server.services.store.findBy(MEMOIR_MEDIA, 'ownerId', user.accountId)).length;
    const { contentType, body } = make();
    const res = await post(contentType, body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR', message: expect.any(String) },
    });
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect((await server.services.store.findBy(MEMOIR_MEDIA, 'ownerId', user.accountId)).length).toBe(before);
    expect(await staging()).toEqual([]);
    expect(await storage()).toMatchObject({ reserved: 0 });
  });

  it('still takes a well-formed upload afterwards, its name kept as sent', async () => {
    const g = good();
    const res = await post(g.contentType, g.body);
    expect(res.status).toBe(201);
    expect((res.body as unknown as { data: { originalName: string } }).data.originalName).toBe('x.png');
  });
});

describe('a decompression bomb', () => {
  it('is a well-formed PNG of a few hundred bytes declaring 50000 x 50000 pixels', async () => {
    const bomb = bombPng(50_000, 50_000);
    expect(bomb.length).toBeLessThan(1000);
    // sharp reads the declared size from the header without decoding (and refuses to decode it by default).
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
      format: 'png',
      width: 50_000,
      height: 50_000,
    });
  });

  it('is refused at upload from its header (413), nothing stored and nothing charged', async () => {
    const payer = await registerUser(server.app);
    await grant(server, payer.accountId, 50);
    const wallet = async () =>
      (await server.app.inject({ url: '/api/v1/svcloom/credits/wallet', headers: sessionHeaders(payer) })).json().data;
    const before = await wallet();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'bomb.png', contentType: 'image/png', data: bombPng(50_000, 50_000) },
    ]);
    const res = await post(contentType, body, payer);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(res.body.error.message).toContain('50000 x 50000');
    const after = await wallet();
    expect(after.balance).toBe(before.balance);
    expect(after.storage).toEqual({ ...before.storage, used: 0, reserved: 0 });
    expect(await server.services.store.findBy(MEMOIR_MEDIA, 'ownerId', payer.accountId)).toEqual([]);
    expect(await staging()).toEqual([]);
    // A PNG just under the limit in pixels is taken (the check is on pixels, not on the format).
    const fine = multipartBody([
      { name: 'file', filename: 'ok.png', contentType: 'image/png', data: bombPng(10_000, 10_000) },
    ]);
    expect((await post(fine.contentType, fine.body, payer)).status).toBe(201);
  });

  it('kept from before the check, is refused by the inference (4xx) with no credit charged, and by the avatar', async () => {
    const payer = await registerUser(server.app);
    await grant(server, payer.accountId, 50);
    const balance = async () =>
      (await server.app.inject({ url: '/api/v1/svcloom/credits/wallet', headers: sessionHeaders(payer) })).json().data
        .balance as number;
    // Planted as an older server would have stored it.
    const id = `med_01JD${randomBytes(11).toString('hex').toUpperCase().slice(0, 22)}`;
    const bomb = bombPng(50_000, 50_000);
    const dir = path.join(server.dataDir, 'memoir-media', payer.accountId);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${id}.png`), bomb);
    await server.services.store.put(MEMOIR_MEDIA, {
      id,
      ownerId: payer.accountId,
      kind: 'photo',
      mime: 'image/png',
      ext: 'png',
      size: bomb.length,
      file: `${id}.png`,
      originalName: 'old.png',
      durationMinutes: null,
      durationSeconds: null,
      medianPitchHz: null,
      createdAt: new Date().toISOString(),
    });
    const before = await balance();
    const inf = await server.app.inject({
      url: `/api/v1/svcloom/media/${id}/inference`,
      headers: sessionHeaders(payer),
    });
    expect(inf.statusCode).toBe(413);
    expect(inf.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await balance()).toBe(before);
    const avatar = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/avatar/generate',
      headers: sessionHeaders(payer),
      payload: { photoUrl: id, text: 'hello', durationSeconds: 1 },
    });
    expect(avatar.statusCode).toBe(413);
    expect(avatar.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await balance()).toBe(before);
  });
});

describe('OpenAPI', () => {
  it("documents the upload body with an example, its 413 and 415 answers, and QUOTA_EXCEEDED's detail fields", async () => {
    const doc = (await server.app.inject({ url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/svcloom/media/upload'].post;
    const form = op.requestBody.content['multipart/form-data'];
    expect(form.example).toMatchObject({ file: expect.any(String), durationMinutes: expect.any(Number) });
    expect(Object.keys(form.example).every((k) => k in form.schema.properties)).toBe(true);
    const response = (status: string) => resolveRef(doc, op.responses[status]);
    expect(response('413').description).toContain('QUOTA_EXCEEDED');
    expect(response('415').description).toMatch(/multipart\/form-data/);
    const detail = doc.components.schemas.ErrorEnvelope.properties.error.properties.details.items.properties;
    for (const f of ['used', 'limit', 'needed'])
      expect(detail[f], f).toMatchObject({ type: 'integer', description: expect.stringContaining('QUOTA_EXCEEDED') });
  });
});
