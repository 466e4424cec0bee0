import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateFaraid, computeShares, type FaraidInput, type FaraidResult } from '../../../src/law/faraid/index.js';
import { startTestServer, type TestServer } from '../../helpers.js';

// Worked cases of the Ja'fari (Twelver Shia) school as the Iranian Civil Code (arts. 861-949) codifies it. Each case
// cites the article (text of the Civil Code as published, e.g. wikihoghoogh.net / iranianadl.ir) or the commentary:
// M. J. Mughniyya, "Inheritance according to the Five Schools of Islamic Law" (al-islam.org), chapters "Al-Ta'sib"
// and "'Awl"; Ibn Babawayh al-Saduq, al-Muqni', bab al-mawarith (the husband, daughter and parents case).

const J = (heirs: FaraidInput['heirs'], extra: Partial<FaraidInput> = {}): FaraidResult =>
  calculateFaraid({ heirs, madhhab: 'jafari', ...extra });
const fractions = (r: FaraidResult) => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const excluded = (r: FaraidResult) => r.excluded.map((e) => e.heir);
const totalBp = (r: FaraidResult) => r.shares.reduce((a, s) => a + s.basisPoints, 0) + (r.treasury?.basisPoints ?? 0);

describe("Ja'fari: the classes (arts. 862, 863)", () => {
  it('mother and one full brother: the mother takes everything (arts. 862, 863, 906)', () => {
    const r = J({ mother: 1, fullBrother: 1 });
    expect(fractions(r)).toEqual({ mother: '1/1' });
    expect(excluded(r)).toEqual(['fullBrother']);
    expect(r.radd).toBe(true);
    expect(r.madhhab).toBe('jafari');
    // The Sunni answer differs: the brother is a residuary.
    expect(fractions(calculateFaraid({ heirs: { mother: 1, fullBrother: 1 } }))).toEqual({
      mother: '1/3',
      fullBrother: '2/3',
    });
  });

  it("a daughter excludes a full brother and a paternal uncle: she takes all by radd (arts. 863, 907; Mughniyya, Al-Ta'sib)", () => {
    const r = J({ daughter: 1, fullBrother: 2, fullPaternalUncle: 1 });
    expect(fractions(r)).toEqual({ daughter: '1/1' });
    expect(excluded(r)).toEqual(['fullBrother', 'fullPaternalUncle']);
  });

  it('a sister excludes the paternal uncle (Mughniyya, Al-Ta\'sib: "the nearer excludes the remote")', () => {
    const r = J({ fullSister: 1, fullPaternalUncle: 3 });
    expect(fractions(r)).toEqual({ fullSister: '1/1' });
    expect(r.radd).toBe(true);
    expect(J({ fullBrother: 1, fullSister: 1 }).radd).toBe(false);
  });
});

describe("Ja'fari: class 1, parents and descendants (arts. 892, 906-913)", () => {
  it('father, mother and a daughter: 1/6, 1/6, 1/2 and the 1/6 left by radd in proportion: 1/5, 1/5, 3/5 (art. 908)', () => {
    expect(fractions(J({ father: 1, mother: 1, daughter: 1 }))).toEqual({
      daughter: '3/5',
      father: '1/5',
      mother: '1/5',
    });
  });

  it('the same with two brothers of the deceased: the mother has a hajib and no part of the radd (arts. 892(b), 908)', () => {
    const r = J({ father: 1, mother: 1, daughter: 1, fullBrother: 2 });
    // The 1/6 left goes to the father and the daughter as 1:3.
    expect(fractions(r)).toEqual({ daughter: '5/8', father: '5/24', mother: '1/6' });
  });

  it('father, mother and two brothers, no child: mother 1/6, father 5/6 (arts. 892(b), 906)', () => {
    expect(fractions(J({ father: 1, mother: 1, fullBrother: 2 }))).toEqual({ father: '5/6', mother: '1/6' });
  });

  it('one brother is not a hajib: mother 1/3, father 2/3 (art. 892(b) needs two brothers)', () => {
    expect(fractions(J({ father: 1, mother: 1, fullBrother: 1 }))).toEqual({ father: '2/3', mother: '1/3' });
  });

  it('a daughter alone takes everything by radd (art. 907)', () => {
    const r = J({ daughter: 1 });
    expect(fractions(r)).toEqual({ daughter: '1/1' });
    expect(r.radd).toBe(true);
  });

  it('husband and two daughters: 1/4 and 3/4, the spouse outside the radd (arts. 909, 913)', () => {
    expect(fractions(J({ husband: 1, daughter: 2 }))).toEqual({ husband: '1/4', daughter: '3/4' });
  });

  it("husband, parents and a daughter: no 'awl, the daughter takes 5/12 (al-Saduq, al-Muqni'; Mughniyya, 'Awl)", () => {
    const r = J({ husband: 1, father: 1, mother: 1, daughter: 1 });
    expect(fractions(r)).toEqual({ husband: '1/4', daughter: '5/12', father: '1/6', mother: '1/6' });
    expect(r.awl).toBe(false);
    expect(totalBp(r)).toBe(10000);
    // Sunni law raises the base instead ('awl): every share shrinks proportionally.
    const sunni = calculateFaraid({ heirs: { husband: 1, father: 1, mother: 1, daughter: 1 } });
    expect(sunni.awl).toBe(true);
  });

  it('wife, parents, a son and a daughter: 1/8, 1/6, 1/6, the rest 2:1 (arts. 907, 913)', () => {
    expect(fractions(J({ wife: 1, father: 1, mother: 1, son: 1, daughter: 1 }))).toEqual({
      wife: '1/8',
      son: '13/36',
      daughter: '13/72',
      father: '1/6',
      mother: '1/6',
    });
  });

  it("a son's children take their father's place with the mother, males twice females (arts. 889, 911)", () => {
    expect(fractions(J({ mother: 1, sonsSon: 1, sonsDaughter: 1 }))).toEqual({
      sonsSon: '5/9',
      sonsDaughter: '5/18',
      mother: '1/6',
    });
  });

  it("a daughter excludes the son's children: nearer degree (art. 889)", () => {
    const r = J({ daughter: 1, sonsSon: 2 });
    expect(fractions(r)).toEqual({ daughter: '1/1' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'sonsSon', by: 'daughter' })]);
  });

  it('husband, father and mother: 1/2, mother 1/3 of the whole, father 1/6 (arts. 906, 913)', () => {
    expect(fractions(J({ husband: 1, father: 1, mother: 1 }))).toEqual({
      husband: '1/2',
      father: '1/6',
      mother: '1/3',
    });
  });

  it('husband and mother: the mother takes 1/3 and the 1/6 left by radd (art. 906)', () => {
    expect(fractions(J({ husband: 1, mother: 1 }))).toEqual({ husband: '1/2', mother: '1/2' });
  });
});

describe("Ja'fari: class 2, grandparents and siblings (arts. 917-927)", () => {
  it('paternal grandfather and a full brother share as two brothers: 1/2 each (art. 924)', () => {
    expect(fractions(J({ paternalGrandfather: 1, fullBrother: 1 }))).toEqual({
      paternalGrandfather: '1/2',
      fullBrother: '1/2',
    });
  });

  it('one maternal half-brother takes 1/6, the full brother and sister 5/6 as 2:1 (art. 922)', () => {
    expect(fractions(J({ maternalHalfBrother: 1, fullBrother: 1, fullSister: 1 }))).toEqual({
      fullBrother: '5/9',
      fullSister: '5/18',
      maternalHalfBrother: '1/6',
    });
  });

  it('two maternal half-sisters take 1/3 equally, the full sister the rest (art. 922)', () => {
    expect(fractions(J({ maternalHalfSister: 2, fullSister: 1 }))).toEqual({
      fullSister: '2/3',
      maternalHalfSister: '1/3',
    });
  });

  it('maternal grandmother 1/3, paternal grandfather 2/3 (art. 923)', () => {
    expect(fractions(J({ maternalGrandmother: 1, paternalGrandfather: 1 }))).toEqual({
      paternalGrandfather: '2/3',
      maternalGrandmother: '1/3',
    });
  });

  it("husband, a maternal half-brother and two full sisters: the father's side bears the shortfall (arts. 922, 941)", () => {
    const r = J({ husband: 1, maternalHalfBrother: 1, fullSister: 2 });
    expect(fractions(r)).toEqual({ husband: '1/2', fullSister: '1/3', maternalHalfBrother: '1/6' });
    expect(r.awl).toBe(false);
  });

  it('wife, paternal grandfather and maternal grandmother: 1/4, 5/12, 1/3 (arts. 923, 941)', () => {
    expect(fractions(J({ wife: 1, paternalGrandfather: 1, maternalGrandmother: 1 }))).toEqual({
      wife: '1/4',
      paternalGrandfather: '5/12',
      maternalGrandmother: '1/3',
    });
  });

  it("full brothers' sons stand in for their father beside the grandfather (art. 925)", () => {
    const r = J({ paternalGrandfather: 1, fullBrothersSon: 3 });
    expect(fractions(r)).toEqual({ paternalGrandfather: '1/2', fullBrothersSon: '1/2' });
    expect(r.steps.some((s) => s.detail.includes('art. 925'))).toBe(true);
  });

  it('full siblings exclude paternal half-siblings (art. 887)', () => {
    const r = J({ fullSister: 1, paternalHalfBrother: 1 });
    expect(fractions(r)).toEqual({ fullSister: '1/1' });
    expect(excluded(r)).toEqual(['paternalHalfBrother']);
  });
});

describe("Ja'fari: class 3 and the spouse alone (arts. 928-931, 938, 949)", () => {
  it('wife and paternal uncles: 1/4, 3/4; the full uncle excludes the paternal half uncle (arts. 930, 938)', () => {
    const r = J({ wife: 1, fullPaternalUncle: 2, paternalHalfPaternalUncle: 1 });
    expect(fractions(r)).toEqual({ wife: '1/4', fullPaternalUncle: '3/4' });
    expect(excluded(r)).toEqual(['paternalHalfPaternalUncle']);
  });

  it('the husband alone takes everything (art. 949)', () => {
    const r = J({ husband: 1 });
    expect(fractions(r)).toEqual({ husband: '1/1' });
    expect(r.treasury).toBeUndefined();
  });

  it('the wife alone keeps 1/4 and 3/4 goes to the state (arts. 949, 866), unless spouseRadd is set', () => {
    const r = J({ wife: 1 });
    expect(fractions(r)).toEqual({ wife: '1/4' });
    expect(r).toMatchObject({ spouseRadd: false, treasury: { fraction: '3/4', basisPoints: 7500 } });
    expect(r.steps.some((s) => s.detail.includes('art. 949'))).toBe(true);
    expect(fractions(J({ wife: 1 }, { spouseRadd: true }))).toEqual({ wife: '1/1' });
  });

  it("the engine called directly (the plan checks) keeps the Ja'fari wife-alone rule unless told otherwise", () => {
    expect(computeShares({ wife: 1 }, 'jafari').treasury?.toString()).toBe('3/4');
    expect(computeShares({ wife: 1 }, 'jafari', { spouseRadd: true }).treasury).toBeUndefined();
    expect(computeShares({ wife: 1 }, 'hanafi').treasury).toBeUndefined();
  });

  it('every answer sums to 10000 basis points with steps citing the Civil Code', () => {
    for (const heirs of [
      { wife: 2, son: 1, daughter: 3, mother: 1 },
      { husband: 1, daughter: 3, father: 1 },
      { maternalHalfBrother: 2, paternalGrandmother: 1, fullSister: 3 },
      { wife: 4 },
    ] as FaraidInput['heirs'][]) {
      const r = J(heirs);
      expect(totalBp(r)).toBe(10000);
      expect(r.steps[0]).toEqual({
        kind: 'madhhab',
        detail: "School: Ja'fari, set by the request.",
      });
      expect(r.steps.some((s) => /arts?\. \d{3}/.test(s.detail))).toBe(true);
    }
  });
});

describe("Ja'fari over REST", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });
  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${server.adminKey}` }, payload });

  it("calculate_inheritance answers with madhhab 'jafari'", async () => {
    const res = await post('/api/v1/inheritance/calculate', {
      heirs: { mother: 1, fullBrother: 1 },
      madhhab: 'jafari',
      jurisdiction: 'ir',
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      madhhab: 'jafari',
      shares: [{ heir: 'mother', fraction: '1/1', basisPoints: 10000 }],
    });
    expect(data.excluded).toEqual([expect.objectContaining({ heir: 'fullBrother', by: 'mother' })]);
  });

  it("check_plan checks a plan against the Ja'fari shares", async () => {
    const plan = {
      jurisdiction: 'ir',
      template: 'islamic-mirth',
      madhhab: 'jafari',
      beneficiaries: [{ name: 'M', percentage: 100, relationship: 'mother' }],
      otherHeirs: { fullBrother: 1 },
    };
    const res = await post('/api/v1/inheritance/check', plan);
    expect(res.statusCode, res.body).toBe(200);
    const sunni = (await post('/api/v1/inheritance/check', { ...plan, madhhab: 'hanafi' })).json().data;
    expect(res.json().data).toMatchObject({
      ok: true,
      expected: [{ beneficiaryIndex: 0, heir: 'mother', expectedPercentage: '100.00' }],
    });
    expect(sunni.ok).toBe(false);
    const wife = (
      await post('/api/v1/inheritance/check', {
        jurisdiction: 'ir',
        template: 'islamic-mirth',
        madhhab: 'jafari',
        beneficiaries: [{ name: 'W', percentage: 100, relationship: 'wife' }],
      })
    ).json().data;
    expect(wife).toMatchObject({ ok: false, spouseRadd: false });
  });
});

describe("Ja'fari: one side of class 2 alone, with a spouse (arts. 917-923; no 'awl)", () => {
  const sideStep = (r: FaraidResult) => r.steps.find((s) => /only the (father|mother)'s side is alive/.test(s.detail))!;

  it("husband and two full sisters: 1/2 and 2/3 exceed the estate; the sisters bear the shortfall, no radd and no 'awl", () => {
    const r = J({ husband: 1, fullSister: 2 });
    expect(fractions(r)).toEqual({ husband: '1/2', fullSister: '1/2' });
    expect(r.radd).toBe(false);
    expect(r.awl).toBe(false);
    expect(sideStep(r)).toEqual({
      kind: 'special-case',
      detail:
        "Class 2: only the father's side is alive (2 full sisters); its share, 2/3, is more than the 1/2 left after the spouse's share; there is no 'awl, so it bears the shortfall and takes 1/2 (arts. 917-923).",
    });
    for (const s of r.steps) expect(s.detail).not.toMatch(/one side only|all the spouse leaves/);
  });

  it('husband and one full sister: her 1/2 is just what is left, neither radd nor shortfall', () => {
    const r = J({ husband: 1, fullSister: 1 });
    expect(fractions(r)).toEqual({ husband: '1/2', fullSister: '1/2' });
    expect(r.radd).toBe(false);
    expect(sideStep(r).kind).toBe('residuary');
  });

  it('wife and two full sisters, or the mother’s side with a husband: the surplus over the share returns by radd', () => {
    const sisters = J({ wife: 1, fullSister: 2 });
    expect(fractions(sisters)).toEqual({ wife: '1/4', fullSister: '3/4' });
    expect(sisters.radd).toBe(true);
    expect(sideStep(sisters).detail).toContain('its share is 2/3, and the 1/12 over it returns to it by radd');
    const maternal = J({ husband: 1, maternalHalfBrother: 2 });
    expect(maternal.radd).toBe(true);
    expect(sideStep(maternal).detail).toContain("only the mother's side is alive (2 maternal half-brothers)");
    // A brother inherits by kinship, not by a share: no radd.
    expect(J({ wife: 1, fullBrother: 1, fullSister: 1 }).radd).toBe(false);
  });
});
