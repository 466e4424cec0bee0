/**
 * The fonts of the memoir PDF (./pdf-text.ts says which and why): the Noto Sans
 * files of each style, unpacked once per process, and words shaped with them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { decompress } from 'wawoff2';

export type TextStyle = 'regular' | 'bold' | 'italic';

/** The Noto Sans subsets used, in the order they are tried. */
const NOTO_SANS_SUBSETS = [
  'latin',
  'latin-ext',
  'vietnamese',
  'greek',
  'greek-ext',
  'cyrillic',
  'cyrillic-ext',
  'devanagari',
] as const;

/** Font files of a style, most common first. Arabic and Hebrew have no italic: their regular is used. */
function fontFiles(style: TextStyle): string[] {
  const weight = style === 'bold' ? 700 : 400;
  const slant = style === 'italic' ? 'italic' : 'normal';
  return [
    ...NOTO_SANS_SUBSETS.map((s) => `@fontsource/noto-sans/files/noto-sans-${s}-${weight}-${slant}.woff2`),
    `@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-${weight}-normal.woff2`,
    `@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-${weight}-normal.woff2`,
  ];
}

export interface Shaped {
  /** Advance width, font units. */
  width: number;
  /** Whether fontkit lays it out right to left (a right-to-left script). */
  rtl: boolean;
  /** Glyph ids and the text each one stands for, as pdfkit will map them. */
  glyphs: Array<[number, string]>;
}

export interface Face {
  /** The name the font is registered under in a document. */
  key: string;
  font: fontkit.Font;
  /** The TrueType file, for copies of the font under other names (see slotFor). */
  ttf: Buffer;
  copies: fontkit.Font[];
  /** Shaped words. Words recur, so each is shaped once per process. */
  shaped: Map<string, Shaped>;
}

/** Words kept per face in the cache before it starts again. */
const SHAPED_CACHE_SIZE = 20_000;

/** A word (or a run of spaces) shaped by fontkit with the font's default OpenType features. */
export function shape(face: Face, word: string): Shaped {
  let s = face.shaped.get(word);
  if (!s) {
    const run = face.font.layout(word, []);
    s = {
      width: run.advanceWidth,
      rtl: run.direction === 'rtl',
      glyphs: run.glyphs.map((g) => [g.id, String.fromCodePoint(...g.codePoints)]),
    };
    if (face.shaped.size >= SHAPED_CACHE_SIZE) face.shaped.clear();
    face.shaped.set(word, s);
  }
  return s;
}

const requireFrom = createRequire(import.meta.url);
const loaded = new Map<TextStyle, Promise<Face[]>>();

let unpacking: Promise<unknown> = Promise.resolve();

/** WOFF2 to TrueType, one file at a time: wawoff2 answers with a view of its WebAssembly memory, which its next call reuses, so it is copied at once. */
function unpack(woff2: Buffer): Promise<Buffer> {
  const result = unpacking.then(async () => Buffer.from(await decompress(woff2)));
  unpacking = result.catch(() => undefined);
  return result;
}

/**
 * The faces of a style, read once per process. The WOFF2 files are unpacked
 * to plain TrueType first (wawoff2, Google's decoder in WebAssembly): fontkit
 * reads a compressed font's glyph table anew for every glyph it embeds.
 */
export function facesOf(style: TextStyle): Promise<Face[]> {
  let faces = loaded.get(style);
  if (!faces) {
    faces = (async () => {
      const out: Face[] = [];
      for (const file of fontFiles(style)) {
        const ttf = await unpack(await readFile(requireFrom.resolve(file)));
        const created = fontkit.create(ttf);
        if (!('layout' in created)) throw new Error(`${file} is a font collection, not a font`);
        const font = withExactGlyphText(created);
        out.push({
          key: `${style}:${file.slice(file.lastIndexOf('/') + 1, -'.woff2'.length)}`,
          font,
          ttf,
          copies: [],
          shaped: new Map(),
        });
      }
      return out;
    })();
    faces.catch(() => loaded.delete(style));
    loaded.set(style, faces);
  }
  return faces;
}

/**
 * fontkit keeps one glyph object per glyph id, carrying the text of the id's
 * first use in the process, and shaping hands that object out for every later
 * use: the dotless form of ق would then stand for ف in every later document.
 * This font's getGlyph gives each use whose text differs a view of the glyph
 * with its own text, so what a glyph stands for is what it was drawn for.
 */
export function withExactGlyphText(font: fontkit.Font): fontkit.Font {
  const getGlyph = font.getGlyph.bind(font);
  const exact = (id: number, codePoints?: number[]) => {
    const glyph = getGlyph(id, codePoints);
    if (
      !glyph ||
      !codePoints ||
      (glyph.codePoints.length === codePoints.length && glyph.codePoints.every((c, i) => c === codePoints[i]))
    )
      return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as fontkit.Glyph;
  };
  Object.defineProperty(font, 'getGlyph', { value: exact });
  return font;
}
