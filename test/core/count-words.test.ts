import { describe, expect, it } from 'vitest';
import { guardianRulesText } from '../../src/contracts/guardians.js';
import { texts } from '../../src/embed/ui/i18n/index.js';
import { EVM_WORDS } from '../../src/core/messages/evm-words.js';
import { LOCALES, numberFormats } from '../../src/core/messages/index.js';
import { SOLANA_WORDS } from '../../src/core/messages/solana-words.js';
import { TON_WORDS } from '../../src/core/messages/ton-words.js';
import { sayLaw } from '../../src/core/messages/law-words-en.js';
import { lawNames } from '../../src/embed/ui/law-names.js';
import { type CheckPlanInput, checkPlan } from '../../src/law/check-plan.js';
import { defaultJurisdictions } from '../../src/law/jurisdictions.js';

// Texts with a count in them read right when the count is one.

describe('a count of one', () => {
  it("the contracts' guardian rules: one guardian can veto, not '1 guardians'", () => {
    expect(guardianRulesText(2, 1, true)).toContain('; any one guardian can veto a trigger during the grace period');
    expect(guardianRulesText(3, 2, true)).toContain('2 guardians can veto a trigger during the grace period');
    const alone = guardianRulesText(1, 1, true);
    expect(alone).toMatch(/^The one guardian can propose an early release; /);
    expect(alone).toContain("Without the guardian's confirmation there is no early release; the guardian can veto");
    for (const [n, m] of [
      [1, 1],
      [2, 1],
      [3, 1],
    ])
      expect(guardianRulesText(n!, m!, true)).not.toMatch(/\b1 guardians\b/);
  });

  it("the wizard's generate step names one beneficiary in the singular", () => {
    expect(texts('en').t.generateIntro('EVM', '1')).toMatch(/^Generate the EVM contract for 1 beneficiary\. /);
    expect(texts('en').t.generateIntro('EVM', '3')).toMatch(/^Generate the EVM contract for 3 beneficiaries\. /);
  });

  it("the wizard's guardian rules, on every chain and in every locale: 'your guardian', not '1 of your 1 guardians'", () => {
    const say = (locale: (typeof LOCALES)[number], guardians: number, threshold: number) =>
      [
        EVM_WORDS[locale]['evm.guardian-rules'],
        SOLANA_WORDS[locale]['solana.guardian-rules'],
        TON_WORDS[locale]['ton.guardian-rules'],
      ].map((words) => words({ guardians, threshold, waitDays: 30 }, numberFormats(locale), locale));
    const one = { en: 'Your guardian can', fr: 'Votre gardien peut', es: 'Su guardián puede', ar: 'يستطيع وصيّك' };
    const many = {
      en: '2 of your 3 guardians',
      fr: '2 de vos 3 gardiens',
      es: '2 de sus 3 guardianes',
      ar: 'من أوصيائك الـ3',
    };
    for (const locale of LOCALES) {
      for (const text of say(locale, 1, 1)) expect(text, locale).toContain(one[locale]);
      for (const text of say(locale, 3, 2)) expect(text, locale).toContain(many[locale]);
    }
  });

  it("a child's own reserve when one child is named, and the parents' reserve, read right in every locale", () => {
    const index = defaultJurisdictions();
    const list = index.all().map((j) => ({ id: j.id, name: j.name, parent: j.parent }));
    const findings = (input: CheckPlanInput) =>
      checkPlan(index, input).findings.filter((f) => f.rule === 'forced-heirship.reserve');
    // Spain: two thirds for the descendants, one third of it split per head: one son named at 30%.
    const one = findings({
      jurisdiction: 'es',
      template: 'civil-law',
      beneficiaries: [
        { name: 'Son', percentage: 30, relationship: 'son' },
        { name: 'Friend', percentage: 70, relationship: 'friend' },
      ],
    }).find((f) => f.params?.variant === 'per-child');
    expect(one).toBeDefined();
    expect(one!.message).toContain('the one child named is entitled');
    const words = {
      en: 'the one child named is',
      fr: 'l’enfant nommé a droit',
      es: 'el único hijo nombrado',
      ar: 'للولد المذكور',
    };
    for (const locale of LOCALES) {
      const text = sayLaw(one!, locale, lawNames(texts(locale), list))!;
      expect(text, locale).toContain(words[locale]);
      expect(text, locale).not.toMatch(/\b1 (children|enfants|hijos)\b|الـ1/);
    }
    const parents = findings({
      jurisdiction: 'de',
      template: 'civil-law',
      beneficiaries: [
        { name: 'Mother', percentage: 5, relationship: 'mother' },
        { name: 'Friend', percentage: 95, relationship: 'friend' },
      ],
    });
    expect(parents.map((f) => f.message).join(' ')).toMatch(/the parents are entitled/);
    expect(parents.map((f) => f.message).join(' ')).not.toMatch(/parents is/);
  });
});
