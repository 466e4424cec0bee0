import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlanSchema } from '../../src/contracts/plan.js';
import { planProblems } from '../../src/contracts/validate.js';
import {
  CATALOGS,
  humanMessage,
  type Issue,
  type IssueCode,
  ISSUE_CODES,
  issueFromZod,
  LOCALES,
  parseDecimal,
} from '../../src/core/messages/index.js';
import { zodDetails } from '../../src/tools/invoke.js';
import { formIssues } from '../../src/embed/ui/checks.js';
import { type Form, planOf } from '../../src/embed/ui/form.js';

// Every message of the validation mapping is reached from a real input: a form as the wizard holds it, a plan
// refused by the schema (zod) or by the plan rules (the API). A code no input reaches fails the last test.

const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';

const form = (over: Partial<Form> = {}): Form => ({
  blockchain: 'evm',
  template: 'custom',
  jurisdiction: '',
  madhhab: '',
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: A, percentage: '60', relationship: '' },
    { name: 'Bob', address: B, percentage: '40', relationship: '' },
  ],
  switchEnabled: true,
  intervalDays: '365',
  gracePeriodDays: '0',
  guardians: '',
  threshold: '1',
  ...over,
});

const row = (name: string, address: string, percentage: string) => ({ name, address, percentage, relationship: '' });

/** The wizard's issues of a form, by field. */
const wizard = (over: Partial<Form>) => formIssues(form(over));

/** The zod issues of a plan, mapped. */
function zod(plan: unknown): Record<string, Issue | undefined> {
  const r = PlanSchema.safeParse(plan);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), issueFromZod(i)]));
}

const basePlan = planOf(form());

const covered = new Set<IssueCode>();
/** Every problem an input above reached, with its real parameters, to be written in every locale. */
const reached: Issue[] = [];
function expectIssue(found: Record<string, Issue | undefined>, field: string, expected: Issue): void {
  expect(found[field], field).toEqual(expected);
  covered.add(expected.code);
  reached.push(expected);
}

describe('validation problems in words', () => {
  it('the wizard finds every field problem of a form at once', () => {
    const found = wizard({
      ownerAddress: '',
      beneficiaries: [
        row('', '', 'abc'),
        row('Bob', '0x52908400098527886E0F7030069857D2E4169Ee7', '0'),
        row('C', B, '120'),
      ],
      intervalDays: '1.5',
      gracePeriodDays: '400',
    });
    expectIssue(found, 'ownerAddress', { code: 'address_required' });
    expectIssue(found, 'beneficiaries.0.name', { code: 'name_required' });
    expectIssue(found, 'beneficiaries.0.address', { code: 'address_required' });
    expectIssue(found, 'beneficiaries.0.percentage', { code: 'percentage_format' });
    expectIssue(found, 'beneficiaries.1.address', { code: 'address_checksum', suggestion: A });
    expectIssue(found, 'beneficiaries.1.percentage', { code: 'percentage_positive' });
    expectIssue(found, 'beneficiaries.2.percentage', { code: 'percentage_max' });
    expectIssue(found, 'deadMansSwitch.intervalDays', { code: 'whole_number' });
    expectIssue(found, 'deadMansSwitch.gracePeriodDays', { code: 'number_max', max: 365 });
    // Shares are summed only when every share can be read.
    expect(found.beneficiaries).toBeUndefined();
    expect(Object.keys(found)).toHaveLength(9);
  });

  it('addresses: shape, zero, the owner, twice', () => {
    const found = wizard({
      ownerAddress: '0x0000000000000000000000000000000000000000',
      beneficiaries: [
        row('A', 'hello', '25'),
        row('B', B, '25'),
        row('C', B, '25'),
        row('D', `0x${'0'.repeat(40)}`, '25'),
      ],
    });
    expectIssue(found, 'ownerAddress', { code: 'zero_owner' });
    expectIssue(found, 'beneficiaries.0.address', { code: 'evm_address' });
    expectIssue(found, 'beneficiaries.2.address', { code: 'duplicate_beneficiary', other: 1 });
    expectIssue(found, 'beneficiaries.3.address', { code: 'zero_address' });
    const own = wizard({ beneficiaries: [row('A', OWNER.toUpperCase().replace('0X', '0x'), '100')] });
    expectIssue(own, 'beneficiaries.0.address', { code: 'owner_is_beneficiary' });
  });

  it('shares: a decimal comma is understood, three decimals are not, the sum is exact', () => {
    expect(parseDecimal('30,5')).toBe(30.5);
    expect(parseDecimal(' 30.5 % ')).toBe(30.5);
    expect(parseDecimal('30,5,1')).toBeUndefined();
    expect(wizard({ beneficiaries: [row('A', A, '69,5'), row('B', B, '30,5')] })).toEqual({});
    expect(planOf(form({ beneficiaries: [row('A', A, '69,5'), row('B', B, '30,5')] })).beneficiaries).toMatchObject([
      { percentage: 69.5 },
      { percentage: 30.5 },
    ]);
    expectIssue(
      wizard({ beneficiaries: [row('A', A, '33.333'), row('B', B, '66.667')] }),
      'beneficiaries.0.percentage',
      {
        code: 'percentage_decimals',
      },
    );
    expectIssue(wizard({ beneficiaries: [row('A', A, '60'), row('B', B, '50')] }), 'beneficiaries', {
      code: 'percentage_sum',
      total: 110,
    });
    expect(
      wizard({
        beneficiaries: [row('A', A, '33.33'), row('B', B, '33.33'), row('C', OWNER.replace('c26', 'c27'), '33.34')],
      }),
    ).toEqual({});
  });

  it('the switch and guardians', () => {
    expectIssue(wizard({ switchEnabled: false }), 'deadMansSwitch.enabled', { code: 'no_release' });
    expectIssue(wizard({ intervalDays: '0' }), 'deadMansSwitch.intervalDays', { code: 'number_min', min: 1 });
    const g = wizard({
      guardians: `${OWNER}\n${B.replace('8617', '9617')}\n${B.replace('8617', '9617')}`,
      threshold: '5',
    });
    expectIssue(g, 'guardians.addresses', { code: 'guardian_is_owner' });
    expectIssue(g, 'guardians.threshold', { code: 'threshold_exceeds', count: 3 });
    expectIssue(
      wizard({ guardians: `${B.replace('8617', '9617')} ${B.replace('8617', '9617')}` }),
      'guardians.addresses',
      {
        code: 'guardian_duplicate',
      },
    );
    expectIssue(wizard({ guardians: `0x${'0'.repeat(40)}` }), 'guardians.addresses', { code: 'zero_guardian' });
    const many = Array.from({ length: 11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '1')}`).join('\n');
    expectIssue(wizard({ guardians: many }), 'guardians.addresses', { code: 'too_many', max: 10 });
  });

  it('zod issues of the plan schema map to the same problems', () => {
    const found = zod({
      ...basePlan,
      blockchain: 'bitcoin',
      beneficiaries: [
        { name: '', address: '', percentage: null },
        { name: 'x'.repeat(201), address: B, percentage: 101 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 'soon', gracePeriodDays: -1 },
    });
    expectIssue(found, 'blockchain', { code: 'choose_option', options: ['evm', 'solana', 'ton'] });
    expectIssue(found, 'beneficiaries.0.name', { code: 'name_required' });
    expectIssue(found, 'beneficiaries.0.address', { code: 'address_required' });
    expectIssue(found, 'beneficiaries.0.percentage', { code: 'percentage_format' });
    expectIssue(found, 'beneficiaries.1.name', { code: 'too_long', max: 200 });
    expectIssue(found, 'beneficiaries.1.percentage', { code: 'percentage_max' });
    expectIssue(found, 'deadMansSwitch.intervalDays', { code: 'whole_number' });
    expectIssue(found, 'deadMansSwitch.gracePeriodDays', { code: 'number_min', min: 0 });
    // A field people do not fill in keeps zod's own words.
    expect(issueFromZod({ code: 'invalid_type', path: ['tokenId'], expected: 'string' })).toBeUndefined();
  });

  it('a value past several bounds of one field is told the one to meet, once', () => {
    const schema = z.strictObject({
      amount: z.number().int().min(-100).max(100).describe('Credits.'),
      count: z.number().int().min(1).describe('How many.'),
    });
    const r = schema.safeParse({ amount: 1e20, count: -1e20 });
    // zod reports the safe-integer bound of .int() beside the schema's own.
    expect(r.error!.issues).toHaveLength(4);
    expect(zodDetails(r.error!)).toEqual([
      { field: 'amount', reason: 'Enter 100 or less.' },
      { field: 'count', reason: 'Enter 1 or more.' },
    ]);
  });

  it("a required field left out is said to be required; one given with a wrong type keeps zod's words", () => {
    const { beneficiaries: _left, ...noHeirs } = basePlan;
    const r = PlanSchema.safeParse(noHeirs);
    const found = Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), issueFromZod(i, true)]));
    expectIssue(found, 'beneficiaries', { code: 'value_required' });
    expect(zodDetails(r.error!, noHeirs)).toEqual([{ field: 'beneficiaries', reason: 'This field is required.' }]);
    // Without the input, nothing says the field was left out: zod's words.
    expect(zodDetails(r.error!)[0]!.reason).toMatch(/expected array, received undefined/);
    // Given, but not a list; given as null: not left out.
    for (const beneficiaries of ['Alice', null]) {
      const wrong = { ...basePlan, beneficiaries };
      const w = PlanSchema.safeParse(wrong);
      expect(zodDetails(w.error!, wrong)).toEqual([
        { field: 'beneficiaries', reason: expect.stringMatching(/^Invalid input: expected array/) },
      ]);
    }
    // Deep in the input, in a list, and a field whose name only the prototype has (every object "has" a toString).
    const Nested = z
      .object({
        outer: z.object({ inner: z.string().describe('a text') }).describe('an object'),
        list: z.array(z.object({ id: z.string().describe('an id') }).describe('an item')).describe('items'),
        toString: z.string().describe('a field named like a method'),
        network: z.union([z.number().int().min(1), z.string().min(1).max(32)]).describe('a number or a name'),
      })
      .strict();
    const input = { outer: {}, list: [{ id: 'a' }, {}] };
    expect(zodDetails(Nested.safeParse(input).error!, input)).toEqual([
      { field: 'outer.inner', reason: 'This field is required.' },
      { field: 'list.1.id', reason: 'This field is required.' },
      { field: 'toString', reason: 'This field is required.' },
      { field: 'network', reason: 'This field is required.' },
    ]);
    // Given to the union: the problem of the choice whose type the value has; a type no choice has keeps zod's words.
    const given = (network: unknown) => {
      const all = { outer: { inner: 'x' }, list: [], toString: 'x', network };
      return zodDetails(Nested.safeParse(all).error!, all);
    };
    expect(given('')).toEqual([{ field: 'network', reason: 'This field is required.' }]);
    expect(given(0)).toEqual([{ field: 'network', reason: 'Enter 1 or more.' }]);
    expect(given('x'.repeat(33))).toEqual([{ field: 'network', reason: 'This is too long: at most 32 characters.' }]);
    expect(given(true)).toEqual([{ field: 'network', reason: 'Invalid input' }]);
  });

  it('lists too short, texts too short, numbers out of bounds and wrong numbers or yes/no are said in words', () => {
    const found = zod({ ...basePlan, beneficiaries: [], guardians: { addresses: [], threshold: 1 } });
    expectIssue(found, 'beneficiaries', { code: 'too_few', min: 1 });
    expectIssue(found, 'guardians.addresses', { code: 'too_few', min: 1 });
    const Other = z
      .object({
        label: z.string().min(1).describe('a label'),
        code: z.string().min(8).describe('a code'),
        page: z.number().int().min(1).max(500).describe('a page'),
        size: z.number().max(50).describe('a size'),
        amount: z.number().positive().describe('an amount, more than 0'),
        flag: z.boolean().describe('yes or no'),
        ratio: z.number().describe('any number'),
        days: z.number().int().describe('whole days'),
      })
      .strict();
    const input = { label: '', code: 'abc', page: 0, size: 51, amount: 0, flag: 'yes', ratio: 'abc', days: 1.5 };
    const other = Object.fromEntries(
      Other.safeParse(input).error!.issues.map((i) => [i.path.join('.'), issueFromZod(i)]),
    );
    expectIssue(other, 'label', { code: 'value_required' });
    expectIssue(other, 'code', { code: 'too_short', min: 8 });
    expectIssue(other, 'page', { code: 'number_min', min: 1 });
    expectIssue(other, 'size', { code: 'number_max', max: 50 });
    expectIssue(other, 'flag', { code: 'boolean_format' });
    expectIssue(other, 'ratio', { code: 'number_format' });
    expectIssue(other, 'days', { code: 'whole_number' });
    // More than 0 (zod's gt) is not "0 or more": zod's words stay.
    expect(other.amount).toBeUndefined();
    expect(zodDetails(Other.safeParse(input).error!, input)).toEqual([
      { field: 'label', reason: 'This field is required.' },
      { field: 'code', reason: 'This is too short: at least 8 characters.' },
      { field: 'page', reason: 'Enter 1 or more.' },
      { field: 'size', reason: 'Enter 50 or less.' },
      { field: 'amount', reason: expect.stringMatching(/^Too small: expected number to be >0/) },
      { field: 'flag', reason: 'Use true or false.' },
      { field: 'ratio', reason: 'Enter a number.' },
      { field: 'days', reason: 'Enter a whole number, like 365.' },
    ]);
    expect(humanMessage({ code: 'too_few', min: 1 }, 'en')).toBe('At least 1 is needed.');
    expect(humanMessage({ code: 'too_few', min: 2 }, 'en')).toBe('At least 2 are needed.');
  });

  it("the API's details give the same words: zod issues and the plan rules", () => {
    const r = PlanSchema.safeParse({ ...basePlan, beneficiaries: [{ name: 'A', address: A, percentage: null }] });
    expect(zodDetails(r.error!)).toEqual([
      { field: 'beneficiaries.0.percentage', reason: 'Enter a percentage like 30 or 30.5.' },
    ]);
    const plan = PlanSchema.parse({
      ...basePlan,
      beneficiaries: [
        { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169Ee7', percentage: 60 },
        { name: 'B', address: B, percentage: 50 },
      ],
    });
    expect(planProblems(plan)).toEqual([
      { field: 'beneficiaries.0.address', reason: `This address has a typo: did you mean ${A}?` },
      { field: 'beneficiaries', reason: 'The shares add up to 110%; they must add up to exactly 100%.' },
    ]);
  });

  it('every locale has every message, with its numbers written by Intl', () => {
    const samples: Issue[] = [
      { code: 'percentage_sum', total: 30.5 },
      { code: 'choose_option', options: ['evm', 'ton'] },
      { code: 'number_max', max: 3650 },
    ];
    for (const locale of LOCALES) {
      expect(Object.keys(CATALOGS[locale]).sort(), locale).toEqual([...ISSUE_CODES].sort());
      for (const issue of samples) {
        const text = humanMessage(issue, locale);
        expect(text, `${locale} ${issue.code}`).not.toMatch(/undefined|NaN|\[object/);
        if (locale !== 'en') expect(text, `${locale} ${issue.code}`).not.toBe(humanMessage(issue, 'en'));
      }
    }
    expect(humanMessage({ code: 'percentage_sum', total: 30.5 }, 'fr')).toContain('30,5\u00a0%');
    expect(humanMessage({ code: 'number_max', max: 3650 }, 'es')).toContain('3650');
    expect(humanMessage({ code: 'choose_option', options: ['evm', 'ton'] }, 'en')).toBe('Choose one of: evm or ton.');
  });

  it('every message in the mapping is reached by an input above', () => {
    expect([...covered].sort()).toEqual([...ISSUE_CODES].sort());
  });

  it('every reached problem is written in every locale, its figures by Intl', () => {
    expect(new Set(reached.map((i) => i.code)).size).toBe(ISSUE_CODES.length);
    for (const issue of reached) {
      const english = humanMessage(issue, 'en');
      for (const locale of LOCALES) {
        const text = humanMessage(issue, locale);
        const where = `${locale} ${JSON.stringify(issue)}`;
        expect(text, where).toMatch(/\S/);
        expect(text, where).not.toMatch(/undefined|NaN|\[object/);
        if (locale !== 'en') expect(text, where).not.toBe(english);
        // The figures of the problem appear as the locale writes them.
        const f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
        for (const key of ['max', 'min', 'count'] as const) {
          const v = (issue as Record<string, unknown>)[key];
          if (typeof v === 'number') expect(text, where).toContain(f.format(v));
        }
        if (issue.code === 'duplicate_beneficiary') expect(text, where).toContain(f.format(issue.other + 1));
        if (issue.code === 'percentage_sum') {
          expect(text, where).toContain(
            new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(issue.total / 100),
          );
        }
        if (issue.code === 'address_checksum') expect(text, where).toContain(issue.suggestion);
        if (issue.code === 'choose_option') for (const o of issue.options) expect(text, where).toContain(o);
        // French typography: a no-break space before : ; ! ? » and after «, so no line starts with them.
        if (locale === 'fr') expect(text, where).not.toMatch(/ [:;!?»]|« /);
      }
    }
  });
});
