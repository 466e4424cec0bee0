/**
 * Text of the memoir PDF in any of the scripts people write their lives in:
 * Latin (with its extensions and Vietnamese), Greek, Cyrillic, Devanagari,
 * Arabic, Hebrew, Chinese, Japanese, Korean and Thai, mixed freely in one
 * sentence.
 *
 * Fonts: Noto Sans, Noto Sans Arabic and Noto Sans Hebrew, from the npm
 * packages @fontsource/noto-sans, @fontsource/noto-sans-arabic and
 * @fontsource/noto-sans-hebrew. All three are licensed under the SIL Open Font
 * License 1.1 (their package.json says "OFL-1.1" and each ships the licence
 * text), which allows embedding them in documents. Fontsource splits each
 * family into files by Unicode range (latin, latin-ext, greek, ...); each file
 * is a font of its own, so every piece of text is drawn with the first file
 * that has a glyph for it (fontkit `hasGlyphForCodePoint`). pdfkit embeds only
 * the glyphs used (a subset) of only the files used. Chinese, Japanese and
 * Korean come from subsets of Noto Sans SC, TC, JP and KR kept in assets/fonts
 * (OFL 1.1 too; assets/fonts/README.md), and Thai from @fontsource/noto-sans-thai;
 * these large files are loaded only for a text that has such characters. One
 * Chinese character is drawn differently in each (the same code point has a
 * Chinese, a Japanese and a Korean form), so the face is chosen by the
 * paragraph: Japanese where it has kana, Korean (then traditional Chinese) where
 * it has hangul, traditional Chinese where it has a character the simplified
 * font lacks, else simplified Chinese.
 *
 * Lines break at spaces, and inside a run of Chinese, Japanese or Thai (written
 * without spaces) between the words Intl.Segmenter finds (ICU's dictionaries),
 * never before closing punctuation nor after opening punctuation; a word wider
 * than the line is cut between grapheme clusters, so a mark stays on its letter.
 *
 * Shaping and direction: fontkit shapes each piece with the font's OpenType
 * tables (Arabic joining forms, marks, ligatures). Lines are broken here, and
 * each line is put in visual order by the Unicode Bidirectional Algorithm
 * (bidi-js), so an Arabic name inside an English sentence, and numbers or
 * Latin names inside an Arabic paragraph, come out in the right order; a
 * paragraph whose first strong character is right-to-left is aligned right.
 *
 * Text stays extractable (search, copy, pdftotext): pdfkit maps each embedded
 * glyph to one piece of text, but shaped Arabic draws several letters with one
 * glyph (ب ت ث ن ي share a dotless form, their dots are separate marks), so a
 * word whose glyphs were already mapped to other letters in the document is
 * drawn with another embedded copy of the same font (see `slotFor`).
 */
import bidiModule, { type Bidi } from 'bidi-js';
import * as fontkit from 'fontkit';
import {
  type ExtraScript,
  extraScriptsOf,
  facesOf,
  shape,
  withExactGlyphText,
  type Face,
  type TextStyle,
} from './pdf-fonts.js';

/** Words and runs of spaces, in logical order. */
const tokens = (text: string) => text.match(/\s+|\S+/gu) ?? [];

const bidiFactory = (
  typeof bidiModule === 'function' ? bidiModule : (bidiModule as { default: () => Bidi }).default
) as () => Bidi;
const bidi = bidiFactory();
const LETTER = /\p{L}/u;

/**
 * The face of each UTF-16 unit: a letter takes the first face that has it; a
 * mark, digit, space or punctuation stays in the face before it when that face
 * has it (so accents stay on their letter and runs are not split needlessly),
 * else the first face that has it. A character no face has is left to the
 * face before it (it shows as a missing-glyph box rather than disappearing).
 */
function assignFaces(text: string, faces: Face[]): Uint8Array {
  const out = new Uint8Array(text.length);
  const han = hanFaces(text, faces);
  let prev = -1;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    const char = String.fromCodePoint(cp);
    let f = -1;
    if (prev >= 0 && !LETTER.test(char) && faces[prev]!.font.hasGlyphForCodePoint(cp)) f = prev;
    if (f < 0 && han.length && CJK_LETTER.test(char))
      f = han.find((h) => faces[h]!.font.hasGlyphForCodePoint(cp)) ?? -1;
    if (f < 0) f = faces.findIndex((face) => face.font.hasGlyphForCodePoint(cp));
    if (f < 0) f = Math.max(prev, 0);
    out.fill(f, i, i + units);
    prev = f;
    i += units;
  }
  return out;
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
/** Characters every CJK font has its own form of: Chinese characters, kana, and CJK and full-width punctuation. */
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * The CJK faces to try for a Chinese character of this paragraph, in order (indexes into `faces`): by the language
 * the paragraph is in, as far as its own characters tell (see the file's comment).
 */
function hanFaces(text: string, faces: Face[]): number[] {
  const at = (script: ExtraScript) => faces.findIndex((f) => f.script === script);
  if (!CJK_LETTER.test(text) || at('sc') < 0) return [];
  let order: ExtraScript[];
  if (KANA.test(text)) order = ['jp', 'sc', 'tc', 'kr'];
  else if (HANGUL.test(text)) order = ['kr', 'tc', 'sc', 'jp'];
  else {
    // The traditional subset has no simplified-only character (们, 长, 这): a paragraph it covers whole is written
    // in traditional characters; one with any it lacks is simplified Chinese.
    const tc = faces[at('tc')]?.font;
    const traditional =
      !!tc && Array.from(text).every((c) => !HAN.test(c) || tc.hasGlyphForCodePoint(c.codePointAt(0)!));
    order = traditional ? ['tc', 'sc', 'jp', 'kr'] : ['sc', 'tc', 'jp', 'kr'];
  }
  return order.map(at).filter((i) => i >= 0);
}

/** Scripts written without spaces between words: their runs are broken into words by Intl.Segmenter. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Punctuation a line may not start with (closing marks, 。、 and the like) or end with (opening marks). */
const CLOSING = /^[\p{Pe}\p{Pf}\p{Po}ー々ゝゞヽヾ]+$/u;
const OPENING = /^[\p{Ps}\p{Pi}]+$/u;

/**
 * Where a line may break: [start, end) units of the text, each a word with the spaces after it; a run of a script
 * written without spaces is split into its words, closing punctuation kept with the word before it and opening
 * punctuation with the word after it.
 */
function breakUnits(text: string): Array<[number, number]> {
  const units: Array<[number, number]> = [];
  for (const m of text.matchAll(/\S+\s*|\s+/gu)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!UNSPACED.test(m[0])) {
      units.push([start, end]);
      continue;
    }
    const ink = start + m[0].trimEnd().length;
    const parts: Array<[number, number]> = [];
    let glue = false;
    for (const seg of words.segment(text.slice(start, ink))) {
      const s = start + seg.index;
      const e = s + seg.segment.length;
      const last = parts[parts.length - 1];
      if (last && (glue || CLOSING.test(seg.segment))) last[1] = e;
      else parts.push([s, e]);
      glue = OPENING.test(seg.segment);
    }
    if (parts.length) parts[parts.length - 1]![1] = end;
    units.push(...parts);
  }
  return units;
}

/** Control characters other than line breaks are dropped, tabs become spaces, and text is NFC (precomposed letters are the ones fonts map). */
function clean(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
  );
}

export interface TextOptions {
  style?: TextStyle;
  /** Points. */
  size: number;
  color?: string;
  /** Space after the text, in lines of Noto Sans at this size. */
  after?: number;
  /**
   * Paragraph direction: "auto" (the default) takes it from the first strong
   * character, for the person's own text; "ltr" for the book's own lines
   * (dates, ids, labels) that may quote a right-to-left word.
   */
  direction?: 'auto' | 'ltr';
}

/** Reverses a string by code points, mirroring brackets and the like (for a right-to-left piece fontkit would lay out left to right). */
function reversed(text: string, mirror: boolean): string {
  return Array.from(text)
    .reverse()
    .map((c) => (mirror ? (bidi.getMirroredCharacter(c) ?? c) : c))
    .join('');
}

/** A paragraph prepared for layout: its faces and bidi levels. */
class Paragraph {
  readonly faceOf: Uint8Array;
  readonly levels: ReturnType<typeof bidi.getEmbeddingLevels>;
  readonly rtl: boolean;

  constructor(
    readonly text: string,
    readonly faces: Face[],
    readonly size: number,
    direction: 'auto' | 'ltr',
  ) {
    this.faceOf = assignFaces(text, faces);
    this.levels = bidi.getEmbeddingLevels(text, direction);
    this.rtl = ((this.levels.paragraphs[0]?.level ?? 0) & 1) === 1;
  }

  /** Points per font unit of a face. */
  scale(face: Face): number {
    return this.size / face.font.unitsPerEm;
  }

  /** Width of text in one face, points: word by word, as it is drawn. */
  widthIn(face: Face, text: string): number {
    let w = 0;
    for (const t of tokens(text)) w += shape(face, t).width;
    return w * this.scale(face);
  }

  /** Width of text[start, end), points. */
  width(start: number, end: number): number {
    let w = 0;
    for (let i = start; i < end; ) {
      let j = i + 1;
      while (j < end && this.faceOf[j] === this.faceOf[i]) j++;
      w += this.widthIn(this.faces[this.faceOf[i]!]!, this.text.slice(i, j));
      i = j;
    }
    return w;
  }

  /** Lines, as [start, end) ranges: broken after spaces, and inside a word only when the word alone is wider than the line. */
  lines(maxWidth: number): Array<[number, number]> {
    const lines: Array<[number, number]> = [];
    let start = 0;
    let width = 0;
    for (const [s, e] of breakUnits(this.text)) {
      const ink = s + this.text.slice(s, e).trimEnd().length;
      const inkWidth = this.width(s, ink);
      if (s > start && width + inkWidth > maxWidth) {
        lines.push([start, s]);
        start = s;
        width = 0;
      }
      if (s === start && inkWidth > maxWidth) {
        // One word longer than the line: cut it between grapheme clusters (by advance width, unshaped).
        let w = 0;
        for (const g of graphemes.segment(this.text.slice(s, ink))) {
          const i = s + g.index;
          const face = this.faces[this.faceOf[i]!]!;
          let cw = 0;
          for (const c of g.segment) cw += face.font.glyphForCodePoint(c.codePointAt(0)!).advanceWidth;
          cw *= this.scale(face);
          if (i > start && w + cw > maxWidth) {
            lines.push([start, i]);
            start = i;
            w = 0;
          }
          w += cw;
        }
        width = w + this.width(ink, e);
        continue;
      }
      width += this.width(s, e);
    }
    if (start < this.text.length || !lines.length) lines.push([start, this.text.length]);
    return lines;
  }

  /**
   * What to draw for a line, left to right: pieces of one face and one
   * direction. Their words are shaped one by one (as pdfkit does, and shaping
   * does not cross spaces); a left-to-right piece is drawn in one go, a
   * right-to-left piece word by word in reverse order. fontkit itself reverses
   * the glyphs of a word in a right-to-left script; any other word that must
   * read right to left (punctuation), or a word fontkit would reverse that must
   * not be (Arabic-Indic digits in a number), is reversed here first.
   */
  pieces(
    start: number,
    end: number,
  ): Array<{ face: Face; words: Array<{ text: string; width: number; draw: boolean; word?: string }>; width: number }> {
    let last = end;
    while (last > start && /\s/.test(this.text[last - 1]!)) last--;
    if (last === start) return [];
    // bidi-js gives the order of the whole paragraph with this line's part reordered.
    const order = bidi.getReorderedIndices(this.text, this.levels, start, last - 1).slice(start, last);
    const levels = this.levels.levels;
    const groups: Array<{ face: number; level: number; from: number; to: number }> = [];
    for (const i of order) {
      const g = groups[groups.length - 1];
      const level = levels[i]!;
      if (g && g.face === this.faceOf[i] && g.level === level && i === g.to + (level & 1 ? -1 : 1)) g.to = i;
      else groups.push({ face: this.faceOf[i]!, level, from: i, to: i });
    }
    return groups.map((g) => {
      const face = this.faces[g.face]!;
      const rtl = (g.level & 1) === 1;
      const text = this.text.slice(Math.min(g.from, g.to), Math.max(g.from, g.to) + 1);
      const width = this.widthIn(face, text);
      const parts = tokens(text);
      if (!rtl && parts.every((t) => !shape(face, t).rtl)) return { face, words: [{ text, width, draw: true }], width };
      if (rtl) parts.reverse();
      const words = parts.map((t) => {
        const draw = !/^\s/.test(t);
        return {
          text: draw && shape(face, t).rtl !== rtl ? reversed(t, rtl) : t,
          width: shape(face, t).width * this.scale(face),
          draw,
          word: t,
        };
      });
      return { face, words, width };
    });
  }
}

/** Per document and face: the text each glyph id stands for, in the font and in each copy of it. */
const mapped = new WeakMap<PDFKit.PDFDocument, Map<string, Array<Map<number, string>>>>();

/**
 * The copy of a face to draw `text` with: the first one (0 is the font itself)
 * in which none of its glyphs already stands for other text. Latin, Greek and
 * Cyrillic never need a copy; Arabic needs a few at most (one per letter that
 * shares a glyph with another). One word that uses a glyph for two letters
 * (ت and ي both in the middle of a word) still maps it to the first of them.
 */
function slotFor(doc: PDFKit.PDFDocument, face: Face, text: string): number {
  let byFace = mapped.get(doc);
  if (!byFace) mapped.set(doc, (byFace = new Map()));
  let slots = byFace.get(face.key);
  if (!slots) byFace.set(face.key, (slots = []));
  const glyphs = tokens(text).flatMap((t) => shape(face, t).glyphs);
  for (let n = 0; ; n++) {
    const slot = slots[n] ?? (slots[n] = new Map());
    if (glyphs.every(([id, chars]) => (slot.get(id) ?? chars) === chars)) {
      for (const [id, chars] of glyphs) slot.set(id, chars);
      return n;
    }
  }
}

/** A copy of a face's font under another PostScript name, so that pdfkit embeds it as a font of its own (with its own glyph-to-text map). */
function copyOf(face: Face, n: number): fontkit.Font {
  let copy = face.copies[n - 1];
  if (!copy) {
    copy = withExactGlyphText(fontkit.create(face.ttf) as fontkit.Font);
    Object.defineProperty(copy, 'postscriptName', { value: `${face.font.postscriptName}-${n}` });
    face.copies[n - 1] = copy;
  }
  return copy;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Draws text in a face at (x, baseline y), with no line breaking. */
function draw(doc: PDFKit.PDFDocument, face: Face, text: string, x: number, y: number, width: number): void {
  const n = slotFor(doc, face, text);
  const key = `${face.key}#${n}`;
  let keys = registered.get(doc);
  if (!keys) registered.set(doc, (keys = new Set()));
  if (!keys.has(key)) {
    // pdfkit takes a fontkit font as a font source (PDFFontFactory.open), so each file is parsed once per process.
    doc.registerFont(key, (n ? copyOf(face, n) : face.font) as unknown as Buffer);
    keys.add(key);
  }
  // No `features`: pdfkit then shapes word by word with the font's defaults, as shape() does, and caches each word.
  doc
    .font(key)
    .text(text, x, y, { lineBreak: false, baseline: 'alphabetic', textWidth: width } as PDFKit.Mixins.TextOptions);
}

/** Ascent and descent of a face at a size, points (descent negative). */
function metrics(face: Face, size: number): { ascent: number; descent: number } {
  const s = size / face.font.unitsPerEm;
  return { ascent: face.font.ascent * s, descent: face.font.descent * s };
}

/**
 * The words of a text as they are laid out, line by line and left to right on
 * the page: each with its own text and the string handed to the shaper (the
 * same, or reversed where fontkit's own direction would be wrong). For checks
 * of the bidirectional layout.
 */
export async function visualWords(
  text: string,
  opts: { width: number; size?: number; style?: TextStyle; direction?: 'auto' | 'ltr' },
): Promise<Array<Array<{ word: string; drawn: string }>>> {
  const faces = await facesOf(opts.style ?? 'regular', extraScriptsOf(text));
  return clean(text)
    .split('\n')
    .flatMap((para) => {
      const p = new Paragraph(para, faces, opts.size ?? 11, opts.direction ?? 'auto');
      return p.lines(opts.width).map(([start, end]) =>
        p.pieces(start, end).flatMap((piece) =>
          piece.words.flatMap((w) => {
            if (!w.draw) return [];
            // A left-to-right piece is drawn in one go: its words, in order.
            if (w.word === undefined)
              return tokens(w.text)
                .filter((t) => /\S/.test(t))
                .map((t) => ({ word: t, drawn: t }));
            return [{ word: w.word, drawn: w.text }];
          }),
        ),
      );
    });
}

/** Where and how to draw one line of text (see TextWriter.line). */
export interface LineOptions {
  style?: TextStyle;
  /** Points. */
  size: number;
  color?: string;
  /** The box the line is placed in: its left edge and width, points. */
  x: number;
  width: number;
  /** The baseline, points from the top of the page. */
  baseline: number;
  align?: 'left' | 'right' | 'center';
}

/**
 * Writes text in a document (see writeText). `height` says how much room it
 * would take, without drawing it (for keeping a heading with what follows it);
 * `line` draws one line at a place of the page without moving the cursor or
 * breaking lines or pages (page numbers, the contents' page column). `widthOf`
 * measures one line.
 */
export interface TextWriter {
  (text: string, opts: TextOptions): void;
  height(text: string, opts: TextOptions): number;
  line(text: string, opts: LineOptions): void;
  widthOf(text: string, opts: { size: number; style?: TextStyle }): number;
}

/**
 * A writer for a document, once the fonts are loaded (once per process). A `dry` writer lays text out (moving the
 * cursor and adding pages exactly as it would) without drawing it: for a layout pass whose pages are thrown away.
 * `text` is all the document will say (or a sample with every script in it): the fonts of scripts it does not use
 * are not loaded.
 */
export async function textWriter(
  doc: PDFKit.PDFDocument,
  opts: { dry?: boolean; text?: string } = {},
): Promise<TextWriter> {
  const extras = extraScriptsOf(opts.text ?? '');
  const regular = await facesOf('regular', extras);
  const bold = await facesOf('bold', extras);
  const italic = await facesOf('italic', extras);
  const faces = { regular, bold, italic };
  const dry = opts.dry ?? false;
  const write = (text: string, o: TextOptions) => writeText(doc, faces[o.style ?? 'regular'], text, o, dry);
  return Object.assign(write, {
    height: (text: string, o: TextOptions) => textHeight(doc, faces[o.style ?? 'regular'], text, o),
    line: (text: string, o: LineOptions) => {
      if (!dry) writeLine(doc, faces[o.style ?? 'regular'], text, o);
    },
    widthOf: (text: string, opts: { size: number; style?: TextStyle }) => {
      const p = new Paragraph(clean(text).replace(/\n/g, ' '), faces[opts.style ?? 'regular'], opts.size, 'ltr');
      return p.width(0, p.text.length);
    },
  });
}

/** The room text takes when written across the width between the margins: its lines and the space after it, points. */
function textHeight(doc: PDFKit.PDFDocument, faces: Face[], text: string, opts: TextOptions): number {
  const base = metrics(faces[0]!, opts.size);
  const lineHeight = base.ascent - base.descent;
  const maxWidth = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  let lines = 0;
  for (const para of clean(text).split('\n'))
    lines += new Paragraph(para, faces, opts.size, opts.direction ?? 'auto').lines(maxWidth).length;
  return (lines + (opts.after ?? 0)) * lineHeight;
}

/** Draws one line (the first line of the text, cut at the box's width) and leaves the cursor where it was. */
function writeLine(doc: PDFKit.PDFDocument, faces: Face[], text: string, opts: LineOptions): void {
  const { x: keepX, y: keepY } = doc;
  const p = new Paragraph(clean(text).replace(/\n/g, ' '), faces, opts.size, 'ltr');
  const [start, end] = p.lines(opts.width)[0] ?? [0, 0];
  const pieces = p.pieces(start, end);
  const lineWidth = pieces.reduce((w, piece) => w + piece.width, 0);
  let x =
    opts.align === 'right'
      ? opts.x + opts.width - lineWidth
      : opts.align === 'center'
        ? opts.x + (opts.width - lineWidth) / 2
        : opts.x;
  doc.fontSize(opts.size).fillColor(opts.color ?? 'black');
  for (const piece of pieces) {
    for (const word of piece.words) {
      if (word.draw) draw(doc, piece.face, word.text, x, opts.baseline, word.width);
      x += word.width;
    }
  }
  doc.fillColor('black');
  doc.x = keepX;
  doc.y = keepY;
}

/**
 * Writes text at the document's cursor across the width between the margins,
 * breaking lines and pages, and leaves the cursor below it. Paragraphs are
 * separated by line breaks in the text.
 */
function writeText(doc: PDFKit.PDFDocument, faces: Face[], text: string, opts: TextOptions, dry = false): void {
  const { size } = opts;
  const base = metrics(faces[0]!, size);
  const left = doc.page.margins.left;
  const maxWidth = doc.page.width - left - doc.page.margins.right;
  let y = doc.y;
  for (const para of clean(text).split('\n')) {
    const p = new Paragraph(para, faces, size, opts.direction ?? 'auto');
    for (const [start, end] of p.lines(maxWidth)) {
      // A dry run needs only the faces of the line (for its height), not its pieces in visual order.
      const pieces = dry ? [] : p.pieces(start, end);
      let ink = end;
      while (dry && ink > start && /\s/.test(p.text[ink - 1]!)) ink--;
      const used = dry ? new Set(p.faceOf.subarray(start, ink)) : new Set(pieces.map((piece) => piece.face));
      let ascent = base.ascent;
      let descent = base.descent;
      for (const f of used) {
        const m = metrics(typeof f === 'number' ? faces[f]! : f, size);
        ascent = Math.max(ascent, m.ascent);
        descent = Math.min(descent, m.descent);
      }
      if (y + ascent - descent > doc.page.height - doc.page.margins.bottom && y > doc.page.margins.top) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      if (dry) {
        y += ascent - descent;
        continue;
      }
      const lineWidth = pieces.reduce((w, piece) => w + piece.width, 0);
      let x = p.rtl ? left + maxWidth - lineWidth : left;
      doc.fontSize(size).fillColor(opts.color ?? 'black');
      for (const piece of pieces) {
        for (const word of piece.words) {
          if (word.draw) draw(doc, piece.face, word.text, x, y + ascent, word.width);
          x += word.width;
        }
      }
      y += ascent - descent;
    }
  }
  y += (opts.after ?? 0) * (base.ascent - base.descent);
  doc.fillColor('black');
  doc.x = left;
  doc.y = y;
}
