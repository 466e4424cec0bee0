import { z } from 'zod';
import { RELATIONSHIP_WORDS } from './relationship-words.js';
import { TEMPLATE_TYPES, type TemplateType } from './templates.js';
import {
  HEIR_KEYS,
  isComputable,
  jafariSpouseDefault,
  MADHHABS,
  type SchoolSelection,
  schoolChoice,
  schoolLabel,
  selectSchool,
  spouseRaddSetting,
  statuteOptions,
  type Madhhab,
} from './faraid/index.js';
import { FindingSchema, type Finding, type PlanBeneficiary } from './findings.js';
import { checkJurisdictionPlan } from './heirship.js';
import { checkIslamicPlan } from './islamic.js';
import {
  type Jurisdiction,
  JurisdictionSummarySchema,
  SchoolIdSchema,
  summarizeJurisdiction,
  type JurisdictionIndex,
} from './jurisdictions.js';

/**
 * A plan checked against the law: the jurisdiction's forced heirship, spouse and
 * community-property rules, and, for the Islamic templates, fara'id and the
 * one-third limit on bequests. generate_contract runs the same function.
 */

export const CheckPlanInput = z
  .strictObject({
    jurisdiction: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('Jurisdiction id or name (e.g. "fr", "us-ca", "California").'),
    template: z.enum(TEMPLATE_TYPES).describe('Inheritance template of the plan.'),
    beneficiaries: z
      .array(
        z
          .strictObject({
            name: z.string().trim().min(1).max(200).describe('Name of the beneficiary.'),
            percentage: z.number().gt(0).max(100).describe('Share in percent, up to two decimals.'),
            relationship: z.string().trim().max(60).optional().describe(RELATIONSHIP_WORDS),
          })
          .describe('A beneficiary.'),
      )
      .min(1)
      .max(50)
      .describe('Beneficiaries of the plan.'),
    madhhab: z
      .enum(MADHHABS)
      .optional()
      .describe(
        "School of Islamic law for the fara'id checks; default: the jurisdiction's recorded school (a finding says which and why), else Hanafi.",
      ),
    maritalPropertyRegime: z
      .enum(['community', 'separate'])
      .optional()
      .describe("The owner's matrimonial property regime, if known."),
    heirsConsent: z
      .boolean()
      .optional()
      .describe('Whether the heirs consent to bequests above one third or to an heir (wasiyyah).'),
    otherHeirs: z
      .partialRecord(z.enum(HEIR_KEYS), z.number().int().min(0).max(20).describe('How many.'))
      .optional()
      .describe(
        "Surviving relatives who are not beneficiaries but change fara'id shares (e.g. brothers), by heir key; give only the kinds that survive (a missing kind counts as none).",
      ),
    spouseRadd: z
      .boolean()
      .optional()
      .describe(
        'Islamic templates, a husband or wife as the only heir: true, the spouse takes everything by radd; false, the fixed share and the rest to the public treasury (a beneficiary with relationship "public treasury"). Default: the jurisdiction\'s recorded practice, else true.',
      ),
  })
  .describe('A plan to check.');
export type CheckPlanInput = z.infer<typeof CheckPlanInput>;

export const CheckPlanOutput = z
  .object({
    jurisdiction: JurisdictionSummarySchema,
    template: z.enum(TEMPLATE_TYPES).describe('The template checked.'),
    ok: z.boolean().describe('True when no finding has severity error.'),
    findings: z.array(FindingSchema).describe('Findings, errors first.'),
    expected: z
      .array(
        z
          .object({
            beneficiaryIndex: z.number().int().describe('Index in beneficiaries.'),
            heir: z.enum(HEIR_KEYS).optional().describe("The fara'id heir the relationship maps to."),
            expectedPercentage: z.string().describe('The percentage the law gives this beneficiary.'),
          })
          .describe('An expected share.'),
      )
      .describe("For the Islamic templates: the percentage each heir should carry (fara'id)."),
    spouseRadd: z
      .boolean()
      .optional()
      .describe(
        "Islamic templates: the spouse-radd setting applied (request, else the jurisdiction's practice, else true); a finding states it when a spouse is the only heir.",
      ),
    school: z
      .object({
        madhhab: SchoolIdSchema.describe("The school of the fara'id checks."),
        chosenBy: z
          .enum(['jurisdiction', 'caller', 'default'])
          .describe("Who chose it: the jurisdiction's recorded school, the request's madhhab, or the default."),
        source: z.string().describe('Why this school.'),
      })
      .optional()
      .describe("Islamic templates: the school applied to the fara'id checks and why."),
  })
  .describe('The result of a plan check.');
export type CheckPlanOutput = z.infer<typeof CheckPlanOutput>;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

function percentageFindings(beneficiaries: PlanBeneficiary[]): Finding[] {
  const findings: Finding[] = [];
  beneficiaries.forEach((b, i) => {
    if (Math.abs(b.percentage * 100 - Math.round(b.percentage * 100)) > 1e-6) {
      findings.push({
        severity: 'error',
        rule: 'plan.percentage-precision',
        message: `${b.name}'s percentage has more than two decimals.`,
        source: { title: 'Shares are recorded in hundredths of a percent (0.01%)' },
        beneficiaryIndex: i,
        params: { beneficiary: i + 1 },
      });
    }
  });
  const totalBp = beneficiaries.reduce((sum, b) => sum + Math.round(b.percentage * 100), 0);
  if (totalBp !== 10000) {
    findings.push({
      severity: 'error',
      rule: 'plan.percentages-sum',
      message: `The percentages sum to ${(totalBp / 100).toFixed(2)}, not 100.`,
      source: { title: 'The shares must total exactly 100%' },
      expected: '100',
      params: { totalPercent: totalBp / 100 },
    });
  }
  return findings;
}

/**
 * The finding that states the school of the fara'id checks and why; a warning
 * when the school is one the engine cannot compute yet (the shares are then
 * not checked rather than checked by the wrong school), or when the request
 * overrides the jurisdiction's own school.
 */
function schoolFinding(sel: SchoolSelection, j: Jurisdiction): Finding {
  const source = j.islamicLaw.school?.source ?? {
    title: 'The school applied when none is recorded: Hanafi (Al-Sirajiyyah)',
  };
  if (!isComputable(sel.madhhab))
    return {
      severity: 'warning',
      rule: 'faraid.school-not-computed',
      message: `The ${schoolLabel(sel.madhhab)} school applies here (${sel.source}); this calculator does not compute it yet, so the shares were not checked. Pass madhhab to check a Sunni school instead.`,
      source,
      params: { school: sel.madhhab, chosenBy: sel.chosenBy, jurisdiction: j.id },
    };
  return {
    severity: sel.note ? 'warning' : 'info',
    rule: 'faraid.school',
    message: sel.note ?? `Fara'id checked by the ${schoolLabel(sel.madhhab)} school, ${schoolChoice(sel)}.`,
    source,
    params: {
      school: sel.madhhab,
      chosenBy: sel.chosenBy,
      jurisdiction: j.id,
      // The jurisdiction's own school when the request overrides it ("code": it applies its own code).
      ...(sel.note ? { jurisdictionSchool: sel.jurisdictionMadhhab ?? 'code' } : {}),
    },
  };
}

export function checkPlan(index: JurisdictionIndex, input: CheckPlanInput): CheckPlanOutput {
  const jurisdiction = index.resolve(input.jurisdiction, 'jurisdiction');
  const beneficiaries: PlanBeneficiary[] = input.beneficiaries;
  const findings = [
    ...percentageFindings(beneficiaries),
    ...checkJurisdictionPlan(
      jurisdiction,
      input.template,
      beneficiaries,
      input.maritalPropertyRegime ? { maritalPropertyRegime: input.maritalPropertyRegime } : {},
    ),
  ];
  let expected: CheckPlanOutput['expected'] = [];
  let spouseRadd: boolean | undefined;
  let school: SchoolSelection | undefined;
  if (input.template === 'islamic-mirth' || input.template === 'islamic-wasiyyah') {
    // The Ja'fari school keeps the wife alone to her share unless the request or the jurisdiction says otherwise.
    school = selectSchool(input.madhhab as Madhhab | undefined, jurisdiction);
    const setting = jafariSpouseDefault(
      school.madhhab as Madhhab,
      spouseRaddSetting(input.spouseRadd, jurisdiction.id, index),
    );
    spouseRadd = setting.value;
    findings.push(schoolFinding(school, jurisdiction));
    if (isComputable(school.madhhab)) {
      const islamic = checkIslamicPlan(input.template, beneficiaries, {
        spouseRadd: setting.value,
        spouseRaddSource: setting.source,
        madhhab: school.madhhab,
        ...statuteOptions(jurisdiction),
        ...(input.heirsConsent !== undefined ? { heirsConsent: input.heirsConsent } : {}),
        ...(input.otherHeirs ? { otherHeirs: input.otherHeirs } : {}),
      });
      findings.push(...islamic.findings);
      expected = islamic.expected;
    }
  }
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return {
    jurisdiction: summarizeJurisdiction(jurisdiction),
    template: input.template as TemplateType,
    ok: !findings.some((f) => f.severity === 'error'),
    findings,
    expected,
    ...(spouseRadd !== undefined ? { spouseRadd } : {}),
    ...(school ? { school: { madhhab: school.madhhab, chosenBy: school.chosenBy, source: school.source } } : {}),
  };
}
