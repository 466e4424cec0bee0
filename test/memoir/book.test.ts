import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import type { Clock } from '../../src/core/clock.js';
import { bookPdf } from '../../src/memoir/book-pdf.js';
import { bookMarkdown, memoirBook, readWhen, type MemoirBook } from '../../src/memoir/export.js';
import { addJournalEntry, answerQuestionnaire, setSetup } from '../../src/memoir/memoir.js';
import { mediaDir } from '../../src/memoir/media.js';
import { extraScriptsOf, facesOf } from '../../src/memoir/pdf-fonts.js';
import { MEMOIR_JOURNAL, MEMOIR_MEDIA, type JournalEntry, type MediaRecord } from '../../src/memoir/records.js';
import { tmpDir } from '../helpers.js';
import { MEMOIR_ENGINES, openEngineStore, requireProgram } from './support.js';

// The memoir as a keepsake: the book's content (title, chapters, dates, captions, transcripts, no ids, private
// entries left out of the heirs' book) on both engines, and its PDF pages rendered as images (pdftoppm) to check
// that each entry is there and that no page but the title page is mostly blank.

const exec = promisify(execFile);
let work: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  await requireProgram('pdftotext', 'poppler-utils');
  await requireProgram('pdftoppm', 'poppler-utils');
  work = await tmpDir('svc-memoir-book-');
});
afterAll(async () => {
  await work?.cleanup();
});

/** A small pseudo-random sequence (the same every run), for books of varied shapes. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SENTENCES = [
  'We walked to the river every evening after supper.',
  'My father kept the accounts of the mill in a green ledger.',
  'The winter the canal froze we skated all the way to the next village.',
  'Mother sang while she kneaded the bread, always the same three songs.',
  'I started at the post office on a Monday and stayed for thirty-one years.',
  'Your grandfather proposed on the pier, in the rain, without a ring.',
  'We had a dog called Biscuit who stole sausages from the butcher.',
  'The house on Alder Street had a pear tree that never gave a single pear.',
];

/** Entry texts of varied lengths, each with a marker word that finds it in the PDF text. */
function entryText(rand: () => number, marker: string): string {
  const n = 1 + Math.floor(rand() * 12);
  const parts = Array.from({ length: n }, () => SENTENCES[Math.floor(rand() * SENTENCES.length)]);
  return `${marker}. ${parts.join(' ')}`;
}

async function photo(width: number, height: number, colour: string): Promise<string> {
  const file = path.join(work.dir, `p-${width}x${height}-${colour.slice(1)}.png`);
  await writeFile(
    file,
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
  return file;
}

/** A book of `chapters` chapters built from a seed: dated and undated entries, answers, photos, recordings. */
async function randomBook(seed: number, chapters: number): Promise<{ book: MemoirBook; markers: string[] }> {
  const rand = seeded(seed);
  const markers: string[] = [];
  const photos = [
    await photo(1600, 1200, '#335577'),
    await photo(600, 900, '#775533'),
    await photo(900, 300, '#557733'),
  ];
  const book: MemoirBook = {
    title: 'Margaret Ellen Hobbs',
    span: '1948 to 1999',
    generatedAt: '2026-11-28T12:00:00.000Z',
    chapters: Array.from({ length: chapters }, (_, c) => {
      const entries = Array.from({ length: 1 + Math.floor(rand() * 5) }, (_, e) => {
        const marker = `Marker${seed}x${c}x${e}`;
        markers.push(marker);
        return {
          when: rand() < 0.5 ? '14 March 1962' : null,
          mood: null,
          prompt: null,
          content: entryText(rand, marker),
        };
      });
      return {
        part: c < chapters / 2 ? ('time' as const) : ('theme' as const),
        title: `Chapter ${seed} ${c}`,
        entries,
        answers:
          rand() < 0.4
            ? [{ question: 'What was your first job?', answer: `Answer${seed}x${c}. ${entryText(rand, 'A')}` }]
            : [],
        photos: rand() < 0.5 ? [{ caption: `Caption${seed}x${c}`, when: null, file: photos[c % 3]! }] : [],
        recordings:
          rand() < 0.3
            ? [{ caption: `Voice${seed}x${c}`, kind: 'audio' as const, seconds: 125, transcript: 'we sang on the bus' }]
            : [],
      };
    }),
  };
  for (const c of book.chapters) {
    for (const a of c.answers) markers.push(a.answer.slice(0, a.answer.indexOf('.')));
    for (const p of c.photos) markers.push(p.caption);
    for (const r of c.recordings) markers.push(r.caption);
  }
  return { book, markers };
}

/** A grey PGM (P5) file read into its size and pixels. */
function readPgm(bytes: Buffer): { width: number; height: number; pixels: Buffer } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: bytes.subarray(header[0].length, header[0].length + width * height) };
}

/**
 * Each page rendered in grey at 36 dpi: how far down its body the ink reaches, as a share of the body's height (the
 * margin band at the foot, where the page number is, is not counted), and whether it has any ink at all.
 */
async function pageFill(pdf: Buffer, name: string): Promise<number[]> {
  const dir = path.join(work.dir, name);
  await exec('mkdir', ['-p', dir]);
  const file = path.join(dir, 'book.pdf');
  await writeFile(file, pdf);
  await exec('pdftoppm', ['-gray', '-r', '36', file, path.join(dir, 'page')]);
  const pages = (await readdir(dir)).filter((f) => f.endsWith('.pgm')).sort();
  const fills: number[] = [];
  for (const p of pages) {
    const { width, height, pixels } = readPgm(await readFile(path.join(dir, p)));
    // A4 is 842 points high; the body runs from the top margin (56 pt) to the bottom one.
    const top = Math.round((56 / 842) * height);
    const bottom = Math.round(((842 - 56) / 842) * height);
    let last = -1;
    for (let y = top; y < bottom; y++) {
      const row = pixels.subarray(y * width, (y + 1) * width);
      if (row.some((v) => v < 160)) last = y;
    }
    fills.push(last < 0 ? 0 : (last - top + 1) / (bottom - top));
  }
  return fills;
}

async function pdfPages(pdf: Buffer, name: string): Promise<string[]> {
  const file = path.join(work.dir, `${name}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await exec('pdftotext', ['-layout', file, '-']);
  return stdout.split('\f').map((p) => p.replace(/\s+/g, ' '));
}

describe('the book as pages', () => {
  it('every entry, answer, caption and recording is in the text; no page but the title page is mostly blank', async () => {
    for (const [seed, chapters] of [
      [1, 3],
      [2, 7],
      [3, 12],
    ] as const) {
      const { book, markers } = await randomBook(seed, chapters);
      const pdf = await bookPdf(book);
      const pages = await pdfPages(pdf, `random-${seed}`);
      const text = pages.join(' ');
      for (const m of markers) expect(text).toContain(m);
      const fills = await pageFill(pdf, `random-${seed}`);
      expect(fills.length).toBeGreaterThanOrEqual(2);
      // The title page stands alone; every other page but the last is used at least two-thirds of the way down.
      fills.slice(1, -1).forEach((fill, i) => {
        expect({ seed, page: i + 2, fill: fill >= 0.66 }).toEqual({ seed, page: i + 2, fill: true });
      });
      expect(fills[fills.length - 1]).toBeGreaterThan(0);
      // The title page has the person's name and nothing of the chapters.
      expect(pages[0]).toContain('Margaret Ellen Hobbs');
      expect(pages[0]).not.toContain('Marker');
      // The contents give the page each chapter starts on, and the chapter is there.
      const contents = pages[1]!;
      for (const c of book.chapters) {
        const listed = new RegExp(`${c.title} (\\d+)`).exec(contents);
        expect(listed).not.toBeNull();
        const page = Number(listed![1]);
        // Page numbers count from the title page (1); the contents list itself is on page 2.
        const onPage = pages[page - 1]!;
        expect(onPage.slice(page === 2 ? contents.lastIndexOf(book.chapters[0]!.title) : 0)).toContain(c.title);
      }
    }
  });

  it('Chinese, Japanese, Korean and Thai are drawn, each in its own font, and read back', async () => {
    const texts = {
      sc: '我的奶奶在北京长大。她每年春节都包饺子，我们全家围坐在一起，一边包一边听她讲小时候的故事。',
      tc: '我們在台灣的老家有一棵龍眼樹，每年夏天結滿了果子。',
      jp: '祖母はよく桜の下でお茶を飲みました。夏には家族みんなで海へ行き、夕方まで泳ぎました。',
      kr: '할머니는 부산에서 자랐습니다. 매일 아침 시장에 가셨어요.',
      thai: 'ยายของฉันเกิดที่เชียงใหม่ และชอบทำอาหารให้หลานๆ กินทุกวันอาทิตย์',
    };
    const bookOf = (title: string, contents: string[]): MemoirBook => ({
      title,
      span: null,
      generatedAt: '2026-11-28T12:00:00.000Z',
      chapters: [
        {
          part: 'theme',
          title: 'Family',
          entries: contents.map((content) => ({ when: null, mood: null, prompt: null, content })),
          answers: [],
          photos: [],
          recordings: [],
        },
      ],
    });
    const fontsIn = (pdf: Buffer) =>
      new Set(
        [...pdf.toString('latin1').matchAll(/\/FontName \/[A-Z]{6}\+(NotoSans[A-Za-z]*?)(?:Thin)?-/g)].map((m) => m[1]),
      );
    // Every character has a glyph in the fonts loaded for it: none is drawn as a missing-glyph box.
    const all = Object.values(texts).join('');
    const faces = await facesOf('regular', extraScriptsOf(all));
    const missing = [...all].filter((c) => !faces.some((f) => f.font.hasGlyphForCodePoint(c.codePointAt(0)!)));
    expect(missing).toEqual([]);

    const pdf = await bookPdf(bookOf('王秀英', Object.values(texts)), { compress: false });
    // pdftotext breaks the lines; Thai sara am reads back as its decomposition (NFKC of both sides).
    const norm = (t: string) => t.normalize('NFKC').replace(/\s+/g, '');
    const text = norm((await pdfPages(pdf, 'scripts')).join(''));
    for (const t of Object.values(texts)) expect(text).toContain(norm(t));
    expect(text).toContain('王秀英');
    expect(fontsIn(pdf)).toEqual(
      new Set(['NotoSans', 'NotoSansSC', 'NotoSansTC', 'NotoSansJP', 'NotoSansKR', 'NotoSansThai']),
    );
    // The page is drawn: ink on the body, as for any other book.
    const fills = await pageFill(pdf, 'scripts');
    expect(fills[1]).toBeGreaterThan(0.1);

    // A character shared by the three has its own form in each: the paragraph's language picks the font.
    expect(fontsIn(await bookPdf(bookOf('Ann', [texts.jp]), { compress: false }))).toEqual(
      new Set(['NotoSans', 'NotoSansJP']),
    );
    // (The traditional subset has no full-width comma: the simplified font draws that one mark.)
    const tc = fontsIn(await bookPdf(bookOf('Ann', [texts.tc]), { compress: false }));
    expect([tc.has('NotoSansTC'), tc.has('NotoSansJP'), tc.has('NotoSansKR')]).toEqual([true, false, false]);
    expect(fontsIn(await bookPdf(bookOf('Ann', [texts.sc]), { compress: false }))).toEqual(
      new Set(['NotoSans', 'NotoSansSC']),
    );
    // A book in Latin letters alone loads and embeds none of them.
    expect(fontsIn(await bookPdf(bookOf('Ann', ['We swam in the lake.']), { compress: false }))).toEqual(
      new Set(['NotoSans']),
    );
  });

  it('photos are drawn inline: the rendered page is dark where the photo is', async () => {
    const file = await photo(800, 600, '#000000');
    const book: MemoirBook = {
      title: 'Dark Photo',
      span: null,
      generatedAt: '2026-11-28T12:00:00.000Z',
      chapters: [
        {
          part: 'theme',
          title: 'Photographs',
          entries: [],
          answers: [],
          photos: [{ caption: 'The black cat at night', when: '1962', file }],
          recordings: [],
        },
      ],
    };
    const pdf = await bookPdf(book);
    expect((await pdfPages(pdf, 'dark')).join(' ')).toContain('The black cat at night (1962)');
    const dir = path.join(work.dir, 'dark-render');
    await exec('mkdir', ['-p', dir]);
    await writeFile(path.join(dir, 'b.pdf'), pdf);
    await exec('pdftoppm', ['-gray', '-r', '36', '-f', '2', '-l', '2', path.join(dir, 'b.pdf'), path.join(dir, 'p')]);
    const [page] = (await readdir(dir)).filter((f) => f.endsWith('.pgm'));
    const { pixels } = readPgm(await readFile(path.join(dir, page!)));
    const dark = pixels.filter((v) => v < 40).length / pixels.length;
    // A 483 x 362 pt photo on a 595 x 842 pt page: about a third of it.
    expect(dark).toBeGreaterThan(0.25);
  });
});

describe.each(MEMOIR_ENGINES)('the book from the records (%s)', (engine) => {
  let env: Awaited<ReturnType<typeof openEngineStore>>;
  const owner = `acct_book_${engine}`;
  const clock: Clock = { now: () => new Date('2026-11-28T09:30:00.000Z') };

  beforeAll(async () => {
    env = await openEngineStore(engine);
  });
  afterAll(async () => {
    await env?.close();
  });

  it("titles it with the person's name, dates entries by when they happened, hides ids and private entries from heirs", async () => {
    const store = accountStore(env.store, owner);
    await setSetup(store, owner, 'Granny', clock, 'Margaret Hobbs');
    const add = async (content: string, extra: Partial<JournalEntry> = {}) => {
      const { entry } = await addJournalEntry(store, owner, 'key:k', { content }, clock);
      if (Object.keys(extra).length) await store.put(MEMOIR_JOURNAL, { ...entry, ...extra });
      return entry;
    };
    await add('We skated on the frozen canal with my brother.', { happenedAt: '1963-01-20' });
    await add('I started at the post office and my boss was kind.', { happenedAt: '1971' });
    await add('The whole family crowded into the kitchen at Christmas.', { happenedAt: '1950s' });
    await add('My mother never told anyone about the letter.', { private: true });
    await add('The garden behind the house had a pear tree.');
    await answerQuestionnaire(
      store,
      owner,
      'family',
      [{ questionId: 'family.parents', answer: 'Patient people who kept bees.' }],
      clock,
    );
    // A photo whose description a vision model gave, taken in 1962, and a recording transcribed.
    const dir = mediaDir(env.dataDir, owner);
    await exec('mkdir', ['-p', dir]);
    await writeFile(
      path.join(dir, 'a.png'),
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#884422' } })
        .png()
        .toBuffer(),
    );
    const media: MediaRecord[] = [
      {
        id: 'med_01JD00000000000000000000P1',
        ownerId: owner,
        kind: 'photo',
        mime: 'image/png',
        ext: 'png',
        size: 100,
        file: 'a.png',
        originalName: 'IMG_2041.png',
        durationMinutes: null,
        durationSeconds: null,
        inference: { plain: { takenAt: '1962-07-04T10:00:00', description: 'Two girls on a pier by the sea' } },
        createdAt: clock.now().toISOString(),
      },
      {
        id: 'med_01JD00000000000000000000A1',
        ownerId: owner,
        kind: 'audio',
        mime: 'audio/wav',
        ext: 'wav',
        size: 100,
        file: 'b.wav',
        originalName: 'grandma_singing.wav',
        durationMinutes: null,
        durationSeconds: 65,
        inference: { plain: { transcript: 'we sang all the way home on the bus' } },
        createdAt: clock.now().toISOString(),
      },
    ];
    for (const m of media) await store.put(MEMOIR_MEDIA, m);

    const mine = await memoirBook(store, owner, env.dataDir, clock.now(), { fallbackName: 'someone@example.org' });
    expect(mine.title).toBe('Margaret Hobbs');
    expect(mine.span).toBe('1950 to 1971');
    expect(mine.chapters.map((c) => c.title)).toEqual([
      'The 1950s',
      'The 1960s',
      'The 1970s',
      'Family',
      'Home and places',
      'In their own voice',
    ]);
    const sixties = mine.chapters[1]!;
    expect(sixties.entries.map((e) => e.when)).toEqual(['20 January 1963']);
    expect(sixties.photos).toEqual([
      expect.objectContaining({ caption: 'Two girls on a pier by the sea', when: '4 July 1962' }),
    ]);
    expect(mine.chapters[0]!.entries[0]!.when).toBe('The 1950s');
    expect(mine.chapters[5]!.recordings).toEqual([
      { caption: 'Grandma singing', kind: 'audio', seconds: 65, transcript: 'we sang all the way home on the bus' },
    ]);
    // The owner's book has the private entry; the heirs' does not.
    const md = bookMarkdown(mine);
    expect(md).toContain('never told anyone');
    const heirs = await memoirBook(store, owner, env.dataDir, clock.now(), { forHeirs: true });
    const heirsMd = bookMarkdown(heirs);
    expect(heirsMd).not.toContain('never told anyone');
    expect(heirsMd).toContain('pear tree');
    // No record ids and no upload date anywhere; the answer and the transcript are there.
    const pdfText = (await pdfPages(await bookPdf(heirs), `records-${engine}`)).join(' ');
    for (const text of [md, heirsMd, pdfText]) {
      expect(text).not.toMatch(/jrn_|med_|mqa_|acct_/);
      expect(text).not.toContain('2026-11-28');
      expect(text).toContain('Patient people who kept bees.');
      expect(text).toContain('we sang all the way home on the bus');
    }
    // The day the book was made is said once, on its title page: no entry carries it.
    expect(pdfText.split(readWhen('2026-11-28')!.label).length - 1).toBe(1);
    expect(pdfText).toContain('Margaret Hobbs');
  });

  it('takes the account name when the person is not named, but never an email address', async () => {
    const other = `${owner}_2`;
    const store = accountStore(env.store, other);
    await addJournalEntry(store, other, 'key:k', { content: 'A short note.' }, clock);
    expect((await memoirBook(store, other, env.dataDir, clock.now(), { fallbackName: 'Ada Byron' })).title).toBe(
      'Ada Byron',
    );
    expect((await memoirBook(store, other, env.dataDir, clock.now(), { fallbackName: 'ada@example.org' })).title).toBe(
      'A memoir',
    );
  });
});
