import { describe, expect, it } from 'vitest';
import { analysisInWords, sayCoded } from '../../src/core/messages/advice.js';
import type { WarningParams } from '../../src/core/messages/coded.js';
import {
  EVM_ADVICE_CODES,
  EVM_TECHNICAL_CODES,
  EVM_WARNING_CODES,
  type EvmAdviceCode,
  type EvmWarningCode,
} from '../../src/core/messages/evm-words.js';
import { LOCALES, numberFormats, type Locale } from '../../src/core/messages/index.js';
import { SOLANA_ADVICE_CODES, type SolanaAdviceCode } from '../../src/core/messages/solana-words.js';
import {
  TON_ADVICE_CODES,
  TON_TECHNICAL_CODES,
  TON_WARNING_CODES,
  type TonAdviceCode,
  type TonWarningCode,
} from '../../src/core/messages/ton-words.js';

// Real params for each code, as the analyses write them (figures large enough that each locale groups or
// separates them its own way).
const TON: Record<TonWarningCode | TonAdviceCode, WarningParams> = {
  'ton.owner-release-only': {},
  'ton.no-grace-period': {},
  'ton.short-interval': { intervalDays: 12_345 },
  'ton.no-guardians': {},
  'ton.guardian-rules': { threshold: 2, guardians: 3, waitDays: 1_234 },
  'ton.any-one-guardian': { guardians: 3, waitDays: 1_234 },
  'ton.all-guardians': {},
  'ton.guardians-no-veto': {},
  'ton.jetton-notifications': {},
  'ton.jetton-claims': { claimNanoton: 100_000_000 },
  'ton.storage-reserve': { rentPerYearNanoton: 12_345_678, reserveNanoton: 1_234_567_890, reserveYears: 12.5 },
  'ton.cancel-returns-all': {},
  'ton.cancel-keeps-reserve': {},
  'ton.bounceable-payouts': {},
  'ton.claim-index': {},
  'ton.advice-enable-switch': {},
  'ton.advice-add-grace': {},
  'ton.advice-longer-interval': { minDays: 30 },
  'ton.advice-consider-guardians': {},
  'ton.advice-tell-guardians': {},
  'ton.advice-majority-threshold': {},
  'ton.advice-lower-threshold': {},
  'ton.advice-forward-amount': { forwardNanoton: 10_000_000 },
  'ton.advice-list-jettons': {},
  'ton.advice-deploy-value': { depositNanoton: 2_234_567_890 },
  'ton.advice-check-in': {},
};

const EVM: Record<EvmWarningCode | EvmAdviceCode, WarningParams> = {
  'evm.owner-release-only': {},
  'evm.owner-or-guardians-release': { threshold: 2, guardians: 3 },
  'evm.short-interval': { intervalDays: 12 },
  'evm.long-interval': { intervalDays: 12_345 },
  'evm.single-beneficiary': {},
  'evm.guardian-rules': { threshold: 2, guardians: 3, waitDays: 1_234 },
  'evm.any-one-guardian': { guardians: 3, waitDays: 1_234 },
  'evm.all-guardians': { guardians: 3 },
  'evm.guardian-is-beneficiary': { count: 2 },
  'evm.beneficiary-cannot-claim': { beneficiary: 4 },
  'evm.nft-recipient-not-beneficiary': { nft: 3 },
  'evm.token-behaviour': {},
  'evm.code-size': { bytes: 25_432, limit: 24_576 },
  'plan.default-switch': { intervalDays: 12_345 },
  'evm.advice-enable-switch': {},
  'evm.advice-fallback-switch': {},
  'evm.advice-add-grace': {},
  'evm.advice-check-in': { intervalDays: 12_345 },
  'evm.advice-second-beneficiary': {},
  'evm.advice-tell-guardians': { waitDays: 1_234 },
  'evm.advice-consider-guardians': {},
  'evm.advice-claim-own-address': {},
  'plan.advice-default-switch': { intervalDays: 12_345 },
};

const SOLANA_ADVICE: Record<SolanaAdviceCode, WarningParams> = {
  'solana.advice-enable-switch': {},
  'solana.advice-add-grace': { exampleDays: 1_234 },
  'solana.advice-tell-guardians': {},
  'solana.advice-withdraw-tokens': {},
};

const ALL: Record<string, WarningParams> = { ...TON, ...EVM, ...SOLANA_ADVICE };

/** How a locale writes a param: amounts in nanoton as TON, other numbers as plain figures. */
function written(key: string, v: number | string, locale: Locale): string {
  if (typeof v === 'string') return v;
  if (key.endsWith('Nanoton'))
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 9 }).format(v / 1_000_000_000);
  return numberFormats(locale).number(v);
}

describe('TON, EVM and Solana advice codes in words', () => {
  it('lists every code the tables have words for, once', () => {
    const listed = [
      ...TON_WARNING_CODES,
      ...TON_ADVICE_CODES,
      ...EVM_WARNING_CODES,
      ...EVM_ADVICE_CODES,
      ...SOLANA_ADVICE_CODES,
    ];
    expect(new Set(listed).size).toBe(listed.length);
    expect(Object.keys(ALL).sort()).toEqual([...listed].sort());
  });

  it('says every code in every locale with its params written as the locale writes numbers', () => {
    for (const [code, params] of Object.entries(ALL)) {
      const english = sayCoded(code, params, 'en');
      for (const locale of LOCALES) {
        const text = sayCoded(code, params, locale);
        expect(text, `${locale} ${code}`).toBeDefined();
        expect(text, `${locale} ${code}`).not.toMatch(/undefined|NaN|\[object/);
        expect(text!.length, `${locale} ${code}`).toBeGreaterThan(20);
        for (const [key, v] of Object.entries(params)) {
          expect(text, `${locale} ${code} ${key}`).toContain(written(key, v, locale));
        }
        if (locale !== 'en') expect(text, `${locale} ${code}`).not.toBe(english);
        // French typography: a no-break space before : ; ! ? » and after «, so no line starts with them.
        if (locale === 'fr') expect(text, `${locale} ${code}`).not.toMatch(/ [:;!?»]|« /);
      }
      // Arabic sentences are in Arabic script, not English left in place.
      const ar = sayCoded(code, params, 'ar')!;
      expect(ar.replace(/[^\u0600-\u06ff]/g, '').length, code).toBeGreaterThan(ar.length / 3);
    }
    // The locales really differ in how they write figures: one sentence, three ways.
    expect(sayCoded('ton.storage-reserve', TON['ton.storage-reserve'], 'en')).toContain('1.23456789 TON');
    expect(sayCoded('ton.storage-reserve', TON['ton.storage-reserve'], 'fr')).toContain('1,23456789 TON');
    expect(sayCoded('evm.long-interval', EVM['evm.long-interval'], 'fr')).toContain('12\u202f345 jours');
  });

  it('keeps a coded sentence in English when its params do not fit, rather than print undefined', () => {
    expect(sayCoded('ton.short-interval', {}, 'fr')).toBeUndefined();
    const words = analysisInWords(
      {
        warnings: [
          { id: 'ton-short-interval', severity: 'medium', message: 'Short.', code: 'ton.short-interval', params: {} },
        ],
        suggestions: [],
      },
      'fr',
    );
    expect(words.warnings[0]).toEqual({
      id: 'ton-short-interval',
      severity: 'medium',
      message: 'Short.',
      english: true,
    });
  });

  it('has no words for the technical codes: they stay as the service wrote them', () => {
    for (const code of [...TON_TECHNICAL_CODES, ...EVM_TECHNICAL_CODES])
      for (const locale of LOCALES) expect(sayCoded(code, {}, locale), code).toBeUndefined();
  });

  it('says advice from its coded twin, never from the English text, and sorts the rest apart', () => {
    const words = analysisInWords(
      {
        warnings: [
          // A warning without a code stays English, even when its id and figures look familiar.
          { id: 'short-interval', severity: 'medium', message: 'The check-in interval is 7 day(s).' },
        ],
        suggestions: [
          'Check in before 999 days pass (checkIn(), about 30000 gas); ...',
          'cancel() returns the ETH to the owner; ...',
          'Check in before 999 days pass (checkIn(), about 30000 gas); ...',
          'A law note without a code.',
        ],
        advice: [
          {
            code: 'evm.advice-check-in',
            params: { intervalDays: 90, checkInGas: 30_000 },
            message: 'Check in before 999 days pass (checkIn(), about 30000 gas); ...',
          },
          { code: 'evm.advice-cancel', params: {}, message: 'cancel() returns the ETH to the owner; ...' },
        ],
      },
      'es',
    );
    expect(words.warnings[0]).toMatchObject({ english: true, message: 'The check-in interval is 7 day(s).' });
    expect(words.advice).toEqual([
      'Dé señales de vida al menos una vez cada 90 días. Cualquier otra acción suya en el contrato (un depósito, un cambio del plan) también cuenta.',
    ]);
    expect(words.technical).toEqual(['cancel() returns the ETH to the owner; ...', 'A law note without a code.']);
  });
});
