import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, multipartBody, requireProgram } from './support.js';
import { resolveRef, type Json } from '../support/openapi.js';

// The memoir's multipart and binary routes (declared by their tools' REST mappings) are in
// the OpenAPI document, and what the server really answers there (status,
// Content-Type, headers) is what the document declares.

let server: TestServer;
let user: TestSession;
let doc: Json;

beforeAll(async () => {
  await requireProgram('text2wave', 'festival festvox-us-slt-hts');
  server = await startTestServer();
  user = await registerUser(server.app);
  doc = (await server.app.inject({ url: '/api/v1/openapi.json' })).json();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const resolve = (node: Json): Json => resolveRef(doc, node);

/** Checks one real answer against the operation's declared response. */
function conforms(path: string, res: { statusCode: number; headers: Record<string, unknown> }, method = 'post'): Json {
  const op = doc.paths[path][method];
  const declared = op.responses[String(res.statusCode)];
  expect(declared, `${path} answered an undeclared ${res.statusCode}`).toBeDefined();
  const response = resolve(declared);
  expect(Object.keys(response.content), `${path} ${res.statusCode}`).toContain(res.headers['content-type']);
  for (const header of Object.keys(response.headers ?? {})) {
    if (header === 'Retry-After' || header === 'Set-Cookie') continue;
    expect(res.headers[header.toLowerCase()], `${path} ${res.statusCode} ${header}`).toBeDefined();
  }
  return response;
}

describe('OpenAPI: memoir upload, voice and avatar', () => {
  it('documents the three routes with their request bodies, binary answers and error answers', () => {
    const upload = doc.paths['/api/v1/svcloom/media/upload'].post;
    expect(upload.operationId).toBe('upload_memoir_media');
    expect(upload.security).toEqual([{ sessionCookie: [] }]);
    const form = upload.requestBody.content['multipart/form-data'].schema;
    expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties.durationMinutes.type).toBe('number');
    expect(form.required).toEqual(['file']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413', '415']));

    const voice = doc.paths['/api/v1/svcloom/voice/synthesize'].post;
    // The heirs' speech route takes the same body, so the document keeps it once, as a component.
    expect(resolve(voice.requestBody.content['application/json'].schema).required).toEqual(['text']);
    expect(Object.keys(voice.responses['200'].content).sort()).toEqual(['audio/ogg', 'audio/wav']);
    expect(Object.keys(voice.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '402', '403', '413']));

    const avatar = doc.paths['/api/v1/svcloom/avatar/generate'].post;
    expect(avatar.requestBody.content['application/json'].schema.required).toEqual([
      'photoUrl',
      'text',
      'durationSeconds',
    ]);
    expect(Object.keys(avatar.responses['200'].content)).toEqual(['video/mp4']);
    expect(Object.keys(avatar.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '402', '403', '404', '413', '415']),
    );
    expect(resolve(avatar.responses['415']).content['application/json; charset=utf-8'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
  });

  it('answers upload 201, 415, 401 and 403 as declared', async () => {
    const url = '/api/v1/svcloom/media/upload';
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const send = (data: Buffer, csrf = true, session = true) => {
      const { body, contentType } = multipartBody([
        { name: 'file', filename: 'x.png', contentType: 'image/png', data },
      ]);
      return server.app.inject({
        method: 'POST',
        url,
        headers: { ...(session ? sessionHeaders(user, { csrf }) : {}), 'content-type': contentType },
        payload: body,
      });
    };
    const ok = await send(png);
    expect(ok.statusCode).toBe(201);
    conforms(url, ok);
    const text = await send(Buffer.from('just some words, not a picture'));
    expect(text.statusCode).toBe(415);
    conforms(url, text);
    const anon = await send(png, true, false);
    expect(anon.statusCode).toBe(401);
    conforms(url, anon);
    const noCsrf = await send(png, false);
    expect(noCsrf.statusCode).toBe(403);
    conforms(url, noCsrf);
  });

  it('answers speech as declared: 402 without credits, then audio/wav and audio/ogg with the declared headers', async () => {
    const url = '/api/v1/svcloom/voice/synthesize';
    const post = (accept?: string) =>
      server.app.inject({
        method: 'POST',
        url,
        headers: { ...sessionHeaders(user), ...(accept ? { accept } : {}) },
        payload: { text: 'hello there' },
      });
    const poor = await post();
    expect(poor.statusCode).toBe(402);
    conforms(url, poor);
    await grant(server, user.accountId, 50);
    const wav = await post();
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(conforms(url, wav).headers['X-Credits-Charged']).toBeDefined();
    const ogg = await post('audio/ogg');
    expect(ogg.statusCode).toBe(200);
    expect(ogg.headers['content-type']).toBe('audio/ogg');
    conforms(url, ogg);
    const bad = await server.app.inject({ method: 'POST', url, headers: sessionHeaders(user), payload: { text: '' } });
    expect(bad.statusCode).toBe(400);
    conforms(url, bad);
  }, 60_000);

  it('answers avatar 404 for an unknown photo id as declared', async () => {
    const url = '/api/v1/svcloom/avatar/generate';
    const res = await server.app.inject({
      method: 'POST',
      url,
      headers: sessionHeaders(user),
      payload: { photoUrl: 'med_01JD0000000000000000000000', text: 'hello', durationSeconds: 2 },
    });
    expect(res.statusCode).toBe(404);
    conforms(url, res);
  });

  it('answers the export as declared: Markdown and PDF downloads, 400 for a bad format, 401 without a session', async () => {
    const url = '/api/v1/svcloom/export';
    const op = doc.paths[url].get;
    expect(op.operationId).toBe('export_memoir');
    expect(op.parameters[0]).toMatchObject({ in: 'query', name: 'format', schema: { enum: ['md', 'pdf'] } });
    for (const format of ['md', 'pdf']) {
      const res = await server.app.inject({
        method: 'GET',
        url: `${url}?format=${format}`,
        headers: sessionHeaders(user, { csrf: false }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(`.${format}"`);
      conforms(url, res, 'get');
    }
    const bad = await server.app.inject({ method: 'GET', url: `${url}?format=html`, headers: sessionHeaders(user) });
    expect(bad.statusCode).toBe(400);
    conforms(url, bad, 'get');
    const anon = await server.app.inject({ method: 'GET', url });
    expect(anon.statusCode).toBe(401);
    conforms(url, anon, 'get');
  });
});
