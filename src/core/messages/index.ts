/**
 * Validation problems in words: `humanMessage(issue, locale)` is the one mapping from a problem (./issues.ts) to the
 * sentence a person reads, used by the API's `details[].reason` (English) and by the wizard (in the reader's
 * language). Numbers are written with Intl in the reader's conventions.
 */
import { ar } from './ar.js';
import type { MessageCatalog, NumberFormats } from './catalog.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import type { Issue } from './issues.js';

export * from './issues.js';
export type { MessageCatalog, NumberFormats } from './catalog.js';

export const LOCALES = ['en', 'ar', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOGS: Record<Locale, MessageCatalog> = { en, ar, es, fr };

/** Right-to-left locales. */
export const RTL_LOCALES: readonly Locale[] = ['ar'];

/** The supported locale closest to a language tag ("fr-CA" → fr), or undefined. */
export function matchLocale(tag: string | undefined | null): Locale | undefined {
  const lang = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(lang ?? '') ? (lang as Locale) : undefined;
}

const formatCache = new Map<Locale, NumberFormats>();

/** Number, percent and list formats of a locale (Intl). */
export function numberFormats(locale: Locale): NumberFormats {
  let f = formatCache.get(locale);
  if (!f) {
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
    const list = new Intl.ListFormat(locale, { type: 'disjunction' });
    f = {
      number: (v) => number.format(v),
      percent: (v) => percent.format(v / 100),
      or: (items) => list.format(items),
    };
    formatCache.set(locale, f);
  }
  return f;
}

/** The sentence for a problem, in a locale (English by default). */
export function humanMessage(issue: Issue, locale: Locale = 'en'): string {
  const say = CATALOGS[locale][issue.code] as (i: Issue, f: NumberFormats) => string;
  return say(issue, numberFormats(locale));
}
