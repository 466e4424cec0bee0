import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../src/core/messages/index.js';
import {
  LAW_RULES,
  type LawNames,
  type LawParams,
  lawFindingInWords,
  lawFormats,
} from '../../src/core/messages/law-words.js';
import { sayLaw } from '../../src/core/messages/law-words-en.js';
import { validateForGeneration } from '../../src/contracts/engine.js';
import { texts } from '../../src/embed/ui/i18n/index.js';
import { lawNames } from '../../src/embed/ui/law-names.js';
import { type CheckPlanInput, checkPlan } from '../../src/law/check-plan.js';
import type { Finding } from '../../src/law/findings.js';
import { defaultJurisdictions } from '../../src/law/jurisdictions.js';

// Each law rule said from the params of real findings, in every locale, with the names the wizard shows (its
// relationship, template, school and place words). The plans below are chosen so that every rule, and every
// variant of a rule's sentence, is found by check_plan.

const index = defaultJurisdictions();
const list = index.all().map((j) => ({ id: j.id, name: j.name, parent: j.parent }));
const names = (locale: Locale): LawNames => lawNames(texts(locale), list);

const b = (relationship: string | undefined, percentage: number) => ({
  name: 'Person',
  percentage,
  ...(relationship ? { relationship } : {}),
});
type Plan = Omit<CheckPlanInput, 'beneficiaries'> & { beneficiaries: ReturnType<typeof b>[] };
const plan = (
  jurisdiction: string,
  template: CheckPlanInput['template'],
  beneficiaries: ReturnType<typeof b>[],
  more: Partial<CheckPlanInput> = {},
): Plan => ({ jurisdiction, template, beneficiaries, ...more });

const PLANS: Plan[] = [
  // Reserves, template advice and spouse rights (civil and common law).
  plan('fr', 'common-law', [b('son', 20), b('friend', 80)]),
  plan('fr', 'civil-law', [b('son', 10), b('daughter', 40), b('friend', 50)]),
  plan('fr', 'islamic-mirth', [b(undefined, 33.333), b('son', 66.667)]),
  plan('nl', 'civil-law', [b('son', 100)]),
  plan('it', 'common-law', [b('friend', 100)]),
  plan('us-la', 'civil-law', [b('son', 10), b('friend', 90)]),
  plan('gb-sct', 'common-law', [b('son', 10), b('friend', 90)]),
  plan('us-ny', 'common-law', [b('wife', 10), b('friend', 90)]),
  plan('us-ny', 'civil-law', [b('friend', 100)]),
  plan('us-co', 'common-law', [b('wife', 10), b('son', 90)]),
  plan('us-ma', 'common-law', [b('wife', 10), b('son', 90)]),
  plan('us-fl', 'common-law', [b('wife', 10), b('son', 90)]),
  plan('us-fl', 'common-law', [b('wife', 10), b('son', 90)], { maritalPropertyRegime: 'community' }),
  plan('de', 'civil-law', [b('wife', 10), b('son', 90)]),
  plan('se', 'civil-law', [b('wife', 10), b('son', 90)]),
  plan('es', 'civil-law', [b('wife', 10), b('son', 90)]),
  plan('be', 'civil-law', [b('son', 100)]),
  plan('sa', 'common-law', [b('friend', 60), b('son', 40)]),
  plan('my', 'common-law', [b('friend', 60), b('son', 40)]),
  // Fara'id and wasiyyah.
  plan('sa', 'islamic-mirth', [b('wife', 100)], { spouseRadd: false }),
  plan('sa', 'islamic-mirth', [b('wife', 12.5), b('public treasury', 87.5)], { spouseRadd: false }),
  plan('sa', 'islamic-mirth', [b('son', 50), b('daughter', 30), b('brother', 20)]),
  plan('sa', 'islamic-mirth', [b('son', 99.99), b('public treasury', 0.02)]),
  plan('sa', 'islamic-mirth', [b('daughter', 100)], { madhhab: 'hanafi' }),
  plan('sa', 'islamic-mirth', [b('friend', 100)]),
  plan('sa', 'islamic-wasiyyah', [b('friend', 100)]),
  plan('sa', 'islamic-mirth', [b('husband', 50), b('wife', 50)]),
  plan('sa', 'islamic-mirth', [b('father', 50), b('father', 50)]),
  plan('sa', 'islamic-mirth', [b('maternal uncle', 50), b('maternal aunt', 50)]),
  plan('sa', 'islamic-mirth', [b('parent', 50), b('son', 50)]),
  plan('sa', 'islamic-mirth', [b('pen pal', 50), b('son', 50)]),
  plan('sa', 'islamic-wasiyyah', [b('pen pal', 20), b('son', 80)]),
  plan('sa', 'islamic-wasiyyah', [b('son', 40), b('brother', 20), b('friend', 40)]),
  plan('sa', 'islamic-wasiyyah', [b('son', 70), b('daughter', 30)]),
  plan('sa', 'islamic-wasiyyah', [b('son', 70), b('daughter', 30)], { heirsConsent: true }),
  plan('sa', 'islamic-wasiyyah', [b('son', 40), b('daughter', 30), b('friend', 30)]),
  plan('sa', 'islamic-mirth', [b('son', 100)], { otherHeirs: { mother: 1 } }),
  plan('eg', 'islamic-mirth', [b('son', 100)], { madhhab: 'maliki' }),
  plan('id', 'islamic-mirth', [b('son', 100)], { madhhab: 'hanafi' }),
];

const FINDINGS: Finding[] = PLANS.flatMap((p) => checkPlan(index, p as CheckPlanInput).findings);

// The Ja'fari school, the only one recorded that this calculator once could not compute, is computed now: no plan
// finds faraid.school-not-computed. Its sentence is said from the params the check would give.
const UNREACHABLE: Finding[] = [
  {
    severity: 'warning',
    rule: 'faraid.school-not-computed',
    message: 'The Ja’fari school applies here; this calculator does not compute it yet.',
    source: { title: 'test' },
    params: { school: 'jafari', chosenBy: 'jurisdiction', jurisdiction: 'ir' },
  },
];

// Params that are yes/no flags (0 or 1), not figures a reader sees.
const FLAGS = new Set(['conditional', 'spouseNamed', 'optIn', 'mirth', 'consent', 'treasuryNamed', 'carriedEarlier']);

/** The figures of a finding's params as the locale writes them. */
function figures(params: LawParams, locale: Locale): string[] {
  const f = lawFormats(locale);
  return Object.entries(params).flatMap(([k, v]) => {
    if (typeof v !== 'number' || FLAGS.has(k)) return [];
    return [k.endsWith('Percent') ? f.percent(v) : f.number(v)];
  });
}

describe('law findings in words', () => {
  it('real plans find every rule, each with params', () => {
    const found = new Set(FINDINGS.map((f) => f.rule));
    const expected = LAW_RULES.filter((r) => r !== 'faraid.school-not-computed');
    expect([...found].sort()).toEqual([...expected].sort());
    for (const f of FINDINGS) expect(f.params, f.rule).toBeDefined();
    // Each sentence variant is met too.
    const variants = new Set(FINDINGS.map((f) => `${f.rule}:${f.params?.variant ?? ''}`));
    for (const v of [
      'template.mismatch:no-legal-force',
      'template.mismatch:forced-heirship',
      'template.mismatch:no-reserve',
      'template.mismatch:not-recommended',
      'forced-heirship.reserve:collective',
      'forced-heirship.reserve:per-child',
      'forced-heirship.usufruct:short',
      'forced-heirship.usufruct:not-named',
      'spouse.elective-share:no-spouse',
      'spouse.elective-share:fixed',
      'spouse.elective-share:up-to',
      'spouse.elective-share:unquantified',
      'spouse.community-property:community',
      'spouse.community-property:opt-in',
      'spouse.deferred-community:claim',
      'spouse.deferred-community:share-increase',
      'faraid.share-mismatch:heir',
      'faraid.share-mismatch:treasury',
      'faraid.non-heir:relationship',
      'faraid.non-heir:treasury',
      'islamic.unmapped-relationship:missing',
      'islamic.unmapped-relationship:unknown',
    ])
      expect(variants, v).toContain(v);
  });

  it('never puts a name of a person in params', () => {
    for (const f of FINDINGS) expect(JSON.stringify(f.params), f.rule).not.toContain('Person');
  });

  it('says every finding in every locale, its figures written by Intl, and not in English outside English', () => {
    for (const finding of [...FINDINGS, ...UNREACHABLE]) {
      const english = sayLaw(finding, 'en', names('en'));
      for (const locale of LOCALES) {
        const text = sayLaw(finding, locale, names(locale));
        const what = `${locale} ${finding.rule} ${JSON.stringify(finding.params)}`;
        expect(text, what).toBeDefined();
        expect(text!.length, what).toBeGreaterThan(20);
        expect(text, what).not.toMatch(/undefined|NaN|\[object|\$\{/);
        for (const figure of figures(finding.params!, locale)) expect(text, what).toContain(figure);
        if (locale === 'en') continue;
        expect(text, what).not.toBe(english);
        expect(text, what).not.toBe(finding.message);
        if (locale === 'ar')
          expect(text!.replace(/[^\u0600-\u06ff]/g, '').length, what).toBeGreaterThan(text!.length / 3);
        // French typography: a no-break space before : ; ! ? » and after «, so no line starts with them.
        if (locale === 'fr') expect(text, what).not.toMatch(/ [:;!?»]|« /);
      }
    }
  });

  it('names heirs, places, templates and schools in the reader’s words', () => {
    const excluded = FINDINGS.find((f) => f.rule === 'faraid.excluded-heir')!;
    expect(excluded.params).toEqual({ heir: 'fullBrother', by: 'son' });
    expect(sayLaw(excluded, 'fr', names('fr'))).toBe(
      '«\u00a0frère\u00a0» n’hérite de rien\u00a0: «\u00a0fils\u00a0» l’exclut.',
    );
    const reserve = FINDINGS.find((f) => f.rule === 'forced-heirship.reserve' && f.params?.variant === 'collective')!;
    expect(sayLaw(reserve, 'es', names('es'))).toMatch(/^Francia: la ley reserva 1\/2 del patrimonio \(50\s%\)/);
    const school = FINDINGS.find((f) => f.rule === 'faraid.school' && f.params?.jurisdictionSchool === 'hanafi')!;
    expect(sayLaw(school, 'fr', names('fr'))).toContain('l’école hanafite');
    expect(sayLaw(school, 'fr', names('fr'))).toContain('l’école malékite');
    const sum = FINDINGS.find((f) => f.rule === 'plan.percentages-sum')!;
    expect(sayLaw(sum, 'ar', names('ar'))).toContain(lawFormats('ar').percent(sum.params!.totalPercent as number));
  });

  it("says Germany's deferred community is settled by a larger share, not by a claim paid first", () => {
    const deferred = (id: string) =>
      FINDINGS.find((f) => f.rule === 'spouse.deferred-community' && f.params?.jurisdiction === id)!;
    const first = { en: 'settled before', fr: 'réglée avant', es: 'se liquida antes', ar: 'قبل قسمة التركة' };
    for (const locale of LOCALES) {
      expect(sayLaw(deferred('de'), locale, names(locale)), locale).not.toContain(first[locale]);
      expect(sayLaw(deferred('se'), locale, names(locale)), locale).toContain(first[locale]);
    }
  });

  it('says a money claim where the reserve is one (Germany), and reduction where it is not (France)', () => {
    const claim = (jurisdiction: string) =>
      checkPlan(index, {
        jurisdiction,
        template: 'civil-law',
        beneficiaries: [b('son', 10), b('friend', 90)],
      }).findings.find((f) => f.rule === 'forced-heirship.reserve' && f.params?.variant === 'collective')!;
    const money = { en: 'in money from the estate', fr: 'en argent', es: 'en dinero', ar: 'مبلغًا من المال' };
    const reduction = { en: 'reduction', fr: 'réduction', es: 'reducción', ar: 'بتخفيض' };
    const de = claim('de');
    const fr = claim('fr');
    expect(de.params?.claim).toBe('money');
    expect(fr.params?.claim).toBe('reduction');
    expect(de.message).toContain('may claim the difference in money from the estate.');
    expect(de.message).not.toContain('reduction');
    for (const locale of LOCALES) {
      expect(sayLaw(de, locale, names(locale)), locale).toContain(money[locale]);
      expect(sayLaw(de, locale, names(locale)), locale).not.toContain(reduction[locale]);
      expect(sayLaw(fr, locale, names(locale)), locale).toContain(reduction[locale]);
      expect(sayLaw(fr, locale, names(locale)), locale).not.toContain(money[locale]);
    }
  });

  it('gives English place names their "the", at the start of a sentence too', () => {
    const said = (jurisdiction: string) =>
      checkPlan(index, { jurisdiction, template: 'common-law', beneficiaries: [b('friend', 100)] }).findings.map(
        (f) => sayLaw(f, 'en', names('en'))!,
      );
    expect(said('nl')).toContainEqual(expect.stringMatching(/^The Netherlands has forced heirship; /));
    expect(said('nl')).toContainEqual(
      expect.stringMatching(/^If you are married: the default regime in the Netherlands is community property\. /),
    );
    expect(said('ae')).toContainEqual(expect.stringMatching(/^In the United Arab Emirates Islamic inheritance law /));
    expect(said('us-dc')).toContainEqual(expect.stringMatching(/^The District of Columbia gives a surviving spouse /));
    expect(said('fr')).toContainEqual(expect.stringMatching(/^France has forced heirship; /));
  });

  it('keeps the English message, marked, when a name or a param has no words', () => {
    // The maternal uncle is not among the relationships the wizard offers.
    const missing: Finding = {
      severity: 'error',
      rule: 'faraid.missing-heir',
      message: 'The maternal uncle, a surviving heir, is not a beneficiary.',
      source: { title: 'test' },
      params: { heir: 'maternalUncle', expectedPercent: 10 },
    };
    expect(lawFindingInWords(missing, 'fr', names('fr'))).toEqual({ message: missing.message, english: true });
    expect(lawFindingInWords({ rule: 'faraid.missing-heir', message: 'm' }, 'es', names('es'))).toEqual({
      message: 'm',
      english: true,
    });
    expect(
      lawFindingInWords({ rule: 'faraid.missing-heir', message: 'm', params: { heir: 'son' } }, 'ar', names('ar')),
    ).toEqual({ message: 'm', english: true });
    expect(lawFindingInWords({ rule: 'no.such-rule', message: 'm', params: {} }, 'fr', names('fr'))).toEqual({
      message: 'm',
      english: true,
    });
    // English readers get the service's own message, which keeps the jurisdiction's notes.
    const reserve = FINDINGS.find((f) => f.rule === 'forced-heirship.reserve')!;
    expect(lawFindingInWords(reserve, 'en', names('en'))).toEqual({ message: reserve.message, english: false });
  });

  it('validate_plan gives its law warnings the rule as code, and the same params', () => {
    const input = {
      blockchain: 'evm',
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
      beneficiaries: [
        { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 20, relationship: 'son' },
        { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 80, relationship: 'friend' },
      ],
      inheritanceTemplate: 'common-law',
      jurisdiction: 'fr',
    } as Parameters<typeof validateForGeneration>[0];
    const law = checkPlan(index, {
      jurisdiction: 'fr',
      template: 'common-law',
      beneficiaries: input.beneficiaries.map(({ name, percentage, relationship }) => ({
        name,
        percentage,
        relationship: relationship!,
      })),
    }).findings;
    // The law's warnings: those whose code is a law rule (the plan's own notes have codes of their own).
    const warnings = validateForGeneration(input, index).warnings.filter((w) =>
      (LAW_RULES as readonly string[]).includes(w.code ?? ''),
    );
    expect(warnings.map((w) => [w.id, w.code, w.params])).toEqual(law.map((f) => [f.rule, f.rule, f.params]));
    const reserve = warnings.find((w) => w.code === 'forced-heirship.reserve')!;
    expect(
      lawFindingInWords({ rule: reserve.code!, message: reserve.message, params: reserve.params }, 'fr', names('fr'))
        .message,
    ).toBe(sayLaw(law.find((f) => f.rule === 'forced-heirship.reserve')!, 'fr', names('fr')));
  });
});
