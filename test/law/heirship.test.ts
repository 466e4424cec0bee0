import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FindingSchema, type Finding, type PlanBeneficiary } from '../../src/law/findings.js';
import { classifyRelationship } from '../../src/law/family-words.js';
import { checkJurisdictionPlan, fractionValue } from '../../src/law/heirship.js';
import { b, index, J, reserve, rules } from './plans.js';

describe.concurrent('relationship words', () => {
  it.each([
    ['Wife', 'spouse'],
    ['HUSBAND', 'spouse'],
    ['partner', 'spouse'],
    ['civil partner', 'spouse'],
    ['son', 'child'],
    ['Daughter', 'child'],
    ['adopted son', 'child'],
    ['grandson', 'grandchild'],
    ['granddaughter', 'grandchild'],
    ['father', 'parent'],
    ['Mother', 'parent'],
    ['brother', 'sibling'],
    ['half-sister', 'sibling'],
    ['friend', 'other'],
    ['charity', 'other'],
    ['ex-wife', 'other'],
    ['step-son', 'other'],
    ['', 'other'],
    [undefined, 'other'],
    // The languages of the civil-law countries, with or without their accents, and Arabic.
    ['Épouse', 'spouse'],
    ['conjoint survivant', 'spouse'],
    ['cónyuge', 'spouse'],
    ['Ehefrau', 'spouse'],
    ['moglie', 'spouse'],
    ['echtgenoot', 'spouse'],
    ['زوجة', 'spouse'],
    ['fils', 'child'],
    ['Hija', 'child'],
    ['Söhne', 'child'],
    ['figlia', 'child'],
    ['filho', 'child'],
    ['dochter', 'child'],
    ['ابن', 'child'],
    ['petite-fille', 'grandchild'],
    ['nieto', 'grandchild'],
    ['Enkelin', 'grandchild'],
    ["son's daughter", 'grandchild'],
    ['ابن البنت', 'grandchild'],
    ['père', 'parent'],
    ['Mãe', 'parent'],
    ['Eltern', 'parent'],
    ['والدة', 'parent'],
    ['Sœur', 'sibling'],
    ['demi-frère', 'sibling'],
    ['hermana', 'sibling'],
    ['Halbbruder', 'sibling'],
    ['irmão', 'sibling'],
    ['paternal half-brother', 'sibling'],
    ['أخت لأب', 'sibling'],
    ['ami', 'other'],
    ['amiga', 'other'],
    ['femme', 'other'],
    ['nipote', 'other'],
    ['صديق', 'other'],
  ])('%j is %s', (word, cls) => {
    expect(classifyRelationship(word)).toBe(cls);
  });

  it('reads partners in other languages as partners, not spouses, where the law says so', () => {
    for (const word of ['partenaire de PACS', 'pacsée', 'pareja de hecho', 'eingetragene Lebenspartnerin'])
      expect([word, classifyRelationship(word, { partnersAreSpouses: false })]).toEqual([word, 'other']);
    expect(classifyRelationship('pacsé')).toBe('spouse');
    expect(classifyRelationship('époux', { partnersAreSpouses: false })).toBe('spouse');
  });

  // The words of Polish, Slovak, Lithuanian, Latvian, Czech, Romanian, Greek and Hungarian owners, in English order:
  // spouse, husband, wife, son, daughter, child, grandchild, father, mother, brother, sister; each as typed with its
  // marks and (second) without them.
  // Then the words of owners the fara'id checks read too, for the civil-law checks of their countries' plans:
  // Indonesian and Malay, Urdu and Persian in Latin letters, and Turkish (an owner in Germany: `at`).
  const NATIVE: Record<
    string,
    { words: readonly (readonly [string, string] | null)[]; partner?: string; at?: string }
  > = {
    pl: {
      words: [
        ['małżonek', 'malzonek'],
        ['mąż', 'maz'],
        ['żona', 'zona'],
        ['syn', 'SYN'],
        ['córka', 'corka'],
        ['dziecko', 'Dziecko'],
        ['wnuczka', 'wnuk'],
        ['ojciec', 'Ojciec'],
        ['matka', 'Matka'],
        ['brat', 'Brat'],
        ['siostra', 'Siostra'],
      ],
      partner: 'partnerka',
    },
    sk: {
      words: [
        ['manželia', 'manzelia'],
        ['manžel', 'manzel'],
        ['manželka', 'manzelka'],
        ['syn', 'Syn'],
        ['dcéra', 'dcera'],
        ['dieťa', 'dieta'],
        ['vnúča', 'vnuca'],
        ['otec', 'Otec'],
        ['matka', 'Matka'],
        ['brat', 'Brat'],
        ['sestra', 'Sestra'],
      ],
      partner: 'partnerka',
    },
    lt: {
      words: [
        ['sutuoktinė', 'sutuoktine'],
        ['sutuoktinis', 'Sutuoktinis'],
        ['žmona', 'zmona'],
        ['sūnus', 'sunus'],
        ['duktė', 'dukra'],
        ['vaikas', 'Vaikas'],
        ['anūkė', 'anuke'],
        ['tėvas', 'tevas'],
        ['motina', 'Motina'],
        ['brolis', 'Brolis'],
        ['sesuo', 'Sesuo'],
      ],
      partner: 'partnerė',
    },
    lv: {
      words: [
        ['laulātā', 'laulata'],
        ['laulātais', 'laulatais'],
        ['sieva', 'Sieva'],
        ['dēls', 'dels'],
        ['meita', 'Meita'],
        ['bērns', 'berns'],
        ['mazbērns', 'mazberns'],
        ['tēvs', 'tevs'],
        ['mamma', 'Mamma'],
        ['brālis', 'bralis'],
        ['māsa', 'masa'],
      ],
      partner: 'partneris',
    },
    cz: {
      words: [
        ['choť', 'chot'],
        ['manžel', 'manzel'],
        ['manželka', 'manzelka'],
        ['syn', 'Syn'],
        ['dcera', 'Dcera'],
        ['dítě', 'dite'],
        ['vnouče', 'vnouce'],
        ['otec', 'Otec'],
        ['matka', 'Matka'],
        ['bratr', 'Bratr'],
        ['sestra', 'Sestra'],
      ],
    },
    ro: {
      words: [
        ['soț', 'sot'],
        ['soțul', 'sotul'],
        ['soția', 'sotia'],
        ['fiul', 'fiu'],
        ['fiică', 'fiica'],
        ['copil', 'Copil'],
        null, // "nepot", "nepoată" are grandchild and nephew, niece alike: no Romanian word is read as a grandchild
        ['tatăl', 'tata'],
        ['mamă', 'mama'],
        ['frate', 'Frate'],
        ['soră', 'sora'],
      ],
      partner: 'parteneră',
    },
    gr: {
      words: [
        ['σύζυγος', 'συζυγος'],
        ['Σύζυγος', 'ΣΥΖΥΓΟΣ'],
        ['σύζυγος', 'Συζυγος'],
        ['γιος', 'ΓΙΟΣ'],
        ['κόρη', 'κορη'],
        ['παιδί', 'παιδι'],
        ['εγγονός', 'εγγονος'],
        ['πατέρας', 'πατερας'],
        ['μητέρα', 'μητερα'],
        ['αδελφός', 'αδερφος'],
        ['αδελφή', 'αδερφη'],
      ],
    },
    hu: {
      words: [
        ['házastárs', 'hazastars'],
        ['férj', 'ferj'],
        ['feleség', 'feleseg'],
        ['fiúgyermek', 'fiugyermek'],
        ['lánygyermek', 'lanygyermek'],
        ['gyermek', 'gyerek'],
        ['unoka', 'Unoka'],
        ['apa', 'édesapa'],
        ['anya', 'edesanya'],
        ['fivér', 'fiver'],
        ['lánytestvér', 'lanytestver'],
      ],
    },
    id: {
      words: [
        ['istri', 'Istri'],
        ['suami', 'Suami'],
        ['istri', 'ISTRI'],
        ['anak laki-laki', 'anak lelaki'],
        ['anak perempuan', 'Anak Perempuan'],
        ['anak', 'Anak'],
        ['cucu', 'Cucu'],
        ['ayah', 'bapa'],
        ['ibu', 'Ibu'],
        ['saudara laki-laki', 'saudara kandung'],
        ['saudara perempuan', 'Saudara Perempuan'],
      ],
    },
    my: {
      words: [
        ['isteri', 'Isteri'],
        ['suami', 'SUAMI'],
        ['isteri', 'ISTERI'],
        ['anak lelaki', 'Anak Lelaki'],
        ['anak perempuan', 'ANAK PEREMPUAN'],
        ['anak', 'ANAK'],
        ['cucu', 'CUCU'],
        ['bapa', 'ayah'],
        ['ibu', 'IBU'],
        ['saudara lelaki', 'saudara kandung'],
        ['saudara perempuan', 'SAUDARA PEREMPUAN'],
      ],
    },
    pk: {
      words: [
        null,
        ['shohar', 'khawand'],
        ['biwi', 'Biwi'],
        ['beta', 'Beta'],
        ['beti', 'Beti'],
        ['farzand', 'Farzand'],
        ['pota', 'nawasi'],
        ['walid', 'Walid'],
        ['walida', 'Walida'],
        ['bhai', 'Bhai'],
        ['behen', 'Behen'],
      ],
    },
    ir: {
      words: [
        ['hamsar', 'Hamsar'],
        null,
        null,
        ['pesar', 'Pesar'],
        ['dokhtar', 'Dokhtar'],
        ['farzand', 'Farzand'],
        ['naveh', 'pesar-e pesar'],
        ['pedar', 'Pedar'],
        ['madar', 'Madar'],
        ['baradar', 'Baradar'],
        ['khahar', 'Khahar'],
      ],
    },
    tr: {
      at: 'de',
      words: [
        ['eş', 'es'],
        ['koca', 'kocam'],
        ['karı', 'KARI'],
        ['oğul', 'ogul'],
        ['kız evlat', 'kızım'],
        ['çocuk', 'cocuk'],
        ['torun', 'Torun'],
        ['baba', 'babam'],
        ['anne', 'annem'],
        ['erkek kardeş', 'erkek kardes'],
        ['kız kardeş', 'KIZ KARDEŞ'],
      ],
    },
  };
  const ENGLISH = [
    'spouse',
    'husband',
    'wife',
    'son',
    'daughter',
    'child',
    'grandchild',
    'father',
    'mother',
    'brother',
    'sister',
  ] as const;

  it('reads the relatives of Polish, Slovak, Lithuanian, Latvian, Czech, Romanian, Greek, Hungarian, Indonesian, Malay, Urdu, Persian and Turkish owners', () => {
    for (const [id, { words }] of Object.entries(NATIVE))
      words.forEach((spellings, i) => {
        for (const word of spellings ?? [])
          expect([id, word, classifyRelationship(word)]).toEqual([id, word, classifyRelationship(ENGLISH[i])]);
      });
    // Both parents named at once count as two, as "parents" does.
    for (const word of ['rodzice', 'rodiče', 'rodičia', 'tėvai', 'vecāki', 'părinți', 'szülők', 'γονείς'])
      expect([word, classifyRelationship(word)]).toEqual([word, 'parent']);
    // Words that also mean "woman", "man", "girl", "nephew" or a divorcee, a title, or read as English "mate", stay
    // unknown.
    for (const word of [
      'žena',
      'vyras',
      'vīrs',
      'γυναίκα',
      'άντρας',
      'lány',
      'nepot',
      'māte',
      'mate',
      'przyjaciel',
      'kız',
      'janda',
      'duda',
      'zan',
      'begum',
    ])
      expect([word, classifyRelationship(word)]).toEqual([word, 'other']);
  });

  it('checks a plan written in those languages as the same plan in English', () => {
    const english = (i: number) => ENGLISH[i]!;
    for (const [id, { words, at }] of Object.entries(NATIVE))
      for (const pick of [0, 1] as const) {
        const word = (i: number) => words[i]?.[pick] ?? '';
        for (const plan of [
          [2, 3, 4], // wife, son, daughter
          [1, 5, 6], // husband, child, grandchild
          [0, 7, 8, 9, 10], // spouse, father, mother, brother, sister
          [7, 8], // father, mother
          [3, 4, 5, 6], // son, daughter, child, grandchild
        ]) {
          if (plan.some((i) => !words[i])) continue;
          const build = (say: (i: number) => string) => [
            ...plan.map((i, n) => b(say(i), 5, `P${n}`)),
            b('friend', 100 - 5 * plan.length, 'F'),
          ];
          const native = checkJurisdictionPlan(J(at ?? id), 'civil-law', build(word));
          expect([id, plan.map(word), native]).toEqual([
            id,
            plan.map(word),
            checkJurisdictionPlan(J(at ?? id), 'civil-law', build(english)),
          ]);
        }
      }
  });

  it("a partner in those languages is no spouse where the jurisdiction's law makes none", () => {
    for (const [id, { partner }] of Object.entries(NATIVE)) {
      if (!partner) continue;
      expect(J(id).spouseRights.registeredPartners, id).toBe('not-spouse');
      const plan = (who: string) => checkJurisdictionPlan(J(id), 'civil-law', [b(who, 10, 'P'), b('friend', 90, 'F')]);
      expect([id, plan(partner)]).toEqual([id, plan('partner')]);
      expect([id, plan(partner)]).toEqual([id, plan('friend')]);
      expect([id, plan(partner)]).not.toEqual([id, plan('wife')]);
      expect(classifyRelationship(partner)).toBe('spouse');
    }
  });

  it("checks a French plan written in French as the same plan in English: the children named aren't 'unnamed'", () => {
    const french = checkJurisdictionPlan(J('fr'), 'civil-law', [
      b('épouse', 25, 'A'),
      b('fils', 25, 'B'),
      b('fille', 50, 'C'),
    ]);
    const english = checkJurisdictionPlan(J('fr'), 'civil-law', [
      b('wife', 25, 'A'),
      b('son', 25, 'B'),
      b('daughter', 50, 'C'),
    ]);
    expect(french).toEqual(english);
    expect(french.map((f) => f.rule)).not.toContain('forced-heirship.unnamed-heirs');
  });
});

describe.concurrent('forced heirship', () => {
  it("France: the children's reserve grows with their number (1/2, 2/3, 3/4) and each child has an equal part", () => {
    const one = checkJurisdictionPlan(J('fr'), 'civil-law', [b('son', 40), b('friend', 60)]);
    expect(reserve(one)).toHaveLength(1);
    expect(reserve(one)[0]).toMatchObject({ severity: 'warning', expected: 'at least 50%', beneficiaryIndex: 0 });
    expect(reserve(one)[0]?.source.title).toMatch(/Code civil/);
    expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', [b('son', 50), b('friend', 50)]))).toEqual([]);

    const three = [b('son', 25, 'A'), b('daughter', 25, 'B'), b('son', 25, 'C'), b('friend', 25)];
    expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', three))).toEqual([]);
    const short = checkJurisdictionPlan(J('fr'), 'civil-law', [
      b('son', 20, 'A'),
      b('daughter', 20, 'B'),
      b('son', 20, 'C'),
      b('friend', 40),
    ]);
    expect(reserve(short).map((f) => f.expected)).toEqual([
      'at least 75%',
      'at least 25%',
      'at least 25%',
      'at least 25%',
    ]);
    expect(
      reserve(short)
        .slice(1)
        .map((f) => f.beneficiaryIndex),
    ).toEqual([0, 1, 2]);

    // Two children with 2/3 together but unequally: the one below 1/3 is flagged, alone.
    const unequal = reserve(
      checkJurisdictionPlan(J('fr'), 'civil-law', [b('son', 50), b('daughter', 20), b('friend', 30)]),
    );
    expect(unequal).toEqual([expect.objectContaining({ beneficiaryIndex: 1, expected: 'at least 33.33%' })]);
  });

  it('France: without descendants the spouse has a reserve of one quarter', () => {
    const fs = checkJurisdictionPlan(J('fr'), 'civil-law', [b('wife', 20), b('friend', 80)]);
    expect(reserve(fs)).toEqual([
      expect.objectContaining({ severity: 'warning', expected: 'at least 25%', beneficiaryIndex: 0 }),
    ]);
    expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', [b('wife', 25), b('friend', 75)]))).toEqual([]);
    // With children, the spouse has no reserve.
    expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', [b('wife', 5), b('son', 95)]))).toEqual([]);
  });

  it("France and Belgium: a registered partner (PACS, legal cohabitation) has no reserve; elsewhere a spouse's", () => {
    for (const word of ['registered partner', 'partner', 'civil partner', 'domestic partner', 'life partner']) {
      expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', [b(word, 10), b('friend', 90)])), word).toEqual([]);
      expect(reserve(checkJurisdictionPlan(J('be'), 'civil-law', [b(word, 10), b('friend', 90)])), word).toEqual([]);
    }
    expect(J('fr').spouseRights.summary).toContain('PACS partner is not an heir');
    // A married spouse still has the quarter; in Germany a registered partner is a spouse (LPartG § 10).
    expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', [b('husband', 10), b('friend', 90)]))).toHaveLength(1);
    expect(
      reserve(checkJurisdictionPlan(J('de'), 'civil-law', [b('registered partner', 5), b('friend', 95)])),
    ).not.toEqual([]);
    expect(classifyRelationship('Registered-Partner', { partnersAreSpouses: false })).toBe('other');
    expect(classifyRelationship('wife', { partnersAreSpouses: false })).toBe('spouse');
  });

  it("Germany: the parents' Pflichtteil, both parents and one, beside a spouse or alone", () => {
    const parents = (fs: Finding[]) => reserve(fs).filter((f) => f.params?.heirs === 'parents');
    const de = (...bs: PlanBeneficiary[]) => checkJurisdictionPlan(J('de'), 'civil-law', bs);
    // No spouse: each parent's statutory share is 1/2 (§ 1925), so 1/4 each and 1/2 together.
    expect(parents(de(b('mother', 15), b('father', 15), b('friend', 70)))[0]).toMatchObject({
      expected: 'at least 50%',
    });
    expect(parents(de(b('parents', 30), b('friend', 70)))[0]).toMatchObject({ expected: 'at least 50%' });
    // Both parents named as one beneficiary in another language count as two, as "parents" does.
    for (const both of ['Eltern', 'padres', 'والدان'])
      expect([both, parents(de(b(both, 30), b('friend', 70)))[0]?.expected]).toEqual([both, 'at least 50%']);
    expect(parents(de(b('mother', 10), b('friend', 90)))[0]).toMatchObject({ expected: 'at least 25%' });
    expect(parents(de(b('mother', 25), b('father', 25), b('friend', 50)))).toEqual([]);
    // Beside a spouse under the accrued gains (default): the parents' 1/4 together, 1/16 each.
    const withSpouse = de(b('wife', 30), b('mother', 1), b('father', 1), b('friend', 68));
    expect(parents(withSpouse)[0]).toMatchObject({ expected: 'at least 12.5%' });
    expect(parents(withSpouse)[0]!.message).toContain('the parents are entitled');
    expect(reserve(withSpouse).some((f) => f.params?.heirs === 'spouse')).toBe(true);
    // Separate property: the spouse's 1/2 and the parents' 1/2 (§ 1931(1)): 1/4 together for both parents.
    const separate = checkJurisdictionPlan(
      J('de'),
      'civil-law',
      [b('wife', 40), b('mother', 10), b('father', 10), b('friend', 40)],
      {
        maritalPropertyRegime: 'separate',
      },
    );
    expect(parents(separate)[0]).toMatchObject({ expected: 'at least 25%' });
    // A spouse alone named: the parents are named as unnamed reserved heirs.
    const alone = checkJurisdictionPlan(J('de'), 'civil-law', [b('wife', 40), b('friend', 60)]);
    expect(rules(alone, 'forced-heirship.unnamed-heirs')[0]?.params?.heirs).toContain('parents');
  });

  it('Germany: the Pflichtteil is half of the statutory share, which depends on the spouse and the property regime', () => {
    // Children only: statutory share is everything, Pflichtteil 1/2.
    expect(reserve(checkJurisdictionPlan(J('de'), 'civil-law', [b('son', 40), b('friend', 60)]))[0]).toMatchObject({
      expected: 'at least 50%',
    });
    // Spouse + child, community of accrued gains (default): spouse 1/4, child 1/4.
    expect(
      reserve(checkJurisdictionPlan(J('de'), 'civil-law', [b('wife', 25), b('son', 25), b('friend', 50)])),
    ).toEqual([]);
    const low = reserve(checkJurisdictionPlan(J('de'), 'civil-law', [b('wife', 20), b('son', 25), b('friend', 55)]));
    expect(low).toEqual([expect.objectContaining({ beneficiaryIndex: 0, expected: 'at least 25%' })]);
    // Separation of property with two children: spouse 1/6, children 1/3 together.
    const sep = checkJurisdictionPlan(
      J('de'),
      'civil-law',
      [b('husband', 16.67), b('son', 16.67), b('daughter', 16.66), b('friend', 50)],
      {
        maritalPropertyRegime: 'separate',
      },
    );
    expect(reserve(sep)).toEqual([]);
    const sepLow = reserve(
      checkJurisdictionPlan(
        J('de'),
        'civil-law',
        [b('husband', 10), b('son', 20), b('daughter', 20), b('friend', 50)],
        { maritalPropertyRegime: 'separate' },
      ),
    );
    expect(sepLow.map((f) => f.expected)).toEqual(['at least 16.67%']);
    // Parents without descendants or spouse.
    expect(reserve(checkJurisdictionPlan(J('de'), 'civil-law', [b('mother', 10), b('friend', 90)]))[0]).toMatchObject({
      expected: 'at least 25%',
    });
  });

  it('Spain: two thirds to descendants, of which only one third must be equal (the mejora is free among them)', () => {
    const fs = reserve(checkJurisdictionPlan(J('es'), 'civil-law', [b('son', 20), b('daughter', 20), b('friend', 60)]));
    expect(fs).toEqual([expect.objectContaining({ expected: 'at least 66.67%' })]);
    // 60/10: the collective two thirds is met; the daughter is below her 1/6 of the strict legitime.
    const mejora = reserve(
      checkJurisdictionPlan(J('es'), 'civil-law', [b('son', 60), b('daughter', 10), b('friend', 30)]),
    );
    expect(mejora).toEqual([expect.objectContaining({ beneficiaryIndex: 1, expected: 'at least 16.67%' })]);
    expect(
      reserve(checkJurisdictionPlan(J('es'), 'civil-law', [b('son', 50), b('daughter', 17), b('friend', 33)])),
    ).toEqual([]);
    // Parents: one half, one third beside a spouse.
    expect(reserve(checkJurisdictionPlan(J('es'), 'civil-law', [b('father', 40), b('friend', 60)]))[0]?.expected).toBe(
      'at least 50%',
    );
    expect(
      reserve(checkJurisdictionPlan(J('es'), 'civil-law', [b('father', 40), b('wife', 10), b('friend', 50)])),
    ).toEqual([]);
  });

  it("Spain and Belgium: the spouse's reserve is a usufruct, told as a right over the estate, not a shortfall", () => {
    const usufruct = (id: string, bs: PlanBeneficiary[]) =>
      rules(checkJurisdictionPlan(J(id), 'civil-law', bs), 'forced-heirship.usufruct');
    // Spain: a third beside descendants, a half beside ascendants, two thirds otherwise (Código Civil arts. 834-838).
    const cases: Array<[string, PlanBeneficiary[], string, string]> = [
      ['es', [b('wife', 10), b('son', 90)], '1/3', 'art. 834'],
      ['es', [b('wife', 5), b('son', 47.5), b('daughter', 47.5)], '1/3', 'art. 834'],
      ['es', [b('husband', 10), b('father', 50), b('friend', 40)], '1/2', 'art. 837'],
      ['es', [b('wife', 20), b('friend', 80)], '2/3', 'art. 838'],
      ['be', [b('wife', 10), b('son', 90)], '1/2', 'art. 915bis'],
      ['be', [b('husband', 20), b('friend', 80)], '1/2', 'art. 915bis'],
    ];
    for (const [id, bs, fraction, article] of cases) {
      const fs = usufruct(id, bs);
      const what = `${id} ${JSON.stringify(bs)}`;
      expect(fs, what).toEqual([
        expect.objectContaining({
          severity: 'warning',
          beneficiaryIndex: 0,
          params: expect.objectContaining({ fraction }),
        }),
      ]);
      expect(fs[0]?.source.title, what).toContain(article);
      expect(fs[0]?.message, what).toContain(`a reserve in usufruct of ${fraction} of the estate`);
      expect(fs[0]?.message, what).toContain('a right for life to use that part of the property or take its income');
      expect(fs[0]?.message, what).toContain('It is not a share of ownership the contract can pay out.');
      // No percentage of ownership is claimed as owed.
      expect(fs[0]?.expected, what).toBeUndefined();
      expect(
        reserve(checkJurisdictionPlan(J(id), 'civil-law', bs)).map((f) => f.params?.heirs),
        what,
      ).not.toContain('spouse');
    }
    // A spouse given at least that part in ownership gets more than the usufruct is worth: no finding.
    expect(usufruct('es', [b('wife', 33.34), b('son', 66.66)])).toEqual([]);
    expect(usufruct('es', [b('wife', 100)])).toEqual([]);
    expect(usufruct('be', [b('wife', 50), b('son', 25), b('daughter', 25)])).toEqual([]);
    expect(checkJurisdictionPlan(J('es'), 'civil-law', [b('wife', 34), b('son', 33), b('daughter', 33)])).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'forced-heirship.usufruct' })]),
    );
    // A spouse left out: the owner is told, if married, of the usufruct (info: the plan cannot show a marriage).
    for (const [id, bs, fraction] of [
      ['es', [b('son', 50), b('daughter', 50)], '1/3'],
      ['es', [b('father', 50), b('friend', 50)], '1/2'],
      ['es', [b('charity', 100)], '2/3'],
      ['be', [b('son', 100)], '1/2'],
      ['be', [b('friend', 100)], '1/2'],
    ] as Array<[string, PlanBeneficiary[], string]>) {
      const all = checkJurisdictionPlan(J(id), 'civil-law', bs);
      const fs = rules(all, 'forced-heirship.usufruct');
      expect(fs, `${id} ${JSON.stringify(bs)}`).toEqual([
        expect.objectContaining({
          severity: 'info',
          params: expect.objectContaining({ variant: 'not-named', fraction }),
        }),
      ]);
      expect(fs[0]?.message).toMatch(/^If you are married: in (Spain|Belgium) your spouse has by law a usufruct of/);
      // …and not as "part of the estate" reserved to the spouse.
      for (const u of rules(all, 'forced-heirship.unnamed-heirs')) expect(u.params?.heirs).not.toContain('spouse');
    }
    // Belgium: the family home's usufruct, whatever its value.
    expect(usufruct('be', [b('wife', 10), b('son', 90)])[0]?.message).toContain('family home');
  });

  it('Spain: an unmarried partner is no forced heir under the Código Civil (art. 807)', () => {
    for (const word of ['partner', 'registered partner', 'domestic partner']) {
      const fs = checkJurisdictionPlan(J('es'), 'civil-law', [b(word, 10), b('son', 90)]);
      // No shortfall for the partner; only the reminder of a spouse's usufruct, if the owner is married.
      expect(
        rules(fs, 'forced-heirship.usufruct').map((f) => [f.severity, f.params?.variant]),
        word,
      ).toEqual([['info', 'not-named']]);
      // With the parents, their reserve is one half: the one third beside a spouse does not apply.
      expect(
        reserve(checkJurisdictionPlan(J('es'), 'civil-law', [b(word, 10), b('father', 40), b('friend', 50)]))[0]
          ?.expected,
        word,
      ).toBe('at least 50%');
    }
    expect(
      rules(checkJurisdictionPlan(J('es'), 'civil-law', [b('wife', 10), b('son', 90)]), 'forced-heirship.usufruct'),
    ).toHaveLength(1);
  });

  it("Bulgaria and Romania: no registered partnership, so a partner has no spouse's reserve", () => {
    for (const id of ['bg', 'ro']) {
      expect(reserve(checkJurisdictionPlan(J(id), 'civil-law', [b('partner', 10), b('son', 90)])), id).toEqual([]);
      expect(reserve(checkJurisdictionPlan(J(id), 'civil-law', [b('wife', 1), b('son', 99)])), id).toEqual([
        expect.objectContaining({ params: expect.objectContaining({ heirs: 'spouse' }) }),
      ]);
    }
  });

  it('Luxembourg, Latvia, Poland, Slovakia, Lithuania: a partner is not read as a spouse', () => {
    // Luxembourg's PACS (Law of 9 July 2004) and Latvia's notarial partnership (2024) make no partner an heir;
    // Poland and Slovakia have no registered partnership; Lithuania's Civil Code partnership gives no inheritance right.
    // A partner read as a spouse was told of "the spouse's half" of a marital community a partner does not have.
    for (const id of ['lu', 'lv', 'pl', 'sk', 'lt']) {
      for (const word of ['partner', 'registered partner', 'civil partner']) {
        const fs = checkJurisdictionPlan(J(id), 'civil-law', [b(word, 10), b('son', 90)]);
        expect(rules(fs, 'spouse.community-property')[0]?.params?.spouseNamed, `${id} ${word}`).toBe(0);
      }
      const wife = checkJurisdictionPlan(J(id), 'civil-law', [b('wife', 10), b('son', 90)]);
      expect(rules(wife, 'spouse.community-property')[0]?.params?.spouseNamed, id).toBe(1);
      expect(J(id).spouseRights.summary, id).toMatch(/partner/);
    }
  });

  it("Portugal: the spouse's own part of the joint legítima, shared as on intestacy", () => {
    // Two thirds to the spouse and children together (Código Civil art. 2159(1)), shared by head with the spouse
    // never below a quarter (arts. 2157, 2139(1)); two thirds to the spouse and ascendants, 2:1 (arts. 2161, 2142).
    const pt = (bs: PlanBeneficiary[]) =>
      reserve(checkJurisdictionPlan(J('pt'), 'civil-law', bs)).map((f) => [f.params?.heirs, f.expected]);
    expect(pt([b('wife', 10), b('son', 90)])).toEqual([['spouse', 'at least 33.33%']]);
    expect(pt([b('husband', 5), b('son', 47.5), b('daughter', 47.5)])).toEqual([['spouse', 'at least 22.22%']]);
    expect(pt([b('wife', 10), b('son', 30), b('daughter', 30), b('son', 30)])).toEqual([['spouse', 'at least 16.67%']]);
    expect(pt([b('wife', 10), b('father', 50), b('friend', 40)])).toEqual([['spouse', 'at least 44.44%']]);
    // The children's own parts too, and plans that respect them raise nothing.
    expect(pt([b('wife', 60), b('son', 20), b('friend', 20)])).toEqual([['descendants', 'at least 33.33%']]);
    expect(pt([b('wife', 33.34), b('son', 33.33), b('friend', 33.33)])).toEqual([]);
    expect(pt([b('wife', 22.23), b('son', 22.23), b('daughter', 22.23), b('friend', 33.31)])).toEqual([]);
    expect(pt([b('wife', 16.67), b('son', 16.67), b('son', 16.67), b('son', 16.67), b('friend', 33.32)])).toEqual([]);
    expect(pt([b('wife', 44.45), b('mother', 22.22), b('friend', 33.33)])).toEqual([]);
    expect(pt([b('wife', 50), b('son', 50)])).toEqual([]);
    // A partner in a de facto union is no forced heir (arts. 2133, 2157): the child's reserve alone is one half.
    expect(pt([b('partner', 10), b('son', 90)])).toEqual([]);
    expect(pt([b('partner', 60), b('son', 40)])).toEqual([['descendants', 'at least 50%']]);
  });

  it('the Netherlands: a spouse left out is told of the usufruct the heirs may be asked for (BW arts. 4:29, 4:30)', () => {
    for (const bs of [[b('son', 100)], [b('friend', 100)], [b('wife', 5), b('daughter', 95)]]) {
      const fs = rules(checkJurisdictionPlan(J('nl'), 'civil-law', bs), 'forced-heirship.not-computed');
      expect(fs).toHaveLength(1);
      expect(fs[0]?.message).toContain('usufruct');
      expect(fs[0]?.message).toMatch(/art\. 4:29.*art\. 4:30/);
    }
  });

  it('Italy: the spouse and children share reserves that depend on each other', () => {
    const one = reserve(checkJurisdictionPlan(J('it'), 'civil-law', [b('wife', 30), b('son', 40), b('friend', 30)]));
    expect(one).toEqual([expect.objectContaining({ beneficiaryIndex: 0, expected: 'at least 33.33%' })]);
    expect(
      reserve(
        checkJurisdictionPlan(J('it'), 'civil-law', [b('wife', 25), b('son', 25), b('daughter', 25), b('friend', 25)]),
      ),
    ).toEqual([]);
    expect(reserve(checkJurisdictionPlan(J('it'), 'civil-law', [b('husband', 40), b('friend', 60)]))[0]?.expected).toBe(
      'at least 50%',
    );
    expect(
      reserve(checkJurisdictionPlan(J('it'), 'civil-law', [b('son', 30), b('daughter', 30), b('friend', 40)]))[0]
        ?.expected,
    ).toBe('at least 66.67%');
    expect(reserve(checkJurisdictionPlan(J('it'), 'civil-law', [b('mother', 20), b('friend', 80)]))[0]?.expected).toBe(
      'at least 33.33%',
    );
    // Each reserve cites its article; the spouse's also says the right to live in the family home (art. 540(2)).
    const cites = (bs: PlanBeneficiary[]) =>
      reserve(checkJurisdictionPlan(J('it'), 'civil-law', bs)).map((f) => [f.params?.heirs, f.source.title]);
    expect(cites([b('wife', 10), b('son', 20), b('friend', 70)])).toEqual([
      ['spouse', 'Codice civile, art. 542(1)'],
      ['descendants', 'Codice civile, art. 542'],
    ]);
    expect(cites([b('wife', 10), b('son', 10), b('daughter', 10), b('friend', 70)])[0]?.[1]).toBe(
      'Codice civile, art. 542(2)',
    );
    expect(cites([b('wife', 10), b('father', 10), b('friend', 80)])).toEqual([
      ['spouse', 'Codice civile, art. 544'],
      ['parents', 'Codice civile, art. 544'],
    ]);
    expect(cites([b('husband', 10), b('friend', 90)])).toEqual([['spouse', 'Codice civile, art. 540']]);
    expect(cites([b('mother', 10), b('friend', 90)])).toEqual([['parents', 'Codice civile, art. 538']]);
    expect(cites([b('son', 10), b('friend', 90)])).toEqual([['descendants', 'Codice civile, art. 537']]);
    const spouse = reserve(checkJurisdictionPlan(J('it'), 'civil-law', [b('wife', 10), b('son', 90)]))[0]!;
    expect(spouse.message).toContain('the right to live in the family home and use its furniture');
    expect(spouse.message).toContain('(art. 540(2))');
  });

  it('Belgium: the children share one half whatever their number', () => {
    const fs = reserve(
      checkJurisdictionPlan(J('be'), 'civil-law', [b('son', 10), b('daughter', 10), b('son', 10), b('friend', 70)]),
    );
    expect(fs.map((f) => f.expected)).toEqual([
      'at least 50%',
      'at least 16.67%',
      'at least 16.67%',
      'at least 16.67%',
    ]);
    expect(reserve(checkJurisdictionPlan(J('be'), 'civil-law', [b('son', 50), b('friend', 50)]))).toEqual([]);
    expect(
      reserve(
        checkJurisdictionPlan(J('be'), 'civil-law', [b('son', 17), b('daughter', 17), b('son', 17), b('friend', 49)]),
      ),
    ).toEqual([]);
  });

  it('Scotland: legal rights cover the movable estate, where crypto-assets belong', () => {
    const fs = reserve(
      checkJurisdictionPlan(J('gb-sct'), 'common-law', [
        b('wife', 10),
        b('son', 10),
        b('daughter', 10),
        b('friend', 70),
      ]),
    );
    expect(fs.map((f) => f.expected)).toEqual([
      'at least 33.33%',
      'at least 33.33%',
      'at least 16.67%',
      'at least 16.67%',
    ]);
    expect(fs[0]?.message).toMatch(/movable/);
  });

  it('Louisiana: forced heirship only for young or disabled children, so findings are info', () => {
    const fs = reserve(
      checkJurisdictionPlan(J('us-la'), 'civil-law', [b('son', 10), b('daughter', 10), b('friend', 80)]),
    );
    expect(fs).toEqual([expect.objectContaining({ severity: 'info', expected: 'at least 50%' })]);
    expect(fs[0]?.message).toMatch(/23 or younger/);
  });

  it('reminds of reserved heirs the plan does not name, and says when a reserve is not computed', () => {
    const fs = checkJurisdictionPlan(J('it'), 'civil-law', [b('friend', 100)]);
    const unnamed = rules(fs, 'forced-heirship.unnamed-heirs');
    expect(unnamed).toHaveLength(1);
    expect(unnamed[0]?.message).toMatch(/children.*spouse.*parents/);
    expect(reserve(fs)).toEqual([]);
    // France with two children named: the spouse would have no reserve, so no reminder.
    expect(
      rules(
        checkJurisdictionPlan(J('fr'), 'civil-law', [b('son', 50), b('daughter', 50)]),
        'forced-heirship.unnamed-heirs',
      ),
    ).toEqual([]);
    const nl = checkJurisdictionPlan(J('nl'), 'civil-law', [b('son', 10), b('friend', 90)]);
    expect(rules(nl, 'forced-heirship.not-computed')).toHaveLength(1);
    expect(reserve(nl)).toEqual([]);
  });

  it('property: in France a plan giving every child at least its equal part never raises a reserve warning; one below always does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 100 }), (n, slack) => {
        const reserveFraction = n === 1 ? 0.5 : n === 2 ? 2 / 3 : 0.75;
        const each = Math.ceil((reserveFraction * 100 * 100) / n) / 100;
        const childTotal = Math.min(100, each * n + (slack / 100) * (100 - each * n));
        const perChild = Math.floor((childTotal / n) * 100) / 100;
        const plan = [
          ...Array.from({ length: n }, (_, i) => b('child', perChild, `c${i}`)),
          b('friend', Math.round((100 - perChild * n) * 100) / 100),
        ];
        expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', plan))).toEqual([]);
        const cut = plan.map((x, i) =>
          i === 0 ? { ...x, percentage: Math.max(0, Math.round((each - 0.02) * 100) / 100) } : x,
        );
        expect(reserve(checkJurisdictionPlan(J('fr'), 'civil-law', cut)).length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe.concurrent('spouse rights and marital property', () => {
  it('California: community property is info by default, a warning when the caller says community, silent when separate; no elective share', () => {
    const plan = [b('wife', 30), b('friend', 70)];
    const def = checkJurisdictionPlan(J('us-ca'), 'common-law', plan);
    expect(def).toEqual([expect.objectContaining({ severity: 'info', rule: 'spouse.community-property' })]);
    expect(def[0]?.message).toMatch(/already owns half/);
    const community = checkJurisdictionPlan(J('us-ca'), 'common-law', plan, { maritalPropertyRegime: 'community' });
    expect(community.map((f) => [f.rule, f.severity])).toEqual([['spouse.community-property', 'warning']]);
    expect(checkJurisdictionPlan(J('us-ca'), 'common-law', plan, { maritalPropertyRegime: 'separate' })).toEqual([]);
    expect(
      rules(checkJurisdictionPlan(J('us-tx'), 'common-law', [b('friend', 100)]), 'spouse.community-property')[0]
        ?.message,
    ).toMatch(/^If you are married/);
  });

  it('elective share states: warning below a flat fraction, info when it depends on the marriage, reminder when no spouse is named', () => {
    const ny = checkJurisdictionPlan(J('us-ny'), 'common-law', [b('wife', 10), b('friend', 90)]);
    expect(rules(ny, 'spouse.elective-share')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        beneficiaryIndex: 0,
        expected: 'at least 33.33%',
        source: expect.objectContaining({ title: 'EPTL § 5-1.1-A' }),
      }),
    ]);
    expect(
      rules(checkJurisdictionPlan(J('us-ny'), 'common-law', [b('wife', 40), b('friend', 60)]), 'spouse.elective-share'),
    ).toEqual([]);
    // Illinois: 1/3 with descendants, 1/2 without.
    expect(
      rules(
        checkJurisdictionPlan(J('us-il'), 'common-law', [b('husband', 40), b('friend', 60)]),
        'spouse.elective-share',
      )[0]?.expected,
    ).toBe('at least 50%');
    expect(
      rules(checkJurisdictionPlan(J('us-il'), 'common-law', [b('husband', 40), b('son', 60)]), 'spouse.elective-share'),
    ).toEqual([]);
    // Colorado (UPC): up to one half by length of marriage.
    expect(
      rules(checkJurisdictionPlan(J('us-co'), 'common-law', [b('wife', 10), b('son', 90)]), 'spouse.elective-share')[0],
    ).toMatchObject({ severity: 'info', expected: 'up to 50%' });
    // Tennessee (Tenn. Code § 31-4-101(a)(1)): 10% of the net estate under 3 years of marriage, up to 40% from 9 years;
    // Oregon (ORS 114.605(2)): 5% of the augmented estate under 2 years, 2% more a year, 33% from 15 years.
    for (const [id, max, scale] of [
      ['us-tn', 'up to 40%', '9 years or more'],
      ['us-or', 'up to 33%', '15 years or more'],
      // North Carolina (N.C.G.S. § 30-3.1(a)): 15%, 25%, 33%, then 50% of the Total Net Assets from 15 years.
      ['us-nc', 'up to 50%', '50% for 15 years or more'],
    ] as const) {
      const [f] = rules(
        checkJurisdictionPlan(J(id), 'common-law', [b('wife', 10), b('son', 90)]),
        'spouse.elective-share',
      );
      expect(f, id).toMatchObject({ severity: 'info', expected: max });
      expect(J(id).spouseRights.electiveShare?.basis, id).toContain(scale);
      expect(
        rules(checkJurisdictionPlan(J(id), 'common-law', [b('wife', 50), b('son', 50)]), 'spouse.elective-share'),
        id,
      ).toEqual([]);
    }
    // Maine (18-C M.R.S. §§ 2-202(1), 2-203(2)): 50% of the marital-property portion, a percentage of the augmented
    // estate rising from 3% with the years of marriage, so at most one half.
    const me = rules(
      checkJurisdictionPlan(J('us-me'), 'common-law', [b('wife', 10), b('son', 90)]),
      'spouse.elective-share',
    );
    expect(me[0]).toMatchObject({ severity: 'info', expected: 'up to 50%' });
    expect(me[0]?.message).toContain('2-203');
    expect(J('us-me').spouseRights.electiveShare?.basis).toContain('3% under a year');
    expect(
      rules(checkJurisdictionPlan(J('us-me'), 'common-law', [b('wife', 50), b('son', 50)]), 'spouse.elective-share'),
    ).toEqual([]);
    // Utah (Utah Code § 75-2-202(1)): a flat 1/3 of the augmented estate, with no scale by the years of marriage.
    const ut = rules(
      checkJurisdictionPlan(J('us-ut'), 'common-law', [b('wife', 20), b('son', 80)]),
      'spouse.elective-share',
    );
    expect(ut).toEqual([
      expect.objectContaining({ severity: 'warning', beneficiaryIndex: 0, expected: 'at least 33.33%' }),
    ]);
    expect(ut[0]?.message).toContain('75-2-202');
    expect(
      rules(checkJurisdictionPlan(J('us-ut'), 'common-law', [b('wife', 34), b('son', 66)]), 'spouse.elective-share'),
    ).toEqual([]);
    // Virginia since 2017: half of the marital-property portion, by length of marriage (no flat 1/3 any more).
    const va = rules(
      checkJurisdictionPlan(J('us-va'), 'common-law', [b('wife', 20), b('son', 80)]),
      'spouse.elective-share',
    );
    expect(va[0]).toMatchObject({ severity: 'info', expected: 'up to 50%' });
    expect(va[0]?.message).toContain('64.2-308.3');
    // No spouse named: a reminder.
    expect(
      rules(checkJurisdictionPlan(J('us-pa'), 'common-law', [b('son', 100)]), 'spouse.elective-share')[0],
    ).toMatchObject({ severity: 'info' });
    // Florida: 30% elective share, and opt-in community property trusts.
    const fl = checkJurisdictionPlan(J('us-fl'), 'common-law', [b('wife', 10), b('friend', 90)]);
    expect(fl.map((f) => [f.rule, f.severity])).toEqual([
      ['spouse.elective-share', 'warning'],
      ['spouse.community-property', 'info'],
    ]);
    expect(fl[0]?.expected).toBe('at least 30%');
  });

  it('a common-law jurisdiction (England and Wales) raises nothing, whatever the split', () => {
    for (const plan of [
      [b('friend', 100)],
      [b('son', 1), b('charity', 99)],
      [b('wife', 5), b('daughter', 5), b('friend', 90)],
      [b(undefined, 100)],
    ]) {
      expect(checkJurisdictionPlan(J('gb-eng'), 'common-law', plan)).toEqual([]);
      expect(checkJurisdictionPlan(J('gb-eng'), 'custom', plan)).toEqual([]);
    }
    expect(checkJurisdictionPlan(J('au-nsw'), 'common-law', [b('friend', 100)])).toEqual([]);
  });

  it('Germany: a deferred community is explained when a spouse is named', () => {
    const fs = checkJurisdictionPlan(J('de'), 'civil-law', [b('wife', 50), b('son', 50)]);
    expect(rules(fs, 'spouse.deferred-community')).toHaveLength(1);
  });
});

describe.concurrent('templates and Islamic law', () => {
  it('notes a common-law template in a forced-heirship country and a civil-law template in a common-law one', () => {
    const fr = rules(
      checkJurisdictionPlan(J('fr'), 'common-law', [b('son', 50), b('friend', 50)]),
      'template.mismatch',
    );
    expect(fr).toEqual([expect.objectContaining({ severity: 'info' })]);
    expect(fr[0]?.message).toMatch(/forced heirship/);
    const eng = checkJurisdictionPlan(J('gb-eng'), 'civil-law', [b('friend', 100)]);
    expect(eng).toEqual([expect.objectContaining({ severity: 'info', rule: 'template.mismatch' })]);
    expect(
      rules(checkJurisdictionPlan(J('gb-eng'), 'islamic-mirth', [b('son', 100)]), 'template.mismatch')[0]?.message,
    ).toMatch(/no legal force/);
    expect(rules(checkJurisdictionPlan(J('fr'), 'custom', [b('son', 100)]), 'template.mismatch')).toEqual([]);
  });

  it('flags Islamic law where it governs estates, and bequests to non-relatives above one third', () => {
    const sa = checkJurisdictionPlan(J('sa'), 'common-law', [b('friend', 50), b('son', 50)]);
    expect(rules(sa, 'islamic-law.applies')[0]?.severity).toBe('warning');
    expect(rules(sa, 'template.mismatch')[0]?.message).toMatch(/islamic-mirth, islamic-wasiyyah/);
    expect(rules(sa, 'template.mismatch')[0]?.message).not.toMatch(/civil-law template/);
    expect(rules(sa, 'islamic-law.bequest-limit')).toEqual([
      expect.objectContaining({ severity: 'warning', beneficiaryIndex: 0, expected: 'at most 33.33%' }),
    ]);
    expect(
      rules(checkJurisdictionPlan(J('sa'), 'common-law', [b('friend', 30), b('son', 70)]), 'islamic-law.bequest-limit'),
    ).toEqual([]);
    const my = checkJurisdictionPlan(J('my'), 'custom', [b('friend', 100)]);
    expect(rules(my, 'islamic-law.applies')[0]?.severity).toBe('info');
    expect(rules(my, 'islamic-law.bequest-limit')[0]?.severity).toBe('info');
    // An Islamic template is left to the fara'id checks.
    expect(
      checkJurisdictionPlan(J('sa'), 'islamic-mirth', [b('son', 100)]).filter((f) => f.rule.startsWith('islamic-law')),
    ).toEqual([]);
    expect(rules(checkJurisdictionPlan(J('us-ca'), 'common-law', [b('friend', 100)]), 'islamic-law.applies')).toEqual(
      [],
    );
  });

  it('says when relationships are missing where they matter', () => {
    const fs = checkJurisdictionPlan(J('fr'), 'civil-law', [b(undefined, 50, 'A'), b('son', 50)]);
    expect(rules(fs, 'plan.relationship-missing')[0]?.message).toMatch(/^1 beneficiary has no relationship/);
  });
});

describe('every jurisdiction', () => {
  it('checks sample plans without throwing and returns valid findings', () => {
    const plans: PlanBeneficiary[][] = [
      [b('friend', 100)],
      [b('wife', 10), b('son', 10), b('daughter', 10), b('father', 10), b('brother', 10), b('charity', 50)],
      [b('husband', 100)],
      [b('grandson', 60), b(undefined, 40)],
    ];
    let count = 0;
    for (const j of index.all()) {
      for (const template of ['common-law', 'civil-law', 'islamic-mirth', 'islamic-wasiyyah', 'custom']) {
        for (const plan of plans) {
          for (const regime of [undefined, 'community', 'separate'] as const) {
            const fs = checkJurisdictionPlan(j, template, plan, regime ? { maritalPropertyRegime: regime } : undefined);
            for (const f of fs) {
              FindingSchema.parse(f);
              if (f.beneficiaryIndex !== undefined) expect(f.beneficiaryIndex).toBeLessThan(plan.length);
              count++;
            }
          }
        }
      }
    }
    expect(count).toBeGreaterThan(1000);
  });

  it('parses fractions', () => {
    expect(fractionValue('2/3')).toBeCloseTo(0.6667, 4);
    expect(fractionValue('0/1')).toBe(0);
  });
});

describe('what a reserved heir left short may claim', () => {
  it('is a sum of money where the record says so, and reduction of the gifts elsewhere', () => {
    const money = index
      .all()
      .filter((j) => j.forcedHeirship.claim === 'money')
      .map((j) => j.id)
      .sort();
    expect(money).toEqual(['at', 'cz', 'de', 'gb-sct', 'mt', 'nl', 'pl']);
    for (const j of index.all().filter((x) => x.forcedHeirship.claim === 'money'))
      expect(j.forcedHeirship.summary, j.id).toMatch(/money|gives? up what the will leaves/);
    const shortfall = (id: string) =>
      reserve(checkJurisdictionPlan(J(id), 'civil-law', [b('son', 1), b('friend', 99)]))[0]!;
    // The Netherlands, Poland and the Czech Republic have no machine-read reserve: their summary says it.
    // Malta: a right of credit against the estate since Act XVIII of 2004 (Civil Code art. 615).
    for (const id of ['de', 'at', 'gb-sct', 'mt']) {
      const f = shortfall(id);
      expect(f.params?.claim, id).toBe('money');
      expect(f.message, id).toContain('the heirs left short may claim the difference in money from the estate.');
      expect(f.message, id).not.toContain('reduction');
    }
    for (const id of ['fr', 'es', 'it', 'be']) {
      expect(shortfall(id).params?.claim, id).toBe('reduction');
      expect(shortfall(id).message, id).toContain('the heirs may claim reduction of the other gifts.');
    }
  });
});

describe('place names in sentences', () => {
  const messages = (id: string, template: string, bs: PlanBeneficiary[]) =>
    checkJurisdictionPlan(J(id), template, bs).map((f) => f.message);
  it('gives "the" to the places that take it, at the start of a sentence too', () => {
    const nl = messages('nl', 'common-law', [b('friend', 100)]);
    expect(nl.join(' ')).toContain('The Netherlands has forced heirship');
    expect(nl.join(' ')).toContain(
      'If you are married: the default regime in the Netherlands is the limited community',
    );
    expect(messages('cz', 'civil-law', [b('friend', 100)]).join(' ')).toContain(
      'The Czech Republic has forced heirship',
    );
    expect(messages('ae', 'common-law', [b('friend', 100)]).join(' ')).toContain('for the United Arab Emirates.');
    expect(messages('us-dc', 'common-law', [b('friend', 100)]).join(' ')).toMatch(/^The District of Columbia gives/);
    expect(messages('fr', 'common-law', [b('friend', 100)]).join(' ')).toContain('France has forced heirship');
    for (const id of ['nl', 'cz', 'ae', 'us-dc', 'us', 'gb'])
      for (const m of messages(id, 'civil-law', [b('wife', 50), b('friend', 50)]))
        expect(m, id).not.toMatch(/(^|[^e] )(Netherlands|Czech Republic|United |District of)/);
  });
  it('says the default regime as a sentence: "the default regime in Belgium is the legal community regime"', () => {
    expect(messages('be', 'civil-law', [b('wife', 50), b('son', 50)])).toContainEqual(
      expect.stringMatching(/^The default regime in Belgium is the legal community regime \(patrimoine commun/),
    );
    expect(messages('us-ca', 'common-law', [b('friend', 100)])).toContainEqual(
      expect.stringMatching(/^If you are married: the default regime in California is community property\. /),
    );
    expect(messages('de', 'civil-law', [b('wife', 50), b('son', 50)])).toContainEqual(
      expect.stringMatching(
        /^In Germany the default regime is the community of accrued gains \(Zugewinngemeinschaft\): /,
      ),
    );
    for (const id of ['be', 'cz', 'nl', 'de'])
      for (const m of messages(id, 'civil-law', [b('wife', 50), b('son', 50)]))
        expect(m, id).not.toContain("'s default");
  });
});

describe('Islamic law where it governs estates', () => {
  it('says whom it governs once, in the record’s words', () => {
    for (const j of index.all().filter((x) => x.islamicLaw.applies !== 'none')) {
      const m = checkJurisdictionPlan(j, 'common-law', [b('friend', 100)]).find(
        (f) => f.rule === 'islamic-law.applies',
      )!.message;
      expect(m.match(/governs the estates of Muslims/g)?.length ?? 0, j.id).toBeLessThanOrEqual(1);
      expect(m.match(/estates of Muslims/g)?.length ?? 0, j.id).toBeLessThanOrEqual(1);
      expect(m, j.id).toMatch(/^In [A-Z]|^In the [A-Z]/);
      // Notes on the record's citations are for the API's readers, not in the owner's sentence.
      expect(m, j.id).not.toMatch(/citation below|checkNote/);
    }
    const ae = checkJurisdictionPlan(J('ae'), 'common-law', [b('friend', 100)]).find(
      (f) => f.rule === 'islamic-law.applies',
    )!;
    expect(ae.message).toMatch(
      /^In the United Arab Emirates, Islamic inheritance law governs the estates of Muslims\. Non-Muslims may rely /,
    );
    const dz = checkJurisdictionPlan(J('dz'), 'common-law', [b('friend', 100)]);
    expect(dz.find((f) => f.rule === 'islamic-law.applies')!.message).toMatch(
      /^In Algeria, the Family Code applies to Algerians; /,
    );
  });
});

describe('every message of every jurisdiction', () => {
  it('reads without a doubled word ("the the")', () => {
    const plans = [
      [b('friend', 100)],
      [b('wife', 10), b('son', 10), b('friend', 80)],
      [b('husband', 10), b('father', 10), b('friend', 80)],
    ];
    for (const j of index.all())
      for (const template of ['common-law', 'civil-law'])
        for (const plan of plans)
          for (const f of checkJurisdictionPlan(j, template, plan))
            expect(f.message, `${j.id} ${f.rule}`).not.toMatch(/\b(\w+) \1\b/i);
  });
});
