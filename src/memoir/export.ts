/**
 * The memoir as a book: journal entries grouped
 * by theme, questionnaire answers by category, each with its date, and the
 * photos. Markdown names photos by media id; the PDF (pdfkit) embeds them,
 * scaled down by sharp. Everything is read through the caller's tenant-bound
 * store, so another account's memoir cannot appear.
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Store } from '../store/port.js';
import { DEFAULT_AGENT_NAME, readProfile } from './memoir.js';
import { MAX_IMAGE_PIXELS, mediaFile } from './media.js';
import type { TextWriter } from './pdf-text.js';
import { CATEGORIES } from './questions.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_JOURNAL,
  MEMOIR_MEDIA,
  type AnswerRecord,
  type JournalEntry,
  type MediaRecord,
} from './records.js';
import { themesOf } from './text.js';

export const EXPORT_FORMATS = ['md', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Entries that match no theme of src/memoir/text.ts. */
export const OTHER_THEME = 'other';

export interface MemoirBook {
  title: string;
  generatedAt: string;
  themes: Array<{
    theme: string;
    entries: Array<{ id: string; date: string; mood: string | null; prompt: string | null; content: string }>;
  }>;
  categories: Array<{
    id: string;
    title: string;
    answers: Array<{ questionId: string; question: string; answer: string; date: string }>;
  }>;
  photos: Array<{ id: string; date: string; mime: string; name: string | null; file: string }>;
  otherMedia: Array<{ id: string; kind: string; date: string; seconds: number | null; name: string | null }>;
}

/** Collects the book from the owner's records: themes in order of their first entry, entries and answers oldest first. */
export async function memoirBook(store: Store, ownerId: string, dataDir: string, now: Date): Promise<MemoirBook> {
  const [profile, entries, answers, media] = await Promise.all([
    readProfile(store, ownerId),
    store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
    store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
    store.findBy<MediaRecord>(MEMOIR_MEDIA, 'ownerId', ownerId),
  ]);
  const themes = new Map<string, MemoirBook['themes'][number]['entries']>();
  for (const e of [...entries].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    // Each entry once, under its strongest theme.
    const theme = themesOf(e.content)[0] ?? OTHER_THEME;
    const list = themes.get(theme) ?? [];
    list.push({ id: e.id, date: e.createdAt.slice(0, 10), mood: e.mood, prompt: e.promptUsed, content: e.content });
    themes.set(theme, list);
  }
  const other = themes.get(OTHER_THEME);
  if (other) {
    themes.delete(OTHER_THEME);
    themes.set(OTHER_THEME, other);
  }
  const byCategory = new Map(answers.map((a) => [a.category, a]));
  const categories = CATEGORIES.map((c) => ({
    id: c.id,
    title: c.title,
    answers: c.questions.flatMap((q) => {
      const a = byCategory.get(c.id)?.answers[q.id];
      return a ? [{ questionId: q.id, question: q.text, answer: a.answer, date: a.answeredAt.slice(0, 10) }] : [];
    }),
  })).filter((c) => c.answers.length);
  const sortedMedia = [...media].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    title: profile?.agentName ?? DEFAULT_AGENT_NAME,
    generatedAt: now.toISOString(),
    themes: [...themes.entries()].map(([theme, list]) => ({ theme, entries: list })),
    categories,
    photos: sortedMedia
      .filter((m) => m.kind === 'photo')
      .map((m) => ({
        id: m.id,
        date: m.createdAt.slice(0, 10),
        mime: m.mime,
        name: m.originalName,
        file: mediaFile(dataDir, m),
      })),
    otherMedia: sortedMedia
      .filter((m) => m.kind !== 'photo')
      .map((m) => ({
        id: m.id,
        kind: m.kind,
        date: m.createdAt.slice(0, 10),
        seconds: m.durationSeconds ?? null,
        name: m.originalName,
      })),
  };
}

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Markdown: headings are the book's own; the person's text is quoted so it cannot add headings or links of its own kind. */
export function bookMarkdown(book: MemoirBook): string {
  const quote = (text: string) =>
    text
      .split(/\r?\n/)
      .map((line) => `> ${line.replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`)}`)
      .join('\n');
  const out: string[] = [
    `# ${book.title.replace(/[\r\n#]/g, ' ')}`,
    '',
    `_A memoir, exported ${book.generatedAt.slice(0, 10)}._`,
    '',
  ];
  out.push('## Journal', '');
  if (!book.themes.length) out.push('_No journal entries yet._', '');
  for (const t of book.themes) {
    out.push(`### ${title(t.theme)}`, '');
    for (const e of t.entries) {
      out.push(`#### ${e.date}${e.mood ? ` (${e.mood.replace(/[\r\n#]/g, ' ')})` : ''} · ${e.id}`, '');
      if (e.prompt)
        out.push(`_Prompt:_ ${e.prompt.replace(/[\r\n]/g, ' ').replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`)}`, '');
      out.push(quote(e.content), '');
    }
  }
  out.push('## Questionnaires', '');
  if (!book.categories.length) out.push('_No answers yet._', '');
  for (const c of book.categories) {
    out.push(`### ${c.title}`, '');
    for (const a of c.answers) out.push(`**${a.question}** (${a.date}, ${a.questionId})`, '', quote(a.answer), '');
  }
  out.push('## Photos', '');
  if (!book.photos.length) out.push('_No photos._', '');
  for (const p of book.photos) out.push(`- ${p.id} (${p.mime}, ${p.date})`);
  if (book.photos.length) out.push('');
  if (book.otherMedia.length) {
    out.push('## Recordings', '');
    for (const m of book.otherMedia)
      out.push(`- ${m.id} (${m.kind}, ${m.date}${m.seconds !== null ? `, ${Math.round(m.seconds)} s` : ''})`);
    out.push('');
  }
  return out.join('\n');
}

/** sharp, loaded with the first PDF rather than with the service (as are pdfkit and the fonts). */
const loadSharp = async () => (await import('sharp')).default;

/** Longest side of an embedded photo, pixels (keeps the PDF small). */
const PHOTO_MAX_PX = 800;

/** A photo as a small JPEG for the PDF, or null when it cannot be read (it is then only listed). */
async function photoForPdf(file: string): Promise<Buffer | null> {
  const sharp = await loadSharp();
  try {
    return await sharp(await readFile(file), { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(PHOTO_MAX_PX, PHOTO_MAX_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    return null;
  }
}

/** The reader went away: drawing stops. */
class ReaderGone extends Error {}

/**
 * The PDF as a stream, drawn as it is read. Everything that can fail for a
 * reason other than a bug happens before it is returned (the book was read by
 * memoirBook; the fonts are loaded here; an unreadable photo is listed, not
 * drawn), so a refusal is still an ordinary error; a failure while drawing
 * destroys the stream. Text is drawn with the bundled Noto fonts
 * (src/memoir/pdf-text.ts), so names and entries in Arabic, Hebrew, Greek,
 * Cyrillic, Devanagari or any Latin script come out as written. `compress` is
 * off only for tests that read the bytes.
 *
 * pdfkit pushes its bytes without regard for a reader, so they are passed on
 * through a stream of our own, and the drawing waits, after each entry, answer
 * and photo, while a high-water mark's worth is waiting to be read: a book is
 * held in memory a little at a time rather than whole.
 */
export async function bookPdfStream(book: MemoirBook, opts: { compress?: boolean } = {}): Promise<Readable> {
  const [{ default: PdfDocument }, { textWriter }] = await Promise.all([import('pdfkit'), import('./pdf-text.js')]);
  const doc = new PdfDocument({
    size: 'A4',
    margin: 56,
    compress: opts.compress ?? true,
    info: { Title: book.title, Creator: 'svc memoir export' },
  });
  let wake: (() => void) | null = null;
  const out = new Readable({
    // Called when the reader wants more (the buffer is below the high-water mark) and when it is destroyed.
    read() {
      wake?.();
    },
    destroy(err, callback) {
      wake?.();
      callback(err);
    },
  });
  // What waits to be read: in our stream, and in pdfkit's own until its 'data' events start (they begin on a later tick).
  const waiting = () => out.readableLength + (doc as unknown as Readable).readableLength;
  const caughtUp = async () => {
    while (waiting() >= out.readableHighWaterMark && !out.destroyed)
      await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    if (out.destroyed) throw new ReaderGone();
  };
  doc.on('data', (chunk: Buffer) => out.push(chunk));
  doc.on('end', () => out.push(null));
  const writeText = await textWriter(doc);
  void drawBook(doc, book, writeText, caughtUp).then(
    () => doc.end(),
    (err: unknown) => {
      if (!(err instanceof ReaderGone)) out.destroy(err as Error);
    },
  );
  return out;
}

/** The whole PDF in memory (tests, small books). */
export async function bookPdf(book: MemoirBook, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await bookPdfStream(book, opts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function drawBook(
  doc: PDFKit.PDFDocument,
  book: MemoirBook,
  writeText: TextWriter,
  caughtUp: () => Promise<void>,
): Promise<void> {
  // The person's words (title, entries, answers) take their direction from their first letter; the book's own lines are left to right.
  const h = (text: string, size: number, direction: 'auto' | 'ltr' = 'ltr') =>
    writeText(text, { style: 'bold', size, after: 0.4, direction });
  const body = (text: string) => writeText(text, { size: 11, after: 0.6 });
  const small = (text: string) =>
    writeText(text, { style: 'italic', size: 9, color: '#555555', after: 0.2, direction: 'ltr' });

  h(book.title, 24, 'auto');
  small(`A memoir, exported ${book.generatedAt.slice(0, 10)}.`);
  doc.moveDown();
  h('Journal', 18);
  if (!book.themes.length) body('No journal entries yet.');
  for (const t of book.themes) {
    h(title(t.theme), 14);
    for (const e of t.entries) {
      small(`${e.date}${e.mood ? ` · ${e.mood}` : ''} · ${e.id}`);
      if (e.prompt) small(`Prompt: ${e.prompt}`);
      body(e.content);
      await caughtUp();
    }
  }
  doc.addPage();
  h('Questionnaires', 18);
  if (!book.categories.length) body('No answers yet.');
  for (const c of book.categories) {
    h(c.title, 14);
    for (const a of c.answers) {
      writeText(a.question, { style: 'bold', size: 11, direction: 'ltr' });
      small(`${a.date} · ${a.questionId}`);
      body(a.answer);
      await caughtUp();
    }
  }
  if (book.photos.length) {
    doc.addPage();
    h('Photos', 18);
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    for (const p of book.photos) {
      const image = await photoForPdf(p.file);
      if (image) {
        const meta = await (await loadSharp())(image).metadata();
        const scale = Math.min(1, width / (meta.width ?? width), 300 / (meta.height ?? 300));
        const height = (meta.height ?? 300) * scale;
        if (doc.y + height + 40 > doc.page.height - doc.page.margins.bottom) doc.addPage();
        doc.image(image, { width: (meta.width ?? width) * scale, height });
        doc.moveDown(0.3);
      }
      small(`${p.id} · ${p.date}${image ? '' : ' (could not be read)'}`);
      doc.moveDown(0.6);
      await caughtUp();
    }
  }
  if (book.otherMedia.length) {
    doc.addPage();
    h('Recordings', 18);
    for (const m of book.otherMedia)
      small(`${m.id} · ${m.kind} · ${m.date}${m.seconds !== null ? ` · ${Math.round(m.seconds)} s` : ''}`);
  }
}
