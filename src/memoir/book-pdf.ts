/**
 * The memoir book as a PDF (pdfkit): the book collected by ./export.ts laid out
 * in pages, with a title page, a contents list with page numbers, the photos
 * drawn inline (scaled down by sharp) and every script drawn with the bundled
 * Noto fonts (./pdf-text.ts).
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  type BookChapter,
  type BookPhoto,
  entryLine,
  type MemoirBook,
  NO_TRANSCRIPT,
  readWhen,
  recordingLine,
} from './export.js';
import { ApiError } from '../core/errors.js';
import { MAX_IMAGE_PIXELS, uprightJpeg } from './media.js';
import type { TextOptions, TextWriter } from './pdf-text.js';

/** sharp, loaded with the first PDF rather than with the service (as are pdfkit and the fonts). */
const loadSharp = async () => (await import('sharp')).default;

/** Longest side of an embedded photo, pixels (keeps the PDF small). */
const PHOTO_MAX_PX = 800;

/**
 * A photo as a small JPEG for the PDF, or null when it cannot be read (its caption is then printed alone). The scaling
 * waits for a place of the media work (./exec.ts); a refusal there (the service busy) is not a photo that cannot be
 * read, and fails the export.
 */
async function photoForPdf(file: string): Promise<Buffer | null> {
  const bytes = await readFile(file).catch(() => null);
  if (!bytes) return null;
  try {
    return await uprightJpeg(bytes, PHOTO_MAX_PX, 80);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    return null;
  }
}

/** A photo's size as drawn, from its header (turned upright by its EXIF orientation), or null when it cannot be read. */
async function photoSize(file: string): Promise<{ width: number; height: number } | null> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(file, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    if (!meta.width || !meta.height) return null;
    const turned = (meta.orientation ?? 1) >= 5;
    const width = turned ? meta.height : meta.width;
    const height = turned ? meta.width : meta.height;
    const scale = Math.min(1, PHOTO_MAX_PX / Math.max(width, height));
    return { width: width * scale, height: height * scale };
  } catch {
    return null;
  }
}

/** The reader went away: drawing stops. */
class ReaderGone extends Error {}

/**
 * The PDF as a stream, drawn as it is read. Everything that can fail for a
 * reason other than a bug happens before it is returned (the book was read by
 * memoirBook; the fonts are loaded here; an unreadable photo gets its caption
 * alone), so a refusal is still an ordinary error; a failure while drawing
 * destroys the stream. Text is drawn with the bundled Noto fonts
 * (src/memoir/pdf-text.ts), so names and entries in Arabic, Hebrew, Greek,
 * Cyrillic, Devanagari or any Latin script come out as written. `compress` is
 * off only for tests that read the bytes.
 *
 * The contents list gives each chapter's page, which is known only once the
 * book is laid out: the book is first laid out into a document whose bytes are
 * thrown away as they come (photos are only measured, not decoded), which
 * gives the pages; then it is drawn for real with the same layout.
 *
 * pdfkit pushes its bytes without regard for a reader, so they are passed on
 * through a stream of our own, and the drawing waits, after each entry, answer
 * and photo, while a high-water mark's worth is waiting to be read: a book is
 * held in memory a little at a time rather than whole.
 */
export async function bookPdfStream(book: MemoirBook, opts: { compress?: boolean } = {}): Promise<Readable> {
  const [{ default: PdfDocument }, { textWriter }] = await Promise.all([import('pdfkit'), import('./pdf-text.js')]);
  const newDoc = () =>
    new PdfDocument({
      size: 'A4',
      margin: MARGIN,
      compress: opts.compress ?? true,
      info: { Title: book.title, Creator: 'svc memoir export' },
    });
  const doc = newDoc();
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
  const text = bookText(book);
  const writeText = await textWriter(doc, { text });
  const draft = newDoc();
  const draftText = await textWriter(draft, { dry: true, text });
  void (async () => {
    // The layout pass: its bytes are dropped as they come, and it gives way to other work now and then.
    draft.on('data', () => undefined);
    const sizes = new Map<string, { width: number; height: number } | null>();
    const layout = await drawBook(draft, book, draftText, {
      measure: true,
      sizes,
      pages: [],
      pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
    });
    await drawBook(doc, book, writeText, { measure: false, sizes, pages: layout, pause: caughtUp });
  })().then(
    () => doc.end(),
    (err: unknown) => {
      if (!(err instanceof ReaderGone)) out.destroy(err as Error);
    },
  );
  return out;
}

/** Everything the book says, for the fonts it needs. */
function bookText(book: MemoirBook): string {
  const parts: string[] = [book.title, book.span ?? ''];
  for (const c of book.chapters) {
    parts.push(c.title);
    for (const e of c.entries) parts.push(e.when ?? '', e.mood ?? '', e.prompt ?? '', e.content);
    for (const a of c.answers) parts.push(a.question, a.answer);
    for (const p of c.photos) parts.push(p.caption, p.when ?? '');
    for (const r of c.recordings) parts.push(r.caption, r.transcript ?? '');
  }
  return parts.join('\n');
}

/** The whole PDF in memory (tests, small books). */
export async function bookPdf(book: MemoirBook, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await bookPdfStream(book, opts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const MARGIN = 56;
/** The tallest a photo is drawn, points; a photo may be drawn smaller (not under MIN_PHOTO) to end a page without a gap. */
const MAX_PHOTO = 320;
const MIN_PHOTO = 160;
const GREY = '#555555';

interface DrawPlan {
  /** The layout pass: nothing is drawn that costs (photos are measured, not decoded), and the chapters' pages are noted. */
  measure: boolean;
  /** Photo sizes, by file, found by the layout pass. */
  sizes: Map<string, { width: number; height: number } | null>;
  /** The page each chapter starts on (from the layout pass; empty during it). */
  pages: number[];
  /** Awaited after each block: the layout pass gives way to other work; the drawing waits for the reader. */
  pause: () => Promise<void>;
}

/**
 * Lays out and draws the book: a title page; the contents; then the chapters,
 * one after the other with no page left mostly empty (a chapter starts on a new
 * page only when too little room is left for its heading and the start of its
 * text; a photo that does not fit is drawn smaller when enough room is left).
 * Pages after the title carry their number at the foot. Answers the page each
 * chapter starts on.
 */
async function drawBook(doc: PDFKit.PDFDocument, book: MemoirBook, w: TextWriter, plan: DrawPlan): Promise<number[]> {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const top = doc.page.margins.top;
  let page = 1;
  doc.on('pageAdded', () => {
    page += 1;
    w.line(String(page), { size: 9, color: GREY, x: left, width, baseline: doc.page.height - 30, align: 'center' });
  });
  const room = () => bottom() - doc.y;
  /** Starts a new page unless `height` fits on this one. */
  const keep = (height: number) => {
    if (height > room() && doc.y > top) doc.addPage();
  };
  const body: TextOptions = { size: 11, after: 0.6 };
  const note: TextOptions = { style: 'italic', size: 9.5, color: GREY, after: 0.25, direction: 'ltr' };
  // The room the first lines of a text take (its start is enough to know: a line holds fewer than 150 characters).
  const firstLines = (text: string, opts: TextOptions, lines: number) =>
    Math.min(w.height(text.slice(0, 150 * lines), opts), w.height('x', { ...opts, after: 0 }) * lines);

  // The title page: the person's name, centred in the upper part of the page, at a size that fits one line.
  const nameSize = Math.max(
    14,
    Math.min(34, (width / Math.max(1, w.widthOf(book.title, { size: 1, style: 'bold' }))) * 0.95),
  );
  const middle = doc.page.height * 0.38;
  w.line(book.title, { style: 'bold', size: nameSize, x: left, width, baseline: middle, align: 'center' });
  w.line(book.span ? `A memoir · ${book.span}` : 'A memoir', {
    style: 'italic',
    size: 14,
    color: GREY,
    x: left,
    width,
    baseline: middle + nameSize + 6,
    align: 'center',
  });
  w.line(`Made on ${readWhen(book.generatedAt.slice(0, 10))?.label ?? book.generatedAt.slice(0, 10)}`, {
    size: 9,
    color: GREY,
    x: left,
    width,
    baseline: bottom(),
    align: 'center',
  });
  doc.addPage();

  if (!book.chapters.length) {
    w('Nothing has been written yet.', body);
    return [];
  }
  // The contents: part headings, then each chapter with its page, linked to it.
  w('Contents', { style: 'bold', size: 20, after: 0.6, direction: 'ltr' });
  let part: BookChapter['part'] | null = null;
  const partTitle = (p: BookChapter['part']) => (p === 'time' ? 'Through the years' : 'Themes');
  book.chapters.forEach((c, i) => {
    if (c.part !== part) {
      part = c.part;
      if (i) doc.y += 6;
      w(partTitle(c.part), { style: 'bold', size: 12, after: 0.2, direction: 'ltr' });
    }
    const size = 11;
    const lineTop = doc.y;
    const pageText = String(plan.pages[i] ?? '');
    const pageWidth = w.widthOf('0000', { size });
    w.line(c.title, { size, x: left + 12, width: width - 12 - pageWidth, baseline: lineTop + size, align: 'left' });
    w.line(pageText, { size, x: left + width - pageWidth, width: pageWidth, baseline: lineTop + size, align: 'right' });
    doc.y = lineTop + size * 1.5;
    if (!plan.measure) doc.goTo(left, lineTop, width, size * 1.4, `chapter-${i}`);
  });
  doc.y += 18;

  const pages: number[] = [];
  let shownPart: BookChapter['part'] | null = null;
  for (const [i, c] of book.chapters.entries()) {
    const heading: TextOptions = { style: 'bold', size: 20, after: 0.5, direction: 'auto' };
    const partLine: TextOptions = { style: 'italic', size: 10, color: GREY, after: 0.2, direction: 'ltr' };
    const firstText = c.entries[0]?.content ?? c.answers[0]?.answer ?? c.recordings[0]?.transcript ?? '';
    const start =
      (c.part !== shownPart ? w.height(partTitle(c.part), partLine) : 0) +
      w.height(c.title, heading) +
      (c.photos.length && !firstText ? MIN_PHOTO : firstLines(firstText || 'x', body, 4) + 30);
    if (doc.y > top) doc.y += 14;
    keep(start);
    pages.push(page);
    if (!plan.measure) {
      doc.addNamedDestination(`chapter-${i}`);
      doc.outline.addItem(c.title);
    }
    if (c.part !== shownPart) {
      shownPart = c.part;
      w(partTitle(c.part), partLine);
    }
    w(c.title, heading);
    for (const e of c.entries) {
      const line = entryLine(e);
      const lead = (line ? w.height(line, note) : 0) + (e.prompt ? w.height(`In answer to: ${e.prompt}`, note) : 0);
      keep(lead + firstLines(e.content, body, 3));
      if (line) w(line, note);
      if (e.prompt) w(`In answer to: ${e.prompt}`, note);
      w(e.content, body);
      await plan.pause();
    }
    for (const a of c.answers) {
      const q: TextOptions = { style: 'bold', size: 11, after: 0.2, direction: 'ltr' };
      keep(w.height(a.question, q) + firstLines(a.answer, body, 3));
      w(a.question, q);
      w(a.answer, body);
      await plan.pause();
    }
    for (const p of c.photos) {
      await drawPhoto(doc, w, p, plan, { left, width, room, keep, note });
      await plan.pause();
    }
    for (const r of c.recordings) {
      const head: TextOptions = { style: 'bold', size: 11, after: 0.1, direction: 'auto' };
      const text = r.transcript ?? NO_TRANSCRIPT;
      const textOpts = r.transcript ? body : { ...note, after: 0.6 };
      keep(w.height(r.caption, head) + w.height(recordingLine(r), note) + firstLines(text, textOpts, 3));
      w(r.caption, head);
      w(recordingLine(r), note);
      w(text, textOpts);
      await plan.pause();
    }
  }
  return pages;
}

/** A photo and its caption: full size when it fits, smaller when enough of it fits, else on the next page. */
async function drawPhoto(
  doc: PDFKit.PDFDocument,
  w: TextWriter,
  p: BookPhoto,
  plan: DrawPlan,
  at: { left: number; width: number; room: () => number; keep: (h: number) => void; note: TextOptions },
): Promise<void> {
  const caption = p.when ? `${p.caption} (${p.when})` : p.caption;
  const captionOpts: TextOptions = { ...at.note, after: 0.8, direction: 'auto' };
  const captionHeight = w.height(caption, captionOpts);
  if (!plan.sizes.has(p.file)) plan.sizes.set(p.file, await photoSize(p.file));
  const size = plan.sizes.get(p.file) ?? null;
  if (size) {
    const scale = Math.min(1, at.width / size.width, MAX_PHOTO / size.height);
    let drawW = size.width * scale;
    let drawH = size.height * scale;
    const fits = at.room() - captionHeight - 6;
    if (drawH > fits) {
      // Smaller, to end this page without a gap, when it can stay a fair size; else on the next page.
      if (fits >= Math.min(MIN_PHOTO, drawH * 0.6)) {
        drawW *= fits / drawH;
        drawH = fits;
      } else {
        doc.addPage();
      }
    }
    const image = plan.measure ? null : await photoForPdf(p.file);
    if (image) doc.image(image, at.left + (at.width - drawW) / 2, doc.y, { width: drawW, height: drawH });
    doc.y += drawH + 6;
  } else {
    at.keep(captionHeight);
  }
  w(caption, captionOpts);
}
