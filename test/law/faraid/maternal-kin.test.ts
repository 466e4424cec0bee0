import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { calculateFaraid, type FaraidResult, type HeirKey, type Madhhab } from '../../../src/law/faraid/index.js';

// The mother's brothers and sisters by kind: full (maternalUncle, maternalAunt), paternal half (the mother's
// paternal half-siblings) and maternal half (her maternal half-siblings). Fractions are those of each whole group.

const run = (heirs: Partial<Record<HeirKey, number>>, madhhab: Madhhab): FaraidResult =>
  calculateFaraid({ heirs, madhhab });
const shares = (r: FaraidResult) => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const excluded = (r: FaraidResult) => r.excluded.map((e) => e.heir).sort();

describe('Hanafi distant kindred: on the mother side the stronger kinship excludes the weaker (al-Sirajiyyah)', () => {
  it('a full maternal uncle excludes the paternal half and maternal half ones', () => {
    const r = run({ maternalUncle: 1, paternalHalfMaternalUncle: 1, maternalHalfMaternalAunt: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ maternalUncle: '1/1' });
    expect(excluded(r)).toEqual(['maternalHalfMaternalAunt', 'paternalHalfMaternalUncle']);
  });

  it('without full ones, a paternal half maternal aunt excludes a maternal half maternal uncle', () => {
    const r = run({ paternalHalfMaternalAunt: 1, maternalHalfMaternalUncle: 2 }, 'hanafi');
    expect(shares(r)).toEqual({ paternalHalfMaternalAunt: '1/1' });
  });

  it('maternal half ones alone take it all, a male twice a female', () => {
    const r = run({ maternalHalfMaternalUncle: 1, maternalHalfMaternalAunt: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ maternalHalfMaternalUncle: '2/3', maternalHalfMaternalAunt: '1/3' });
  });

  it("beside the father's side, the mother's side keeps its third, to its strongest kind", () => {
    const r = run({ fullPaternalAunt: 1, maternalHalfMaternalUncle: 1, maternalAunt: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ fullPaternalAunt: '2/3', maternalAunt: '1/3' });
  });
});

describe("Ja'fari third class: the mother's side shares as her own siblings would inherit from her", () => {
  it("one maternal half maternal uncle takes 1/6 of the mother's side beside a full one", () => {
    const r = run({ maternalUncle: 1, maternalHalfMaternalUncle: 1 }, 'jafari');
    expect(shares(r)).toEqual({ maternalUncle: '5/6', maternalHalfMaternalUncle: '1/6' });
  });

  it('several maternal half ones share 1/3 equally; the full ones the rest, equally', () => {
    const r = run({ maternalAunt: 1, maternalHalfMaternalAunt: 2 }, 'jafari');
    expect(shares(r)).toEqual({ maternalAunt: '2/3', maternalHalfMaternalAunt: '1/3' });
    expect(r.shares.find((s) => s.heir === 'maternalHalfMaternalAunt')?.perPersonFraction).toBe('1/6');
  });

  it("the mother's full siblings exclude her paternal half-siblings, who otherwise take their place", () => {
    expect(shares(run({ maternalAunt: 1, paternalHalfMaternalUncle: 1 }, 'jafari'))).toEqual({ maternalAunt: '1/1' });
    expect(shares(run({ paternalHalfMaternalUncle: 1, maternalHalfMaternalAunt: 1 }, 'jafari'))).toEqual({
      paternalHalfMaternalUncle: '5/6',
      maternalHalfMaternalAunt: '1/6',
    });
  });

  it("beside the father's side: the mother's third is divided the same way (1/18 and 5/18)", () => {
    const r = run({ fullPaternalUncle: 1, maternalUncle: 1, maternalHalfMaternalAunt: 1 }, 'jafari');
    expect(shares(r)).toEqual({ fullPaternalUncle: '2/3', maternalUncle: '5/18', maternalHalfMaternalAunt: '1/18' });
  });
});

describe('tanzil schools: the mother stands for her siblings', () => {
  it('a maternal half maternal uncle alone takes the whole estate in her place', () => {
    for (const madhhab of ['maliki', 'shafii', 'hanbali'] as const)
      expect(shares(run({ maternalHalfMaternalUncle: 1 }, madhhab)), madhhab).toEqual({
        maternalHalfMaternalUncle: '1/1',
      });
  });

  it("refuses two kinds on the mother's line (their division depends on facts and a disputed point)", () => {
    let err: unknown;
    try {
      run({ maternalUncle: 1, maternalHalfMaternalUncle: 1 }, 'shafii');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).details?.[0]?.field).toBe('heirs.maternalUncle');
  });
});
