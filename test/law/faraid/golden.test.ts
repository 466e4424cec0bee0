import { describe, expect, it } from 'vitest';
import {
  calculateFaraid,
  FaraidResultSchema,
  Fraction,
  HEIR_LABELS,
  MADHHABS,
  type HeirKey,
} from '../../../src/law/faraid/index.js';
import { GOLDEN } from './golden.js';

describe("fara'id golden cases", () => {
  it('has at least 40 cases, each with a source, covering every school', () => {
    expect(GOLDEN.length).toBeGreaterThanOrEqual(40);
    for (const c of GOLDEN) expect(c.source.length).toBeGreaterThan(10);
    for (const m of MADHHABS) expect(GOLDEN.some((c) => c.madhhab === m)).toBe(true);
    for (const s of ['umariyyatan', 'mushtaraka', 'akdariyya', 'grandfather-with-siblings'])
      expect(GOLDEN.some((c) => c.special === s)).toBe(true);
  });

  describe.concurrent.each(GOLDEN)('$name', (c) => {
    it(`${c.madhhab ?? 'default'}: exact shares`, () => {
      const r = calculateFaraid({ heirs: c.heirs, ...(c.madhhab ? { madhhab: c.madhhab } : {}) });
      expect(FaraidResultSchema.safeParse(r).success).toBe(true);
      const got = Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
      expect(got).toEqual(c.shares);
      const ex = Object.fromEntries(r.excluded.map((e) => [e.heir, e.by]));
      expect(ex).toEqual(c.excluded ?? {});
      expect(Fraction.sum(r.shares.map((s) => Fraction.parse(s.fraction))).eq(Fraction.ONE)).toBe(true);
      expect(r.shares.reduce((a, s) => a + s.basisPoints, 0)).toBe(10000);
      if (c.awl) {
        expect(r.awl).toBe(true);
        expect([r.base, r.awlBase]).toEqual(c.awl);
        expect(r.steps.some((s) => s.kind === 'awl' || s.detail.includes("'awl"))).toBe(true);
      } else expect(r.awl).toBe(false);
      expect(r.radd).toBe(c.radd ?? false);
      if (c.radd) expect(r.steps.some((s) => s.kind === 'radd')).toBe(true);
      if (c.special) expect(r.specialCases).toContain(c.special);
      for (const [heir, by] of Object.entries(c.excluded ?? {}) as Array<[HeirKey, HeirKey]>)
        expect(
          r.steps.some(
            (s) =>
              s.kind === 'exclusion' &&
              s.detail.startsWith(`The ${HEIR_LABELS[heir]} is excluded by the ${HEIR_LABELS[by]}:`),
          ),
        ).toBe(true);
    });
  });
});
