import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportion } from '../../../src/law/faraid/apportion.js';
import { Fraction, lcm } from '../../../src/law/faraid/fraction.js';

describe('Fraction', () => {
  it('keeps lowest terms with a positive denominator', () => {
    expect(Fraction.of(6, 8).toString()).toBe('3/4');
    expect(Fraction.of(3, -9).toString()).toBe('-1/3');
    expect(Fraction.of(0, 5).toString()).toBe('0/1');
    expect(Fraction.parse('10/4').toString()).toBe('5/2');
    expect(Fraction.parse('7').toString()).toBe('7/1');
    expect(() => Fraction.of(1, 0)).toThrow(RangeError);
    expect(() => Fraction.ONE.div(Fraction.ZERO)).toThrow(RangeError);
    expect(() => Fraction.parse('1.5')).toThrow(RangeError);
    expect(lcm(4n, 6n)).toBe(12n);
  });

  it('is exact where floating point is not', () => {
    const tenth = Fraction.of(1, 10);
    expect(tenth.add(Fraction.of(2, 10)).eq(Fraction.of(3, 10))).toBe(true);
    expect(Fraction.sum([Fraction.of(1, 8), Fraction.of(1, 6), Fraction.of(17, 24)]).toString()).toBe('1/1');
    expect(Fraction.of(1, 3).mul(3).eq(Fraction.ONE)).toBe(true);
    expect(Fraction.max(Fraction.of(2, 7), Fraction.of(1, 3), Fraction.of(5, 18)).toString()).toBe('1/3');
  });

  it('obeys field laws on random values', () => {
    const fr = fc
      .tuple(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: 1n, max: 1000n }))
      .map(([n, d]) => Fraction.of(n, d));
    fc.assert(
      fc.property(fr, fr, fr, (a, b, c) => {
        expect(a.add(b).eq(b.add(a))).toBe(true);
        expect(a.mul(b.add(c)).eq(a.mul(b).add(a.mul(c)))).toBe(true);
        expect(a.sub(b).add(b).eq(a)).toBe(true);
        if (!b.isZero()) expect(a.div(b).mul(b).eq(a)).toBe(true);
        expect(Fraction.parse(a.toString()).eq(a)).toBe(true);
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});

describe('apportion (largest remainder)', () => {
  it('sums to the units, stays within one unit, and breaks ties by order', () => {
    expect(apportion([Fraction.of(1, 3), Fraction.of(1, 3), Fraction.of(1, 3)], 10000n)).toEqual([3334n, 3333n, 3333n]);
    expect(apportion([Fraction.of(1, 6), Fraction.of(5, 6)], 10000n)).toEqual([1667n, 8333n]);
    expect(apportion([Fraction.ONE], 0n)).toEqual([0n]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (ws, units) => {
          const total = ws.reduce((a, b) => a + b, 0);
          if (total === 0) return;
          const shares = ws.map((w) => Fraction.of(w, total));
          const out = apportion(shares, units);
          expect(out.reduce((a, b) => a + b, 0n)).toBe(units);
          out.forEach((u, i) => {
            const d = Fraction.of(u).sub(shares[i]!.mul(units));
            expect(d.gt(Fraction.of(-1)) && d.lt(Fraction.ONE)).toBe(true);
            if (shares[i]!.isZero()) expect(u).toBe(0n);
          });
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});
