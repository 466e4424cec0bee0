/**
 * Validation problems in words: `humanMessage(issue, locale)` is the one mapping from a problem (./issues.ts) to the
 * sentence a person reads, used by the API's `details[].reason` and by the wizard, in the reader's language (the API's
 * from the request's Accept-Language, English by default). Numbers are written with Intl in the reader's conventions.
 */
import type { ErrorDetail } from '../errors.js';
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

/** The problem behind each `details` entry made by `issueDetail`, so that it can be said again in another language. */
const ISSUES = new WeakMap<ErrorDetail, Issue>();

/** A `details` entry for a problem: its reason in English, and the problem kept to say it in the caller's language. */
export function issueDetail(field: string, issue: Issue): ErrorDetail {
  const detail = { field, reason: humanMessage(issue) };
  ISSUES.set(detail, issue);
  return detail;
}

/** Says again, in a locale, the reasons of the entries made by `issueDetail` (the others keep their words). */
export function sayDetailsIn(details: readonly ErrorDetail[] | undefined, locale: Locale): void {
  if (locale === 'en' || !details) return;
  for (const d of details) {
    const issue = ISSUES.get(d);
    if (issue) d.reason = humanMessage(issue, locale);
  }
}

/**
 * The languages an Accept-Language header asks for, most wanted first: weights honoured (q=0 dropped), ties in the
 * header's order, regions ignored ("fr-CA" is "fr"). A header longer than 500 characters is read to there.
 */
export function rankedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return {
        lang: tag.trim().toLowerCase().split('-')[0] ?? '',
        weight: Number.isFinite(weight) ? weight : 0,
        index,
      };
    })
    .filter((r) => r.weight > 0 && r.lang !== '')
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((r) => r.lang);
}

/** The first of our locales an Accept-Language header ranks highest, or undefined. */
export function localeOfHeader(header: string | undefined): Locale | undefined {
  return rankedLanguages(header).find((l): l is Locale => (LOCALES as readonly string[]).includes(l));
}
