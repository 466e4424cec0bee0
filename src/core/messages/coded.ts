/**
 * What every coded sentence of a contract's analysis shares: a warning or a piece of advice carries a stable `code`
 * and `params` (figures and short strings as data), and each locale says it from those, never from the English text.
 * The word tables are by chain: ./solana-words.ts, ./ton-words.ts, ./evm-words.ts.
 */
import type { NumberFormats } from './catalog.js';
import type { Locale } from './index.js';

/** The params of a coded warning or piece of advice: figures and short strings, as data. */
export type WarningParams = Record<string, number | string>;

/** A sentence built from coded params; `locale` is there for amounts the shared number formats do not cover. */
export type SayParams = (p: WarningParams, f: NumberFormats, locale: Locale) => string;

/** A number param, or an error (a sentence never prints `undefined`). */
export const num = (p: WarningParams, key: string): number => {
  const v = p[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`warning param ${key} is not a number`);
  return v;
};

/** A string param, or an error. */
export const str = (p: WarningParams, key: string): string => {
  const v = p[key];
  if (typeof v !== 'string') throw new Error(`warning param ${key} is not a string`);
  return v;
};

const coinFormats = new Map<Locale, Intl.NumberFormat>();

/** An amount given in the coin's smallest unit (nanoton, lamports), written in whole coins in the reader's conventions. */
export function coins(p: WarningParams, key: string, decimals: number, locale: Locale): string {
  let f = coinFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 9 });
    coinFormats.set(locale, f);
  }
  return f.format(num(p, key) / 10 ** decimals);
}
