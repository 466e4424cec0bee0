import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { calculateFaraid, type FaraidResult, type Madhhab } from '../../../src/law/faraid/index.js';

// Several true grandmothers, given by their lines ("fm" the father's mother, "mmm" the mother's mother's mother).
// Each case cites the rule it applies; the expected fractions are those of the whole group of each heir type.

const run = (grandmothers: string[], heirs: Record<string, number>, madhhab: Madhhab): FaraidResult =>
  calculateFaraid({ heirs, grandmothers, madhhab });

const shares = (r: FaraidResult) => Object.fromEntries(r.shares.map((s) => [s.heir, `${s.fraction} x${s.count}`]));

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a 400');
}

describe('true grandmothers of equal degree share one sixth per head', () => {
  it("three great-great-grandmothers on the father's side share 1/6 (al-Sirajiyyah: all of equal degree share)", () => {
    const r = run(['fmmm', 'ffmm', 'fffm'], { wife: 2, maternalHalfBrother: 3, fullPaternalUncle: 2 }, 'hanafi');
    expect(shares(r)).toEqual({
      wife: '1/4 x2',
      paternalGrandmother: '1/6 x3',
      maternalHalfBrother: '1/3 x3',
      fullPaternalUncle: '1/4 x2',
    });
    expect(r.shares.find((s) => s.heir === 'paternalGrandmother')?.perPersonFraction).toBe('1/18');
  });

  it("two great-grandmothers on the father's side and one on the mother's share 1/6 in three (1/18 each)", () => {
    // "fmm", "ffm" and "mmm" are all of the third degree; with a son, the son takes the rest (5/6).
    const r = run(['fmm', 'ffm', 'mmm'], { son: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ son: '5/6 x1', paternalGrandmother: '1/9 x2', maternalGrandmother: '1/18 x1' });
  });

  it('the answer for "fm" and "mm" given as lines is the one for the two count fields', () => {
    const byLines = run(['fm', 'mm'], { son: 1 }, 'shafii');
    const byCounts = calculateFaraid({
      heirs: { son: 1, paternalGrandmother: 1, maternalGrandmother: 1 },
      madhhab: 'shafii',
    });
    expect(byLines.shares).toEqual(byCounts.shares);
    expect(shares(byLines)).toEqual({ son: '5/6 x1', paternalGrandmother: '1/12 x1', maternalGrandmother: '1/12 x1' });
  });
});

describe('the nearer excludes the farther', () => {
  it("Hanafi: the father's mother excludes the mother's mother's mother (either side excludes either side)", () => {
    const r = run(['fm', 'mmm'], { son: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ son: '5/6 x1', paternalGrandmother: '1/6 x1' });
    expect(r.steps.map((s) => s.detail).join('\n')).toMatch(/mother's mother's mother \(mmm\) takes nothing: a nearer/);
  });

  it("Hanafi: the father's mother, herself excluded by the father, still excludes a farther grandmother", () => {
    // al-Sirajiyyah: the nearer excludes the farther, "whether the nearer is an heir or excluded": the father
    // takes the whole estate; the mother's mother's mother takes nothing.
    const r = run(['fm', 'mmm'], { father: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ father: '1/1 x1' });
  });

  it("Maliki and Shafi'i: a nearer grandmother on the father's side does not exclude a farther one on the mother's", () => {
    for (const madhhab of ['maliki', 'shafii'] as const) {
      const r = run(['fm', 'mmm'], { son: 1 }, madhhab);
      expect(shares(r), madhhab).toEqual({
        son: '5/6 x1',
        paternalGrandmother: '1/12 x1',
        maternalGrandmother: '1/12 x1',
      });
    }
  });

  it("Maliki and Shafi'i: a nearer grandmother on the mother's side excludes a farther one on the father's", () => {
    for (const madhhab of ['maliki', 'shafii'] as const) {
      const r = run(['mm', 'fmm'], { son: 1 }, madhhab);
      expect(shares(r), madhhab).toEqual({ son: '5/6 x1', maternalGrandmother: '1/6 x1' });
    }
  });

  it('the mother excludes every grandmother, of any line', () => {
    const r = run(['fmm', 'ffm', 'mmm'], { mother: 1, son: 1 }, 'hanafi');
    expect(shares(r)).toEqual({ mother: '1/6 x1', son: '5/6 x1' });
  });
});

describe("the school's lines and the grandfather", () => {
  it("Maliki: only the mother's mothers and the father's mothers inherit; the grandfather's mother does not", () => {
    const r = run(['fmm', 'ffm'], { son: 1 }, 'maliki');
    expect(shares(r)).toEqual({ son: '5/6 x1', paternalGrandmother: '1/6 x1' });
    expect(r.steps.map((s) => s.detail).join('\n')).toMatch(/\(ffm\) takes nothing: the Maliki school/);
  });

  it("Hanbali: three lines inherit (the grandfather's mothers too), not the great-grandfather's", () => {
    const r = run(['fmmm', 'ffmm', 'fffm'], { son: 1 }, 'hanbali');
    expect(shares(r)).toEqual({ son: '5/6 x1', paternalGrandmother: '1/6 x2' });
    expect(r.steps.map((s) => s.detail).join('\n')).toMatch(/\(fffm\) takes nothing: the Hanbali school/);
  });

  it('the paternal grandfather excludes the grandmothers related through him, except in the Hanbali school', () => {
    const hanafi = run(['ffm', 'fmm'], { paternalGrandfather: 1, son: 1 }, 'hanafi');
    expect(shares(hanafi)).toEqual({ son: '2/3 x1', paternalGrandfather: '1/6 x1', paternalGrandmother: '1/6 x1' });
    expect(hanafi.steps.map((s) => s.detail).join('\n')).toMatch(/\(ffm\) takes nothing: the paternal grandfather/);
    const hanbali = run(['ffm', 'fmm'], { paternalGrandfather: 1, son: 1 }, 'hanbali');
    expect(shares(hanbali)).toEqual({
      son: '2/3 x1',
      paternalGrandfather: '1/6 x1',
      paternalGrandmother: '1/6 x2',
    });
  });
});

describe('bad grandmothers lists are refused with a 400 naming the field', () => {
  it("refuses a line through a mother's father (distant kindred), a line not ending with a mother, and too long a line", () => {
    for (const line of ['mf', 'mfm', 'f', 'ff', 'm', 'fmmmmmmmmmm']) {
      const err = refusal(() => run([line], { son: 1 }, 'hanafi'));
      expect(err.code, line).toBe('VALIDATION_ERROR');
      expect(err.details?.[0]?.field, line).toBe('grandmothers.0');
    }
  });

  it('refuses a line listed twice, and lines beside the count fields', () => {
    expect(refusal(() => run(['fm', 'fm'], { son: 1 }, 'hanafi')).details?.[0]?.field).toBe('grandmothers.1');
    const both = refusal(() => run(['fm'], { son: 1, maternalGrandmother: 1 }, 'hanafi'));
    expect(both.details?.map((d) => d.field)).toEqual(['heirs.maternalGrandmother']);
  });

  it("refuses farther grandmothers under the Ja'fari school, and computes the first degree", () => {
    expect(refusal(() => run(['fmm'], { son: 1 }, 'jafari')).details?.[0]?.reason).toMatch(/first degree/);
    const r = run(['fm', 'mm'], { maternalHalfBrother: 1 }, 'jafari');
    expect(r.shares.map((s) => s.heir).sort()).toEqual([
      'maternalGrandmother',
      'maternalHalfBrother',
      'paternalGrandmother',
    ]);
  });
});
