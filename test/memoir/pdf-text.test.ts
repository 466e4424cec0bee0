import { describe, expect, it } from 'vitest';
import { facesOf } from '../../src/memoir/pdf-fonts.js';
import { visualWords } from '../../src/memoir/pdf-text.js';

// The memoir PDF's text layout (src/memoir/pdf-text.ts): which words go where
// on a line, left to right, by the Unicode Bidirectional Algorithm. pdftotext
// cannot check this for numbers inside right-to-left text (Poppler rebuilds
// such lines in its own order), so the layout is checked here directly.

const WIDE = 10_000;
const words = async (text: string, opts: { width?: number; direction?: 'auto' | 'ltr' } = {}) =>
  (await visualWords(text, { width: opts.width ?? WIDE, direction: opts.direction ?? 'auto' })).map((line) =>
    line.map((w) => w.word),
  );

describe('memoir PDF text layout', () => {
  it('an Arabic paragraph reads right to left, with a number inside it left to right', async () => {
    // Reading right to left: ولدت سنة 1950 في قرية. On the page, left to right: قرية في 1950 سنة ولدت.
    expect(await words('ولدت سنة 1950 في قرية')).toEqual([['قرية', 'في', '1950', 'سنة', 'ولدت']]);
  });

  it('an Arabic name inside an English sentence stays in its place', async () => {
    expect(await words('My grandmother فاطمة baked bread')).toEqual([['My', 'grandmother', 'فاطمة', 'baked', 'bread']]);
    // Two Arabic words inside English keep their own right-to-left order.
    expect(await words('Heirs: ورثة فاطمة, all of them')).toEqual([
      ['Heirs:', 'فاطمة', 'ورثة', ',', 'all', 'of', 'them'],
    ]);
  });

  it("the book's own left-to-right lines keep their order around a right-to-left word", async () => {
    expect(await words('2024-01-01 · سعيد · jrn_1', { direction: 'ltr' })).toEqual([
      ['2024-01-01', '·', 'سعيد', '·', 'jrn_1'],
    ]);
    // Left to the text, the same line would start right to left (its first letter is Arabic).
    expect(await words('سعيد · jrn_1')).toEqual([['jrn_1', '·', 'سعيد']]);
  });

  it('brackets in right-to-left text are mirrored, and Arabic-Indic digits are not reversed', async () => {
    const [line] = await visualWords('قرية (صغيرة) ١٩٥٠', { width: WIDE });
    // The aside's closing bracket lands on the left, where it must look like "(": it is drawn mirrored, and the opening one too.
    expect(line!.map((w) => w.word)).toEqual(['١٩٥٠', ')', 'صغيرة', '(', 'قرية']);
    expect(line!.map((w) => w.drawn)).toEqual(['٠٥٩١', '(', 'صغيرة', ')', 'قرية']);
    // fontkit lays out Arabic-Indic digits right to left; handed the reversed string, it puts them back in order.
    const arabic = (await facesOf('regular')).find((f) => f.key.includes('arabic'))!.font;
    const glyphs = arabic.layout('٠٥٩١', []).glyphs.map((g) => g.id);
    expect(glyphs).toEqual([...'١٩٥٠'].map((d) => arabic.glyphForCodePoint(d.codePointAt(0)!).id));
  });

  it('breaks lines between words, and inside a word only when it is wider than the line', async () => {
    const lines = await words('one two three four five six seven eight nine ten', { width: 80 });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.flat()).toEqual('one two three four five six seven eight nine ten'.split(' '));
    const long = 'x'.repeat(200);
    const cut = await visualWords(long, { width: 80 });
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.map((l) => l.map((w) => w.word).join('')).join('')).toBe(long);
    // An empty paragraph is a blank line.
    expect(await words('a\n\nb')).toEqual([['a'], [], ['b']]);
  });

  it('breaks Chinese, Japanese and Thai (written without spaces) between words, never before a closing mark', async () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const text of [
      '我的奶奶在北京长大。她每年春节都包饺子，我们全家围坐在一起，一边包一边听她讲小时候的故事。',
      '祖母はよく桜の下でお茶を飲みました。夏には家族みんなで海へ行き、夕方まで泳ぎました。',
      'ยายของฉันเกิดที่เชียงใหม่และชอบทำอาหารให้หลานกินทุกวันอาทิตย์',
    ]) {
      const lines = (await visualWords(text, { width: 90 })).map((l) => l.map((w) => w.word).join(''));
      expect(lines.length).toBeGreaterThan(2);
      expect(lines.join('')).toBe(text);
      // Every line ends where a word ends (as ICU's dictionaries find words), and none starts with a closing mark.
      const ends = new Set([...segmenter.segment(text)].map((s) => s.index + s.segment.length));
      let at = 0;
      for (const line of lines.slice(0, -1)) {
        at += line.length;
        expect({ line, atWordEnd: ends.has(at) }).toEqual({ line, atWordEnd: true });
      }
      for (const line of lines) expect(line).not.toMatch(/^[。、，,.!?」）]/);
    }
    // A word wider than the line is cut between grapheme clusters: a combining mark (q with an acute has no
    // precomposed form) stays on its letter.
    const marked = 'q\u0301'.repeat(80);
    const cut = (await visualWords(marked, { width: 60 })).map((l) => l.map((w) => w.word).join(''));
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.join('')).toBe(marked);
    for (const line of cut) expect(line).toMatch(/^(q\u0301)+$/);
  });
});
