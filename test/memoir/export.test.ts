import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as fontkit from 'fontkit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookPdf, bookPdfStream } from '../../src/memoir/book-pdf.js';
import type { MemoirBook } from '../../src/memoir/export.js';
import { facesOf } from '../../src/memoir/pdf-fonts.js';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { multipartBody, requireProgram } from './support.js';

// GET /svcloom/export?format=md|pdf: the memoir as a book, for the caller's
// account only. The PDF is read back with pdftotext (poppler-utils).

const exec = promisify(execFile);
const ENTRY = 'My mother baked rye bread every Sunday and my father sang while he cut it';
const ANSWER = 'They were patient people who kept bees behind the orchard';
const SECRET = 'Quartermaster Zebediah hid the lighthouse key under a loose stone';

// Text outside Latin-1, one entry per script; the last puts an Arabic name in an English sentence.
const POLISH = 'Zażółć gęślą jaźń';
const GREEK = 'Η γιαγιά μου έψηνε ψωμί κάθε Κυριακή';
const CYRILLIC = 'Бабушка пекла хлеб каждое воскресенье';
const HEBREW = 'סבתא אפתה לחם';
const ARABIC = 'ورثة فاطمة';
// ف and ق, and ت ي ب ن, are drawn from shared dotless glyphs with their dots as marks.
const ARABIC_DOTS = 'ولدت في قرية قرب النهر';
const MIXED = 'My grandmother فاطمة baked bread for the whole street';

let server: TestServer;
let user: TestSession;
let other: TestSession;
let intl: TestSession;
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
  expect(
    (await post(user, '/api/svcloom/setup', { agentName: 'Grandma Ilse', personName: 'Ilse Marie Brandt' })).statusCode,
  ).toBe(200);
  expect((await post(user, '/api/svcloom/journal', { content: ENTRY, mood: 'happy' })).statusCode).toBe(201);
  expect(
    (
      await post(user, '/api/svcloom/questionnaire/family', {
        answers: [{ questionId: 'family.parents', answer: ANSWER }],
      })
    ).statusCode,
  ).toBe(200);
  const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  const { body, contentType } = multipartBody([
    { name: 'file', filename: 'garden.png', contentType: 'image/png', data: png },
  ]);
  const up = await server.app.inject({
    method: 'POST',
    url: '/api/svcloom/media/upload',
    headers: { ...sessionHeaders(user), 'content-type': contentType },
    payload: body,
  });
  expect(up.statusCode).toBe(201);
  photoId = up.json().data.id;
  expect((await post(other, '/api/svcloom/journal', { content: SECRET })).statusCode).toBe(201);
  intl = await registerUser(server.app);
  for (const content of [POLISH, GREEK, CYRILLIC, HEBREW, ARABIC, ARABIC_DOTS, MIXED]) {
    expect((await post(intl, '/api/svcloom/journal', { content })).statusCode).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  await work?.cleanup();
});

describe('memoir export', () => {
  it("md: titled with the person's name, contents, entries and answers under their chapter, photo captions, no ids; as an attachment", async () => {
    const res = await get(user, '/api/v1/svcloom/export?format=md');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="memoir-\d{4}-\d{2}-\d{2}\.md"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const md = res.body;
    // The person's name, not the agent's nickname.
    expect(md).toContain('# Ilse Marie Brandt');
    expect(md).not.toContain('Grandma Ilse');
    expect(md).toContain('## Contents');
    // The entry is about family (mother, father) and undated: under that chapter, with its mood, and no upload date.
    const family = md.indexOf('## Family\n');
    const entry = md.indexOf(`> ${ENTRY}`);
    expect(family).toBeGreaterThan(md.indexOf('## Contents'));
    expect(entry).toBeGreaterThan(family);
    expect(md.slice(family, entry)).toContain('feeling happy');
    expect(md).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The answer, in the same chapter, after its question.
    const question = md.indexOf('**What were your parents like? What did you learn from each of them?**');
    expect(question).toBeGreaterThan(family);
    expect(md.indexOf(`> ${ANSWER}`)).toBeGreaterThan(question);
    // The photo by a caption made from its file name, never by its id.
    expect(md).toContain('_Photograph: Garden_');
    expect(md).not.toMatch(/med_|jrn_/);
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
    expect(text).toContain('Ilse Marie Brandt');
    expect(text).toContain(ENTRY);
    expect(text).toContain(ANSWER);
    expect(text).toContain('Garden');
    expect(text).not.toContain(photoId);
    expect(text).not.toMatch(/med_|jrn_/);
    expect(text).not.toContain('Zebediah');
    // One embedded image, scaled down (800 px wide at most).
    const raw = bytes.toString('latin1');
    const images = [...raw.matchAll(/\/Subtype \/Image[\s\S]{0,200}?\/Width (\d+)/g)];
    expect(images.length).toBe(1);
    expect(Number(images[0]![1])).toBe(800);
  });

  it('pdf: Polish, Greek, Cyrillic, Hebrew and Arabic come back out of pdftotext, an Arabic name inside an English sentence too', async () => {
    const res = await get(intl, '/api/v1/svcloom/export?format=pdf');
    expect(res.statusCode).toBe(200);
    // pdftotext gives right-to-left text in logical order but wraps it in bidi
    // embedding marks (U+202A-U+202E, U+2066-U+2069) and may move the spaces
    // around it; a reader may also give Arabic presentation forms (U+FB50-U+FEFF),
    // which NFKC folds back to the letters. So: NFKC, marks dropped, spaces collapsed.
    const raw = await pdfText(res.rawPayload, 'intl.pdf');
    const text = raw
      .normalize('NFKC')
      .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .replace(/\s+/g, ' ');
    for (const entry of [POLISH, GREEK, CYRILLIC]) expect(text).toContain(entry);
    // Each right-to-left word in reading order (a reversed one would read ةمطاف).
    for (const word of [...HEBREW.split(' '), ...ARABIC.split(' ')]) expect(text).toContain(word);
    expect(text).not.toContain('ةمطاف');
    expect(text).toContain(ARABIC);
    // Letters built from the same dotless glyph come back as themselves (ق not read as ف, ي not as ت).
    expect(text).toContain(ARABIC_DOTS);
    // The name sits between the words around it (the marks may have taken the space next to it).
    expect(text).toMatch(/My grandmother ?فاطمة ?baked bread for the whole street/);
    // Embedded fonts are subsets: the book of six short entries stays small.
    expect(res.rawPayload.length).toBeLessThan(120_000);
  });

  it("pdf: Arabic is shaped (joined letter forms from the font's OpenType tables, not isolated letters)", async () => {
    const book: MemoirBook = {
      title: 'Shaping',
      span: null,
      generatedAt: '2026-01-01T00:00:00.000Z',
      chapters: [
        {
          part: 'theme',
          title: 'Family',
          entries: [{ when: null, mood: null, prompt: null, content: ARABIC }],
          answers: [],
          photos: [],
          recordings: [],
        },
      ],
    };
    const pdf = await bookPdf(book, { compress: false });
    // The embedded Noto Sans Arabic subset (uncompressed: compress is off), read back with fontkit.
    const raw = pdf.toString('latin1');
    const fileRef = /\/FontName \/[A-Z]{6}\+NotoSansArabic-Regular[\s\S]*?\/FontFile2 (\d+) 0 R/.exec(raw);
    expect(fileRef).not.toBeNull();
    const head = new RegExp(`\\n${fileRef![1]} 0 obj\\n<<[^>]*?/Length (\\d+)[^>]*?>>\\nstream\\n`).exec(raw);
    expect(head).not.toBeNull();
    const start = head!.index + head![0].length;
    const subset = fontkit.create(pdf.subarray(start, start + Number(head![1]))) as fontkit.Font;
    const drawn = new Set(Array.from({ length: subset.numGlyphs }, (_, i) => subset.getGlyph(i).path.toSVG()));
    // What shaping gives for فاطمة with the same font: every one of those glyphs is in the PDF ...
    const arabic = (await facesOf('regular')).find((f) => f.key.includes('arabic'))!.font;
    const shaped = arabic
      .layout('فاطمة')
      .glyphs.map((g) => g.path.toSVG())
      .filter(Boolean);
    expect(shaped.length).toBeGreaterThan(0);
    for (const path of shaped) expect(drawn.has(path)).toBe(true);
    // ... and the isolated forms of its joining letters, which unshaped text would show, are not.
    for (const letter of 'فطم') {
      const isolated = arabic.glyphForCodePoint(letter.codePointAt(0)!).path.toSVG();
      expect(shaped).not.toContain(isolated);
      expect(drawn.has(isolated)).toBe(false);
    }
  });

  it('pdf: streamed while it is drawn, and drawing waits for a reader that does not read', async () => {
    // Over the route: the PDF goes out as a stream (no Content-Length: it is not built in memory first).
    const res = await get(user, '/api/v1/svcloom/export?format=pdf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect((await get(user, '/api/v1/svcloom/export?format=md')).headers['content-length']).toBeDefined();
    // The domain stream: a book of 400 entries is megabytes of PDF; unread, only about a high-water mark of it is drawn.
    const entries = Array.from({ length: 400 }, (_, i) => ({
      when: null,
      mood: null,
      prompt: null,
      content: `Entry ${i}. ${ENTRY}. `.repeat(20),
    }));
    const book: MemoirBook = {
      title: 'Long',
      span: null,
      generatedAt: '2026-01-01T00:00:00.000Z',
      chapters: [{ part: 'theme', title: 'Family', entries, answers: [], photos: [], recordings: [] }],
    };
    const stream = await bookPdfStream(book, { compress: false });
    // The book is laid out first (its bytes dropped), then drawn: wait for the first bytes, then let it run on.
    while (stream.readableLength === 0) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    const waiting = stream.readableLength;
    expect(waiting).toBeGreaterThan(0);
    expect(waiting).toBeLessThan(256 * 1024);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.length).toBeGreaterThan(8 * waiting);
    const text = await pdfText(pdf, 'long.pdf');
    expect(text).toContain('Entry 399.');
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
    for (const url of [
      '/api/v1/svcloom/export?format=docx',
      '/api/v1/svcloom/export?format=md&format=pdf',
      '/api/v1/svcloom/export?style=fancy',
    ]) {
      const res = await get(user, url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
    const anon = await get(undefined, '/api/v1/svcloom/export?format=md');
    expect(anon.statusCode).toBe(401);
    expect(anon.json().success).toBe(false);
  });
});
