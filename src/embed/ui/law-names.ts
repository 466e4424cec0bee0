// The names the law's findings need (heir types, places, templates, schools), in the words the wizard already
// shows a person: its relationship choices, its place names, its template and school labels. A name the wizard
// has no word for is left out, and the finding that needs it stays in English (core/messages/law-words.ts).
import type { LawNames } from '../../core/messages/law-words.js';
import { heirOf, type Jurisdiction } from './calls.js';
import type { Texts } from './i18n/index.js';
import { places } from './steps/template.js';

export function lawNames(tx: Texts, jurisdictions: readonly Jurisdiction[]): LawNames {
  const { t, locale } = tx;
  // Each relationship the wizard offers, by the fara'id heir it names ("brother" → fullBrother).
  const heirs = new Map<string, string>();
  for (const [relationship, word] of Object.entries(t.relationships)) {
    const heir = heirOf(relationship);
    if (heir && !heirs.has(heir)) heirs.set(heir, word);
  }
  let placeNames: Map<string, string> | undefined;
  const place = (id: string): string | undefined => {
    if (!placeNames) {
      placeNames = new Map();
      for (const p of places([...jurisdictions], locale)) {
        placeNames.set(p.j.id, p.label);
        for (const r of p.regions) placeNames.set(r.j.id, r.label);
      }
    }
    const known = placeNames.get(id);
    if (known) return known;
    // A country the list has not loaded yet: its name in the reader's language.
    if (!/^[a-z]{2}$/.test(id)) return undefined;
    try {
      return new Intl.DisplayNames([locale], { type: 'region' }).of(id.toUpperCase());
    } catch {
      return undefined;
    }
  };
  return {
    heir: (key) => heirs.get(key),
    place,
    template: (id) => (t.templates as Record<string, readonly string[] | undefined>)[id]?.[0],
    school: (id) => (t.schools as Record<string, string | undefined>)[id],
  };
}
