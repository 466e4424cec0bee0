import { afterAll, describe, expect, it } from 'vitest';
import { analysisInWords } from '../../src/core/messages/advice.js';
import { EVM_ADVICE_CODES, EVM_TECHNICAL_CODES, EVM_WARNING_CODES } from '../../src/core/messages/evm-words.js';
import { LOCALES } from '../../src/core/messages/index.js';
import { TON_ADVICE_CODES, TON_TECHNICAL_CODES, TON_WARNING_CODES } from '../../src/core/messages/ton-words.js';
import { generateEvm } from '../../src/contracts/evm/generate.js';
import type { Plan } from '../../src/contracts/plan.js';
import { generateTon } from '../../src/contracts/ton/index.js';
import { address, testSolcPool } from './evm/fixtures.js';
import { makePlan } from './ton/helpers.js';

/** Every warning and suggestion of a generated contract is coded, and every code is one the word tables know. */
function expectAllCoded(
  analysis: {
    warnings: Array<{ code?: string; params?: Record<string, number | string> }>;
    suggestions: string[];
    advice?: Array<{ code: string; params: Record<string, number | string>; message: string }>;
  },
  known: Set<string>,
) {
  for (const w of analysis.warnings) {
    expect(known.has(w.code ?? ''), w.code).toBe(true);
    for (const v of Object.values(w.params ?? {})) expect(typeof v === 'string' || Number.isFinite(v)).toBe(true);
  }
  expect(analysis.advice?.map((a) => a.message)).toEqual(analysis.suggestions);
  for (const a of analysis.advice ?? []) expect(known.has(a.code), a.code).toBe(true);
}

describe('TON analysis codes', () => {
  it('codes every warning and suggestion of a generated contract, with the plan’s own figures', async () => {
    const plan = makePlan({
      n: 2,
      dms: { intervalDays: 14, gracePeriodDays: 0 },
      guardians: { n: 3, threshold: 1 },
      jettons: 1,
    });
    const { analysis } = await generateTon(plan);
    const technical = new Set<string>(TON_TECHNICAL_CODES);
    expectAllCoded(analysis, new Set([...TON_WARNING_CODES, ...TON_ADVICE_CODES, ...technical]));
    const byCode = new Map(analysis.warnings.map((w) => [w.code, w]));
    expect(byCode.get('ton.short-interval')?.params).toEqual({ intervalDays: 14 });
    expect(byCode.get('ton.guardian-rules')?.params).toEqual({ threshold: 1, guardians: 3, waitDays: 30 });
    expect(byCode.get('ton.any-one-guardian')?.params).toEqual({ guardians: 3, waitDays: 30 });
    const reserve = byCode.get('ton.storage-reserve')!;
    expect(reserve.params.reserveNanoton).toBeGreaterThan(0);
    // The English message and the params say the same amount.
    expect(reserve.message).toContain(`A reserve of ${Number(reserve.params.reserveNanoton) / 1e9} TON`);

    for (const locale of LOCALES) {
      const words = analysisInWords(analysis, locale);
      // Only the developers' notes stay English; every suggestion has words.
      words.warnings.forEach((w, i) =>
        expect(w.english, `${locale} ${analysis.warnings[i]!.code}`).toBe(technical.has(analysis.warnings[i]!.code)),
      );
      expect(words.technical).toEqual([]);
      expect(words.advice.length).toBe(new Set(analysis.advice.map((a) => a.code)).size);
    }
    expect(analysisInWords(analysis, 'fr').warnings.map((w) => w.message)).toContain(
      'Si vous ne vous manifestez pas pendant 14 jours (voyage, maladie), le patrimoine peut être libéré trop tôt.',
    );
  }, 120_000);

  it('codes a plan that only its unanimous guardians (or the owner) can release', async () => {
    const plan = makePlan({ n: 1, guardians: { n: 2, threshold: 2 } });
    plan.deadMansSwitch = { enabled: false, intervalDays: 365, gracePeriodDays: 0 };
    const { analysis } = await generateTon(plan);
    expectAllCoded(analysis, new Set([...TON_WARNING_CODES, ...TON_ADVICE_CODES, ...TON_TECHNICAL_CODES]));
    expect(analysis.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['ton.all-guardians', 'ton.guardians-no-veto', 'ton.cancel-returns-all']),
    );
  }, 120_000);
});

describe('EVM analysis codes', () => {
  const pool = testSolcPool({ size: 1 });
  afterAll(() => pool.close());

  it('codes every warning and suggestion of a generated contract, and says them without reading English', async () => {
    const owner = address(0x0a, 1);
    const plan = {
      blockchain: 'evm',
      ownerAddress: owner,
      inheritanceTemplate: 'custom',
      beneficiaries: [{ name: 'A', address: address(0xbe, 1), percentage: 100 }],
      deadMansSwitch: { enabled: true, intervalDays: 12, gracePeriodDays: 0 },
      guardians: { addresses: [address(0x6a, 1), address(0x6a, 2), address(0xbe, 1)], threshold: 3 },
      assets: [{ type: 'native' }, { type: 'erc20', address: address(0x70, 1) }],
    } as Plan;
    const { analysis } = await generateEvm(plan, { pool });
    const technical = new Set<string>(EVM_TECHNICAL_CODES);
    expectAllCoded(analysis, new Set([...EVM_WARNING_CODES, ...EVM_ADVICE_CODES, ...technical]));
    const byCode = new Map(analysis.warnings.map((w) => [w.code, w]));
    expect(byCode.get('evm.short-interval')?.params).toEqual({ intervalDays: 12 });
    expect(byCode.get('evm.all-guardians')?.params).toEqual({ guardians: 3 });
    expect(byCode.get('evm.guardian-is-beneficiary')?.params).toEqual({ count: 1 });
    expect(analysis.advice.find((a) => a.code === 'evm.advice-check-in')?.params.intervalDays).toBe(12);

    const es = analysisInWords(analysis, 'es');
    es.warnings.forEach((w, i) =>
      expect(w.english, analysis.warnings[i]!.code).toBe(technical.has(analysis.warnings[i]!.code)),
    );
    expect(es.warnings.map((w) => w.message)).toContain(
      'Los 3 guardianes deben estar de acuerdo: si uno pierde su clave, los guardianes ya no pueden actuar.',
    );
    expect(es.advice).toContain(
      'Dé señales de vida al menos una vez cada 12 días. Cualquier otra acción suya en el contrato (un depósito, un cambio del plan) también cuenta.',
    );
    // The suggestions for developers (cancel and rescue calls) stay as written.
    expect(es.technical.length).toBe(analysis.advice.filter((a) => technical.has(a.code)).length);
  }, 180_000);
});
