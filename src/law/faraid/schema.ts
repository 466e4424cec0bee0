import { z } from 'zod';
import { SchoolIdSchema } from '../jurisdiction-schema.js';
import { jurisdictionName } from '../names.js';
import { GRANDMOTHER_LINE, MAX_GRANDMOTHER_DEGREE } from './grandmothers.js';
import { DEFAULT_MADHHAB, HEIR_KEYS, MADHHABS, MAX_COUNT, type HeirKey } from './heirs.js';

/** The zod schemas of calculateFaraid's input and result (tool calculate_inheritance). */

// --- Input ---------------------------------------------------------------------

const HEIR_DESCRIPTIONS: Record<HeirKey, string> = {
  husband: 'Husband of the deceased (0 or 1).',
  wife: "Wives of the deceased (0 to 4); they share the wives' portion equally.",
  son: 'Sons.',
  daughter: 'Daughters.',
  sonsSon: "Sons' sons (grandsons through a son).",
  sonsDaughter: "Sons' daughters (granddaughters through a son).",
  daughtersSon:
    "Daughters' sons (grandsons through a daughter). Ja'fari: they take their mother's place when no child is alive (counted as the children of one daughter). Sunni schools: distant kindred, who take nothing beside a sharer or residuary; where they inherit, the Hanafi school divides by classes (ahl al-qaraba) and the others by tanzil (each in the place of the heir through whom related), refused with a 400 where the counts do not decide tanzil.",
  daughtersDaughter:
    "Daughters' daughters (granddaughters through a daughter). Ja'fari: as daughters' sons, a male twice a female. Sunni schools: distant kindred, as daughters' sons.",
  father: 'Father (0 or 1).',
  mother: 'Mother (0 or 1).',
  paternalGrandfather: "Paternal grandfather, the father's father (0 or 1).",
  paternalGrandmother:
    "Paternal grandmother, the father's mother (0 or 1). Several, or farther ones: see grandmothers.",
  maternalGrandmother: "Maternal grandmother, the mother's mother (0 or 1). Farther ones: see grandmothers.",
  maternalGrandfather:
    "Maternal grandfather, the mother's father (0 or 1). Ja'fari: second class, on the mother's side with the maternal grandmother and maternal half-siblings. Sunni schools: distant kindred (see daughtersSon).",
  fullBrother: 'Full brothers (same father and mother).',
  fullSister: 'Full sisters (same father and mother).',
  paternalHalfBrother: 'Paternal half-brothers (same father only; consanguine).',
  paternalHalfSister: 'Paternal half-sisters (same father only; consanguine).',
  maternalHalfBrother: 'Maternal half-brothers (same mother only; uterine).',
  maternalHalfSister: 'Maternal half-sisters (same mother only; uterine).',
  fullBrothersSon: 'Sons of full brothers.',
  paternalHalfBrothersSon: 'Sons of paternal half-brothers.',
  fullPaternalUncle: "Full paternal uncles (the father's full brothers).",
  paternalHalfPaternalUncle: "Paternal half paternal uncles (the father's paternal half-brothers).",
  fullPaternalAunt:
    "Full paternal aunts (the father's full sisters). Ja'fari: third class, on the father's side, an uncle taking twice an aunt. Sunni schools: distant kindred (see daughtersSon).",
  paternalHalfPaternalAunt:
    "Paternal half paternal aunts (the father's paternal half-sisters). Ja'fari: as full paternal aunts, but excluded by full paternal uncles and aunts. Sunni schools: distant kindred (see daughtersSon).",
  maternalUncle:
    "Full maternal uncles (the mother's full brothers; when every maternal uncle and aunt given is of one kind, half ones may be counted here too, with the same result). Ja'fari: third class, the mother's side, which takes 1/3 beside the father's side, shared equally. Sunni schools: distant kindred (see daughtersSon).",
  maternalAunt:
    "Full maternal aunts (the mother's full sisters; as maternalUncle for half ones of one kind). Ja'fari: as maternal uncles, shared equally with them. Sunni schools: distant kindred (see daughtersSon).",
  paternalHalfMaternalUncle:
    "Paternal half maternal uncles (the mother's paternal half-brothers). Hanafi: excluded by full maternal uncles and aunts. Ja'fari: as full ones, whom they replace, excluded by them. Other Sunni schools: distant kindred by tanzil.",
  paternalHalfMaternalAunt:
    "Paternal half maternal aunts (the mother's paternal half-sisters). As paternalHalfMaternalUncle.",
  maternalHalfMaternalUncle:
    "Maternal half maternal uncles (the mother's maternal half-brothers). Hanafi: excluded by full and paternal half maternal uncles and aunts. Ja'fari: 1/6 of the mother's side for one, 1/3 for several, equally, beside full or paternal half ones. Other Sunni schools: distant kindred by tanzil.",
  maternalHalfMaternalAunt:
    "Maternal half maternal aunts (the mother's maternal half-sisters). As maternalHalfMaternalUncle.",
  fullPaternalUnclesSon: 'Sons of full paternal uncles (cousins).',
  paternalHalfPaternalUnclesSon: 'Sons of paternal half paternal uncles.',
};

const heirShape = Object.fromEntries(
  HEIR_KEYS.map((k) => [
    k,
    z
      .number()
      .int()
      .min(0)
      .max(MAX_COUNT[k])
      .optional()
      .describe(`${HEIR_DESCRIPTIONS[k]} Count, 0 to ${MAX_COUNT[k]}.`),
  ]),
) as Record<HeirKey, z.ZodOptional<z.ZodNumber>>;

export const HeirsSchema = z
  .strictObject(heirShape)
  .describe('Surviving heirs: heir type to count. Omitted types count as 0; unknown keys are rejected.');

export const DECIMAL_RE = /^\d{1,24}(\.\d{1,18})?$/;
export const AmountSchema = z
  .union([
    z
      .string()
      .regex(DECIMAL_RE, 'a non-negative decimal such as "125000.50"')
      .describe('Decimal string, up to 18 decimals (exact).'),
    z
      .number()
      .nonnegative()
      .finite()
      .describe('Number; converted through its shortest decimal form. Prefer strings for exactness.'),
  ])
  .describe('A non-negative amount in any one currency unit: a decimal string ("125000.50", recommended) or a number.');

export const BequestSchema = z
  .object({
    amount: AmountSchema.describe('Amount bequeathed.'),
    heir: z
      .enum(HEIR_KEYS)
      .optional()
      .describe(
        'When the legatee is also a relative of one of the heir types of this estate: that type. If that type inherits, the bequest is one to an heir.',
      ),
  })
  .strict()
  .describe('One bequest.');

export const EstateInputSchema = z
  .object({
    total: AmountSchema.describe('Gross estate.'),
    funeral: AmountSchema.optional().describe('Funeral and burial costs, paid first.'),
    debts: AmountSchema.optional().describe('Debts, paid second.'),
    bequests: z
      .union([
        AmountSchema,
        z.array(BequestSchema).max(50).describe('Bequests one by one, so that a bequest to an heir can be recognised.'),
      ])
      .optional()
      .describe(
        'Bequests (wasiyyah), paid third: one total amount (to non-heirs) or a list. At most one third of what is left after funeral costs and debts, and nothing to an inheriting heir, unless the heirs consent.',
      ),
    heirsConsent: z
      .boolean()
      .optional()
      .describe(
        'Whether the heirs consent to bequests above one third and to bequests to heirs (default false: bequests are cut to one third, those to heirs are void).',
      ),
  })
  .strict()
  .describe('Estate amounts; when given, every share also gets an amount.');

export const PredeceasedChildSchema = z
  .object({
    sex: z.enum(['male', 'female']).describe('The predeceased child: a son (male) or a daughter (female).'),
    sons: z.number().int().min(0).max(50).describe("That child's surviving sons, 0 to 50."),
    daughters: z.number().int().min(0).max(50).describe("That child's surviving daughters, 0 to 50."),
  })
  .strict()
  .refine((c) => c.sons + c.daughters > 0, { message: 'a predeceased child needs at least one surviving child' })
  .describe('A child of the deceased who died before the deceased, with its own surviving children.');

export const FaraidInputSchema = z
  .object({
    heirs: HeirsSchema,
    madhhab: z
      .enum(MADHHABS)
      .optional()
      .describe(
        `School of law where the schools differ: one of the four Sunni schools, or jafari (Twelver Shia, as Iran's Civil Code arts. 861-949 codify it: classes of kin, radd instead of residuaries, no 'awl). Wins over the jurisdiction's school (the answer then notes the difference); default: the jurisdiction's recorded school, else ${DEFAULT_MADHHAB}.`,
      ),
    spouseRadd: z
      .boolean()
      .optional()
      .describe(
        'A husband or wife as the only heir: true gives the spouse the whole estate by radd (later Hanafi fatwa, Egyptian law); false gives ' +
          'the fixed share (husband 1/2, wife 1/4) and the rest to the public treasury (bayt al-mal), the classical position. Default: the ' +
          "jurisdiction's setting when `jurisdiction` is given and records one, else true (false for the jafari wife). Under jafari " +
          'the husband alone always takes everything (Iran Civil Code art. 949) and the setting decides only for the wife.',
      ),
    jurisdiction: jurisdictionName()
      .optional()
      .describe(
        'Jurisdiction id or name (e.g. "eg", "my", "tn"). Its recorded school applies when madhhab is not given, its statutes apply (obligatory bequest, daughters\' radd) and its practice sets the default of spouseRadd.',
      ),
    predeceasedChildren: z
      .array(PredeceasedChildSchema)
      .max(20)
      .optional()
      .describe(
        "Children of the deceased who died before the deceased, each with that child's own surviving children. Where the jurisdiction's law grants an obligatory bequest (wasiyya wajiba, e.g. Egypt), their children take the share the child would have inherited, within one third, before the heirs; where it grants representation (Pakistan), they take that share with no cap and the other heirs keep what they would have had beside the child. A predeceased child's children are counted here only, not again under heirs; when they inherit anyway (no surviving son) they appear as sons' sons and daughters (and, under jafari, daughters' sons and daughters).",
      ),
    grandmothers: z
      .array(
        z
          .string()
          .min(2)
          .max(MAX_GRANDMOTHER_DEGREE)
          .regex(
            GRANDMOTHER_LINE,
            'a line of f (father) and m (mother) from the deceased up, fathers first, ending with m: "fm", "mm", "ffm", "fmm"',
          )
          .describe(
            'One true grandmother, by her line from the deceased upwards: f for a father, m for a mother, ending with the grandmother ("fm" father\'s mother, "mm" mother\'s mother, "ffm" father\'s father\'s mother, "fmm" father\'s mother\'s mother). No mother\'s father may be in the line (such a grandmother is distant kindred).',
          ),
      )
      .max(32)
      .optional()
      .describe(
        'Every surviving true grandmother, one line each, when there are several on one side or of farther degrees (great-grandmothers). Instead of heirs.paternalGrandmother and heirs.maternalGrandmother ("fm" and "mm"), not beside them. svc applies the school\'s rules: which lines inherit (all in the Hanafi and Shafi\'i schools, three in the Hanbali, two in the Maliki), the nearer excluding the farther, the paternal grandfather excluding those related through him; those who remain share one sixth per head. Under jafari, only "fm" and "mm".',
      ),
    estate: EstateInputSchema.optional(),
  })
  .strict()
  .describe("Input of the fara'id calculation (tool calculate_inheritance).");
export type FaraidInput = z.infer<typeof FaraidInputSchema>;

// --- Output --------------------------------------------------------------------

const FRACTION_RE = /^\d+\/\d+$/;
const GRANDCHILD_RE = /^grandchild_(son|daughter)_of_predeceased_(son|daughter)_\d+$/;
export const ShareSchema = z
  .object({
    heir: z
      .union([
        z.enum(HEIR_KEYS).describe('An heir type.'),
        z
          .string()
          .regex(GRANDCHILD_RE)
          .describe(
            'Grandchildren taking by obligatory bequest, e.g. "grandchild_son_of_predeceased_son_1": sons or daughters of the n-th entry of predeceasedChildren.',
          ),
      ])
      .describe('Heir type, or a group of grandchildren taking by obligatory bequest (names starting "grandchild").'),
    count: z.number().int().describe('Number of persons of this type.'),
    fraction: z
      .string()
      .regex(FRACTION_RE)
      .describe('Exact share of the whole group of the estate to be divided, in lowest terms ("1/8").'),
    perPersonFraction: z.string().regex(FRACTION_RE).describe('Exact share of each person of the group.'),
    percentage: z
      .string()
      .describe(
        'Share of the group in percent with two decimals, equal to basisPoints / 100; the percentages sum to exactly 100.00.',
      ),
    basisPoints: z
      .number()
      .int()
      .describe(
        "Share of the group in basis points (1/10000); all groups, with the treasury's part when there is one, sum to exactly 10000. Sum of perPersonBasisPoints.",
      ),
    perPersonBasisPoints: z
      .array(z.number().int().describe('Basis points of one person.'))
      .describe(
        'Basis points of each person of the group, in order; they differ by at most 1 when rounding gives the leftover point to the first persons.',
      ),
    amount: z.string().optional().describe('Amount of the group, as a decimal string (when an estate was given).'),
    perPersonAmounts: z
      .array(z.string().describe('Amount of one person.'))
      .optional()
      .describe('Amount of each person, in order (when an estate was given).'),
  })
  .describe('Share of one heir type.');

export const FaraidResultSchema = z
  .object({
    shares: z
      .array(ShareSchema)
      .describe(
        'Inheriting heir types in a fixed order (husband, wife, son, ...); a type whose share is exhausted is listed with 0/1.',
      ),
    excluded: z
      .array(
        z
          .object({
            heir: z.enum(HEIR_KEYS).describe('Excluded heir type.'),
            by: z.enum(HEIR_KEYS).describe('Heir type that excludes it.'),
            reason: z.string().describe('The rule of exclusion (hajb).'),
          })
          .describe('An excluded heir type.'),
      )
      .describe('Heirs who take nothing because a nearer heir excludes them (hajb).'),
    steps: z
      .array(
        z
          .object({
            kind: z
              .enum([
                'madhhab',
                'exclusion',
                'fixed-share',
                'residuary',
                'special-case',
                'base',
                'awl',
                'radd',
                'correction',
                'statute',
                'estate',
                'rounding',
              ])
              .describe('What the step does.'),
            detail: z.string().describe('The step, in words.'),
          })
          .describe('One step of the calculation.'),
      )
      .describe('How the result was reached, in order.'),
    madhhab: z.enum(MADHHABS).describe('School applied.'),
    school: z
      .object({
        madhhab: SchoolIdSchema.describe('The school applied.'),
        chosenBy: z
          .enum(['jurisdiction', 'caller', 'default'])
          .describe(
            "Who chose it: the jurisdiction's recorded school, the request's madhhab, or the default (Hanafi).",
          ),
        source: z.string().describe('Why this school: the statute or practice, or the request.'),
        jurisdictionMadhhab: SchoolIdSchema.nullable()
          .optional()
          .describe(
            "The jurisdiction's own school, when the request chose a different one (null: the code's own rules).",
          ),
        note: z
          .string()
          .optional()
          .describe("When the request's madhhab differs from the jurisdiction's practice: the difference, in words."),
      })
      .describe('Which school was applied and why.'),
    obligatoryBequest: z
      .object({
        fraction: z.string().regex(FRACTION_RE).describe('What the obligatory bequests take together, after the cap.'),
        uncappedFraction: z
          .string()
          .regex(FRACTION_RE)
          .describe("What they would take without the cap (the predeceased children's shares had they survived)."),
        capped: z.boolean().describe('Whether the cap (one third) cut them.'),
        source: z.string().describe('The statute granting the bequest.'),
      })
      .optional()
      .describe(
        "The obligatory bequest (wasiyya wajiba) to the children of predeceased children, when predeceasedChildren was given and the jurisdiction grants it; under representation (Pakistan) what the grandchildren take in their parents' place, never capped.",
      ),
    base: z.string().describe("Base of the problem (asl al-mas'ala) before any 'awl."),
    awlBase: z.string().optional().describe("Base after 'awl, when the fixed shares exceeded the whole."),
    correctedBase: z.string().describe("Lowest common denominator of every person's share (tashih)."),
    awl: z.boolean().describe("Whether 'awl (proportional reduction) applied."),
    radd: z.boolean().describe('Whether radd (return of a surplus) applied.'),
    spouseRadd: z
      .boolean()
      .describe(
        'The setting applied for a husband or wife as the only heir: true, radd to the spouse; false, the surplus to the public treasury. A step states it when the case arises.',
      ),
    treasury: z
      .object({
        recipient: z.literal('publicTreasury').describe('The public treasury (bayt al-mal).'),
        fraction: z.string().regex(FRACTION_RE).describe('Exact part of the estate to be divided, in lowest terms.'),
        percentage: z.string().describe('Part in percent with two decimals (basisPoints / 100).'),
        basisPoints: z.number().int().describe('Part in basis points; with the shares it sums to exactly 10000.'),
        amount: z.string().optional().describe('Amount (when an estate was given).'),
      })
      .optional()
      .describe(
        'What goes to the public treasury (bayt al-mal): only with a spouse as the only heir and spouseRadd false.',
      ),
    specialCases: z
      .array(z.string().describe('Name of a special case.'))
      .describe(
        'Special cases recognised: umariyyatan, mushtaraka, akdariyya, grandfather-with-siblings, distant-kindred (dhawu al-arham inherit).',
      ),
    estate: z
      .object({
        total: z.string().describe('Gross estate.'),
        funeral: z.string().describe('Funeral costs paid.'),
        debts: z.string().describe('Debts paid.'),
        netEstate: z.string().describe('Estate after funeral costs and debts.'),
        oneThird: z
          .string()
          .describe('One third of the net estate (rounded down to the amount scale), the bequest limit.'),
        bequestsRequested: z.string().describe('Bequests asked for.'),
        bequestsAllowed: z.string().describe('Bequests paid.'),
        bequestsReduced: z
          .boolean()
          .describe('Whether bequests were cut to the limit (over one third without consent, or over the net estate).'),
        bequestsOverOneThird: z
          .boolean()
          .describe(
            "Whether the valid bequests asked for exceed one third of the net estate (valid only with the heirs' consent).",
          ),
        bequests: z
          .array(
            z
              .object({
                requested: z.string().describe('Amount asked for.'),
                paid: z.string().describe('Amount paid.'),
                heir: z.enum(HEIR_KEYS).optional().describe('Heir type of the legatee, when given.'),
                status: z
                  .enum(['paid', 'reduced', 'void-bequest-to-heir'])
                  .describe(
                    "paid in full; reduced pro rata to the one-third limit (or to the net estate); void because it is to an inheriting heir without the other heirs' consent.",
                  ),
              })
              .describe('Outcome of one bequest.'),
          )
          .describe('Each bequest, in the order given (one entry for a single total amount).'),
        heirsConsent: z.boolean().describe('Whether the heirs consented to bequests above one third.'),
        distributable: z
          .string()
          .describe('What the heirs divide: net estate minus bequests paid; the share amounts sum to it exactly.'),
        scale: z.number().int().describe('Decimals of the amounts (at least 2; more when an input had more).'),
      })
      .optional()
      .describe('Estate order (funeral, debts, bequests, shares), when an estate was given.'),
  })
  .describe("Result of the fara'id calculation.");
export type FaraidResult = z.infer<typeof FaraidResultSchema>;
