import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import {
  ARHAM_KEYS,
  calculateFaraid,
  FaraidInputSchema,
  FaraidResultSchema,
  Fraction,
  HEIR_KEYS,
  MADHHABS,
  MAX_COUNT,
  type HeirKey,
  type Madhhab,
} from '../../../src/law/faraid/index.js';

type Heirs = Partial<Record<HeirKey, number>>;

const countArb = (k: HeirKey): fc.Arbitrary<number> =>
  MAX_COUNT[k] <= 5
    ? fc.oneof(
        { arbitrary: fc.constant(0), weight: 2 },
        { arbitrary: fc.integer({ min: 1, max: MAX_COUNT[k] }), weight: 1 },
      )
    : fc.oneof(
        { arbitrary: fc.constant(0), weight: 4 },
        { arbitrary: fc.integer({ min: 1, max: Math.min(MAX_COUNT[k], 5) }), weight: 2 },
        { arbitrary: fc.integer({ min: 6, max: MAX_COUNT[k] }), weight: 1 },
      );

const denseArb: fc.Arbitrary<Heirs> = fc
  .record(Object.fromEntries(HEIR_KEYS.map((k) => [k, countArb(k)])) as Record<HeirKey, fc.Arbitrary<number>>)
  .map((h) => {
    const out: Heirs = {};
    for (const k of HEIR_KEYS) if (h[k] > 0) out[k] = h[k];
    if (out.husband && out.wife) delete out[h.son % 2 === 0 ? 'wife' : 'husband'];
    return out;
  })
  .filter((h) => Object.keys(h).length > 0);

/** A few heir types at a time, so that distant heirs and the special cases come up often. */
const sparseArb: fc.Arbitrary<Heirs> = fc
  .uniqueArray(fc.constantFrom(...HEIR_KEYS), { minLength: 1, maxLength: 6 })
  .chain((keys) =>
    fc.tuple(...keys.map((k) => fc.integer({ min: 1, max: Math.min(MAX_COUNT[k], 4) }))).map((cs) => ({ keys, cs })),
  )
  .map(({ keys, cs }) => {
    const out: Heirs = {};
    keys.forEach((k, i) => (out[k] = cs[i]!));
    if (out.husband && out.wife) delete out.wife;
    return out;
  });

const heirsArb = fc.oneof(denseArb, sparseArb);

const SPOUSES: readonly HeirKey[] = ['husband', 'wife'];
const ARHAM: readonly HeirKey[] = ARHAM_KEYS;

/**
 * Distant kindred with no sharer or residuary beside them but a spouse, under
 * a tanzil school, where the counts do not decide a line (several relatives of
 * different kinds on one line, or more than two on the daughter's line): refused.
 * The Hanafi method and one kind per line are computed.
 */
const TANZIL_LINES: ReadonlyArray<{ daughter: boolean; kin: readonly HeirKey[] }> = [
  { daughter: true, kin: ['daughtersSon', 'daughtersDaughter'] },
  {
    daughter: false,
    kin: [
      'maternalGrandfather',
      'maternalUncle',
      'maternalAunt',
      'paternalHalfMaternalUncle',
      'paternalHalfMaternalAunt',
      'maternalHalfMaternalUncle',
      'maternalHalfMaternalAunt',
    ],
  },
  { daughter: false, kin: ['fullPaternalAunt', 'paternalHalfPaternalAunt'] },
];
const kindredWouldInherit = (heirs: Heirs, madhhab: Madhhab): boolean =>
  madhhab !== 'jafari' &&
  madhhab !== 'hanafi' &&
  ARHAM.some((k) => (heirs[k] ?? 0) > 0) &&
  !HEIR_KEYS.some((k) => !ARHAM.includes(k) && !SPOUSES.includes(k) && (heirs[k] ?? 0) > 0) &&
  TANZIL_LINES.some(({ daughter, kin }) => {
    const kinds = kin.filter((k) => (heirs[k] ?? 0) > 0);
    const persons = kinds.reduce((s, k) => s + (heirs[k] ?? 0), 0);
    return persons > 1 && (kinds.length > 1 || (daughter && persons > 2));
  });

/** The refusal: a 400 naming one of the distant kindred given. */
function expectKindredRefused(run: () => unknown, heirs: Heirs): void {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const field = (e as ApiError).details?.[0]?.field ?? '';
    expect(field.startsWith('heirs.')).toBe(true);
    expect(heirs[field.slice('heirs.'.length) as HeirKey] ?? 0).toBeGreaterThan(0);
    expect(ARHAM).toContain(field.slice('heirs.'.length));
    return;
  }
  throw new Error('expected distant kindred to be refused');
}

const madhhabArb = fc.constantFrom<Madhhab>(...MADHHABS);
const runs = { numRuns: 400, seed: 20261121 };

describe("fara'id properties", () => {
  it('shares are exact, non-negative and sum to exactly 1; excluded heirs get nothing', () => {
    fc.assert(
      fc.property(heirsArb, madhhabArb, (heirs, madhhab) => {
        if (kindredWouldInherit(heirs, madhhab))
          return expectKindredRefused(() => calculateFaraid({ heirs, madhhab }), heirs);
        const r = calculateFaraid({ heirs, madhhab });
        expect(FaraidResultSchema.safeParse(r).success).toBe(true);
        const fr = r.shares.map((s) => Fraction.parse(s.fraction));
        for (const f of fr) expect(f.num >= 0n).toBe(true);
        // The treasury takes a part only with a spouse as the only heir and no radd to the spouse.
        const treasury = r.treasury ? [Fraction.parse(r.treasury.fraction)] : [];
        expect(Fraction.sum([...fr, ...treasury]).eq(Fraction.ONE)).toBe(true);
        const shared = new Set(r.shares.map((s) => s.heir));
        const excluded = new Set(r.excluded.map((e) => e.heir));
        for (const e of r.excluded) {
          expect(shared.has(e.heir)).toBe(false);
          expect(heirs[e.by] ?? 0).toBeGreaterThan(0);
          expect(excluded.has(e.by)).toBe(false);
        }
        const present = HEIR_KEYS.filter((k) => (heirs[k] ?? 0) > 0);
        expect([...shared, ...excluded].sort()).toEqual([...present].sort());
        for (const s of r.shares) {
          expect(s.count).toBe(heirs[s.heir as HeirKey]);
          expect(Fraction.parse(s.perPersonFraction).mul(s.count).eq(Fraction.parse(s.fraction))).toBe(true);
        }
      }),
      runs,
    );
  });

  it('basis points sum to 10000, per group and per person, each within one point of the exact value', () => {
    fc.assert(
      fc.property(heirsArb, madhhabArb, (heirs, madhhab) => {
        if (kindredWouldInherit(heirs, madhhab))
          return expectKindredRefused(() => calculateFaraid({ heirs, madhhab }), heirs);
        const r = calculateFaraid({ heirs, madhhab });
        const treasuryBp = r.treasury?.basisPoints ?? 0;
        expect(r.shares.reduce((a, s) => a + s.basisPoints, 0) + treasuryBp).toBe(10000);
        let pctSum = treasuryBp;
        for (const s of r.shares) {
          expect(s.perPersonBasisPoints).toHaveLength(s.count);
          expect(s.perPersonBasisPoints.reduce((a, b) => a + b, 0)).toBe(s.basisPoints);
          const exact = Fraction.parse(s.perPersonFraction).mul(10000);
          for (const bp of s.perPersonBasisPoints) {
            const diff = Fraction.of(bp).sub(exact);
            expect(diff.gt(Fraction.of(-1)) && diff.lt(Fraction.ONE)).toBe(true);
          }
          // Persons of one type differ by at most one point, the first ones taking the extra point.
          const sorted = [...s.perPersonBasisPoints].sort((a, b) => b - a);
          expect(s.perPersonBasisPoints).toEqual(sorted);
          expect(sorted[0]! - sorted[sorted.length - 1]!).toBeLessThanOrEqual(1);
          expect(s.percentage).toBe((s.basisPoints / 100).toFixed(2));
          pctSum += Math.round(Number(s.percentage) * 100);
        }
        expect(pctSum).toBe(10000);
      }),
      runs,
    );
  });

  it('is deterministic and the schools agree wherever they do not differ', () => {
    fc.assert(
      fc.property(heirsArb, (heirs) => {
        // Where distant kindred inherit, the Hanafi classes and tanzil differ (and tanzil may refuse).
        fc.pre(
          !(
            ARHAM.some((k) => (heirs[k] ?? 0) > 0) &&
            !HEIR_KEYS.some((k) => !ARHAM.includes(k) && !SPOUSES.includes(k) && (heirs[k] ?? 0) > 0)
          ),
        );
        const grandfather = !!heirs.paternalGrandfather && !heirs.father;
        const grandmotherWithFather = !!heirs.paternalGrandmother && !!heirs.father && !heirs.mother;
        const noDifference = !grandfather && !grandmotherWithFather;
        const mushtaraka =
          (heirs.fullBrother ?? 0) > 0 && (heirs.maternalHalfBrother ?? 0) + (heirs.maternalHalfSister ?? 0) >= 2;
        // The four Sunni schools; the Ja'fari school divides by classes and differs almost everywhere.
        const results = MADHHABS.filter((m) => m !== 'jafari').map((m) => calculateFaraid({ heirs, madhhab: m }));
        expect(calculateFaraid({ heirs, madhhab: 'shafii' })).toEqual(results[2]);
        if (noDifference && !mushtaraka) {
          const strip = (x: (typeof results)[number]): unknown => ({ shares: x.shares, excluded: x.excluded });
          for (const x of results) expect(strip(x)).toEqual(strip(results[0]!));
        }
      }),
      { ...runs, numRuns: 200 },
    );
  });

  it('estate order: funeral, debts, bequests capped at one third, amounts summing to what is left', () => {
    const amount = fc
      .bigInt({ min: 0n, max: 10n ** 12n })
      .map((u) => `${u / 100n}.${String(u % 100n).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        heirsArb,
        madhhabArb,
        amount,
        amount,
        amount,
        amount,
        fc.boolean(),
        (heirs, madhhab, total, funeral, debts, bequests, consent) => {
          const cents = (s: string): bigint => BigInt(s.replace('.', ''));
          const net = cents(total) - cents(funeral) - cents(debts);
          const input = { heirs, madhhab, estate: { total, funeral, debts, bequests, heirsConsent: consent } };
          if (kindredWouldInherit(heirs, madhhab)) return expectKindredRefused(() => calculateFaraid(input), heirs);
          if (net < 0n) {
            expect(() => calculateFaraid(input)).toThrow(ApiError);
            return;
          }
          const r = calculateFaraid(input);
          const e = r.estate!;
          expect(cents(e.netEstate)).toBe(net);
          const allowed = cents(e.bequestsAllowed);
          expect(allowed).toBeLessThanOrEqual(cents(bequests));
          expect(allowed * 3n).toBeLessThanOrEqual(consent ? 3n * net : net);
          if (!consent) expect(allowed).toBe(cents(bequests) < net / 3n ? cents(bequests) : net / 3n);
          expect(cents(e.distributable)).toBe(net - allowed);
          let sum = 0n;
          for (const s of r.shares) {
            const per = s.perPersonAmounts!.map(cents);
            expect(per.reduce((a, b) => a + b, 0n)).toBe(cents(s.amount!));
            sum += cents(s.amount!);
          }
          expect(sum).toBe(net - allowed);
        },
      ),
      { ...runs, numRuns: 200 },
    );
  });
});

describe("fara'id input validation", () => {
  const expectValidation = (input: unknown, field: string): void => {
    try {
      calculateFaraid(input as never);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.details?.map((d) => d.field)).toContain(field);
      return;
    }
    throw new Error('expected a validation error');
  };
  it('rejects impossible or malformed heir sets with field details', () => {
    expectValidation({ heirs: { husband: 1, wife: 1, son: 1 } }, 'heirs.wife');
    expectValidation({ heirs: {} }, 'heirs');
    expectValidation({ heirs: { son: 0 } }, 'heirs');
    expectValidation({ heirs: { wife: 5 } }, 'heirs.wife');
    expectValidation({ heirs: { husband: 2 } }, 'heirs.husband');
    expectValidation({ heirs: { mother: 2 } }, 'heirs.mother');
    expectValidation({ heirs: { son: -1 } }, 'heirs.son');
    expectValidation({ heirs: { son: 1.5 } }, 'heirs.son');
    expectValidation({ heirs: { stepson: 1 } }, 'heirs');
    expectValidation({ heirs: { son: 1 }, madhhab: 'zahiri' }, 'madhhab');
    expectValidation({ heirs: { son: 1 }, estate: { total: '-5' } }, 'estate.total');
    expectValidation({ heirs: { son: 1 }, estate: { total: '1e5' } }, 'estate.total');
    expectValidation({ heirs: { son: 1 }, estate: { total: 1e21 } }, 'estate.total');
    expectValidation({ heirs: { son: 1 }, estate: { total: '100', debts: '100.01' } }, 'estate.debts');
  });

  it('accepts numbers and decimal strings, keeping the finest scale', () => {
    const r = calculateFaraid({ heirs: { son: 3 }, estate: { total: 100, funeral: '0.001' } });
    expect(r.estate!.scale).toBe(3);
    expect(r.estate!.distributable).toBe('99.999');
    expect(r.shares[0]!.perPersonAmounts).toEqual(['33.333', '33.333', '33.333']);
    expect(r.shares[0]!.perPersonBasisPoints).toEqual([3334, 3333, 3333]);
  });

  it('pays bequests above one third only with consent', () => {
    const base = { heirs: { son: 1 }, estate: { total: '900', funeral: '50', debts: '250', bequests: '400' } } as const;
    const r1 = calculateFaraid(base);
    expect(r1.estate).toMatchObject({
      netEstate: '600.00',
      oneThird: '200.00',
      bequestsAllowed: '200.00',
      bequestsReduced: true,
      distributable: '400.00',
    });
    const r2 = calculateFaraid({ ...base, estate: { ...base.estate, heirsConsent: true } });
    expect(r2.estate).toMatchObject({ bequestsAllowed: '400.00', bequestsReduced: false, distributable: '200.00' });
    expect(r2.shares[0]!.amount).toBe('200.00');
  });

  it('voids a bequest to an inheriting heir without consent and reduces the rest pro rata', () => {
    const bequests = [
      { amount: '100' },
      { amount: '200', heir: 'son' as const },
      { amount: '300', heir: 'fullBrother' as const },
    ];
    const r = calculateFaraid({ heirs: { wife: 1, son: 1 }, estate: { total: '900', bequests } });
    expect(r.estate!.bequests).toEqual([
      { requested: '100.00', paid: '75.00', status: 'reduced' },
      { requested: '200.00', paid: '0.00', heir: 'son', status: 'void-bequest-to-heir' },
      { requested: '300.00', paid: '225.00', heir: 'fullBrother', status: 'reduced' },
    ]);
    expect(r.estate).toMatchObject({
      bequestsRequested: '600.00',
      bequestsAllowed: '300.00',
      bequestsOverOneThird: true,
      distributable: '600.00',
    });
    expect(r.steps.some((st) => st.kind === 'estate' && st.detail.includes('no bequest to an heir'))).toBe(true);
    const c = calculateFaraid({ heirs: { wife: 1, son: 1 }, estate: { total: '900', bequests, heirsConsent: true } });
    expect(c.estate!.bequests.map((q) => [q.paid, q.status])).toEqual([
      ['100.00', 'paid'],
      ['200.00', 'paid'],
      ['300.00', 'paid'],
    ]);
    expect(c.estate!.distributable).toBe('300.00');
    expect(c.shares.map((sh) => sh.amount)).toEqual(['37.50', '262.50']);
    // A brother excluded by the son is no heir: the bequest to him stands.
    const x = calculateFaraid({
      heirs: { son: 1, fullBrother: 1 },
      estate: { total: '900', bequests: [{ amount: '100', heir: 'fullBrother' }] },
    });
    expect(x.estate!.bequests[0]).toMatchObject({ paid: '100.00', status: 'paid' });
  });

  it('every input and output field is described', () => {
    const walk = (schema: unknown, path: string, out: string[]): void => {
      const json = schema as {
        description?: string;
        properties?: Record<string, unknown>;
        items?: unknown;
        anyOf?: unknown[];
      };
      if (json.properties)
        for (const [k, v] of Object.entries(json.properties)) {
          if (!(v as { description?: string }).description) out.push(`${path}.${k}`);
          walk(v, `${path}.${k}`, out);
        }
      if (json.items) walk(json.items, `${path}[]`, out);
    };
    for (const s of [FaraidInputSchema, FaraidResultSchema]) {
      const missing: string[] = [];
      const json = z.toJSONSchema(s) as { properties: Record<string, unknown> };
      expect(Object.keys(json.properties).length).toBeGreaterThanOrEqual(3);
      walk(json, '', missing);
      expect(missing).toEqual([]);
    }
  });
});
