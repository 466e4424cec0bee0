import { describe, expect, it } from 'vitest';
import { validateForGeneration } from '../../src/contracts/engine.js';
import { ApiError } from '../../src/core/errors.js';
import { checkPlan } from '../../src/law/check-plan.js';
import { calculateFaraid, isComputable, selectSchool, type FaraidResult } from '../../src/law/faraid/index.js';
import { defaultJurisdictions } from '../../src/law/jurisdictions.js';

// The jurisdiction decides the school: with `jurisdiction` and no `madhhab`, the recorded school applies and the
// answer says which and why; an explicit madhhab wins and the answer notes the difference.

const index = defaultJurisdictions();
const frac = (r: FaraidResult): Record<string, string> => Object.fromEntries(r.shares.map((s) => [s.heir, s.fraction]));

describe('school per jurisdiction', () => {
  it('records a school with a source for every jurisdiction where Islamic inheritance law applies', () => {
    const islamic = index.all().filter((j) => j.islamicLaw.applies !== 'none');
    expect(islamic.map((j) => j.id).sort()).toEqual([
      'ae',
      'dz',
      'eg',
      'id',
      'iq',
      'ir',
      'jo',
      'kw',
      'ma',
      'my',
      'pk',
      'sa',
      'sg',
      'sy',
      'tn',
    ]);
    for (const j of islamic) {
      const school = j.islamicLaw.school;
      expect(school, j.id).toBeDefined();
      expect(school!.source.title.length, j.id).toBeGreaterThan(10);
    }
    // Shia communities: how to choose the Ja'fari school is recorded.
    expect(index.resolve('pk').islamicLaw.school?.alternatives?.[0]).toMatchObject({ madhhab: 'jafari' });
    // Iraq: Ja'fari by default, and how to choose the Hanafi school for a Sunni deceased.
    expect(index.resolve('iq').islamicLaw.school).toMatchObject({
      madhhab: 'jafari',
      alternatives: [expect.objectContaining({ madhhab: 'hanafi' })],
    });
  });

  it("Malaysia, a paternal grandfather and two full brothers: Shafi'i sharing (muqasama), 1/3 each", () => {
    // Zayd ibn Thabit's doctrine, followed by the Shafi'i school (al-Nawawi, Minhaj al-Talibin, fara'id): with no
    // sharer the grandfather takes the better of one third and sharing as a brother; with two brothers both give 1/3.
    // Abu Hanifa's view (the grandfather excludes the brothers) would give him everything.
    const r = calculateFaraid({ heirs: { paternalGrandfather: 1, fullBrother: 2 }, jurisdiction: 'my' });
    expect(frac(r)).toEqual({ paternalGrandfather: '1/3', fullBrother: '2/3' });
    expect(r.shares[1]!.perPersonFraction).toBe('1/3');
    expect(r.madhhab).toBe('shafii');
    expect(r.school).toMatchObject({ madhhab: 'shafii', chosenBy: 'jurisdiction' });
    expect(r.school.source).toContain('Act 505');
    expect(r.steps[0]).toMatchObject({ kind: 'madhhab' });
    expect(r.steps[0]!.detail).toContain("Shafi'i, chosen by the jurisdiction");
  });

  it('states how the school was chosen in one phrase, naming the school once', () => {
    const school = (r: ReturnType<typeof calculateFaraid>) => r.steps.find((s) => s.kind === 'madhhab')!.detail;
    const byDefault = calculateFaraid({ heirs: { son: 1 } });
    expect(byDefault.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'default' });
    expect(school(byDefault)).toBe(
      'School: Hanafi, the default, the school of Al-Sirajiyyah; pass jurisdiction or madhhab to choose another.',
    );
    expect(school(calculateFaraid({ heirs: { son: 1 }, madhhab: 'maliki' }))).toBe(
      'School: Maliki, set by the request.',
    );
    expect(school(calculateFaraid({ heirs: { son: 1 }, jurisdiction: 'my' }))).toMatch(
      /^School: Shafi'i, chosen by the jurisdiction: Malaysia: /,
    );
    // Stated once: the engine adds no second line of its own ("School applied: hanafi.").
    expect(byDefault.steps.filter((s) => s.kind === 'madhhab')).toHaveLength(1);
    expect(byDefault.steps.map((s) => s.detail).join('\n')).not.toMatch(/School applied/);
  });

  it("an explicit madhhab wins over the jurisdiction's school and the answer notes the difference", () => {
    const r = calculateFaraid({
      heirs: { paternalGrandfather: 1, fullBrother: 2 },
      jurisdiction: 'my',
      madhhab: 'hanafi',
    });
    expect(frac(r)).toEqual({ paternalGrandfather: '1/1' });
    expect(r.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'caller', jurisdictionMadhhab: 'shafii' });
    expect(r.school.note).toContain("Malaysia follows the Shafi'i school");
    expect(r.steps.some((s) => s.kind === 'madhhab' && s.detail === r.school.note)).toBe(true);
    // The same school as the jurisdiction's: no note.
    const same = calculateFaraid({ heirs: { son: 1 }, jurisdiction: 'ma', madhhab: 'maliki' });
    expect(same.school.note).toBeUndefined();
  });

  it('Saudi Arabia applies the Hanbali school: the paternal grandmother inherits beside the father', () => {
    // Hanbali (Ibn Qudama, al-Mughni): the father does not exclude his own mother; she takes 1/6 with the mother
    // absent. In the other schools the father excludes her.
    const r = calculateFaraid({ heirs: { father: 1, paternalGrandmother: 1, son: 1 }, jurisdiction: 'sa' });
    expect(r.school.madhhab).toBe('hanbali');
    expect(frac(r)).toMatchObject({ father: '1/6', paternalGrandmother: '1/6', son: '2/3' });
    const hanafi = calculateFaraid({ heirs: { father: 1, paternalGrandmother: 1, son: 1 }, jurisdiction: 'eg' });
    expect(frac(hanafi)).toEqual({ father: '1/6', son: '5/6' });
  });

  it("Indonesia's Compilation has its own rules: computed by the Shafi'i school and said so", () => {
    const sel = selectSchool(undefined, index.resolve('id'));
    expect(sel).toMatchObject({ madhhab: 'shafii', chosenBy: 'jurisdiction' });
    expect(sel.source).toContain('art. 185');
  });

  it('without jurisdiction or madhhab the default is Hanafi, and says so', () => {
    const r = calculateFaraid({ heirs: { son: 1 } });
    expect(r.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'default' });
  });

  it("Iran without madhhab selects the Ja'fari school", () => {
    const sel = selectSchool(undefined, index.resolve('ir'));
    expect(sel).toMatchObject({ madhhab: 'jafari', chosenBy: 'jurisdiction' });
    expect(sel.source).toContain('Civil Code of Iran, arts. 861-949');
    // An explicit Sunni madhhab is computed, with a note that Iranian law follows the Ja'fari school.
    const sunni = calculateFaraid({ heirs: { mother: 1, fullBrother: 1 }, jurisdiction: 'ir', madhhab: 'shafii' });
    expect(sunni.school).toMatchObject({ madhhab: 'shafii', chosenBy: 'caller', jurisdictionMadhhab: 'jafari' });
    expect(sunni.school.note).toContain("Iran follows the Ja'fari school");
    const compute = () => calculateFaraid({ heirs: { mother: 1, fullBrother: 1 }, jurisdiction: 'ir' });
    if (isComputable('jafari')) {
      // With Ja'fari support in the engine: the mother (first class) excludes the brother (second class).
      const r = compute();
      expect(r.school).toMatchObject({ madhhab: 'jafari', chosenBy: 'jurisdiction' });
      expect(frac(r)).toEqual({ mother: '1/1' });
    } else {
      // Never Sunni shares for Iran: a clear 400 naming the school.
      let err: unknown;
      try {
        compute();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toContain("Ja'fari");
      expect((err as ApiError).details?.[0]?.field).toBe('jurisdiction');
    }
  });
});

describe('check_plan uses the jurisdiction school', () => {
  const plan = (jurisdiction: string, madhhab?: 'hanafi') =>
    checkPlan(index, {
      jurisdiction,
      template: 'islamic-mirth',
      beneficiaries: [
        { name: 'Grandfather', percentage: 33.34, relationship: 'paternal grandfather' },
        { name: 'Brother A', percentage: 33.33, relationship: 'full brother' },
        { name: 'Brother B', percentage: 33.33, relationship: 'full brother' },
      ],
      ...(madhhab ? { madhhab } : {}),
    });

  it("Malaysia: the Shafi'i shares pass and a finding says which school and why", () => {
    const r = plan('my');
    expect(r.ok).toBe(true);
    expect(r.school).toMatchObject({ madhhab: 'shafii', chosenBy: 'jurisdiction' });
    expect(r.findings).toContainEqual(expect.objectContaining({ rule: 'faraid.school', severity: 'info' }));
  });

  it('an explicit Hanafi madhhab fails the same plan and warns that it differs from Malaysian practice', () => {
    const r = plan('my', 'hanafi');
    expect(r.ok).toBe(false);
    expect(r.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'caller' });
    const f = r.findings.find((x) => x.rule === 'faraid.school');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain("Shafi'i");
  });

  it('Tunisia: a daughter-only plan beside a brother passes with art. 143 bis', () => {
    const r = checkPlan(index, {
      jurisdiction: 'tn',
      template: 'islamic-mirth',
      beneficiaries: [{ name: 'Daughter', percentage: 100, relationship: 'daughter' }],
      otherHeirs: { fullBrother: 1 },
    });
    expect(r.ok).toBe(true);
    expect(r.expected).toEqual([expect.objectContaining({ beneficiaryIndex: 0, expectedPercentage: '100.00' })]);
  });
});

describe("check_plan in Iran (Ja'fari)", () => {
  it('never checks Iranian shares by a Sunni school', () => {
    const r = checkPlan(index, {
      jurisdiction: 'ir',
      template: 'islamic-mirth',
      beneficiaries: [{ name: 'Mother', percentage: 100, relationship: 'mother' }],
      otherHeirs: { fullBrother: 1 },
    });
    expect(r.school).toMatchObject({ madhhab: 'jafari', chosenBy: 'jurisdiction' });
    if (isComputable('jafari')) {
      expect(r.findings.some((f) => f.rule === 'faraid.school')).toBe(true);
    } else {
      const f = r.findings.find((x) => x.rule === 'faraid.school-not-computed');
      expect(f?.severity).toBe('warning');
      expect(f?.source.title).toContain('Civil Code of Iran');
      expect(r.expected).toEqual([]);
    }
  });
});

describe("the wizard's plan validation (validate_plan / generate_contract) follows the jurisdiction school", () => {
  const owner = '0x27b1fdb04752bbc536007a920d24acb045561c26';
  const addrs = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
    '0xde709f2102306220921060314715629080e2fb77',
  ];
  const plan = (madhhab?: 'hanafi') => ({
    blockchain: 'evm' as const,
    ownerAddress: owner,
    inheritanceTemplate: 'islamic-mirth' as const,
    jurisdiction: 'my',
    ...(madhhab ? { madhhab } : {}),
    beneficiaries: [
      { name: 'Grandfather', address: addrs[0]!, percentage: 33.34, relationship: 'paternal grandfather' },
      { name: 'Brother A', address: addrs[1]!, percentage: 33.33, relationship: 'full brother' },
      { name: 'Brother B', address: addrs[2]!, percentage: 33.33, relationship: 'full brother' },
    ],
  });

  it("accepts the Shafi'i shares in Malaysia and says which school it checked", () => {
    const r = validateForGeneration(plan() as Parameters<typeof validateForGeneration>[0], index);
    expect(r.valid).toBe(true);
    expect(r.warnings?.map((w) => w.id)).toContain('faraid.school');
  });

  it('refuses the same plan when the request asks for the Hanafi school (the grandfather excludes the brothers)', () => {
    let err: unknown;
    try {
      validateForGeneration(plan('hanafi') as Parameters<typeof validateForGeneration>[0], index);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('VALIDATION_ERROR');
  });
});
