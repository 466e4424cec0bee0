/**
 * The fonts of the memoir PDF (./pdf-text.ts says which and why): the Noto Sans
 * files of each style, unpacked once per process, and words shaped with them.
 * The Chinese, Japanese, Korean and Thai fonts are loaded only for a text that
 * has such characters (`extraScriptsOf`).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import { decompress } from 'wawoff2';

export type TextStyle = 'regular' | 'bold' | 'italic';

const requireFrom = createRequire(import.meta.url);

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

/**
 * Fonts loaded only for a text that needs them (each is a large file, unpacked in a second or so): the Chinese
 * (simplified, traditional), Japanese and Korean subsets of Noto Sans CJK, and Noto Sans Thai.
 */
export const EXTRA_SCRIPTS = ['sc', 'tc', 'jp', 'kr', 'thai'] as const;
export type ExtraScript = (typeof EXTRA_SCRIPTS)[number];

/** The CJK fonts, kept in assets/fonts (assets/fonts/README.md says which subsets and why), by script. */
const CJK_FILES: Record<Exclude<ExtraScript, 'thai'>, string> = {
  sc: 'noto-sans-sc-chinese-simplified',
  tc: 'noto-sans-tc-chinese-traditional',
  jp: 'noto-sans-jp-japanese',
  kr: 'noto-sans-kr-korean',
};
const ASSETS = new URL('../../assets/fonts/', import.meta.url);

/** A font file: where it is, and the extra script it serves (absent: one of the fonts always loaded). */
interface FontFile {
  path: string;
  name: string;
  script?: ExtraScript;
}

const packageFile = (spec: string, script?: ExtraScript): FontFile => ({
  path: requireFrom.resolve(spec),
  name: spec.slice(spec.lastIndexOf('/') + 1, -'.woff2'.length),
  ...(script ? { script } : {}),
});

/**
 * Font files of a style, most common first, then those of the extra scripts asked for. Arabic, Hebrew, Thai and
 * the CJK fonts have no italic: their regular is used.
 */
function fontFiles(style: TextStyle, extras: ReadonlySet<ExtraScript>): FontFile[] {
  const weight = style === 'bold' ? 700 : 400;
  const slant = style === 'italic' ? 'italic' : 'normal';
  const files = [
    ...NOTO_SANS_SUBSETS.map((s) => packageFile(`@fontsource/noto-sans/files/noto-sans-${s}-${weight}-${slant}.woff2`)),
    packageFile(`@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-${weight}-normal.woff2`),
    packageFile(`@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-${weight}-normal.woff2`),
  ];
  for (const script of EXTRA_SCRIPTS) {
    if (!extras.has(script)) continue;
    if (script === 'thai')
      files.push(packageFile(`@fontsource/noto-sans-thai/files/noto-sans-thai-thai-${weight}-normal.woff2`, script));
    else {
      const name = `${CJK_FILES[script]}-${weight}-normal`;
      files.push({ path: fileURLToPath(new URL(`${name}.woff2`, ASSETS)), name, script });
    }
  }
  return files;
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const THAI = /\p{Script=Thai}/u;

/** The extra scripts' fonts a text needs: Chinese characters take both Chinese fonts (traditional ones may be missing from the simplified), kana the Japanese, hangul the Korean. */
export function extraScriptsOf(text: string): Set<ExtraScript> {
  const out = new Set<ExtraScript>();
  if (HAN.test(text)) {
    out.add('sc');
    out.add('tc');
  }
  if (KANA.test(text)) out.add('jp');
  if (HANGUL.test(text)) out.add('kr');
  if (THAI.test(text)) out.add('thai');
  return out;
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
  /** The extra script it serves (a CJK face is chosen for Chinese characters by the paragraph's language). */
  script?: ExtraScript;
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

let unpacking: Promise<unknown> = Promise.resolve();

/** WOFF2 to TrueType, one file at a time: wawoff2 answers with a view of its WebAssembly memory, which its next call reuses, so it is copied at once. */
function unpack(woff2: Buffer): Promise<Buffer> {
  const result = unpacking.then(async () => Buffer.from(await decompress(woff2)));
  unpacking = result.catch(() => undefined);
  return result;
}

/** Unpacked files by path: the regular and the italic of a font without italics share one. */
const unpacked = new Map<string, Promise<Buffer>>();
/** Faces by style and file, read once per process. */
const loaded = new Map<string, Promise<Face>>();

function faceOf(style: TextStyle, file: FontFile): Promise<Face> {
  const id = `${style}:${file.path}`;
  let face = loaded.get(id);
  if (!face) {
    face = (async () => {
      let ttf = unpacked.get(file.path);
      if (!ttf) {
        ttf = readFile(file.path).then(unpack);
        ttf.catch(() => unpacked.delete(file.path));
        unpacked.set(file.path, ttf);
      }
      const bytes = await ttf;
      const created = fontkit.create(bytes);
      if (!('layout' in created)) throw new Error(`${file.name} is a font collection, not a font`);
      return {
        key: `${style}:${file.name}`,
        ...(file.script ? { script: file.script } : {}),
        font: withExactGlyphText(created),
        ttf: bytes,
        copies: [],
        shaped: new Map(),
      };
    })();
    face.catch(() => loaded.delete(id));
    loaded.set(id, face);
  }
  return face;
}

/**
 * The faces of a style, with those of the extra scripts asked for, read once per process. The WOFF2 files are
 * unpacked to plain TrueType first (wawoff2, Google's decoder in WebAssembly): fontkit reads a compressed font's
 * glyph table anew for every glyph it embeds.
 */
export async function facesOf(style: TextStyle, extras: ReadonlySet<ExtraScript> = new Set()): Promise<Face[]> {
  const out: Face[] = [];
  // One at a time: unpacking is serial anyway, and a failure stops at the first file.
  for (const file of fontFiles(style, extras)) out.push(await faceOf(style, file));
  return out;
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
  // Shaping splits Thai sara am (U+0E33) and Lao am (U+0EB3) into the nikhahit mark and the vowel aa, and hands the
  // mark the am's text while the aa gets its own: the mark stands for nikhahit, so the text reads back as nikhahit
  // and aa, which is what the am decomposes to (NFKC folds it back).
  const split = new Map<number, number>();
  for (const [am, mark] of [
    [0x0e33, 0x0e4d],
    [0x0eb3, 0x0ecd],
  ] as const) {
    if (!font.hasGlyphForCodePoint(mark)) continue;
    const id = font.glyphForCodePoint(mark).id;
    if (id !== font.glyphForCodePoint(am).id) split.set(am, id);
  }
  const exact = (id: number, given?: number[]) => {
    const codePoints =
      given?.length === 1 && split.get(given[0]!) === id ? [given[0] === 0x0e33 ? 0x0e4d : 0x0ecd] : given;
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
