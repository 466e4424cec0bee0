import { describe, expect, it } from 'vitest';
import { hasUnsafeNameChars, headerText, NAME_CHARS } from '../../src/core/names.js';

// Names shown to other people: refused with line breaks, control characters or bidirectional controls where they are
// entered, and cleaned of them again wherever a mail header is built (names stored before the check).

describe('names', () => {
  it('refuses controls, line breaks and every bidirectional control, and keeps joiners and markup as text', () => {
    const refused = [
      'a\nb',
      'a\rb',
      'a\tb',
      'a\u0000b',
      'a\u007fb',
      'a\u0085b',
      'a\u009fb',
      'a\u2028b',
      'a\u2029b',
      'a\u061cb',
      'a\u200eb',
      'a\u200fb',
      ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'].map((c) => `a${c}b`),
      ...['\u2066', '\u2067', '\u2068', '\u2069'].map((c) => `a${c}b`),
    ];
    for (const s of refused) expect(hasUnsafeNameChars(s), JSON.stringify(s)).toBe(true);
    for (const s of ['Ana María', 'سارة', 'می\u200cخواهم', '👩\u200d👧', 'Evil <b>Bold</b>', 'O’Brien'])
      expect(NAME_CHARS.test(s), s).toBe(true);
  });

  it('cleans a header: bidirectional controls removed, breaks made spaces, on one line', () => {
    expect(headerText('Evil <b>Bold</b> \u202eRTL')).toBe('Evil <b>Bold</b> RTL');
    expect(headerText('Eve\r\nSmith\u2066\u200f')).toBe('Eve Smith');
    expect(headerText(' a\u0085\u2028b\tc ')).toBe('a b c');
    expect(headerText('سارة \u061cعلي')).toBe('سارة علي');
    expect(headerText('Ana María')).toBe('Ana María');
  });

  it('keeps the no-break spaces of a French subject', () => {
    expect(headerText('Rappel\u00a0: «\u00a0Maison\u00a0»')).toBe('Rappel\u00a0: «\u00a0Maison\u00a0»');
    expect(headerText('Combien\u202f?  Deux')).toBe('Combien\u202f? Deux');
  });
});
