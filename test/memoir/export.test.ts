import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { multipartBody, requireProgram } from './support.js';

// GET /svcloom/export?format=md|pdf: the memoir as a book, for the caller's
// account only. The PDF is read back with pdftotext (poppler-utils).

const exec = promisify(execFile);
const ENTRY = 'My mother baked rye bread every Sunday and my father sang while he cut it';
const ANSWER = 'They were patient people who kept bees behind the orchard';
const SECRET = 'Quartermaster Zebediah hid the lighthouse key under a loose stone';

let server: TestServer;
let user: TestSession;
let other: TestSession;
let photoId: string;
let work: { dir: string; cleanup: () => Promise<void> };

const get = (session: TestSession | undefined, url: string) =>
  server.app.inject({ method: 'GET', url, headers: session ? sessionHeaders(session, { csrf: false }) : {} });
const post = (session: TestSession, url: string, payload: object) =>
  server.app.inject({ method: 'POST', url, headers: sessionHeaders(session), payload });

async function pdfText(bytes: Buffer, name: string): Promise<string> {
  const file = path.join(work.dir, name);
  await writeFile(file, bytes);
  const { stdout } = await exec('pdftotext', ['-layout', file, '-']);
  return stdout.replace(/\s+/g, ' ');
}

beforeAll(async () => {
  await requireProgram('pdftotext', 'poppler-utils');
  server = await startTestServer();
  work = await tmpDir('svc-memoir-export-');
  user = await registerUser(server.app);
  other = await registerUser(server.app);
  expect((await post(user, '/api/svcloom/setup', { agentName: 'Grandma Ilse' })).statusCode).toBe(200);
  expect((await post(user, '/api/svcloom/journal', { content: ENTRY, mood: 'happy' })).statusCode).toBe(201);
  expect((await post(user, '/api/svcloom/questionnaire/family', { answers: [{ questionId: 'family.parents', answer: ANSWER }] })).statusCode).toBe(200);
  const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } }).png().toBuffer();
  const { body, contentType } = multipartBody([{ name: 'file', filename: 'garden.png', contentType: 'image/png', data: png }]);
  const up = await server.app.inject({ method: 'POST', url: '/api/svcloom/media/upload', headers: { ...sessionHeaders(user), 'content-type': contentType }, payload: body });
  expect(up.statusCode).toBe(201);
  photoId = up.json().data.id;
  expect((await post(other, '/api/svcloom/journal', { content: SECRET })).statusCode).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await work?.cleanup();
});

describe('memoir export', () => {
  it('md: entries under their theme with dates, answers under their category with the question, photos by media id; as an attachment', async () => {
    const res = await get(user, '/api/v1/svcloom/export?format=md');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="memoir-\d{4}-\d{2}-\d{2}\.md"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const md = res.body;
    expect(md).toContain('# Grandma Ilse');
    // The entry is about family (mother, father): under that theme, dated, with its mood.
    const family = md.indexOf('### Family\n');
    const entry = md.indexOf(`> ${ENTRY}`);
    expect(family).toBeGreaterThan(md.indexOf('## Journal'));
    expect(entry).toBeGreaterThan(family);
    expect(md.slice(family, entry)).toContain('(happy)');
    expect(md.slice(family, entry)).toMatch(/#### \d{4}-\d{2}-\d{2}/);
    // The answer, under Questionnaires > Family, after its question.
    const questionnaires = md.indexOf('## Questionnaires');
    const question = md.indexOf('**What were your parents like? What did you learn from each of them?**');
    expect(question).toBeGreaterThan(questionnaires);
    expect(md.indexOf(`> ${ANSWER}`)).toBeGreaterThan(question);
    expect(md.slice(md.indexOf('## Photos'))).toContain(`- ${photoId} (image/png,`);
    expect(md).not.toContain('Zebediah');
  });

  it('md is the default format and is served at /api/svcloom too', async () => {
    const res = await get(user, '/api/svcloom/export');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(ENTRY);
  });

  it('pdf: a PDF whose text has the entry and the answer, with the photo embedded, and nothing of another account', async () => {
    const res = await get(user, '/api/v1/svcloom/export?format=pdf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="memoir-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(bytes, 'mine.pdf');
    expect(text).toContain('Grandma Ilse');
    expect(text).toContain(ENTRY);
    expect(text).toContain(ANSWER);
    expect(text).toContain(photoId);
    expect(text).not.toContain('Zebediah');
    // One embedded image, scaled down (800 px wide at most).
    const raw = bytes.toString('latin1');
    const images = [...raw.matchAll(/\/Subtype \/Image[\s\S]{0,200}?\/Width (\d+)/g)];
    expect(images.length).toBe(1);
    expect(Number(images[0]![1])).toBe(800);
  });

  it('the other account gets its own book only', async () => {
    const md = (await get(other, '/api/v1/svcloom/export?format=md')).body;
    expect(md).toContain(SECRET);
    expect(md).not.toContain('rye bread');
    expect(md).not.toContain(photoId);
    const text = await pdfText((await get(other, '/api/v1/svcloom/export?format=pdf')).rawPayload, 'other.pdf');
    expect(text).toContain('Zebediah');
    expect(text).not.toContain('rye bread');
    expect(text).not.toContain(photoId);
  });

  it('400 for a bad format or an unknown parameter, 401 without a session, all enveloped', async () => {
    for (const url of ['/api/v1/svcloom/export?format=docx', '/api/v1/svcloom/export?format=md&format=pdf', '/api/v1/svcloom/export?style=fancy']) {
      const res = await get(user, url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
    const anon = await get(undefined, '/api/v1/svcloom/export?format=md');
    expect(anon.statusCode).toBe(401);
    expect(anon.json().success).toBe(false);
  });
});
