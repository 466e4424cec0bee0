// The wizard's catalogues, one per locale, and the locale it runs in: the page's
// `locale` (query parameter or SDK option), else the browser's, else English.
import { type Locale, LOCALES, matchLocale, numberFormats, RTL_LOCALES } from '../../../core/messages/index.js';
import { ar } from './ar.js';
import { en, type Strings } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

export type { Strings } from './en.js';
export type { Locale } from '../../../core/messages/index.js';

const CATALOGUES: Record<Locale, Strings> = { en, ar, es, fr };

export { LOCALES };

/** The locale to use: the one asked for if supported, else the browser's first supported one, else English. */
export function pickLocale(asked: string | undefined, browser: readonly string[]): Locale {
  for (const tag of [asked, ...browser]) {
    const l = matchLocale(tag);
    if (l) return l;
  }
  return 'en';
}

export const dirOf = (locale: Locale): 'rtl' | 'ltr' => (RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr');

/** Everything a step needs to write in a locale: its words and its number formats. */
export interface Texts {
  locale: Locale;
  t: Strings;
  /** A count or amount (Intl). */
  n: (value: number) => string;
  /** A percentage given in percent: 30.5 → "30.5%" (Intl). */
  pct: (value: number) => string;
}

export function texts(locale: Locale): Texts {
  const f = numberFormats(locale);
  return { locale, t: CATALOGUES[locale], n: f.number, pct: f.percent };
}
