import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { FindingSchema, type PlanBeneficiary } from '../../src/law/findings.js';
import {
  ARHAM_KEYS,
  calculateFaraid,
  HEIR_KEYS,
  HEIR_LABELS,
  MADHHABS,
  type HeirKey,
} from '../../src/law/faraid/index.js';
import {
  assertIslamicPlan,
  checkIslamicPlan,
  classifyRelationship,
  relationshipToHeir,
} from '../../src/law/islamic.js';

const b = (relationship: string | undefined, percentage: number, name = 'x'): PlanBeneficiary => ({
  name,
  percentage,
  relationship,
});
const rules = (r: ReturnType<typeof checkIslamicPlan>, severity?: string): string[] =>
  r.findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);

describe('relationshipToHeir', () => {
  it('maps every heir label back to its key', () => {
    // Distant kindred (heirs of a class in the Ja'fari school) are read as heirs too: the engine decides what they take.
    for (const k of HEIR_KEYS) {
      expect(relationshipToHeir(HEIR_LABELS[k])).toBe(k);
      expect(relationshipToHeir(HEIR_LABELS[k], 'jafari')).toBe(k);
    }
    expect(ARHAM_KEYS.length).toBeGreaterThan(0);
  });

  it('understands common synonyms, case and punctuation aside', () => {
    const table: Array<[string, HeirKey]> = [
      ['Husband', 'husband'],
      ['WIFE', 'wife'],
      ["Son's Son", 'sonsSon'],
      ['son’s daughter', 'sonsDaughter'],
      ['grandson', 'sonsSon'],
      ['Granddaughter', 'sonsDaughter'],
      ['brother', 'fullBrother'],
      ['Full-Brother', 'fullBrother'],
      ['sister', 'fullSister'],
      ['Half-brother (paternal)', 'paternalHalfBrother'],
      ['consanguine sister', 'paternalHalfSister'],
      ['maternal half-brother', 'maternalHalfBrother'],
      ['uterine sister', 'maternalHalfSister'],
      ['grandfather', 'paternalGrandfather'],
      ["father's mother", 'paternalGrandmother'],
      ['Maternal Grandmother', 'maternalGrandmother'],
      ['nephew', 'fullBrothersSon'],
      ["brother's son", 'fullBrothersSon'],
      ['uncle', 'fullPaternalUncle'],
      ["father's brother", 'fullPaternalUncle'],
      ['cousin', 'fullPaternalUnclesSon'],
      ["paternal half-brother's son", 'paternalHalfBrothersSon'],
    ];
    for (const [rel, heir] of table) expect([rel, relationshipToHeir(rel)]).toEqual([rel, heir]);
  });

  it('reads relationships written in Arabic as their English words, however they are typed', () => {
    const table: [string, HeirKey][] = [
      ['زوجة', 'wife'],
      ['الزوجة', 'wife'],
      ['زوجه', 'wife'],
      ['زَوْج', 'husband'],
      ['ابن', 'son'],
      ['الابن', 'son'],
      ['ابنة', 'daughter'],
      ['ابن الابن', 'sonsSon'],
      ['بنت الإبن', 'sonsDaughter'],
      ['الأب', 'father'],
      ['والدة', 'mother'],
      ['أبو الأب', 'paternalGrandfather'],
      ['الجدة لأم', 'maternalGrandmother'],
      ['الأخ الشقيق', 'fullBrother'],
      ['أخت لأب', 'paternalHalfSister'],
      ['أخ من الأم', 'maternalHalfBrother'],
      ['ابن الأخ لأب', 'paternalHalfBrothersSon'],
      ['العم', 'fullPaternalUncle'],
      ['ابن العم', 'fullPaternalUnclesSon'],
      ['ابن البنت', 'daughtersSon'],
      ['الخالة', 'maternalAunt'],
    ];
    for (const [rel, heir] of table) expect([rel, classifyRelationship(rel)]).toEqual([rel, { kind: 'heir', heir }]);
    // As in English: a bare brother is assumed full (and said so), a bare grandmother asked about, a friend no heir.
    expect(classifyRelationship('أخ')).toMatchObject({
      kind: 'heir',
      heir: 'fullBrother',
      assumed: expect.any(String),
    });
    expect(classifyRelationship('جدة')).toEqual(classifyRelationship('grandmother'));
    for (const rel of ['صديق', 'جمعية خيرية', 'ربيبة', 'ابن الأخت', 'زوجة الابن'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'non-heir']);
    expect(classifyRelationship('بيت المال').kind).toBe('treasury');
    expect(classifyRelationship('كلمة لا نعرفها').kind).toBe('unknown');
  });

  it('checks a plan written in Arabic as the same plan in English', () => {
    const arabic = checkIslamicPlan('islamic-mirth', [b('زوجة', 12.5, 'a'), b('ابن', 87.5, 'b')]);
    const english = checkIslamicPlan('islamic-mirth', [b('wife', 12.5, 'a'), b('son', 87.5, 'b')]);
    expect(rules(arabic, 'error')).toEqual([]);
    expect(arabic.findings).toEqual(english.findings);
  });

  it('returns undefined for ambiguous words, non-heirs and unknown words', () => {
    for (const rel of ['spouse', 'grandmother', 'half-brother', 'Half Sister', 'child', 'sibling']) {
      expect(relationshipToHeir(rel)).toBeUndefined();
      expect(classifyRelationship(rel).kind).toBe('ambiguous');
    }
    for (const rel of ['friend', 'Charity', 'stepson', 'adopted son', 'niece', "sister's son"]) {
      expect(relationshipToHeir(rel)).toBeUndefined();
      expect(classifyRelationship(rel).kind).toBe('non-heir');
    }
    // Distant kindred in the Sunni schools, heirs of a class in the Ja'fari: read as heirs, the engine decides.
    expect(classifyRelationship("daughter's son")).toEqual({ kind: 'heir', heir: 'daughtersSon' });
    expect(classifyRelationship('maternal uncle', 'hanafi')).toEqual({ kind: 'heir', heir: 'maternalUncle' });
    expect(classifyRelationship('best buddy').kind).toBe('unknown');
    expect(classifyRelationship('  ').kind).toBe('missing');
    expect(classifyRelationship(undefined).kind).toBe('missing');
    expect(classifyRelationship('nephew')).toMatchObject({
      kind: 'heir',
      heir: 'fullBrothersSon',
      assumed: expect.any(String),
    });
  });
});

describe.concurrent('checkIslamicPlan: islamic-mirth', () => {
  it('accepts a plan carrying the computed shares', () => {
    const r = checkIslamicPlan('islamic-mirth', [b('wife', 12.5), b('son', 58.33), b('daughter', 29.17)]);
    expect(rules(r, 'error')).toEqual([]);
    expect(rules(r, 'warning')).toEqual([]);
    expect(r.expected).toEqual([
      { beneficiaryIndex: 0, heir: 'wife', expectedPercentage: '12.50' },
      { beneficiaryIndex: 1, heir: 'son', expectedPercentage: '58.33' },
      { beneficiaryIndex: 2, heir: 'daughter', expectedPercentage: '29.17' },
    ]);
    for (const f of r.findings) expect(FindingSchema.safeParse(f).success).toBe(true);
  });

  it("flags shares that differ from fara'id, and generate_contract gets the expected ones in details", () => {
    const plan = [b('wife', 20), b('son', 50), b('daughter', 30)];
    const r = checkIslamicPlan('islamic-mirth', plan);
    const mismatches = r.findings.filter((f) => f.rule === 'faraid.share-mismatch');
    expect(mismatches.map((f) => [f.severity, f.beneficiaryIndex, f.expected])).toEqual([
      ['error', 0, '12.50'],
      ['error', 1, '58.33'],
      ['error', 2, '29.17'],
    ]);
    try {
      assertIslamicPlan('islamic-mirth', plan);
      throw new Error('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.details?.map((d) => [d.field, d.expected])).toEqual([
        ['beneficiaries.0.percentage', '12.50'],
        ['beneficiaries.1.percentage', '58.33'],
        ['beneficiaries.2.percentage', '29.17'],
      ]);
    }
  });

  it('gives the leftover basis point to the first listed person of a type', () => {
    const ok = checkIslamicPlan('islamic-mirth', [b('daughter', 33.34), b('daughter', 33.33), b('daughter', 33.33)]);
    expect(rules(ok, 'error')).toEqual([]);
    const swapped = checkIslamicPlan('islamic-mirth', [
      b('daughter', 33.33),
      b('daughter', 33.34),
      b('daughter', 33.33),
    ]);
    expect(swapped.findings.filter((f) => f.severity === 'error').map((f) => f.beneficiaryIndex)).toEqual([0, 1]);
    expect(calculateFaraid({ heirs: { daughter: 3 } }).shares[0]!.perPersonBasisPoints).toEqual([3334, 3333, 3333]);
  });

  it('flags non-heirs, unmapped, ambiguous and excluded relationships', () => {
    const r = checkIslamicPlan('islamic-mirth', [
      b('son', 60),
      b('friend', 10),
      b('full brother', 10),
      b('best buddy', 10),
      b('wife', 5),
      b(undefined, 5),
    ]);
    const errs = r.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.beneficiaryIndex]);
    expect(errs).toEqual(
      expect.arrayContaining([
        ['faraid.non-heir', 1],
        ['faraid.excluded-heir', 2],
        ['islamic.unmapped-relationship', 3],
        ['islamic.unmapped-relationship', 5],
        ['faraid.share-mismatch', 0],
        ['faraid.share-mismatch', 4],
      ]),
    );
    expect(r.findings.find((f) => f.rule === 'faraid.excluded-heir')!.message).toMatch(/son/);
    expect(r.expected).toEqual([
      { beneficiaryIndex: 0, heir: 'son', expectedPercentage: '87.50' },
      { beneficiaryIndex: 1, expectedPercentage: '0.00' },
      { beneficiaryIndex: 2, heir: 'fullBrother', expectedPercentage: '0.00' },
      { beneficiaryIndex: 4, heir: 'wife', expectedPercentage: '12.50' },
    ]);
  });

  it('checks no share while a relationship may name more than one heir, in either template', () => {
    // "spouse" is a husband or a wife: the son's share is 75% or 87.5%, never the 100% of a plan without them.
    for (const template of ['islamic-mirth', 'islamic-wasiyyah'] as const) {
      const r = checkIslamicPlan(template, [b('son', 50), b('spouse', 40), b('friend', 10)]);
      const ambiguous = r.findings.filter((f) => f.rule === 'islamic.ambiguous-relationship');
      expect(
        ambiguous.map((f) => [f.severity, f.beneficiaryIndex]),
        template,
      ).toEqual([['error', 1]]);
      expect(ambiguous[0]!.message).toMatch(/husband, wife is meant\. The shares are checked once it is known\.$/);
      const rules = r.findings.map((f) => f.rule);
      for (const rule of [
        'faraid.share-mismatch',
        'faraid.assumption',
        'wasiyyah.over-one-third',
        'wasiyyah.no-bequest',
      ])
        expect(rules, `${template}: ${rule}`).not.toContain(rule);
      // Reading-independent: a non-heir takes nothing in a mirath plan.
      expect(r.expected).toEqual(
        template === 'islamic-mirth' ? [{ beneficiaryIndex: 2, expectedPercentage: '0.00' }] : [],
      );
    }
    // Said plainly, the same plan is checked: a wife takes 1/8 beside a son.
    const said = checkIslamicPlan('islamic-mirth', [b('son', 50), b('wife', 50)]);
    expect(said.expected).toEqual([
      { beneficiaryIndex: 0, heir: 'son', expectedPercentage: '87.50' },
      { beneficiaryIndex: 1, heir: 'wife', expectedPercentage: '12.50' },
    ]);
  });

  it('flags impossible heir sets and plans without heirs', () => {
    expect(rules(checkIslamicPlan('islamic-mirth', [b('husband', 50), b('wife', 50)]), 'error')).toContain(
      'faraid.invalid-heirs',
    );
    expect(rules(checkIslamicPlan('islamic-mirth', [b('father', 50), b('father', 50)]), 'error')).toContain(
      'faraid.invalid-heirs',
    );
    expect(rules(checkIslamicPlan('islamic-mirth', [b('friend', 100)]), 'error')).toEqual([
      'faraid.non-heir',
      'faraid.no-heirs',
    ]);
  });

  it('reports an assumed reading of an ambiguous word as info', () => {
    const r = checkIslamicPlan('islamic-mirth', [b('wife', 25), b('nephew', 75)]);
    expect(rules(r, 'error')).toEqual([]);
    expect(rules(r, 'info')).toContain('islamic.assumed-relationship');
  });

  it('counts relatives outside the plan: excluded brothers reduce the mother; an unlisted sharer is an error', () => {
    const plan = [b('father', 83.33), b('mother', 16.67)];
    expect(rules(checkIslamicPlan('islamic-mirth', plan), 'error')).toEqual([
      'faraid.share-mismatch',
      'faraid.share-mismatch',
    ]);
    expect(rules(checkIslamicPlan('islamic-mirth', plan, { otherHeirs: { fullBrother: 2 } }), 'error')).toEqual([]);
    const missing = checkIslamicPlan('islamic-mirth', [b('son', 100)], { otherHeirs: { wife: 1 } });
    expect(missing.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.expected])).toEqual([
      ['faraid.share-mismatch', '87.50'],
      ['faraid.missing-heir', '12.50'],
    ]);
  });

  it('applies the chosen school', () => {
    // Ties of remainders go to the heir type listed first in HEIR_KEYS: son, then father, then grandmother.
    const plan = [b('father', 16.67), b("father's mother", 16.66), b('son', 66.67)];
    expect(rules(checkIslamicPlan('islamic-mirth', plan, { madhhab: 'hanbali' }), 'error')).toEqual([]);
    const hanafi = checkIslamicPlan('islamic-mirth', plan);
    expect(rules(hanafi, 'error')).toEqual(expect.arrayContaining(['faraid.excluded-heir', 'faraid.share-mismatch']));
  });

  it('any plan built from the engine result passes (same rounding rule)', () => {
    const keys = HEIR_KEYS.filter((k) => k !== 'wife' && !(ARHAM_KEYS as readonly HeirKey[]).includes(k));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...keys), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 6, maxLength: 6 }),
        fc.constantFrom(...MADHHABS),
        (ks, cs, madhhab) => {
          const heirs: Partial<Record<HeirKey, number>> = {};
          ks.forEach(
            (k, i) =>
              (heirs[k] = [
                'husband',
                'father',
                'mother',
                'paternalGrandfather',
                'paternalGrandmother',
                'maternalGrandmother',
              ].includes(k)
                ? 1
                : cs[i]!),
          );
          const res = calculateFaraid({ heirs, madhhab });
          const plan: PlanBeneficiary[] = [];
          for (const s of res.shares)
            for (const bp of s.perPersonBasisPoints) plan.push(b(HEIR_LABELS[s.heir as HeirKey], bp / 100));
          // Excluded relatives are not beneficiaries, but they still count (e.g. brothers reduce the mother).
          const otherHeirs = Object.fromEntries(res.excluded.map((x) => [x.heir, heirs[x.heir]!]));
          const r = checkIslamicPlan('islamic-mirth', plan, { madhhab, otherHeirs });
          expect(rules(r, 'error')).toEqual([]);
          expect(r.expected.map((e) => e.expectedPercentage)).toEqual(plan.map((p) => p.percentage.toFixed(2)));
          // The same plan as a wasiyyah with a 10% bequest to a friend: still valid findings, heirs' expected sum to 90%.
          const w = checkIslamicPlan('islamic-wasiyyah', [b('friend', 10), ...plan], { madhhab, otherHeirs });
          for (const f of [...r.findings, ...w.findings]) expect(FindingSchema.safeParse(f).success).toBe(true);
          expect(w.expected.reduce((a, e) => a + Math.round(Number(e.expectedPercentage) * 100), 0)).toBe(9000);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe.concurrent('checkIslamicPlan: islamic-wasiyyah', () => {
  it("accepts a bequest within one third with the rest by fara'id", () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('friend', 30), b('wife', 8.75), b('son', 61.25)]);
    expect(rules(r, 'error')).toEqual([]);
    expect(rules(r, 'warning')).toEqual([]);
    expect(r.expected.map((e) => e.expectedPercentage)).toEqual(['8.75', '61.25']);
  });

  it('flags bequests above one third (valid only with consent)', () => {
    expect(rules(checkIslamicPlan('islamic-wasiyyah', [b('charity', 33.33), b('son', 66.67)]))).not.toContain(
      'wasiyyah.over-one-third',
    );
    const r = checkIslamicPlan('islamic-wasiyyah', [b('charity', 33.34), b('son', 66.66)]);
    expect(r.findings.find((f) => f.rule === 'wasiyyah.over-one-third')).toMatchObject({
      severity: 'warning',
      expected: '33.33',
    });
    const c = checkIslamicPlan('islamic-wasiyyah', [b('friend', 40), b('wife', 7.5), b('son', 52.5)], {
      heirsConsent: true,
    });
    expect(c.findings.find((f) => f.rule === 'wasiyyah.over-one-third')!.severity).toBe('info');
    expect(rules(c, 'error')).toEqual([]);
  });

  it('flags a bequest to an heir and the heir it is taken from', () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('friend', 20), b('wife', 15), b('son', 65)]);
    expect(
      r.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.severity, f.beneficiaryIndex, f.expected]),
    ).toEqual([
      ['wasiyyah.bequest-to-heir', 'warning', 1, '10.00'],
      ['faraid.share-mismatch', 'error', 2, '70.00'],
    ]);
  });

  it('treats an excluded heir and an unknown relationship as legatees', () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('son', 80), b('brother', 10), b('my old teacher friend', 10)]);
    expect(rules(r, 'error')).toEqual([]);
    expect(rules(r)).toEqual(
      expect.arrayContaining(['wasiyyah.excluded-heir-legatee', 'islamic.unmapped-relationship']),
    );
    expect(r.expected).toEqual([{ beneficiaryIndex: 0, heir: 'son', expectedPercentage: '80.00' }]);
  });

  it('flags a plan that is all bequest', () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('friend', 50), b('charity', 50)]);
    expect(rules(r)).toEqual(expect.arrayContaining(['faraid.no-heirs', 'wasiyyah.over-one-third']));
  });
});
