import { describe, expect, it } from 'vitest';
import { calculateFaraid, type FaraidInput, type FaraidResult } from '../../../src/law/faraid/index.js';

// The national codes of Syria, Jordan, Algeria and Iraq as the jurisdiction records carry them, worked by hand from
// the articles cited in each case:
// - Syria, Personal Status Law (Legislative Decree No. 59 of 1953), art. 257 (obligatory bequest to the children of a
//   predeceased son however low, "the share their father would have inherited ... not exceeding one third") and
//   art. 288 (radd to a spouse when no relative by blood survives);
// - Jordan, Personal Status Law No. 15 of 2019, art. 279 (the same bequest, a son's children only: the joint session
//   of April 2019 declined to add a daughter's children);
// - Algeria, Family Code (Law No. 84-11 of 1984), arts. 169-172 (tanzil of grandchildren within one third) and
//   art. 167 (radd to a spouse);
// - Iraq, Personal Status Law No. 188 of 1959, art. 74 (a predeceased son or daughter treated as alive, its share
//   passing to its children within one third), art. 90 (the deceased's school) and art. 91(2) (daughters take the
//   remainder by radd).

const frac = (r: FaraidResult): Record<string, string> => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const run = (input: FaraidInput): FaraidResult => {
  const r = calculateFaraid(input);
  expect(r.shares.reduce((a, s) => a + s.basisPoints, 0) + (r.treasury?.basisPoints ?? 0)).toBe(10000);
  return r;
};
const male = (sons: number, daughters = 0) => ({ sex: 'male' as const, sons, daughters });
const female = (sons: number, daughters = 0) => ({ sex: 'female' as const, sons, daughters });
const statuteSteps = (r: FaraidResult) =>
  r.steps
    .filter((s) => s.kind === 'statute')
    .map((s) => s.detail)
    .join(' ');

describe("Syria and Jordan: the obligatory bequest for a predeceased son's children (Syria art. 257, Jordan art. 279)", () => {
  for (const [id, article] of [
    ['sy', 'art. 257'],
    ['jo', 'art. 279'],
  ] as const) {
    it(`${id}: one son and the son of a predeceased son: the grandson 1/3 (his father's 1/2, capped), the son 2/3`, () => {
      const r = run({ heirs: { son: 1 }, jurisdiction: id, predeceasedChildren: [male(1)] });
      expect(frac(r)).toEqual({ son: '2/3', grandchild_son_of_predeceased_son_1: '1/3' });
      expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', uncappedFraction: '1/2', capped: true });
      expect(r.obligatoryBequest!.source).toContain(article);
      expect(r.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'jurisdiction' });
    });

    it(`${id}: a predeceased daughter's children take nothing; the code covers a son's children only`, () => {
      const r = run({ heirs: { son: 1 }, jurisdiction: id, predeceasedChildren: [female(1)] });
      expect(frac(r)).toEqual({ son: '1/1' });
      expect(r.obligatoryBequest).toMatchObject({ fraction: '0/1', capped: false });
      expect(statuteSteps(r)).toContain('covers only the children of a predeceased son');
    });
  }

  it("sy: a son and a daughter and a predeceased son's son and daughter: the father's 2/5 within the cap, split 2:1", () => {
    // Had the predeceased son lived: two sons and a daughter, each son 2/5. 2/5 exceeds 1/3: cut to 1/3.
    const r = run({ heirs: { son: 1, daughter: 1 }, jurisdiction: 'sy', predeceasedChildren: [male(1, 1)] });
    expect(frac(r)).toEqual({
      son: '4/9',
      daughter: '2/9',
      grandchild_son_of_predeceased_son_1: '2/9',
      grandchild_daughter_of_predeceased_son_1: '1/9',
    });
  });
});

describe("Syria art. 257(b): only grandchildren who are not heirs of their father's parent take the bequest", () => {
  it("two daughters exclude a predeceased son's daughters, who then take their father's share within one third", () => {
    // Had the son lived: two daughters and a son, the son 1/2, cut to 1/3; the rest 2/3 as inheritance.
    const r = run({ heirs: { daughter: 2, fullBrother: 1 }, jurisdiction: 'sy', predeceasedChildren: [male(0, 2)] });
    expect(frac(r)).toEqual({ daughter: '4/9', fullBrother: '2/9', grandchild_daughter_of_predeceased_son_1: '1/3' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', capped: true });
  });

  it("beside one daughter the son's daughter inherits 1/6, so she is an heir and takes no bequest", () => {
    const r = run({ heirs: { daughter: 1, fullBrother: 1 }, jurisdiction: 'sy', predeceasedChildren: [male(0, 1)] });
    expect(frac(r)).toEqual({ daughter: '1/2', sonsDaughter: '1/6', fullBrother: '1/3' });
    expect(statuteSteps(r)).toContain('bequest is only for grandchildren who are not heirs');
  });
});

describe('Algeria: tanzil (Family Code arts. 169-172), Maliki base', () => {
  it("a son and a predeceased daughter's son: the daughter's 1/3 had she lived, within the cap; the son 2/3", () => {
    const r = run({ heirs: { son: 1 }, jurisdiction: 'dz', predeceasedChildren: [female(1)] });
    expect(frac(r)).toEqual({ son: '2/3', grandchild_son_of_predeceased_daughter_1: '1/3' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '1/3', capped: false });
    expect(r.school.madhhab).toBe('maliki');
  });

  it("a daughter and a predeceased son's children: they inherit as residuaries (1/2 between them), so no tanzil", () => {
    const r = run({ heirs: { daughter: 1 }, jurisdiction: 'dz', predeceasedChildren: [male(1, 1)] });
    expect(frac(r)).toEqual({ daughter: '1/2', sonsSon: '1/3', sonsDaughter: '1/6' });
    expect(statuteSteps(r)).toContain('bequest is only for grandchildren who are not heirs');
  });
});

describe("Iraq: the deceased's school (art. 90), daughters' radd (art. 91(2)), obligatory bequest (art. 74)", () => {
  it("Ja'fari by default: a son and a predeceased daughter's daughter: her mother's 1/3 had she lived; the son 2/3", () => {
    const r = run({ heirs: { son: 1 }, jurisdiction: 'iq', predeceasedChildren: [female(0, 1)] });
    expect(r.madhhab).toBe('jafari');
    expect(frac(r)).toEqual({ son: '2/3', grandchild_daughter_of_predeceased_daughter_1: '1/3' });
  });

  it("Ja'fari, no child alive: the predeceased daughter's son is an heir in her place (father 1/4, he 3/4), no bequest", () => {
    const r = run({ heirs: { father: 1 }, jurisdiction: 'iq', predeceasedChildren: [female(1)] });
    expect(frac(r)).toEqual({ daughtersSon: '3/4', father: '1/4' });
    expect(statuteSteps(r)).toContain("they inherit as the deceased's daughters' children");
  });

  it('a Sunni deceased (madhhab hanafi): a daughter takes all by radd beside a full brother (art. 91(2)); in Egypt 1/2 each', () => {
    const r = run({ heirs: { daughter: 1, fullBrother: 2 }, jurisdiction: 'iq', madhhab: 'hanafi' });
    expect(frac(r)).toEqual({ daughter: '1/1' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'fullBrother', by: 'daughter' })]);
    expect(r.school.note).toContain("Ja'fari");
    expect(frac(run({ heirs: { daughter: 1, fullBrother: 2 }, jurisdiction: 'eg' }))).toEqual({
      daughter: '1/2',
      fullBrother: '1/2',
    });
  });
});

describe('a spouse as the only heir, by the jurisdiction record', () => {
  const raddStep = (r: FaraidResult) =>
    r.steps
      .filter((s) => s.kind === 'radd')
      .map((s) => s.detail)
      .join(' ');

  it('Syria: the wife takes the whole by radd (art. 288)', () => {
    const r = run({ heirs: { wife: 1 }, jurisdiction: 'sy' });
    expect(frac(r)).toEqual({ wife: '1/1' });
    expect(r.spouseRadd).toBe(true);
    expect(raddStep(r)).toContain('art. 288');
  });

  it('Algeria: the husband takes the whole by radd (art. 167)', () => {
    const r = run({ heirs: { husband: 1 }, jurisdiction: 'dz' });
    expect(frac(r)).toEqual({ husband: '1/1' });
    expect(raddStep(r)).toContain('art. 167');
  });

  it('Jordan records no setting: the default applies and the step says so; the request can choose the treasury', () => {
    const r = run({ heirs: { wife: 1 }, jurisdiction: 'jo' });
    expect(frac(r)).toEqual({ wife: '1/1' });
    expect(raddStep(r)).toContain('nothing is recorded for Jordan');
    const classical = run({ heirs: { wife: 1 }, jurisdiction: 'jo', spouseRadd: false });
    expect(frac(classical)).toEqual({ wife: '1/4' });
    expect(classical.treasury?.fraction).toBe('3/4');
  });

  it("Iraq (Ja'fari by default): the wife alone keeps 1/4, the husband alone takes all", () => {
    const wife = run({ heirs: { wife: 1 }, jurisdiction: 'iq' });
    expect(frac(wife)).toEqual({ wife: '1/4' });
    expect(wife.treasury?.fraction).toBe('3/4');
    expect(frac(run({ heirs: { husband: 1 }, jurisdiction: 'iq' }))).toEqual({ husband: '1/1' });
  });
});

describe("Pakistan: representation of a predeceased child's children (Muslim Family Laws Ordinance 1961, s. 4)", () => {
  // s. 4: "the children of such son or daughter ... shall per stirpes receive a share equivalent to the share which
  // such son or daughter, as the case may be, would have received if alive".

  it("a daughter and a predeceased son's son: he takes his father's 2/3, the daughter 1/3 (classically 1/2 each)", () => {
    const r = run({ heirs: { daughter: 1 }, jurisdiction: 'pk', predeceasedChildren: [male(1)] });
    expect(frac(r)).toEqual({ daughter: '1/3', grandchild_son_of_predeceased_son_1: '2/3' });
    expect(r.obligatoryBequest).toMatchObject({ fraction: '2/3', capped: false });
    expect(r.obligatoryBequest!.source).toContain('s. 4');
    expect(frac(run({ heirs: { daughter: 1, sonsSon: 1 }, madhhab: 'hanafi' }))).toEqual({
      daughter: '1/2',
      sonsSon: '1/2',
    });
  });

  it('no cap: a son and two predeceased sons, each with a son: 1/3 to each line (Egypt would cap the two at 1/3)', () => {
    const r = run({ heirs: { son: 1 }, jurisdiction: 'pk', predeceasedChildren: [male(1), male(1)] });
    expect(frac(r)).toEqual({
      son: '1/3',
      grandchild_son_of_predeceased_son_1: '1/3',
      grandchild_son_of_predeceased_son_2: '1/3',
    });
    const eg = run({ heirs: { son: 1 }, jurisdiction: 'eg', predeceasedChildren: [male(1), male(1)] });
    expect(eg.obligatoryBequest).toMatchObject({ fraction: '1/3', capped: true });
  });

  it("a wife and a predeceased son's son and daughter beside a brother: the wife keeps 1/8 as beside a son, the line 7/8", () => {
    const r = run({ heirs: { wife: 1, fullBrother: 1 }, jurisdiction: 'pk', predeceasedChildren: [male(1, 1)] });
    expect(frac(r)).toEqual({
      wife: '1/8',
      grandchild_son_of_predeceased_son_1: '7/12',
      grandchild_daughter_of_predeceased_son_1: '7/24',
    });
    expect(r.excluded.map((e) => e.heir)).toEqual(['fullBrother']);
  });

  it("a predeceased daughter's two daughters and no one else take the whole", () => {
    const r = run({ heirs: {}, jurisdiction: 'pk', predeceasedChildren: [female(0, 2)] });
    expect(frac(r)).toEqual({ grandchild_daughter_of_predeceased_daughter_1: '1/1' });
  });
});
