import { describe, expect, it } from 'vitest';
import { heirOf } from '../../src/embed/ui/calls.js';
import { places } from '../../src/embed/ui/steps/template.js';

// The wizard's list of jurisdictions: by name in the reader's language, regions under their country.

const LIST = [
  { id: 'ae', name: 'United Arab Emirates', parent: null },
  { id: 'ae-difc', name: 'Dubai International Financial Centre', parent: 'ae' },
  { id: 'at', name: 'Austria', parent: null },
  { id: 'ca', name: 'Canada', parent: null },
  { id: 'ca-qc', name: 'Quebec', parent: 'ca' },
  { id: 'ca-on', name: 'Ontario', parent: 'ca' },
  { id: 'de', name: 'Germany', parent: null },
  { id: 'eg', name: 'Egypt', parent: null },
];

describe('jurisdictions as the wizard lists them', () => {
  it('countries by their name in the locale, sorted by it, each with its regions', () => {
    const fr = places(LIST, 'fr');
    expect(fr.map((p) => p.label)).toEqual(['Allemagne', 'Autriche', 'Canada', 'Égypte', 'Émirats arabes unis']);
    expect(fr.find((p) => p.j.id === 'ca')!.regions.map((r) => r.j.id)).toEqual(['ca-on', 'ca-qc']);
    expect(fr.find((p) => p.j.id === 'ae')!.regions.map((r) => r.j.id)).toEqual(['ae-difc']);
    const en = places(LIST, 'en');
    expect(en.map((p) => p.j.id)).toEqual(['at', 'ca', 'eg', 'de', 'ae']);
    const ar = places(LIST, 'ar');
    expect(ar.find((p) => p.j.id === 'eg')!.label).toBe('مصر');
  });

  it("relationships name the fara'id heirs the calculator takes", () => {
    expect(['Son', ' daughter ', 'Wife', 'brother', 'friend'].map(heirOf)).toEqual([
      'son',
      'daughter',
      'wife',
      'fullBrother',
      undefined,
    ]);
  });
});
