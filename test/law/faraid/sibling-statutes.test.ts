import { describe, expect, it } from 'vitest';
import { checkPlan } from '../../../src/law/check-plan.js';
import { calculateFaraid, type FaraidInput, type FaraidResult } from '../../../src/law/faraid/index.js';
import { defaultJurisdictions } from '../../../src/law/jurisdictions.js';

// Two national rules on brothers and sisters that depart from the Hanafi school Egypt and Syria otherwise follow,
// applied from the jurisdiction data (islamicLaw.grandfatherSharing, islamicLaw.mushtarakaSharing):
// - the grandfather with full or paternal half-siblings, after 'Ali (Egypt, Law No. 77 of 1943, art. 22; Syria,
//   Personal Status Law, art. 279): he neither excludes them nor is excluded by them; he shares with the residuary
//   siblings as a brother, or takes the residue beside sisters who take fixed shares, never less than one sixth of
//   the estate; paternal half-siblings excluded by full ones are not counted (no mu'adda), and there is no one third;
// - the mushtaraka (Egypt, art. 10; Syria, art. 267(2)): when the fixed shares exhaust the estate, a full brother or
//   full brothers, alone or with full sisters, share the maternal half-siblings' third with them equally per head.
// Every expected share below is worked by hand from those rules; other jurisdictions keep their school's answer.

const frac = (r: FaraidResult): Record<string, string> => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const run = (input: FaraidInput): FaraidResult => {
  const r = calculateFaraid(input);
  expect(r.shares.reduce((a, s) => a + s.basisPoints, 0) + (r.treasury?.basisPoints ?? 0)).toBe(10000);
  return r;
};
const steps = (r: FaraidResult): string => r.steps.map((s) => s.detail).join(' ');
const ARTICLE = {
  eg: { grandfather: 'art. 22', mushtaraka: 'art. 10' },
  sy: { grandfather: 'art. 279', mushtaraka: 'art. 267(2)' },
};

describe('the grandfather with brothers and sisters (Egypt art. 22, Syria art. 279)', () => {
  for (const id of ['eg', 'sy'] as const) {
    it(`${id}: the grandfather and two full brothers share as brothers, 1/3 each, and the statute is named`, () => {
      const r = run({ heirs: { paternalGrandfather: 1, fullBrother: 2 }, jurisdiction: id });
      expect(frac(r)).toEqual({ paternalGrandfather: '1/3', fullBrother: '2/3' });
      expect(r.shares.find((s) => s.heir === 'fullBrother')?.perPersonFraction).toBe('1/3');
      expect(r.excluded).toEqual([]);
      expect(r.specialCases).toContain('grandfather-with-siblings');
      expect(steps(r)).toContain(ARTICLE[id].grandfather);
      expect(steps(r)).not.toContain('Abu Hanifa');
    });

    it(`${id}: with six brothers sharing would give him 1/7, so he takes 1/6 and the brothers 5/6`, () => {
      const r = run({ heirs: { paternalGrandfather: 1, fullBrother: 6 }, jurisdiction: id });
      expect(frac(r)).toEqual({ paternalGrandfather: '1/6', fullBrother: '5/6' });
      const floor = r.steps.find((s) => s.detail.includes('less than one sixth'));
      expect(floor?.detail).toContain(ARTICLE[id].grandfather);
    });
  }

  it('five brothers: sharing and one sixth are equal', () => {
    expect(frac(run({ heirs: { paternalGrandfather: 1, fullBrother: 5 }, jurisdiction: 'eg' }))).toEqual({
      paternalGrandfather: '1/6',
      fullBrother: '5/6',
    });
  });

  it('a full brother and a full sister: he counts as a brother, 2/5, 2/5 and 1/5', () => {
    const r = run({ heirs: { paternalGrandfather: 1, fullBrother: 1, fullSister: 1 }, jurisdiction: 'sy' });
    expect(frac(r)).toEqual({ paternalGrandfather: '2/5', fullBrother: '2/5', fullSister: '1/5' });
  });

  it('sisters with fixed shares and no brother: they keep them and he takes the residue', () => {
    // Full sister 1/2, paternal half-sister 1/6 completing two thirds, the grandfather the residue 1/3.
    const r = run({ heirs: { paternalGrandfather: 1, fullSister: 1, paternalHalfSister: 1 }, jurisdiction: 'eg' });
    expect(frac(r)).toEqual({ paternalGrandfather: '1/3', fullSister: '1/2', paternalHalfSister: '1/6' });
    expect(steps(r)).toContain('takes the residue as a residuary');
    // Two full sisters take 2/3 and he the residue 1/3.
    expect(frac(run({ heirs: { paternalGrandfather: 1, fullSister: 2 }, jurisdiction: 'sy' }))).toEqual({
      paternalGrandfather: '1/3',
      fullSister: '2/3',
    });
  });

  it('sisters made residuary by a daughter: he shares with them as a brother (daughter 1/2, he 1/3, sister 1/6)', () => {
    const r = run({ heirs: { daughter: 1, paternalGrandfather: 1, fullSister: 1 }, jurisdiction: 'eg' });
    expect(frac(r)).toEqual({ daughter: '1/2', paternalGrandfather: '1/3', fullSister: '1/6' });
  });

  it('the husband, mother, grandfather and a full sister: no akdariyya; 1/6 to him by awl to 9', () => {
    // Husband 3, mother 2, sister 3 of 6 exhaust it: he takes one sixth by 'awl, 9 in all.
    const r = run({ heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullSister: 1 }, jurisdiction: 'eg' });
    expect(frac(r)).toEqual({ husband: '1/3', mother: '2/9', paternalGrandfather: '1/9', fullSister: '1/3' });
    expect(r.awl).toBe(true);
    expect(r.specialCases).not.toContain('akdariyya');
  });

  it("fixed shares leave less than one sixth: he takes 1/6 by 'awl and the brother nothing", () => {
    // Husband 1/4 and two daughters 2/3 leave 1/12; as a brother he would get 1/24.
    const r = run({ heirs: { husband: 1, daughter: 2, paternalGrandfather: 1, fullBrother: 1 }, jurisdiction: 'sy' });
    expect(frac(r)).toEqual({ husband: '3/13', daughter: '8/13', paternalGrandfather: '2/13', fullBrother: '0/1' });
    expect(r.awl).toBe(true);
  });

  it("paternal half-brothers excluded by a full brother are not counted against him (no mu'adda)", () => {
    const r = run({ heirs: { paternalGrandfather: 1, fullBrother: 1, paternalHalfBrother: 2 }, jurisdiction: 'eg' });
    expect(frac(r)).toEqual({ paternalGrandfather: '1/2', fullBrother: '1/2' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'paternalHalfBrother', by: 'fullBrother' })]);
    // Zayd's school (Saudi Arabia, Hanbali) counts them and gives him one third.
    expect(
      frac(run({ heirs: { paternalGrandfather: 1, fullBrother: 1, paternalHalfBrother: 2 }, jurisdiction: 'sa' })),
    ).toEqual({ paternalGrandfather: '1/3', fullBrother: '2/3', paternalHalfBrother: '0/1' });
  });

  it('leaves other jurisdictions and the default school their classical answers', () => {
    // Hanafi default: the grandfather stands in the father's place and excludes the brothers.
    const hanafi = run({ heirs: { paternalGrandfather: 1, fullBrother: 6 } });
    expect(frac(hanafi)).toEqual({ paternalGrandfather: '1/1' });
    expect(hanafi.excluded.map((x) => [x.heir, x.by])).toEqual([['fullBrother', 'paternalGrandfather']]);
    // Saudi Arabia (Hanbali, after Zayd): the best of sharing and one third; one third beside six brothers.
    expect(frac(run({ heirs: { paternalGrandfather: 1, fullBrother: 6 }, jurisdiction: 'sa' }))).toEqual({
      paternalGrandfather: '1/3',
      fullBrother: '2/3',
    });
    // Zayd's akdariyya still applies there.
    const akdariyya = run({
      heirs: { husband: 1, mother: 1, paternalGrandfather: 1, fullSister: 1 },
      jurisdiction: 'sa',
    });
    expect(akdariyya.specialCases).toContain('akdariyya');
    expect(frac(akdariyya)).toEqual({ husband: '1/3', mother: '2/9', paternalGrandfather: '8/27', fullSister: '4/27' });
  });

  it('a plan check in Egypt expects the brothers to inherit beside the grandfather', () => {
    const r = checkPlan(defaultJurisdictions(), {
      jurisdiction: 'eg',
      template: 'islamic-mirth',
      beneficiaries: [
        { name: 'Grandfather', percentage: 33.34, relationship: 'paternal grandfather' },
        { name: 'Brother A', percentage: 33.33, relationship: 'full brother' },
        { name: 'Brother B', percentage: 33.33, relationship: 'full brother' },
      ],
    });
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.expected.map((e) => e.expectedPercentage)).toEqual(['33.34', '33.33', '33.33']);
  });
});

describe('the mushtaraka (Egypt art. 10, Syria art. 267(2))', () => {
  for (const id of ['eg', 'sy'] as const) {
    it(`${id}: husband, mother, two maternal half-brothers and a full brother: the third shared, 1/9 each`, () => {
      const r = run({
        heirs: { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 },
        jurisdiction: id,
      });
      expect(frac(r)).toEqual({ husband: '1/2', mother: '1/6', fullBrother: '1/9', maternalHalfBrother: '2/9' });
      expect(r.shares.find((s) => s.heir === 'maternalHalfBrother')?.perPersonFraction).toBe('1/9');
      expect(r.specialCases).toContain('mushtaraka');
      const step = r.steps.find((s) => s.detail.startsWith('Mushtaraka'));
      expect(step?.detail).toContain(ARTICLE[id].mushtaraka);
      expect(step?.detail).not.toContain('Hanafi');
    });
  }

  it('a full sister beside the full brother shares equally with him, male and female alike', () => {
    const r = run({
      heirs: { husband: 1, mother: 1, maternalHalfBrother: 1, maternalHalfSister: 1, fullBrother: 1, fullSister: 1 },
      jurisdiction: 'sy',
    });
    expect(frac(r)).toEqual({
      husband: '1/2',
      mother: '1/6',
      fullBrother: '1/12',
      fullSister: '1/12',
      maternalHalfBrother: '1/12',
      maternalHalfSister: '1/12',
    });
  });

  it('leaves the Hanafi default and the Hanbali school of Saudi Arabia their answer: the full brother takes nothing', () => {
    for (const jurisdiction of [undefined, 'sa'] as const) {
      const r = run({
        heirs: { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 },
        ...(jurisdiction ? { jurisdiction } : {}),
      });
      expect(frac(r)).toEqual({ husband: '1/2', mother: '1/6', fullBrother: '0/1', maternalHalfBrother: '1/3' });
    }
  });
});
