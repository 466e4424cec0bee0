import type { VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { validateForGeneration } from '../../src/contracts/engine.js';
import type { Review } from '../../src/embed/ui/form.js';
import { texts } from '../../src/embed/ui/i18n/index.js';
import { resultStep } from '../../src/embed/ui/steps/result.js';
import type { StepContext } from '../../src/embed/ui/steps/context.js';
import { findingsList } from '../../src/embed/ui/steps/review.js';
import { LAW_RULES } from '../../src/core/messages/law-words.js';
import { checkPlan } from '../../src/law/check-plan.js';
import { defaultJurisdictions } from '../../src/law/jurisdictions.js';

// The wizard's review and result lists of law findings, from the answers check_plan and validate_plan give for a
// real plan, walked as the vnodes the steps return (no browser: review-browser.test.ts shows one in Chromium).

const index = defaultJurisdictions();
const jurisdictions = index.all().map((j) => ({ id: j.id, name: j.name, parent: j.parent }));

const beneficiaries = [
  { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 20, relationship: 'son' },
  { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 80, relationship: 'friend' },
];
const input = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries,
  inheritanceTemplate: 'common-law',
  jurisdiction: 'fr',
} as Parameters<typeof validateForGeneration>[0];

const findings = checkPlan(index, {
  jurisdiction: 'fr',
  template: 'common-law',
  beneficiaries: beneficiaries.map(({ name, percentage, relationship }) => ({ name, percentage, relationship })),
}).findings;
const warnings = validateForGeneration(input, index).warnings;

/** The list items of a step's vnodes: [text, lang of the text's span or undefined]. */
function items(node: unknown): Array<[string, string | undefined]> {
  const out: Array<[string, string | undefined]> = [];
  const text = (n: unknown): string =>
    n === null || n === undefined || typeof n === 'boolean'
      ? ''
      : typeof n === 'string' || typeof n === 'number'
        ? String(n)
        : Array.isArray(n)
          ? n.map(text).join('')
          : text((n as VNode<{ children?: unknown }>).props?.children);
  const langOf = (n: unknown): string | undefined => {
    if (!n || typeof n !== 'object') return undefined;
    if (Array.isArray(n)) return n.map(langOf).find((l) => l !== undefined);
    const v = n as VNode<{ children?: unknown; lang?: string }>;
    return v.props?.lang ?? langOf(v.props?.children);
  };
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    const v = n as VNode<{ children?: unknown }>;
    if (v.type === 'li') out.push([text(v), langOf(v)]);
    else walk(v.props?.children);
  };
  walk(node);
  return out;
}

function context(locale: 'en' | 'fr' | 'ar', more: Partial<StepContext>): StepContext {
  return { tx: texts(locale), jurisdictions, review: null, result: null, ...more } as StepContext;
}

const review: Review = { findings, warnings, gas: null, code: null };

describe("the wizard's law findings", () => {
  it('the review says each law finding once, in the reader’s language', () => {
    const fr = items(findingsList(context('fr', { review })));
    // The law's findings, then the plan's other warnings (its default dead man's switch).
    const others = warnings.filter((w) => !(LAW_RULES as readonly string[]).includes(w.code ?? w.id));
    expect(others.length).toBeGreaterThan(0);
    expect(fr).toHaveLength(findings.length + others.length);
    expect(fr.filter(([t]) => t.includes('France\u00a0: la loi réserve 1/2 du patrimoine (50\u00a0%)'))).toHaveLength(
      1,
    );
    expect(fr.every(([, lang]) => lang === undefined)).toBe(true);
    // In English, the service's own sentences, each once too.
    const en = items(findingsList(context('en', { review })));
    expect(en.slice(0, findings.length).map(([t]) => t)).toEqual(
      findings.map((f) => `${texts('en').t.severity[f.severity]}: ${f.message}`),
    );
    expect(en).toHaveLength(findings.length + others.length);
  });

  it('keeps a finding without words in English, marked', () => {
    const missing = {
      severity: 'error',
      rule: 'faraid.missing-heir',
      message: 'The maternal uncle, a surviving heir, is not a beneficiary of the plan.',
      params: { heir: 'maternalUncle', expectedPercent: 10 },
    };
    const ar = items(findingsList(context('ar', { review: { ...review, findings: [missing], warnings: [] } })));
    expect(ar).toEqual([[`${texts('ar').t.severity.error}: ${missing.message}`, 'en']]);
  });

  it('the result says the law warnings of generation in the reader’s language', () => {
    const result = {
      contractCode: '',
      compiled: {},
      contractInfo: { blockchain: 'evm' },
      analysis: { warnings, suggestions: [] },
    };
    const fr = items(resultStep(context('fr', { result })));
    const law = warnings.filter((w) => w.code !== undefined);
    expect(law.length).toBeGreaterThan(0);
    for (const w of law) expect(fr.map(([t]) => t).join('\n')).not.toContain(w.message);
    expect(fr.filter(([t]) => t.includes('France\u00a0: la loi réserve 1/2 du patrimoine (50\u00a0%)'))).toHaveLength(
      1,
    );
  });
});
