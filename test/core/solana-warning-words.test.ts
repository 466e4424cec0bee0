import { describe, expect, it } from 'vitest';
import { analysisInWords } from '../../src/core/messages/advice.js';
import { LOCALES, numberFormats } from '../../src/core/messages/index.js';
import {
  SOLANA_ADVICE_CODES,
  SOLANA_TECHNICAL_CODES,
  SOLANA_WARNING_CODES,
  SOLANA_WORDS,
  type SolanaWarningCode,
  type WarningParams,
} from '../../src/core/messages/solana-words.js';
import { generateSolana } from '../../src/contracts/solana/index.js';
import { addr, FEATURE_SETS, makePlan } from '../contracts/solana/fixtures.js';

// Real params for each code, as the Solana analysis writes them.
const PARAMS: Record<SolanaWarningCode, WarningParams> = {
  'solana.owner-release-only': {},
  'solana.owner-or-guardians-release': { waitDays: 1_234 },
  'solana.no-grace-period': {},
  'solana.short-interval': { intervalDays: 1_234 },
  'solana.guardian-rules': { threshold: 2, guardians: 3, waitDays: 1_234 },
  'solana.any-one-guardian': { guardians: 3, waitDays: 1_234 },
  'solana.all-guardians': {},
  'solana.owner-is-guardian': {},
  'solana.unsupported-assets': { count: 2, types: 'erc721, ton-jetton' },
  'solana.spl-cancel-withdraw-first': {},
  'solana.spl-not-claimable': {},
  'solana.rounding-dust': {},
};

describe('Solana warnings in words', () => {
  it('has words for every code in every locale, with the params written in the locale', () => {
    for (const code of SOLANA_WARNING_CODES) {
      const english = SOLANA_WORDS.en[code](PARAMS[code], numberFormats('en'), 'en');
      for (const locale of LOCALES) {
        const f = numberFormats(locale);
        const text = SOLANA_WORDS[locale][code](PARAMS[code], f, locale);
        expect(text, `${locale} ${code}`).not.toMatch(/undefined|NaN|\[object/);
        expect(text.length, `${locale} ${code}`).toBeGreaterThan(20);
        for (const v of Object.values(PARAMS[code])) {
          expect(text, `${locale} ${code}`).toContain(typeof v === 'number' ? f.number(v) : v);
        }
        if (locale !== 'en') expect(text, `${locale} ${code}`).not.toBe(english);
      }
    }
    // Arabic sentences are in Arabic script, not English left in place.
    for (const code of SOLANA_WARNING_CODES) {
      const text = SOLANA_WORDS.ar[code](PARAMS[code], numberFormats('ar'), 'ar');
      expect(text.replace(/[^\u0600-\u06ff]/g, '').length, code).toBeGreaterThan(text.length / 3);
    }
  });

  it('refuses to say a sentence whose params are missing, rather than print undefined', () => {
    expect(() => SOLANA_WORDS.fr['solana.short-interval']({}, numberFormats('fr'), 'fr')).toThrow(/intervalDays/);
  });

  it('says a coded warning from its params, never from the figures of its English message', () => {
    const words = analysisInWords(
      {
        warnings: [
          {
            id: 'guardian-threshold-one',
            severity: 'medium',
            message: 'Any one of 9 guardians can propose an early release (the owner has 99 days to cancel it).',
            code: 'solana.any-one-guardian',
            params: { guardians: 3, waitDays: 45 },
          },
          {
            id: 'solana-events',
            severity: 'info',
            message: 'Every instruction emits 7 events.',
            code: 'solana.events',
          },
        ],
        suggestions: [],
      },
      'fr',
    );
    expect(words.warnings[0]).toEqual({
      id: 'guardian-threshold-one',
      severity: 'medium',
      message:
        'N’importe lequel de vos 3 gardiens peut lancer une libération anticipée\u00a0; vous avez alors 45 jours pour l’annuler.',
      english: false,
    });
    // A developer's note stays as the service wrote it, marked English.
    expect(words.warnings[1]).toMatchObject({ message: 'Every instruction emits 7 events.', english: true });
  });

  it('gives every warning of a generated program a known code and the plan’s own figures', async () => {
    const plan = makePlan('custom', FEATURE_SETS[3]!, 2, {
      deadMansSwitch: { enabled: true, intervalDays: 7, gracePeriodDays: 0 },
      guardians: { addresses: [addr('g1'), addr('g2'), addr('g3')], threshold: 1 },
    });
    const { analysis } = await generateSolana(plan);
    const known = new Set<string>([...SOLANA_WARNING_CODES, ...SOLANA_TECHNICAL_CODES]);
    for (const w of analysis.warnings) expect(known.has(w.code), w.code).toBe(true);
    const byCode = new Map(analysis.warnings.map((w) => [w.code, w]));
    expect(byCode.get('solana.short-interval')?.params).toEqual({ intervalDays: 7 });
    expect(byCode.get('solana.any-one-guardian')?.params).toEqual({ guardians: 3, waitDays: 30 });
    expect(byCode.get('solana.guardian-rules')?.params).toEqual({ threshold: 1, guardians: 3, waitDays: 30 });
    expect(byCode.has('solana.no-grace-period')).toBe(true);

    const es = analysisInWords(analysis, 'es').warnings;
    const said = es.filter((w) => !w.english).map((w) => w.message);
    expect(said).toContain(
      'Si no da señales de vida durante 7 días (un viaje, una enfermedad), el patrimonio puede liberarse antes de tiempo.',
    );
    expect(said).toContain(
      '1 de sus 3 guardianes juntos pueden iniciar una liberación anticipada. Solo ocurre si usted no da señales de vida durante 30 días: nunca pueden imponerse a usted.',
    );
    // Only the developers' notes stay English.
    const technical = new Set<string>(SOLANA_TECHNICAL_CODES);
    es.forEach((w, i) => expect(w.english, analysis.warnings[i]!.code).toBe(technical.has(analysis.warnings[i]!.code)));
    // Every suggestion has a coded twin: the person's advice in words, the build and audit steps as written.
    expect(analysis.advice.map((a) => a.message)).toEqual(analysis.suggestions);
    for (const a of analysis.advice)
      expect(known.has(a.code) || SOLANA_ADVICE_CODES.includes(a.code as never), a.code).toBe(true);
    const words = analysisInWords(analysis, 'es');
    expect(words.advice).toContain(
      'Considere un periodo de gracia (por ejemplo 30 días), para que una señal de vida que falte aún pueda corregirse.',
    );
    expect(words.technical).toEqual(analysis.advice.filter((a) => technical.has(a.code)).map((a) => a.message));
  }, 120_000);
});
