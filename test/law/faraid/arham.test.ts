import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { calculateFaraid, type FaraidResult, type HeirKey, type Madhhab } from '../../../src/law/faraid/index.js';

/**
 * Distant kindred (dhawu al-arham) who inherit in the Sunni schools: no
 * sharer or residuary survives, a spouse aside. Worked cases, each with its
 * authority:
 *  - SIRAJIYYAH: al-Sajawandi, Al-Sirajiyyah (tr. Rumsey), ch. on distant
 *    kindred (Hanafi: four classes in order; in the first class a male twice a
 *    female; in the fourth, the father's side two thirds and the mother's one
 *    third; on one side the stronger kinship first).
 *  - SYRIA: Personal Status Law (Legislative Decree 59 of 1953), which codifies
 *    the Hanafi method: art. 288(2) (radd to a spouse only when no distant
 *    kinsman survives), art. 296(3) (both sides: two thirds to the father's,
 *    one third to the mother's), art. 297 (a male twice a female; one alone
 *    takes all); text quoted at shamela.ws/book/7455/263 and /317.
 *  - MUGHNI: Ibn Qudama, al-Mughni, bab dhawi al-arham (tanzil: each in the
 *    place of the heir through whom he is related; the paternal aunt as the
 *    father, the maternal uncle and aunt and the mother's father as the mother,
 *    a daughter's child as the daughter); al-Nawawi, Rawdat al-Talibin, for the
 *    later Shafi'i adoption of tanzil where no regular treasury exists.
 */

const SIRAJIYYAH = 'Al-Sirajiyyah, ch. on distant kindred';
const SYRIA = 'Syrian Personal Status Law';
const MUGHNI = 'Ibn Qudama, al-Mughni, bab dhawi al-arham';

type Heirs = Partial<Record<HeirKey, number>>;
const fractions = (r: FaraidResult): Record<string, string> =>
  Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const excludedBy = (r: FaraidResult): Record<string, string> =>
  Object.fromEntries(r.excluded.map((e) => [e.heir, e.by]));

interface Case {
  name: string;
  source: string;
  heirs: Heirs;
  madhhab: Madhhab;
  shares: Record<string, string>;
  excluded?: Record<string, string>;
}

const HANAFI: Case[] = [
  {
    name: "a daughter's son and a daughter's daughter: a male twice a female",
    source: `${SIRAJIYYAH} (first class); ${SYRIA} art. 297(1)`,
    heirs: { daughtersSon: 1, daughtersDaughter: 1 },
    madhhab: 'hanafi',
    shares: { daughtersSon: '2/3', daughtersDaughter: '1/3' },
  },
  {
    name: 'a maternal uncle alone takes everything',
    source: `${SYRIA} art. 297(2)`,
    heirs: { maternalUncle: 1 },
    madhhab: 'hanafi',
    shares: { maternalUncle: '1/1' },
  },
  {
    name: "a paternal aunt and a maternal uncle: two thirds to the father's side, one third to the mother's",
    source: `${SIRAJIYYAH} (fourth class); ${SYRIA} art. 296(3)`,
    heirs: { fullPaternalAunt: 1, maternalUncle: 1 },
    madhhab: 'hanafi',
    shares: { fullPaternalAunt: '2/3', maternalUncle: '1/3' },
  },
  {
    name: "two paternal aunts, a maternal uncle and a maternal aunt: 2/3; the mother's side 1/3, the uncle twice the aunt",
    source: `${SYRIA} arts. 296(3), 297(1)`,
    heirs: { fullPaternalAunt: 2, maternalUncle: 1, maternalAunt: 1 },
    madhhab: 'hanafi',
    shares: { fullPaternalAunt: '2/3', maternalUncle: '2/9', maternalAunt: '1/9' },
  },
  {
    name: "a wife and two daughter's sons: the wife her full quarter, no radd to her; the rest to them",
    source: `${SYRIA} art. 288(2); ${SIRAJIYYAH}`,
    heirs: { wife: 1, daughtersSon: 2 },
    madhhab: 'hanafi',
    shares: { wife: '1/4', daughtersSon: '3/4' },
  },
  {
    name: 'a husband and a maternal aunt: the husband his half, the aunt the rest',
    source: `${SYRIA} art. 288(2)`,
    heirs: { husband: 1, maternalAunt: 1 },
    madhhab: 'hanafi',
    shares: { husband: '1/2', maternalAunt: '1/2' },
  },
  {
    name: "a daughter's son and the maternal grandfather: the first class excludes the second",
    source: `${SIRAJIYYAH} (the classes in order)`,
    heirs: { daughtersSon: 1, maternalGrandfather: 1 },
    madhhab: 'hanafi',
    shares: { daughtersSon: '1/1' },
    excluded: { maternalGrandfather: 'daughtersSon' },
  },
  {
    name: 'the maternal grandfather and a maternal uncle: the second class excludes the fourth',
    source: `${SIRAJIYYAH} (the classes in order)`,
    heirs: { maternalGrandfather: 1, maternalUncle: 2 },
    madhhab: 'hanafi',
    shares: { maternalGrandfather: '1/1' },
    excluded: { maternalUncle: 'maternalGrandfather' },
  },
  {
    name: 'a full paternal aunt and a paternal half paternal aunt: the stronger kinship excludes the weaker',
    source: `${SIRAJIYYAH} (fourth class, one side)`,
    heirs: { fullPaternalAunt: 1, paternalHalfPaternalAunt: 1 },
    madhhab: 'hanafi',
    shares: { fullPaternalAunt: '1/1' },
    excluded: { paternalHalfPaternalAunt: 'fullPaternalAunt' },
  },
];

const TANZIL: Case[] = [
  {
    name: 'a paternal aunt and a maternal uncle: the aunt as the father 2/3, the uncle as the mother 1/3',
    source: MUGHNI,
    heirs: { fullPaternalAunt: 1, maternalUncle: 1 },
    madhhab: 'hanbali',
    shares: { fullPaternalAunt: '2/3', maternalUncle: '1/3' },
  },
  {
    name: "a daughter's son and a maternal uncle: as a daughter (1/2) and a mother (1/6), by radd 3/4 and 1/4",
    source: `${MUGHNI} (unlike the Hanafi classes, where the daughter's son takes all)`,
    heirs: { daughtersSon: 1, maternalUncle: 1 },
    madhhab: 'hanbali',
    shares: { daughtersSon: '3/4', maternalUncle: '1/4' },
  },
  {
    name: "a daughter's son, a paternal aunt and a maternal uncle: as daughter 1/2, father 1/6 and the rest (1/3), mother 1/6",
    source: MUGHNI,
    heirs: { daughtersSon: 1, fullPaternalAunt: 1, maternalUncle: 1 },
    madhhab: 'hanbali',
    shares: { daughtersSon: '1/2', fullPaternalAunt: '1/3', maternalUncle: '1/6' },
  },
  {
    name: 'a husband and a paternal aunt: the husband his half, the aunt (as the father) the rest',
    source: MUGHNI,
    heirs: { husband: 1, fullPaternalAunt: 1 },
    madhhab: 'shafii',
    shares: { husband: '1/2', fullPaternalAunt: '1/2' },
  },
  {
    name: "a wife, the maternal grandfather and a paternal aunt: 1/4; of the rest the mother's third and the father's two thirds",
    source: MUGHNI,
    heirs: { wife: 1, maternalGrandfather: 1, fullPaternalAunt: 1 },
    madhhab: 'maliki',
    shares: { wife: '1/4', maternalGrandfather: '1/4', fullPaternalAunt: '1/2' },
  },
  {
    name: "two maternal aunts share the mother's place equally",
    source: MUGHNI,
    heirs: { maternalAunt: 2 },
    madhhab: 'hanbali',
    shares: { maternalAunt: '1/1' },
  },
];

describe('distant kindred who inherit (Sunni schools)', () => {
  describe.each([...HANAFI, ...TANZIL].map((c) => [`${c.madhhab}: ${c.name}`, c] as const))('%s', (_n, c) => {
    it(`gives the shares of ${c.source}`, () => {
      const r = calculateFaraid({ heirs: c.heirs, madhhab: c.madhhab });
      expect(fractions(r)).toEqual(c.shares);
      expect(excludedBy(r)).toEqual(c.excluded ?? {});
      expect(r.specialCases).toContain('distant-kindred');
      expect(r.shares.reduce((a, s) => a + s.basisPoints, 0)).toBe(10000);
      expect(r.steps.some((s) => s.detail.includes(c.madhhab === 'hanafi' ? 'ahl al-qaraba' : 'tanzil'))).toBe(true);
    });
  });

  it("the Hanafi classes and tanzil part ways on a daughter's son beside a maternal uncle", () => {
    const heirs = { daughtersSon: 1, maternalUncle: 1 };
    expect(fractions(calculateFaraid({ heirs, madhhab: 'hanafi' }))).toEqual({ daughtersSon: '1/1' });
    for (const madhhab of ['maliki', 'shafii', 'hanbali'] as const)
      expect(fractions(calculateFaraid({ heirs, madhhab }))).toEqual({ daughtersSon: '3/4', maternalUncle: '1/4' });
  });

  it("the Maliki and Shafi'i steps say tanzil is the later doctrine, the early one giving the estate to the treasury", () => {
    for (const madhhab of ['maliki', 'shafii'] as const) {
      const r = calculateFaraid({ heirs: { maternalUncle: 1 }, madhhab });
      expect(r.steps.some((s) => s.detail.includes('later doctrine') && s.detail.includes('treasury'))).toBe(true);
    }
  });

  it('refuses tanzil where the counts do not decide it, naming the field; the Hanafi method still computes', () => {
    const undecided: Heirs[] = [
      { daughtersSon: 1, daughtersDaughter: 1 },
      { daughtersSon: 3 },
      { maternalGrandfather: 1, maternalUncle: 1 },
      { wife: 1, maternalUncle: 1, maternalAunt: 1 },
      { fullPaternalAunt: 1, paternalHalfPaternalAunt: 1 },
    ];
    for (const heirs of undecided) {
      for (const madhhab of ['maliki', 'shafii', 'hanbali'] as const) {
        let err: unknown;
        try {
          calculateFaraid({ heirs, madhhab });
        } catch (e) {
          err = e;
        }
        expect(err, JSON.stringify(heirs)).toBeInstanceOf(ApiError);
        expect((err as ApiError).details?.[0]?.field).toMatch(/^heirs\./);
        expect((err as ApiError).details?.[0]?.reason).toContain('tanzil');
      }
      const r = calculateFaraid({ heirs, madhhab: 'hanafi' });
      expect(r.specialCases).toContain('distant-kindred');
    }
    // Two daughter's sons take the same from one daughter or two: decided.
    expect(fractions(calculateFaraid({ heirs: { daughtersSon: 2 }, madhhab: 'hanbali' }))).toEqual({
      daughtersSon: '1/1',
    });
  });

  it('a jurisdiction applies its school: Egypt (Hanafi) computes the classes; Morocco (Maliki) tanzil', () => {
    const heirs = { wife: 1, daughtersSon: 1, maternalUncle: 1 };
    expect(fractions(calculateFaraid({ heirs, jurisdiction: 'eg' }))).toEqual({ wife: '1/4', daughtersSon: '3/4' });
    expect(fractions(calculateFaraid({ heirs, jurisdiction: 'ma' }))).toEqual({
      wife: '1/4',
      daughtersSon: '9/16',
      maternalUncle: '3/16',
    });
  });

  it('beside any sharer or residuary they still take nothing', () => {
    const r = calculateFaraid({ heirs: { wife: 1, fullBrother: 1, maternalUncle: 1 }, madhhab: 'hanafi' });
    expect(fractions(r)).toEqual({ wife: '1/4', fullBrother: '3/4' });
    expect(excludedBy(r)).toEqual({ maternalUncle: 'fullBrother' });
    expect(r.specialCases).not.toContain('distant-kindred');
  });
});
