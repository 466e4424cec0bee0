import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { calculateFaraid, Fraction, type FaraidInput, type FaraidResult } from '../../../src/law/faraid/index.js';
import { defaultJurisdictions, type Jurisdiction, type JurisdictionIndex } from '../../../src/law/jurisdictions.js';

// National statutes that change the classical fara'id results, applied from the jurisdiction data:
// - the obligatory bequest (wasiyya wajiba) of Egypt's Law No. 71 of 1946 on Wills, arts. 76-79: the children of a
//   child who died before the deceased take what that child would have inherited had it survived, within one third
//   of the estate, before the heirs; the first degree of a daughter's children and a son's children however low; each
//   child's amount is divided among its children as in inheritance (a male twice a female); grandchildren who are
//   heirs take nothing from it (art. 76: "provided they are not heirs");
// - Tunisia's Code of Personal Status, art. 143 bis (Law No. 59-77 of 19 June 1959): a daughter or a son's daughter
//   takes the remainder by radd even beside brothers and paternal uncles.

const frac = (r: FaraidResult): Record<string, string> => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const totalBp = (r: FaraidResult): number =>
  r.shares.reduce((a, s) => a + s.basisPoints, 0) + (r.treasury?.basisPoints ?? 0);
const run = (input: FaraidInput): FaraidResult => {
  const r = calculateFaraid(input);
  expect(totalBp(r)).toBe(10000);
  return r;
};
const male = (sons: number, daughters = 0) => ({ sex: 'male' as const, sons, daughters });
const female = (sons: number, daughters = 0) => ({ sex: 'female' as const, sons, daughters });

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe("Egypt's obligatory bequest (Law No. 71 of 1946, arts. 76-79)", () => {
  it('one son and the son of a predeceased son: the grandson one third (his father would have had 1/2, capped), the son 2/3', () => {
    const r = run({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1)] });
    expect(frac(r)).toEqual({ son: '2/3', grandchild_son_of_predeceased_son_1: '1/3' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', uncappedFraction: '1/2', capped: true });
    expect(r.obligatoryBequest?.source).toContain('arts. 76-79');
    expect(r.shares.map((s) => s.basisPoints)).toEqual([6667, 3333]);
    const statute = r.steps.filter((s) => s.kind === 'statute').map((s) => s.detail);
    expect(statute.join(' ')).toContain('would have been 1/2');
    expect(statute.join(' ')).toContain('exceed the cap of 1/3');
  });

  it("a predeceased daughter's son and daughter share her 1/3 two to one (cap not binding: exactly 1/3)", () => {
    // Alive, the daughter would take 1/3 beside one son; art. 76 covers the first degree of daughters' children.
    const r = run({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [female(1, 1)] });
    expect(frac(r)).toEqual({
      son: '2/3',
      grandchild_son_of_predeceased_daughter_1: '2/9',
      grandchild_daughter_of_predeceased_daughter_1: '1/9',
    });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', capped: false });
  });

  it('cap not binding: a wife, two sons and a predeceased son with one daughter', () => {
    // Alive, three sons would share 7/8: 7/24 each; 7/24 < 1/3 is paid in full and the heirs divide 17/24:
    // wife 1/8 x 17/24 = 17/192, the two sons 7/8 x 17/24 = 119/192.
    const r = run({ heirs: { wife: 1, son: 2 }, jurisdiction: 'eg', predeceasedChildren: [male(0, 1)] });
    expect(frac(r)).toEqual({ wife: '17/192', son: '119/192', grandchild_daughter_of_predeceased_son_1: '7/24' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '7/24', uncappedFraction: '7/24', capped: false });
  });

  it('several predeceased children, cap binding: the bequests are cut in proportion to one third', () => {
    // Alive: two sons and a daughter, 2/5, 2/5, 1/5; the predeceased son and daughter would have 3/5 together,
    // cut to 1/3 in proportion (x 5/9): 2/9 and 1/9. The surviving son takes the remaining 2/3.
    const r = run({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1), female(0, 1)] });
    expect(frac(r)).toEqual({
      son: '2/3',
      grandchild_son_of_predeceased_son_1: '2/9',
      grandchild_daughter_of_predeceased_daughter_2: '1/9',
    });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', uncappedFraction: '3/5', capped: true });
  });

  it('two predeceased sons beside one son: 2/3 uncapped, 1/6 to each line', () => {
    const r = run({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1), male(2, 1)] });
    expect(frac(r)).toEqual({
      son: '2/3',
      grandchild_son_of_predeceased_son_1: '1/6',
      grandchild_son_of_predeceased_son_2: '2/15',
      grandchild_daughter_of_predeceased_son_2: '1/30',
    });
    const line2 = r.shares.find((s) => s.heir === 'grandchild_son_of_predeceased_son_2')!;
    expect(line2.count).toBe(2);
    expect(line2.perPersonFraction).toBe('1/15');
  });

  it("grandchildren who inherit take nothing from it: no son survives, so the son's son is a residuary", () => {
    const r = run({ heirs: { daughter: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1)] });
    expect(frac(r)).toEqual({ daughter: '1/2', sonsSon: '1/2' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '0/1', capped: false });
    expect(r.steps.some((s) => s.kind === 'statute' && s.detail.includes('not heirs'))).toBe(true);
  });

  it('works with an estate: amounts of the heirs and grandchildren sum to the net estate', () => {
    const r = run({
      heirs: { son: 1 },
      jurisdiction: 'eg',
      predeceasedChildren: [male(1)],
      estate: { total: '90000', debts: '0' },
    });
    expect(r.shares.map((s) => s.amount)).toEqual(['60000.00', '30000.00']);
  });

  it('refuses what it cannot compute, with a clear error per field', () => {
    const noRule = errorOf(() =>
      calculateFaraid({ heirs: { son: 1 }, jurisdiction: 'sa', predeceasedChildren: [male(1)] }),
    );
    expect(noRule.details?.map((d) => d.field)).toEqual(['predeceasedChildren']);
    const twice = errorOf(() =>
      calculateFaraid({ heirs: { son: 1, sonsSon: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1)] }),
    );
    expect(twice.details?.map((d) => d.field)).toEqual(['heirs.sonsSon']);
    const withBequests = errorOf(() =>
      calculateFaraid({
        heirs: { son: 1 },
        jurisdiction: 'eg',
        predeceasedChildren: [male(1)],
        estate: { total: '100', bequests: '10' },
      }),
    );
    expect(withBequests.details?.map((d) => d.field)).toEqual(['estate.bequests']);
    const empty = errorOf(() =>
      calculateFaraid({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(0)] }),
    );
    expect(empty.code).toBe('VALIDATION_ERROR');
    expect(empty.details?.[0]?.field).toBe('predeceasedChildren.0');
  });
});

/** The real index with Egypt's bequest narrowed to sons' children, the Syrian and Jordanian rule. */
function sonsOnlyIndex(): JurisdictionIndex {
  const real = defaultJurisdictions();
  const eg = real.resolve('eg');
  const changed: Jurisdiction = {
    ...eg,
    islamicLaw: {
      ...eg.islamicLaw,
      obligatoryBequest: { ...eg.islamicLaw.obligatoryBequest!, daughtersChildren: 'none' },
    },
  };
  return { ...real, resolve: (id: string) => (id === 'eg' ? changed : real.resolve(id)) };
}

describe("an obligatory bequest limited to sons' children (Syria art. 257, Jordan 2010 art. 279)", () => {
  it("gives a predeceased daughter's children nothing and says why", () => {
    const r = calculateFaraid(
      { heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [female(1)] },
      { jurisdictions: sonsOnlyIndex() },
    );
    expect(frac(r)).toEqual({ son: '1/1' });
    expect(r.steps.some((s) => s.detail.includes('only the children of a predeceased son'))).toBe(true);
  });
});

describe("Tunisia's radd to daughters (Code of Personal Status, art. 143 bis)", () => {
  it('one daughter and one full brother: the daughter takes everything (classically 1/2 and 1/2)', () => {
    const r = run({ heirs: { daughter: 1, fullBrother: 1 }, jurisdiction: 'tn' });
    expect(frac(r)).toEqual({ daughter: '1/1' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'fullBrother', by: 'daughter' })]);
    expect(r.excluded[0]!.reason).toContain('143 bis');
    expect(r.school).toMatchObject({ madhhab: 'maliki', chosenBy: 'jurisdiction' });
    // The same family in Egypt keeps the classical result.
    expect(frac(run({ heirs: { daughter: 1, fullBrother: 1 }, jurisdiction: 'eg' }))).toEqual({
      daughter: '1/2',
      fullBrother: '1/2',
    });
  });

  it("a son's daughter and a full paternal uncle: the son's daughter takes everything", () => {
    const r = run({ heirs: { sonsDaughter: 1, fullPaternalUncle: 1 }, jurisdiction: 'tn' });
    expect(frac(r)).toEqual({ sonsDaughter: '1/1' });
    expect(r.excluded.map((x) => [x.heir, x.by])).toEqual([['fullPaternalUncle', 'sonsDaughter']]);
  });

  it('a wife, a daughter and a full sister: the daughter takes 7/8 by radd, the sister nothing, the wife 1/8', () => {
    const r = run({ heirs: { wife: 1, daughter: 1, fullSister: 1 }, jurisdiction: 'tn' });
    expect(frac(r)).toEqual({ wife: '1/8', daughter: '7/8' });
  });

  it('does not apply with a son: the son excludes the brother and shares with the daughter 2:1', () => {
    const r = run({ heirs: { son: 1, daughter: 1, fullBrother: 1 }, jurisdiction: 'tn' });
    expect(frac(r)).toEqual({ son: '2/3', daughter: '1/3' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'fullBrother', by: 'son' })]);
  });

  it('leaves the father his classical place: a daughter and the father, 1/2 each', () => {
    const r = run({ heirs: { daughter: 1, father: 1 }, jurisdiction: 'tn' });
    expect(frac(r)).toEqual({ daughter: '1/2', father: '1/2' });
  });
});

describe('Indonesia: a daughter excludes the siblings (KHI arts. 181-182 as read by the Supreme Court)', () => {
  // Mahkamah Agung 86 K/AG/1994 and 184 K/AG/1995 read "anak" (child) in KHI arts. 181-182 as a son or a daughter:
  // while a child survives, blood relatives other than the parents are excluded; the religious courts follow it.
  it('one daughter and one full brother: the daughter takes everything, and the finding says why', () => {
    const r = run({ heirs: { daughter: 1, fullBrother: 1 }, jurisdiction: 'id' });
    expect(frac(r)).toEqual({ daughter: '1/1' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'fullBrother', by: 'daughter' })]);
    expect(r.excluded[0]!.reason).toContain('86 K/AG/1994');
  });

  it('two daughters, the mother and a full sister: the sister takes nothing, the parents keep their place', () => {
    const r = run({ heirs: { daughter: 2, mother: 1, fullSister: 1 }, jurisdiction: 'id' });
    expect(frac(r)).toEqual({ daughter: '4/5', mother: '1/5' });
    expect(r.excluded.map((x) => x.heir)).toEqual(['fullSister']);
  });

  it('a wife, a daughter and a paternal uncle: the uncle takes nothing', () => {
    const r = run({ heirs: { wife: 1, daughter: 1, fullPaternalUncle: 1 }, jurisdiction: 'id' });
    expect(frac(r)).toEqual({ wife: '1/8', daughter: '7/8' });
  });
});

describe('obligatory bequest: invariants over random families (Egypt)', () => {
  const childArb = fc
    .record({
      sex: fc.constantFrom('male' as const, 'female' as const),
      sons: fc.integer({ min: 0, max: 3 }),
      daughters: fc.integer({ min: 0, max: 3 }),
    })
    .filter((c) => c.sons + c.daughters > 0);
  const heirsArb = fc.record({
    son: fc.integer({ min: 0, max: 3 }),
    daughter: fc.integer({ min: 0, max: 3 }),
    wife: fc.integer({ min: 0, max: 2 }),
    mother: fc.integer({ min: 0, max: 1 }),
    father: fc.integer({ min: 0, max: 1 }),
    fullBrother: fc.integer({ min: 0, max: 2 }),
  });

  it('shares sum to exactly 1 and 10000 basis points; the bequests stay within one third and go to non-heirs', () => {
    fc.assert(
      fc.property(heirsArb, fc.array(childArb, { minLength: 1, maxLength: 4 }), (heirs, children) => {
        // Only a daughter's children and no heir at all is refused (distant kindred are not modelled).
        fc.pre(Object.values(heirs).some((n) => n > 0) || children.some((c) => c.sex === 'male'));
        const r = calculateFaraid({ heirs, jurisdiction: 'eg', predeceasedChildren: children });
        const sum = Fraction.sum(r.shares.map((s) => Fraction.parse(s.fraction)));
        expect(sum.eq(Fraction.ONE)).toBe(true);
        expect(totalBp(r)).toBe(10000);
        const bequest = Fraction.sum(
          r.shares.filter((s) => s.heir.startsWith('grandchild')).map((s) => Fraction.parse(s.fraction)),
        );
        expect(bequest.eq(Fraction.parse(r.obligatoryBequest!.fraction))).toBe(true);
        expect(bequest.gt(Fraction.of(1, 3))).toBe(false);
        // A son's children who inherit (sonsSon or sonsDaughter with a share) never also take by bequest.
        const inheriting = r.shares.some(
          (s) => (s.heir === 'sonsSon' || s.heir === 'sonsDaughter') && s.basisPoints > 0,
        );
        if (inheriting) expect(r.shares.some((s) => s.heir.includes('predeceased_son'))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe("Kuwait's obligatory bequest (Law No. 5 of 1971, art. 1)", () => {
  it("follows the Egyptian rule under the Maliki school: a predeceased daughter's daughter beside two sons", () => {
    // Alive, the daughter would take 1/5 beside two sons (2:2:1): within one third, paid in full; the sons share 4/5.
    const r = run({ heirs: { son: 2 }, jurisdiction: 'kw', predeceasedChildren: [female(0, 1)] });
    expect(frac(r)).toEqual({ son: '4/5', grandchild_daughter_of_predeceased_daughter_1: '1/5' });
    expect(r.school).toMatchObject({ madhhab: 'maliki', chosenBy: 'jurisdiction' });
    expect(r.obligatoryBequest?.source).toContain('Law No. 5 of 1971');
  });
});

describe("Morocco's obligatory bequest (Family Code 2004, arts. 369-372)", () => {
  it("a predeceased daughter's son and daughter beside a son and a wife, under the Maliki school", () => {
    // Alive, the daughter would take 7/8 x 1/3 = 7/24 beside one son (wife 1/8): within one third, paid in full and
    // split 2:1 (art. 372): 7/36 and 7/72. The heirs divide the remaining 17/24: wife 17/192, son 119/192.
    const r = run({ heirs: { wife: 1, son: 1 }, jurisdiction: 'ma', predeceasedChildren: [female(1, 1)] });
    expect(frac(r)).toEqual({
      wife: '17/192',
      son: '119/192',
      grandchild_son_of_predeceased_daughter_1: '7/36',
      grandchild_daughter_of_predeceased_daughter_1: '7/72',
    });
    expect(r.school.madhhab).toBe('maliki');
    expect(r.obligatoryBequest?.source).toContain('arts. 369-372');
  });
});
