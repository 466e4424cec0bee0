import { describe, expect, it } from 'vitest';
import { ARABIC_FAMILY_WORDS, arabicKey } from '../../src/law/arabic-family-words.js';
import { checkPlan } from '../../src/law/check-plan.js';
import type { HeirKey } from '../../src/law/faraid/index.js';
import { classifyRelationship as civilClass } from '../../src/law/family-words.js';
import { checkJurisdictionPlan } from '../../src/law/heirship.js';
import { classifyRelationship } from '../../src/law/islamic.js';
import { URDU_PERSIAN_SCRIPT_WORDS } from '../../src/law/urdu-persian-script-words.js';
import { b, index, J } from './plans.js';

// Relationships written in Urdu and Persian in their own (Perso-Arabic) script: the letters Arabic does not use are
// read, and the forms of heh and yeh they write for the Arabic ones are the Arabic letters.

describe('the letters of Urdu and Persian', () => {
  it('reads an Arabic word as Urdu spells it, with heh goal for teh marbuta, as the Arabic word', () => {
    // Without heh goal these were the Arabic word one letter shorter: husband, father, maternal uncle, grandfather.
    const pairs: [urdu: string, arabic: string][] = [
      ['زوجہ', 'زوجة'],
      ['والدہ', 'والدة'],
      ['خالہ', 'خالة'],
      ['جدہ', 'جدة'],
      ['عمہ', 'عمة'],
    ];
    for (const [urdu, arabic] of pairs) {
      expect([urdu, classifyRelationship(urdu)]).toEqual([urdu, classifyRelationship(arabic)]);
      expect([urdu, civilClass(urdu)]).toEqual([urdu, civilClass(arabic)]);
    }
    expect(classifyRelationship('زوجہ')).toEqual({ kind: 'heir', heir: 'wife' });
    expect(classifyRelationship('والدہ')).toEqual({ kind: 'heir', heir: 'mother' });
  });

  it('makes one the letters typed one for another, and keeps the letters Arabic does not have', () => {
    // heh goal, do-chashmi heh, ae and teh marbuta goal are heh; bari yeh, Farsi yeh and alef maksura are yeh.
    for (const heh of ['ہ', 'ھ', 'ە', 'ۃ', 'ة'])
      expect([heh, arabicKey(`زوج${heh}`)]).toEqual([heh, arabicKey('زوجه')]);
    for (const yeh of ['ے', 'ی', 'ى']) expect([yeh, arabicKey(`وال${yeh}`)]).toEqual([yeh, arabicKey('والي')]);
    // With the hamza above, a mark of its own.
    expect(arabicKey('نوۀ')).toBe(arabicKey('نوه'));
    expect(arabicKey('بھائی')).toBe(arabicKey('بهايي'));
    // پ is not ب, and is not dropped; nor are ٹ, چ, ڈ, ڑ, ژ, گ and ں.
    expect(arabicKey('پسر')).not.toBe(arabicKey('بسر'));
    expect(arabicKey('پسر')).not.toBe(arabicKey('سر'));
    for (const letter of ['ٹ', 'چ', 'ڈ', 'ڑ', 'ژ', 'گ', 'ں'])
      expect([letter, arabicKey(`با${letter}`)]).not.toEqual([letter, arabicKey('با')]);
    expect(arabicKey('ماں')).not.toBe(arabicKey('مان'));
  });
});

/** Each word in script, with the word in Latin letters (or English) it must read as in both checks. */
const SAME_AS: [script: string, latin: string][] = [
  // Urdu
  ['شوہر', 'shohar'],
  ['بیوی', 'biwi'],
  ['بیٹا', 'beta'],
  ['بیٹی', 'beti'],
  ['والد', 'walid'],
  ['والدہ', 'walida'],
  ['بھائی', 'bhai'],
  ['بہن', 'behen'],
  ['پوتا', 'pota'],
  ['پوتی', 'poti'],
  ['نواسہ', 'nawasa'],
  ['نواسی', 'nawasi'],
  ['دادی', 'dadi'],
  ['نانی', 'nani'],
  ['چچا', 'chacha'],
  ['ماموں', 'mamun'],
  ['پھوپھی', 'phuphi'],
  ['خالہ', 'khaleh'],
  ['بھتیجا', 'bhatija'],
  ['خاوند', 'husband'],
  ['ماں', 'mother'],
  ['باپ', 'father'],
  ['بھانجا', 'bhanja'],
  ['بہو', 'bahu'],
  ['دوست', 'dost'],
  // Persian
  ['پسر', 'pesar'],
  ['دختر', 'dokhtar'],
  ['پدر', 'pedar'],
  ['مادر', 'madar'],
  ['همسر', 'hamsar'],
  ['شوهر', 'shohar'],
  ['برادر', 'baradar'],
  ['خواهر', 'khahar'],
  ['فرزند', 'farzand'],
  ['نوه', 'naveh'],
  ['پدربزرگ', 'pedar bozorg'],
  ['مادر بزرگ', 'madarbozorg'],
  ['عمو', 'amu'],
  ['عمه', 'ammeh'],
  // The civil-law table does not read the Latin "pesar-e pesar": these are read as their English words.
  ['پسر پسر', "son's son"],
  ['دختر پسر', "son's daughter"],
  ['پسر دختر', "daughter's son"],
  ['دختر دختر', "daughter's daughter"],
  ['پسرِ برادر', 'pesar-e baradar'],
  ['پسرعمو', 'pesar amu'],
  ['داماد', 'damad'],
];

describe('Urdu and Persian in their own script', () => {
  it('reads each word as both checks read it in Latin letters', () => {
    for (const [script, latin] of SAME_AS) {
      expect([script, classifyRelationship(script)]).toEqual([script, classifyRelationship(latin)]);
      expect([script, civilClass(script)]).toEqual([script, civilClass(latin)]);
      expect([script, classifyRelationship(script).kind]).not.toEqual([script, 'unknown']);
    }
    const heirs: [string, HeirKey][] = [
      ['شوہر', 'husband'],
      ['شوهر', 'husband'],
      ['بیوی', 'wife'],
      ['بیٹا', 'son'],
      ['بیٹی', 'daughter'],
      ['پسر', 'son'],
      ['دختر', 'daughter'],
      ['پدر', 'father'],
      ['مادر', 'mother'],
      ['والد', 'father'],
      ['والدہ', 'mother'],
      ['پوتا', 'sonsSon'],
      ['پوتی', 'sonsDaughter'],
      ['نواسہ', 'daughtersSon'],
      ['نواسی', 'daughtersDaughter'],
    ];
    for (const [script, latin] of [
      ['پسر پسر', 'pesar-e pesar'],
      ['دختر دختر', 'dokhtar-e dokhtar'],
    ])
      expect([script, classifyRelationship(script)]).toEqual([script, classifyRelationship(latin)]);
    for (const [script, heir] of heirs)
      expect([script, classifyRelationship(script)]).toEqual([script, { kind: 'heir', heir }]);
    const classes: [string, string][] = [
      ['شوہر', 'spouse'],
      ['بیوی', 'spouse'],
      ['همسر', 'spouse'],
      ['پسر', 'child'],
      ['فرزند', 'child'],
      ['نوه', 'grandchild'],
      ['پوتا', 'grandchild'],
      ['پدر', 'parent'],
      ['والدہ', 'parent'],
      ['برادر', 'sibling'],
      ['بہن', 'sibling'],
      ['دوست', 'other'],
    ];
    for (const [script, cls] of classes) expect([script, civilClass(script)]).toEqual([script, cls]);
  });

  it('reads every word of the table, however the heh and yeh are typed, and shares no key with an Arabic word', () => {
    const arabic = new Set(Object.keys(ARABIC_FAMILY_WORDS).map(arabicKey));
    for (const [script, word] of Object.entries(URDU_PERSIAN_SCRIPT_WORDS)) {
      expect([script, classifyRelationship(script)]).toEqual([script, classifyRelationship(word)]);
      expect([script, civilClass(script)]).toEqual([script, civilClass(word)]);
      expect([script, arabic.has(arabicKey(script))]).toEqual([script, false]);
      // As typed with the Arabic yeh, kaf and heh, or with diacritics and a joiner.
      const arabicLetters = script.replace(/ی/g, 'ي').replace(/ک/g, 'ك').replace(/ہ/g, 'ه').replace(/ے/g, 'ي');
      expect([arabicLetters, classifyRelationship(arabicLetters)]).toEqual([arabicLetters, classifyRelationship(word)]);
    }
    expect(classifyRelationship('پدر\u200cبزرگ')).toEqual(classifyRelationship('pedarbozorg'));
    expect(classifyRelationship('نوهٔ')).toEqual(classifyRelationship('naveh'));
  });

  it('asks which heir a word that does not tell the line or the blood apart means', () => {
    const ambiguous: [string, HeirKey[]][] = [
      ['همسر', ['husband', 'wife']],
      ['فرزند', ['son', 'daughter']],
      ['نوه', ['sonsSon', 'sonsDaughter', 'daughtersSon', 'daughtersDaughter']],
      ['برادر', ['fullBrother', 'paternalHalfBrother', 'maternalHalfBrother']],
      ['خواهر', ['fullSister', 'paternalHalfSister', 'maternalHalfSister']],
      ['بھائی', ['fullBrother', 'paternalHalfBrother', 'maternalHalfBrother']],
      ['بہن', ['fullSister', 'paternalHalfSister', 'maternalHalfSister']],
      ['پدربزرگ', ['paternalGrandfather', 'maternalGrandfather']],
    ];
    for (const [script, candidates] of ambiguous)
      expect([script, classifyRelationship(script)]).toEqual([script, { kind: 'ambiguous', candidates }]);
    const rulesOn = (relationships: string[], i: number) =>
      checkPlan(index, {
        jurisdiction: 'ir',
        template: 'islamic-mirth',
        beneficiaries: relationships.map((relationship, n) => ({ name: `B${n}`, percentage: 50, relationship })),
      })
        .findings.filter((f) => f.beneficiaryIndex === i)
        .map((f) => f.rule);
    expect(rulesOn(['شوهر', 'برادر'], 1)).toContain('islamic.ambiguous-relationship');
    expect(rulesOn(['همسر', 'پسر'], 0)).toContain('islamic.ambiguous-relationship');
    expect(rulesOn(['شوهر', 'پسر'], 0)).not.toContain('islamic.ambiguous-relationship');
  });

  // Women and men named in script, in Latin letters and in English: the same findings, in both templates and in the
  // civil-law checks of the same countries.
  const PLANS: { jurisdiction: string; words: [english: string, latin: string, script: string][] }[] = [
    {
      jurisdiction: 'pk',
      words: [
        ['wife', 'biwi', 'بیوی'],
        ['son', 'beta', 'بیٹا'],
        ['daughter', 'beti', 'بیٹی'],
        ['mother', 'walida', 'والدہ'],
        ['father', 'walid', 'والد'],
      ],
    },
    {
      jurisdiction: 'pk',
      words: [
        ['husband', 'shohar', 'شوہر'],
        ["son's son", 'pota', 'پوتا'],
        ["son's daughter", 'poti', 'پوتی'],
        ['paternal grandmother', 'dadi', 'دادی'],
        ['paternal uncle', 'chacha', 'چچا'],
      ],
    },
    {
      jurisdiction: 'ir',
      words: [
        ['husband', 'shohar', 'شوهر'],
        ['son', 'pesar', 'پسر'],
        ['daughter', 'dokhtar', 'دختر'],
        ['father', 'pedar', 'پدر'],
        ['mother', 'madar', 'مادر'],
      ],
    },
    {
      jurisdiction: 'ir',
      words: [
        ['husband', 'shohar', 'شوهر'],
        ["son's son", 'pesar-e pesar', 'پسر پسر'],
        ["daughter's daughter", 'dokhtar-e dokhtar', 'دختر دختر'],
        ['paternal uncle', 'amu', 'عمو'],
      ],
    },
  ];

  /** What a check found, without the messages, which quote the relationship as written. */
  const found = (r: ReturnType<typeof checkPlan>) => ({
    ok: r.ok,
    expected: r.expected,
    findings: r.findings.map(({ message: _, ...f }) => f),
  });

  it('checks a Pakistani and an Iranian plan in script as the same plan in Latin letters and in English', () => {
    const friend = ['friend', 'dost', 'دوست'];
    for (const { jurisdiction, words } of PLANS)
      for (const template of ['islamic-mirth', 'islamic-wasiyyah'] as const) {
        const check = (pick: 0 | 1 | 2, percentages: number[]) =>
          checkPlan(index, {
            jurisdiction,
            template,
            beneficiaries: [
              ...words.map((w, i) => ({ name: `B${i}`, percentage: percentages[i]!, relationship: w[pick] })),
              { name: 'F', percentage: percentages[words.length]!, relationship: friend[pick] },
            ],
          });
        // The heirs given what fara'id gives them in English (an excluded one nothing), a friend a tenth by wasiyyah.
        const toFriend = template === 'islamic-wasiyyah' ? 10 : 0;
        const probe = check(0, [...words.map(() => 1), toFriend]);
        const shares = words.map((_, i) =>
          Number(probe.expected.find((e) => e.beneficiaryIndex === i)?.expectedPercentage ?? 0),
        );
        const percentages = [...shares, toFriend];
        const english = found(check(0, percentages));
        expect([jurisdiction, template, found(check(2, percentages))]).toEqual([jurisdiction, template, english]);
        expect([jurisdiction, template, found(check(1, percentages))]).toEqual([jurisdiction, template, english]);
        const rules = english.findings.map((f) => f.rule);
        expect([jurisdiction, template, rules.includes('islamic.unmapped-relationship')]).toEqual([
          jurisdiction,
          template,
          false,
        ]);
      }
  });

  it('checks the same plans under civil law as in English', () => {
    for (const { jurisdiction, words } of PLANS) {
      const plan = (pick: 0 | 2) => [
        ...words.map((w, i) => b(w[pick], 10, `B${i}`)),
        b(pick === 2 ? 'دوست' : 'friend', 100 - 10 * words.length, 'F'),
      ];
      const english = checkJurisdictionPlan(J(jurisdiction), 'civil-law', plan(0));
      const script = checkJurisdictionPlan(J(jurisdiction), 'civil-law', plan(2));
      expect([jurisdiction, script.map(({ message: _, ...f }) => f)]).toEqual([
        jurisdiction,
        english.map(({ message: _, ...f }) => f),
      ]);
    }
  });
});
