import { describe, expect, it } from 'vitest';
import { fr } from '../../src/embed/ui/i18n/fr.js';

// French typography puts a no-break space before : ; ! ? and » and after «, so that a line never starts with one of
// them where the wizard's text wraps. Every text of the French catalogue, and what each of its functions says with
// sample values, keeps to it.

/** Every text a catalogue entry gives: strings as they are, functions called with sample values, objects walked. */
function textsOf(value: unknown, path: string, out: Array<[string, string]>): void {
  if (typeof value === 'string') out.push([path, value]);
  else if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    for (const sample of ['Alice', 3]) {
      let said: unknown;
      try {
        said = fn(sample, sample, sample, sample);
      } catch {
        continue;
      }
      textsOf(said, `${path}(${typeof sample})`, out);
    }
  } else if (Array.isArray(value)) value.forEach((v, i) => textsOf(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) textsOf(v, `${path}.${k}`, out);
}

describe('the French wizard', () => {
  it('puts a no-break space before : ; ! ? » and after «', () => {
    const all: Array<[string, string]> = [];
    textsOf(fr, 'fr', all);
    expect(all.length).toBeGreaterThan(150);
    expect(all.filter(([, text]) => /[:;!?»]/.test(text)).length).toBeGreaterThan(20);
    for (const [path, text] of all) expect(text, path).not.toMatch(/ [:;!?»]|« /);
  });
});
