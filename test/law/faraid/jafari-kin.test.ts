import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { calculateFaraid, type FaraidInput, type FaraidResult, MADHHABS } from '../../../src/law/faraid/index.js';
import { checkIslamicPlan } from '../../../src/law/islamic.js';
import { startTestServer, type TestServer } from '../../helpers.js';

// Worked cases for the relatives who are heirs by class in the Ja'fari school but distant kindred (dhawu al-arham) in
// the Sunni schools: a daughter's children, the maternal grandfather, paternal aunts, maternal uncles and aunts.
// Sources, cited per case:
// - Civil Code of Iran, arts. 862 (the classes), 910 (a child, even one, excludes the grandchildren), 911, 923;
// - R. Khomeini, Tahrir al-Wasila, vol. 2, Book of Inheritance, first class, matters 1-4 (grandchildren by line);
// - M. al-Ruhani, al-Masa'il al-Muntakhaba, matters 1287-1288 (grandparents on both sides, with a wife);
// - A. al-Sistani, Islamic Laws (English edition), rulings 2774-2779 (the third class);
// - al-Muhaqqiq al-Hilli, Shara'i' al-Islam, Book of Inheritance, third class (maternal side 1/3, with a spouse).

const J = (heirs: FaraidInput['heirs'], extra: Partial<FaraidInput> = {}): FaraidResult =>
  calculateFaraid({ heirs, madhhab: 'jafari', ...extra });
const fractions = (r: FaraidResult) => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));
const excluded = (r: FaraidResult) => r.excluded.map((e) => e.heir);

describe("Ja'fari class 1: a daughter's children by representation", () => {
  it("a son's daughter and a daughter's son: 2/3 and 1/3, each line its parent's share (Tahrir al-Wasila, matter 3)", () => {
    const r = J({ sonsDaughter: 1, daughtersSon: 1 });
    expect(fractions(r)).toEqual({ sonsDaughter: '2/3', daughtersSon: '1/3' });
    expect(r.steps.some((s) => s.kind === 'special-case' && s.detail.includes("daughter's children"))).toBe(true);
  });

  it('with a wife: she takes her lower share 1/8 and the lines 7/12 and 7/24 (Tahrir al-Wasila, matter 3)', () => {
    expect(fractions(J({ wife: 1, sonsSon: 1, daughtersDaughter: 1 }))).toEqual({
      wife: '1/8',
      sonsSon: '7/12',
      daughtersDaughter: '7/24',
    });
  });

  it("a daughter's son with both parents takes his mother's 1/2 and radd, though male: 3/5 (Tahrir al-Wasila, matter 2; art. 908)", () => {
    const r = J({ father: 1, mother: 1, daughtersSon: 1 });
    expect(fractions(r)).toEqual({ daughtersSon: '3/5', father: '1/5', mother: '1/5' });
    expect(r.radd).toBe(true);
  });

  it("a daughter's son and daughter's daughter alone: the whole, a male twice a female (Tahrir al-Wasila, matter 4)", () => {
    expect(fractions(J({ daughtersSon: 1, daughtersDaughter: 1 }))).toEqual({
      daughtersSon: '2/3',
      daughtersDaughter: '1/3',
    });
  });

  it("a daughter alive excludes her sister's children (art. 910); a daughter's child excludes brothers (art. 862)", () => {
    const r = J({ daughter: 1, daughtersSon: 2 });
    expect(fractions(r)).toEqual({ daughter: '1/1' });
    expect(excluded(r)).toEqual(['daughtersSon']);
    const s = J({ daughtersDaughter: 1, fullBrother: 2, maternalUncle: 1 });
    expect(fractions(s)).toEqual({ daughtersDaughter: '1/1' });
    expect(excluded(s)).toEqual(['fullBrother', 'maternalUncle']);
  });

  it("a daughter's child reduces the husband to 1/4 (art. 913): husband 1/4, daughter's daughter 3/4", () => {
    expect(fractions(J({ husband: 1, daughtersDaughter: 1 }))).toEqual({ husband: '1/4', daughtersDaughter: '3/4' });
  });
});

describe("Ja'fari class 2: the maternal grandfather", () => {
  it("paternal grandfather 2/3, maternal grandfather 1/3 (art. 923; al-Masa'il al-Muntakhaba, matter 1287(4))", () => {
    expect(fractions(J({ paternalGrandfather: 1, maternalGrandfather: 1 }))).toEqual({
      paternalGrandfather: '2/3',
      maternalGrandfather: '1/3',
    });
  });

  it('maternal grandfather and grandmother alone share equally (art. 923; matter 1287(3))', () => {
    expect(fractions(J({ maternalGrandmother: 1, maternalGrandfather: 1 }))).toEqual({
      maternalGrandmother: '1/2',
      maternalGrandfather: '1/2',
    });
  });

  it('wife and four grandparents: maternal pair 1/3 of the whole equally, wife 1/4, paternal pair 5/12 as 2:1 (matter 1288)', () => {
    const r = J({
      wife: 1,
      paternalGrandfather: 1,
      paternalGrandmother: 1,
      maternalGrandmother: 1,
      maternalGrandfather: 1,
    });
    expect(fractions(r)).toEqual({
      wife: '1/4',
      paternalGrandfather: '5/18',
      paternalGrandmother: '5/36',
      maternalGrandmother: '1/6',
      maternalGrandfather: '1/6',
    });
  });

  it('the maternal grandfather is excluded by class 1 and excludes class 3 (arts. 862, 863)', () => {
    expect(excluded(J({ mother: 1, maternalGrandfather: 1 }))).toEqual(['maternalGrandfather']);
    expect(fractions(J({ maternalGrandfather: 1, fullPaternalUncle: 2 }))).toEqual({ maternalGrandfather: '1/1' });
  });
});

describe("Ja'fari class 3: aunts and maternal uncles", () => {
  it('two paternal uncles and a paternal aunt: five parts, the aunt one (Sistani, Islamic Laws, ruling 2774)', () => {
    const r = J({ fullPaternalUncle: 2, fullPaternalAunt: 1 });
    expect(fractions(r)).toEqual({ fullPaternalUncle: '4/5', fullPaternalAunt: '1/5' });
    expect(r.radd).toBe(false);
  });

  it('maternal uncles alone share equally; an uncle and an aunt equally too, the step noting the settlement view (ruling 2776)', () => {
    expect(fractions(J({ maternalUncle: 3 }))).toEqual({ maternalUncle: '1/1' });
    const r = J({ maternalUncle: 1, maternalAunt: 1 });
    expect(fractions(r)).toEqual({ maternalUncle: '1/2', maternalAunt: '1/2' });
    expect(r.steps.some((s) => s.detail.includes('settlement'))).toBe(true);
  });

  it("a paternal aunt and two maternal uncles: 2/3 and 1/3 (Shara'i' al-Islam, third class; Sistani, ruling 2779)", () => {
    const r = J({ fullPaternalAunt: 1, maternalUncle: 2 });
    expect(fractions(r)).toEqual({ fullPaternalAunt: '2/3', maternalUncle: '1/3' });
    expect(r.steps.some((s) => s.detail.includes('1/3 of the whole estate'))).toBe(true);
  });

  it("husband, a paternal uncle and a maternal aunt: 1/2, the maternal side 1/3 of the whole, the paternal 1/6 (Shara'i' al-Islam)", () => {
    expect(fractions(J({ husband: 1, fullPaternalUncle: 1, maternalAunt: 1 }))).toEqual({
      husband: '1/2',
      fullPaternalUncle: '1/6',
      maternalAunt: '1/3',
    });
  });

  it('wife and a maternal uncle alone: 1/4 and 3/4 (arts. 864, 941)', () => {
    expect(fractions(J({ wife: 1, maternalUncle: 1 }))).toEqual({ wife: '1/4', maternalUncle: '3/4' });
  });

  it('the full paternal aunt excludes the paternal half paternal uncle (Sistani, ruling 2775)', () => {
    const r = J({ fullPaternalAunt: 1, paternalHalfPaternalUncle: 2, paternalHalfPaternalAunt: 1 });
    expect(fractions(r)).toEqual({ fullPaternalAunt: '1/1' });
    expect(excluded(r)).toEqual(['paternalHalfPaternalUncle', 'paternalHalfPaternalAunt']);
  });

  it("a maternal aunt excludes the paternal uncles' sons: cousins only without uncles and aunts (Sistani, ruling 2779)", () => {
    const r = J({ maternalAunt: 1, fullPaternalUnclesSon: 3 });
    expect(fractions(r)).toEqual({ maternalAunt: '1/1' });
    expect(r.excluded).toEqual([expect.objectContaining({ heir: 'fullPaternalUnclesSon', by: 'maternalAunt' })]);
  });
});

describe('the Sunni schools: the same relatives as distant kindred', () => {
  const SUNNI = MADHHABS.filter((m) => m !== 'jafari');

  it('a daughter and her son: the daughter takes all by radd, her son is excluded in every Sunni school', () => {
    for (const madhhab of SUNNI) {
      const r = calculateFaraid({ heirs: { daughter: 1, daughtersSon: 1 }, madhhab });
      expect(fractions(r)).toEqual({ daughter: '1/1' });
      expect(r.excluded).toEqual([
        expect.objectContaining({
          heir: 'daughtersSon',
          by: 'daughter',
          reason: expect.stringContaining('dhawu al-arham'),
        }),
      ]);
    }
  });

  it('wife, full paternal uncle, paternal aunt, maternal uncle, maternal grandfather: 1/4 and 3/4; the rest take nothing', () => {
    const heirs = { wife: 1, fullPaternalUncle: 1, fullPaternalAunt: 2, maternalUncle: 1, maternalGrandfather: 1 };
    for (const madhhab of SUNNI) {
      const r = calculateFaraid({ heirs, madhhab });
      expect(fractions(r)).toEqual({ wife: '1/4', fullPaternalUncle: '3/4' });
      expect(excluded(r).sort()).toEqual(['fullPaternalAunt', 'maternalGrandfather', 'maternalUncle']);
    }
    // The Ja'fari school gives the maternal grandfather (class 2) everything but the wife's share.
    expect(fractions(J(heirs))).toEqual({ wife: '1/4', maternalGrandfather: '3/4' });
  });

  it('distant kindred who would inherit (no sharer or residuary but a spouse) take the rest after the spouse', () => {
    // One relative, or relatives of one kind: the Hanafi classes and tanzil give the same.
    const cases: Array<[Partial<Record<string, number>>, Record<string, string>]> = [
      [{ maternalUncle: 1 }, { maternalUncle: '1/1' }],
      [
        { wife: 1, daughtersSon: 2 },
        { wife: '1/4', daughtersSon: '3/4' },
      ],
      [
        { husband: 1, fullPaternalAunt: 1 },
        { husband: '1/2', fullPaternalAunt: '1/2' },
      ],
    ];
    for (const [heirs, want] of cases)
      for (const madhhab of [...SUNNI, undefined])
        expect(fractions(calculateFaraid({ heirs, ...(madhhab ? { madhhab } : {}) }))).toEqual(want);
    // Iran's code (Ja'fari) gives the wife her eighth beside a daughter's sons, who are heirs of the first class.
    expect(fractions(calculateFaraid({ heirs: { wife: 1, daughtersSon: 2 }, jurisdiction: 'ir' }))).toEqual({
      wife: '1/8',
      daughtersSon: '7/8',
    });
  });

  it("where tanzil depends on facts not given (a daughter's son and a daughter's daughter) it is refused with the field named", () => {
    for (const madhhab of ['maliki', 'shafii', 'hanbali'] as const) {
      let err: unknown;
      try {
        calculateFaraid({ heirs: { daughtersSon: 1, daughtersDaughter: 1 }, madhhab });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('VALIDATION_ERROR');
      expect((err as ApiError).details?.[0]?.field).toBe('heirs.daughtersSon');
      expect((err as ApiError).details?.[0]?.reason).toContain('dhawu al-arham');
    }
    // The Hanafi method decides it: a male twice a female.
    expect(fractions(calculateFaraid({ heirs: { daughtersSon: 1, daughtersDaughter: 1 } }))).toEqual({
      daughtersSon: '2/3',
      daughtersDaughter: '1/3',
    });
  });
});

describe('plan checks', () => {
  const plan = (...bs: Array<[string, number]>) =>
    bs.map(([relationship, percentage]) => ({ name: relationship, relationship, percentage }));
  const rules = (r: ReturnType<typeof checkIslamicPlan>, severity: string) =>
    r.findings.filter((f) => f.severity === severity).map((f) => f.rule);

  it("under the Ja'fari school a maternal uncle is an heir: wife 25%, maternal uncle 75% passes", () => {
    const r = checkIslamicPlan('islamic-mirth', plan(['wife', 25], ['maternal uncle', 75]), { madhhab: 'jafari' });
    expect(rules(r, 'error')).toEqual([]);
    expect(r.expected).toEqual([
      { beneficiaryIndex: 0, heir: 'wife', expectedPercentage: '25.00' },
      { beneficiaryIndex: 1, heir: 'maternalUncle', expectedPercentage: '75.00' },
    ]);
  });

  it("daughter's children by line: son's daughter 66.67%, daughter's son 33.33% (Ja'fari)", () => {
    const r = checkIslamicPlan('islamic-mirth', plan(["son's daughter", 66.67], ["daughter's son", 33.33]), {
      madhhab: 'jafari',
    });
    expect(rules(r, 'error')).toEqual([]);
  });

  it('under a Sunni school the same words are distant kindred: wife 25%, maternal uncle 75% passes; "aunt" is ambiguous', () => {
    for (const madhhab of ['hanafi', 'shafii'] as const) {
      const r = checkIslamicPlan('islamic-mirth', plan(['wife', 25], ['maternal uncle', 75]), { madhhab });
      expect(rules(r, 'error')).toEqual([]);
    }
    // Beside a residuary the maternal uncle is excluded: a share for him is an error.
    const excluded = checkIslamicPlan('islamic-mirth', plan(['wife', 25], ['uncle', 50], ['maternal uncle', 25]), {
      madhhab: 'hanafi',
    });
    expect(rules(excluded, 'error').length).toBeGreaterThan(0);
    for (const madhhab of ['jafari', 'hanafi'] as const) {
      const aunt = checkIslamicPlan('islamic-mirth', plan(['father', 50], ['aunt', 50]), { madhhab });
      expect(rules(aunt, 'error')).toContain('islamic.ambiguous-relationship');
    }
  });

  it('distant kindred given as other heirs: their computed shares count; where tanzil cannot decide, a finding', () => {
    // Hanafi: the maternal uncle takes 3/4 beside the wife, so 100% to the wife does not match.
    const mirth = checkIslamicPlan('islamic-mirth', plan(['wife', 100]), {
      madhhab: 'hanafi',
      otherHeirs: { maternalUncle: 1 },
    });
    expect(rules(mirth, 'error')).toContain('faraid.share-mismatch');
    expect(rules(mirth, 'error')).not.toContain('faraid.distant-kindred');
    // Shafi'i (tanzil) with a daughter's son and a daughter's daughter: not decided, a warning for a wasiyyah.
    const wasiyyah = checkIslamicPlan('islamic-wasiyyah', plan(['wife', 100]), {
      madhhab: 'shafii',
      otherHeirs: { daughtersSon: 1, daughtersDaughter: 1 },
    });
    expect(rules(wasiyyah, 'warning')).toContain('faraid.distant-kindred');
    expect(wasiyyah.findings.find((f) => f.rule === 'faraid.distant-kindred')!.message).toContain('dhawu al-arham');
    // Beside a residuary they are simply excluded and the check runs.
    const ok = checkIslamicPlan('islamic-mirth', plan(['wife', 25], ['uncle', 75]), {
      madhhab: 'hanafi',
      otherHeirs: { maternalUncle: 1 },
    });
    expect(rules(ok, 'error')).toEqual([]);
  });
});

describe('over REST', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('calculate_inheritance takes the new heir types; distant kindred tanzil cannot decide answer 400', async () => {
    const post = (payload: object) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/inheritance/calculate',
        headers: { authorization: `Bearer ${server.adminKey}` },
        payload,
      });
    const ok = await post({ heirs: { fullPaternalAunt: 1, maternalUncle: 2 }, jurisdiction: 'ir' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(fractions(ok.json().data)).toEqual({ fullPaternalAunt: '2/3', maternalUncle: '1/3' });
    const eg = await post({ heirs: { wife: 1, maternalAunt: 1 }, jurisdiction: 'eg' });
    expect(eg.statusCode, eg.body).toBe(200);
    expect(fractions(eg.json().data)).toEqual({ wife: '1/4', maternalAunt: '3/4' });
    const bad = await post({ heirs: { wife: 1, maternalUncle: 1, maternalAunt: 1 }, jurisdiction: 'ma' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([expect.objectContaining({ field: 'heirs.maternalUncle' })]);
  });
});
