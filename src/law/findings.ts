import { z } from 'zod';

/** A legal source a finding or a jurisdiction fact rests on. */
export const SourceSchema = z
  .object({
    title: z.string().describe('Statute, article, verse or textbook reference, e.g. "Code civil, art. 913".'),
    url: z.string().url().optional().describe('Link to the source text, where one is public.'),
    checked: z
      .boolean()
      .optional()
      .describe(
        'Whether the article numbers in the title were checked against a published text of the law (the page at url): true, checked; false, cited from memory and not yet checked. Absent where not recorded.',
      ),
    checkNote: z
      .string()
      .optional()
      .describe('What the check found or left open, e.g. which article numbers a published text confirms.'),
  })
  .describe('A legal source.');
export type Source = z.infer<typeof SourceSchema>;

/** One result of checking a plan against the law. */
export const FindingSchema = z
  .object({
    severity: z
      .enum(['error', 'warning', 'info'])
      .describe(
        'error: the plan violates a rule (a contract for an Islamic template is refused); warning: likely challengeable; info: worth knowing.',
      ),
    rule: z
      .string()
      .describe(
        'Stable identifier of the rule, e.g. "forced-heirship.reserve", "faraid.share-mismatch", "wasiyyah.over-one-third".',
      ),
    message: z.string().describe('What is wrong and what to do, for a person.'),
    source: SourceSchema.describe('Where the rule comes from.'),
    beneficiaryIndex: z
      .number()
      .int()
      .optional()
      .describe('Index in the beneficiaries array the finding concerns, when it concerns one.'),
    expected: z
      .string()
      .optional()
      .describe('The value the rule expects (e.g. a percentage), where one can be computed.'),
    params: z
      .record(z.string(), z.union([z.number(), z.string()]).describe('A figure or short string of the message.'))
      .optional()
      .describe(
        'The figures and short strings of the message as data, by name, for saying it in another language with `rule` as its code: percentages as numbers, fractions as "1/2", heir types as heir keys, jurisdictions as ids (e.g. {"jurisdiction": "fr", "reservePercent": 50}). Never a person\'s name.',
      ),
  })
  .describe('A finding of a plan check.');
export type Finding = z.infer<typeof FindingSchema>;

/** The params of a finding: figures and short strings as data (never names of people). */
export type FindingParams = Record<string, number | string>;

/** The beneficiary fields the law checks look at. */
export interface PlanBeneficiary {
  name: string;
  percentage: number;
  relationship?: string | undefined;
}
