import { describe, expect, it } from 'vitest';
import { checkPlan } from '../../src/law/check-plan.js';
import type { HeirKey } from '../../src/law/faraid/index.js';
import { checkIslamicPlan, classifyRelationship, normalizeRelationship } from '../../src/law/islamic.js';
import { OTHER_LANGUAGE_WORDS } from '../../src/law/islamic/relationship-words-languages.js';
import { index } from './plans.js';

// Relationships written in the languages of the catalogue's Muslim-majority jurisdictions read as the same heirs as
// their English words; a word that does not tell the heir apart is asked about, never guessed.

type Template = 'islamic-mirth' | 'islamic-wasiyyah';

/** The plan checked as the service checks it, each beneficiary named by position so that only the words differ. */
const check = (jurisdiction: string, relationships: string[], percentages: number[], template: Template) =>
  checkPlan(index, {
    jurisdiction,
    template,
    beneficiaries: relationships.map((relationship, i) => ({
      name: `B${i + 1}`,
      percentage: percentages[i]!,
      relationship,
    })),
  });

/** The findings of the fara'id checks (the civil-law ones read relationships through src/law/family-words.ts). */
const faraidFindings = (r: ReturnType<typeof check>) =>
  r.findings.filter((f) => /^(faraid|islamic|wasiyyah)\./.test(f.rule));

/**
 * Checks the plan written in English with the shares fara'id gives it, then the same plan with the words of the other
 * language: both pass, with the same fara'id findings and the same expected shares. `legatees` (wasiyyah) are
 * non-heirs with the percentage given.
 */
function expectSameAsEnglish(
  jurisdiction: string,
  pairs: [english: string, other: string][],
  template: Template,
  legatees: [english: string, other: string, percentage: number][] = [],
) {
  const english = [...pairs.map(([e]) => e), ...legatees.map(([e]) => e)];
  const other = [...pairs.map(([, o]) => o), ...legatees.map(([, o]) => o)];
  const fixed = legatees.map(([, , p]) => p);
  const probe = check(jurisdiction, english, [...pairs.map(() => 1), ...fixed], template);
  const shares = pairs.map((_, i) => Number(probe.expected.find((e) => e.beneficiaryIndex === i)?.expectedPercentage));
  expect(shares.every(Number.isFinite)).toBe(true);
  const inEnglish = check(jurisdiction, english, [...shares, ...fixed], template);
  expect(inEnglish.ok).toBe(true);
  const inOther = check(jurisdiction, other, [...shares, ...fixed], template);
  expect(faraidFindings(inOther)).toEqual(faraidFindings(inEnglish));
  expect(inOther.expected).toEqual(inEnglish.expected);
  expect(inOther.ok).toBe(true);
}

/** The rules of the findings on one beneficiary. */
const rulesOn = (r: { findings: { rule: string; beneficiaryIndex?: number }[] }, i: number): string[] =>
  r.findings.filter((f) => f.beneficiaryIndex === i).map((f) => f.rule);

describe('every word of the other languages reads as its table says', () => {
  it('an heir word names its heir, an ambiguous word its candidates, and no English word is shadowed', () => {
    for (const [lang, words] of Object.entries(OTHER_LANGUAGE_WORDS)) {
      for (const [heir, list] of Object.entries(words.heirs) as [HeirKey, string[]][])
        for (const w of list) expect([lang, w, classifyRelationship(w)]).toEqual([lang, w, { kind: 'heir', heir }]);
      for (const [w, candidates] of Object.entries(words.ambiguous))
        expect([lang, w, classifyRelationship(w)]).toEqual([lang, w, { kind: 'ambiguous', candidates }]);
      for (const w of words.nonHeirs) expect([lang, w, classifyRelationship(w).kind]).toEqual([lang, w, 'non-heir']);
      for (const w of words.treasury ?? [])
        expect([lang, w, classifyRelationship(w).kind]).toEqual([lang, w, 'treasury']);
    }
  });
});

describe('Malay and Indonesian', () => {
  it('reads the heirs of the Kompilasi Hukum Islam and of the Malaysian fara’id lists, however they are typed', () => {
    const table: [string, HeirKey][] = [
      ['Istri', 'wife'],
      ['isteri', 'wife'],
      ['suami', 'husband'],
      ['anak laki-laki', 'son'],
      ['Anak Lelaki', 'son'],
      ['anak perempuan', 'daughter'],
      ['ayah', 'father'],
      ['bapa', 'father'],
      ['ibu', 'mother'],
      ['cucu lelaki dari anak lelaki', 'sonsSon'],
      ['cucu perempuan daripada anak lelaki', 'sonsDaughter'],
      ['cucu laki-laki dari anak perempuan', 'daughtersSon'],
      ['nenek sebelah ibu', 'maternalGrandmother'],
      ['saudara laki-laki kandung', 'fullBrother'],
      ['saudara lelaki seibu sebapa', 'fullBrother'],
      ['saudara perempuan kandung', 'fullSister'],
      ['saudara perempuan seayah', 'paternalHalfSister'],
      ['saudara lelaki sebapa', 'paternalHalfBrother'],
      ['saudara lelaki seibu', 'maternalHalfBrother'],
    ];
    for (const [rel, heir] of table) expect([rel, classifyRelationship(rel)]).toEqual([rel, { kind: 'heir', heir }]);
    expect(classifyRelationship('anak')).toEqual({ kind: 'ambiguous', candidates: ['son', 'daughter'] });
    expect(classifyRelationship('saudara kandung')).toEqual({
      kind: 'ambiguous',
      candidates: ['fullBrother', 'fullSister'],
    });
    for (const rel of ['saudara', 'saudara seibu', 'cucu', 'kakek', 'nenek'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'ambiguous']);
    for (const rel of ['anak angkat', 'anak tiri', 'teman', 'menantu'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'non-heir']);
    // A widow or widower, or a divorcee who is no heir: not guessed.
    expect(classifyRelationship('janda').kind).toBe('unknown');
  });

  it('checks an Indonesian plan as the same plan in English', () => {
    expectSameAsEnglish(
      'id',
      [
        ['wife', 'istri'],
        ['son', 'anak laki-laki'],
        ['daughter', 'anak perempuan'],
        ['daughter', 'Anak Perempuan'],
        ['mother', 'ibu'],
        ['father', 'ayah'],
      ],
      'islamic-mirth',
    );
    expectSameAsEnglish(
      'id',
      [
        ['husband', 'suami'],
        ['mother', 'ibu'],
        ['full sister', 'saudara perempuan kandung'],
        ['maternal half brother', 'saudara laki-laki seibu'],
      ],
      'islamic-mirth',
    );
  });

  it('checks a Malaysian plan as the same plan in English, in both templates', () => {
    const pairs: [string, string][] = [
      ['wife', 'isteri'],
      ['son', 'anak lelaki'],
      ['daughter', 'anak perempuan'],
      ['maternal grandmother', 'nenek sebelah ibu'],
      ['father', 'bapa'],
    ];
    expectSameAsEnglish('my', pairs, 'islamic-mirth');
    expectSameAsEnglish('my', pairs, 'islamic-wasiyyah', [['friend', 'sahabat', 10]]);
    expectSameAsEnglish(
      'my',
      [
        ['paternal grandfather', 'datuk sebelah bapa'],
        ['full brother', 'saudara lelaki seibu sebapa'],
        ['paternal half sister', 'saudara perempuan sebapa'],
      ],
      'islamic-mirth',
    );
  });

  it('asks which heir a word for any child or any sibling means', () => {
    const r = check('id', ['istri', 'anak'], [12.5, 87.5], 'islamic-mirth');
    expect(r.ok).toBe(false);
    expect(rulesOn(r, 1)).toContain('islamic.ambiguous-relationship');
    const m = check('my', ['suami', 'saudara'], [50, 50], 'islamic-mirth');
    expect(rulesOn(m, 1)).toContain('islamic.ambiguous-relationship');
  });
});

describe('French of the Maghreb and West Africa', () => {
  it('reads the heirs as the Moudawana and the Algerian and Senegalese codes name them, œ or oe, accents or none', () => {
    const table: [string, HeirKey][] = [
      ['épouse', 'wife'],
      ['Epouse', 'wife'],
      ['mari', 'husband'],
      ['fils', 'son'],
      ['fille', 'daughter'],
      ['petit-fils (fils du fils)', 'sonsSon'],
      ['fille du fils', 'sonsDaughter'],
      ['père', 'father'],
      ['mère', 'mother'],
      ['frère germain', 'fullBrother'],
      ['Sœur germaine', 'fullSister'],
      ['soeur germaine', 'fullSister'],
      ['SŒUR CONSANGUINE', 'paternalHalfSister'],
      ['frère consanguin', 'paternalHalfBrother'],
      ['frère utérin', 'maternalHalfBrother'],
      ['sœur utérine', 'maternalHalfSister'],
      ['grand-mère maternelle', 'maternalGrandmother'],
      ["fils de l'oncle paternel", 'fullPaternalUnclesSon'],
      ['oncle maternel', 'maternalUncle'],
    ];
    for (const [rel, heir] of table) expect([rel, classifyRelationship(rel)]).toEqual([rel, { kind: 'heir', heir }]);
    // A grandson of either line, a brother of any blood: asked about, not read as the English words are.
    expect(classifyRelationship('petit-fils')).toEqual({ kind: 'ambiguous', candidates: ['sonsSon', 'daughtersSon'] });
    for (const rel of ['frère', 'sœur', 'soeur', 'grand-père', 'demi-frère', 'neveu', 'oncle'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'ambiguous']);
    for (const rel of ['ami', 'belle-fille', 'nièce', 'frère de lait', 'ex-épouse'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'non-heir']);
    expect(classifyRelationship('trésor public').kind).toBe('treasury');
    // Woman as often as wife: not guessed.
    expect(classifyRelationship('femme').kind).toBe('unknown');
  });

  it('checks a Moroccan and an Algerian plan as the same plans in English', () => {
    expectSameAsEnglish(
      'ma',
      [
        ['wife', 'épouse'],
        ['daughter', 'fille'],
        ["son's daughter", 'fille du fils'],
        ['mother', 'mère'],
        ['full brother', 'frère germain'],
      ],
      'islamic-mirth',
    );
    expectSameAsEnglish(
      'ma',
      [
        ['wife', 'épouse'],
        ["son's son", 'petit-fils (fils du fils)'],
        ['father', 'père'],
      ],
      'islamic-wasiyyah',
      [['friend', 'ami', 20]],
    );
    expectSameAsEnglish(
      'dz',
      [
        ['husband', 'mari'],
        ['mother', 'mère'],
        ['maternal half brother', 'frère utérin'],
        ['maternal half sister', 'sœur utérine'],
        ['paternal half sister', 'sœur consanguine'],
      ],
      'islamic-mirth',
    );
  });

  it('asks which heir a bare "petit-fils" or "frère" means', () => {
    const r = check('ma', ['épouse', 'petit-fils'], [12.5, 87.5], 'islamic-mirth');
    expect(r.ok).toBe(false);
    expect(rulesOn(r, 1)).toContain('islamic.ambiguous-relationship');
    expect(rulesOn(check('dz', ['mari', 'frère'], [50, 50], 'islamic-mirth'), 1)).toContain(
      'islamic.ambiguous-relationship',
    );
  });
});

describe('Turkish', () => {
  it('reads dotless ı, ş, ğ, ç, ö and ü, in either case, as the table is written', () => {
    expect(normalizeRelationship('KIZ EVLAT')).toBe('kiz evlat');
    expect(normalizeRelationship('kız evlat')).toBe('kiz evlat');
    expect(normalizeRelationship('Oğlunun Kızı')).toBe('oglunun kizi');
    expect(normalizeRelationship('İSTERİ')).toBe('isteri');
    const table: [string, HeirKey][] = [
      ['karı', 'wife'],
      ['KARI', 'wife'],
      ['koca', 'husband'],
      ['oğul', 'son'],
      ['OĞUL', 'son'],
      ['kız evlat', 'daughter'],
      ['Kızım', 'daughter'],
      ['baba', 'father'],
      ['anne', 'mother'],
      ['oğlunun oğlu', 'sonsSon'],
      ['oğlunun kızı', 'sonsDaughter'],
      ['babaanne', 'paternalGrandmother'],
      ['anneanne', 'maternalGrandmother'],
      ['öz erkek kardeş', 'fullBrother'],
      ['baba bir kız kardeş', 'paternalHalfSister'],
      ['ana bir erkek kardeş', 'maternalHalfBrother'],
      ['amca', 'fullPaternalUncle'],
      ['dayı', 'maternalUncle'],
    ];
    for (const [rel, heir] of table) expect([rel, classifyRelationship(rel)]).toEqual([rel, { kind: 'heir', heir }]);
    for (const rel of ['eş', 'Eşim', 'kardeş', 'erkek kardeş', 'kız kardeş', 'torun', 'dede', 'yeğen'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'ambiguous']);
    for (const rel of ['arkadaş', 'üvey oğul', 'gelin', 'süt kardeş'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'non-heir']);
    // Girl as often as daughter: not guessed.
    expect(classifyRelationship('kız').kind).toBe('unknown');
  });

  it('checks a plan in Turkish as the same plan in English, in both templates', () => {
    // Turkey's own law is secular: the Islamic templates are used where the owner plans, here Germany.
    expectSameAsEnglish(
      'de',
      [
        ['wife', 'karı'],
        ['son', 'oğul'],
        ['daughter', 'kız evlat'],
        ['paternal grandmother', 'babaanne'],
        ['maternal grandmother', 'anneanne'],
      ],
      'islamic-mirth',
    );
    expectSameAsEnglish(
      'de',
      [
        ['husband', 'koca'],
        ['father', 'baba'],
        ['mother', 'anne'],
      ],
      'islamic-wasiyyah',
      [['friend', 'arkadaş', 25]],
    );
    const b = (relationship: string, percentage: number, name: string) => ({ name, percentage, relationship });
    const turkish = checkIslamicPlan('islamic-mirth', [b('karı', 25, 'a'), b('baba bir erkek kardeş', 75, 'b')]);
    const english = checkIslamicPlan('islamic-mirth', [b('wife', 25, 'a'), b('paternal half brother', 75, 'b')]);
    expect(english.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(turkish.findings).toEqual(english.findings);
  });

  it('asks which heir "eş", "kardeş" or "torun" means', () => {
    const r = checkIslamicPlan('islamic-mirth', [
      { name: 'a', percentage: 25, relationship: 'eş' },
      { name: 'b', percentage: 50, relationship: 'kardeş' },
      { name: 'c', percentage: 25, relationship: 'torun' },
    ]);
    for (const i of [0, 1, 2]) expect(rulesOn(r, i)).toContain('islamic.ambiguous-relationship');
  });
});

describe('Urdu and Persian in Latin letters', () => {
  it('reads the Urdu words that name the line, and the Persian words of the Iranian Civil Code', () => {
    const table: [string, HeirKey][] = [
      ['biwi', 'wife'],
      ['Shohar', 'husband'],
      ['shauhar', 'husband'],
      ['beta', 'son'],
      ['beti', 'daughter'],
      ['walid', 'father'],
      ['walida', 'mother'],
      ['pota', 'sonsSon'],
      ['nawasi', 'daughtersDaughter'],
      ['dadi', 'paternalGrandmother'],
      ['nani', 'maternalGrandmother'],
      ['chacha', 'fullPaternalUncle'],
      ['mamun', 'maternalUncle'],
      ['bhatija', 'fullBrothersSon'],
      ['pesar', 'son'],
      ['dokhtar', 'daughter'],
      ['pedar', 'father'],
      ['madar', 'mother'],
      ['pesar-e amu', 'fullPaternalUnclesSon'],
    ];
    for (const [rel, heir] of table) expect([rel, classifyRelationship(rel)]).toEqual([rel, { kind: 'heir', heir }]);
    for (const rel of ['hamsar', 'aulad', 'bhai', 'behen', 'baradar', 'khahar', 'nave'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'ambiguous']);
    for (const rel of ['dost', 'bhanja', 'bahu'])
      expect([rel, classifyRelationship(rel).kind]).toEqual([rel, 'non-heir']);
    // A title as often as a wife; Urdu mother but Arabic paternal aunt; English grandma and dad: not read as Urdu.
    expect(classifyRelationship('begum').kind).toBe('unknown');
    expect(classifyRelationship('amma')).toEqual({ kind: 'heir', heir: 'fullPaternalAunt' });
    expect(classifyRelationship('nana').kind).toBe('unknown');
    expect(classifyRelationship('dada').kind).toBe('unknown');
  });

  it('checks a Pakistani plan in Urdu and an Iranian plan in Persian as the same plans in English', () => {
    expectSameAsEnglish(
      'pk',
      [
        ['wife', 'biwi'],
        ['son', 'beta'],
        ['daughter', 'beti'],
        ['mother', 'walida'],
        ['father', 'walid'],
      ],
      'islamic-mirth',
    );
    expectSameAsEnglish(
      'pk',
      [
        ['husband', 'shohar'],
        ["son's daughter", 'poti'],
        ['paternal grandmother', 'dadi'],
        ['maternal grandmother', 'nani'],
        ['paternal uncle', 'chacha'],
      ],
      'islamic-wasiyyah',
      [['friend', 'dost', 10]],
    );
    expectSameAsEnglish(
      'ir',
      [
        ['husband', 'shohar'],
        ['daughter', 'dokhtar'],
        ['father', 'pedar'],
        ['mother', 'madar'],
      ],
      'islamic-mirth',
    );
  });

  it('asks which heir "bhai" or "hamsar" means', () => {
    expect(rulesOn(check('pk', ['biwi', 'bhai'], [25, 75], 'islamic-mirth'), 1)).toContain(
      'islamic.ambiguous-relationship',
    );
    expect(rulesOn(check('ir', ['hamsar', 'pesar'], [25, 75], 'islamic-mirth'), 0)).toContain(
      'islamic.ambiguous-relationship',
    );
  });
});
