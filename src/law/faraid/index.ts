import { z } from 'zod';
import { jurisdictionName } from '../names.js';
import { ApiError, type ErrorDetail } from '../../core/errors.js';
import { apportion, formatUnits } from './apportion.js';
import { defaultJurisdictions, type JurisdictionIndex } from '../jurisdictions.js';
import { computeShares, type Step } from './engine.js';
import { Fraction } from './fraction.js';
import { DEFAULT_MADHHAB, HEIR_KEYS, HEIR_LABELS, MADHHABS, MAX_COUNT, type HeirKey, type Madhhab } from './heirs.js';

export { HEIR_KEYS, MADHHABS, DEFAULT_MADHHAB, HEIR_LABELS, MAX_COUNT, type HeirKey, type Madhhab } from './heirs.js';
export { Fraction } from './fraction.js';
export { apportion } from './apportion.js';
export {
  computeShares,
  type EngineOptions,
  type EngineResult,
  type Step,
  type StepKind,
  type Exclusion,
} from './engine.js';

// --- Input ---------------------------------------------------------------------

const HEIR_DESCRIPTIONS: Record<HeirKey, string> = {
  husband: 'Husband of the deceased (0 or 1).',
  wife: "Wives of the deceased (0 to 4); they share the wives' portion equally.",
  son: 'Sons.',
  daughter: 'Daughters.',
  sonsSon: "Sons' sons (grandsons through a son).",
  sonsDaughter: "Sons' daughters (granddaughters through a son).",
  father: 'Father (0 or 1).',
  mother: 'Mother (0 or 1).',
  paternalGrandfather: "Paternal grandfather, the father's father (0 or 1).",
  paternalGrandmother: "Paternal grandmother, the father's mother (0 or 1).",
  maternalGrandmother: "Maternal grandmother, the mother's mother (0 or 1).",
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

const DECIMAL_RE = /^\d{1,24}(\.\d{1,18})?$/;
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

export const FaraidInputSchema = z
  .object({
    heirs: HeirsSchema,
    madhhab: z
      .enum(MADHHABS)
      .optional()
      .describe(`School of law where the schools differ (default ${DEFAULT_MADHHAB}).`),
    spouseRadd: z
      .boolean()
      .optional()
      .describe(
        'A husband or wife as the only heir: true gives the spouse the whole estate by radd (later Hanafi fatwa, Egyptian law); false gives ' +
          'the fixed share (husband 1/2, wife 1/4) and the rest to the public treasury (bayt al-mal), the classical position. Default: the ' +
          "jurisdiction's setting when `jurisdiction` is given and records one, else true.",
      ),
    jurisdiction: jurisdictionName()
      .optional()
      .describe('Jurisdiction id or name whose recorded practice sets the default of spouseRadd (e.g. "eg").'),
    estate: EstateInputSchema.optional(),
  })
  .strict()
  .describe("Input of the fara'id calculation (tool calculate_inheritance).");
export type FaraidInput = z.infer<typeof FaraidInputSchema>;

// --- Output --------------------------------------------------------------------

const FRACTION_RE = /^\d+\/\d+$/;
export const ShareSchema = z
  .object({
    heir: z.enum(HEIR_KEYS).describe('Heir type.'),
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
      .describe('Special cases recognised: umariyyatan, mushtaraka, akdariyya, grandfather-with-siblings.'),
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

// --- Calculation ---------------------------------------------------------------

function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join('.'), reason: i.message }));
}

interface Decimal {
  units: bigint;
  scale: number;
}

function parseAmount(v: string | number, field: string): Decimal {
  const text = typeof v === 'number' ? String(v) : v;
  const m = DECIMAL_RE.exec(text);
  if (!m)
    throw ApiError.validation('Invalid amount', [
      { field, reason: 'must be a non-negative decimal with at most 24 integer digits and 18 decimals' },
    ]);
  const [int, frac = ''] = text.split('.') as [string, string?];
  return { units: BigInt(int + frac), scale: frac.length };
}

function toScale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

function percentString(bp: number): string {
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

/**
 * Divides an estate by fara'id. Invalid input or an impossible heir set
 * (husband with wife, no heir, costs above the estate) throws
 * ApiError('VALIDATION_ERROR') with one detail per problem.
 */
export function calculateFaraid(input: FaraidInput, deps: { jurisdictions?: JurisdictionIndex } = {}): FaraidResult {
  const parsed = FaraidInputSchema.safeParse(input);
  if (!parsed.success) throw ApiError.validation("Invalid fara'id input", zodDetails(parsed.error));
  const { heirs, estate } = parsed.data;
  const madhhab: Madhhab = parsed.data.madhhab ?? DEFAULT_MADHHAB;
  const spouse = spouseRaddSetting(parsed.data.spouseRadd, parsed.data.jurisdiction, deps.jurisdictions);

  const details: ErrorDetail[] = [];
  if ((heirs.husband ?? 0) > 0 && (heirs.wife ?? 0) > 0) {
    details.push({ field: 'heirs.husband', reason: 'a husband and a wife cannot both survive the same deceased' });
    details.push({ field: 'heirs.wife', reason: 'a husband and a wife cannot both survive the same deceased' });
  }
  if (!HEIR_KEYS.some((k) => (heirs[k] ?? 0) > 0))
    details.push({ field: 'heirs', reason: 'at least one heir is required' });
  if (details.length > 0) throw ApiError.validation('Impossible set of heirs', details);

  const engine = computeShares(heirs, madhhab, { spouseRadd: spouse.value, spouseRaddSource: spouse.source });
  const steps: Step[] = [...engine.steps];

  // Rounding, person by person (see apportion); the treasury, when it takes a part, is the last "person" (group -1).
  const persons: Array<{ group: number; share: Fraction }> = [];
  engine.shares.forEach((s, gi) => {
    const each = s.share.div(s.count);
    for (let i = 0; i < s.count; i++) persons.push({ group: gi, share: each });
  });
  if (engine.treasury) persons.push({ group: -1, share: engine.treasury });
  const bps = apportion(
    persons.map((p) => p.share),
    10000n,
  );
  steps.push({
    kind: 'rounding',
    detail:
      'Basis points: each person gets the floor of share x 10000; the points left over go one each to the persons with the largest remainders, ties to the heir type listed first and then to the first person of a type.',
  });

  let estateOut: FaraidResult['estate'];
  let amounts: bigint[] | undefined;
  let scale = 2;
  if (estate) {
    const rawBequests: Array<{ amount: Decimal; heir?: HeirKey }> = Array.isArray(estate.bequests)
      ? estate.bequests.map((q, i) => ({
          amount: parseAmount(q.amount, `estate.bequests.${i}.amount`),
          ...(q.heir ? { heir: q.heir } : {}),
        }))
      : [{ amount: parseAmount(estate.bequests ?? '0', 'estate.bequests') }];
    const raw = {
      total: parseAmount(estate.total, 'estate.total'),
      funeral: parseAmount(estate.funeral ?? '0', 'estate.funeral'),
      debts: parseAmount(estate.debts ?? '0', 'estate.debts'),
    };
    scale = Math.max(2, ...Object.values(raw).map((d) => d.scale), ...rawBequests.map((q) => q.amount.scale));
    const total = toScale(raw.total, scale);
    const funeral = toScale(raw.funeral, scale);
    const debts = toScale(raw.debts, scale);
    const net = total - funeral - debts;
    if (net < 0n)
      throw ApiError.validation('Funeral costs and debts exceed the estate', [
        { field: 'estate.debts', reason: 'funeral costs and debts exceed the total; nothing is left to divide' },
      ]);
    const f = (u: bigint): string => formatUnits(u, scale);
    steps.push({
      kind: 'estate',
      detail: `Estate ${f(total)}: funeral costs ${f(funeral)} and debts ${f(debts)} are paid first, leaving ${f(net)}.`,
    });
    const oneThird = net / 3n;
    const consent = estate.heirsConsent ?? false;
    const inheriting = new Set(engine.shares.filter((s) => s.share.num > 0n).map((s) => s.heir));
    const bequests = rawBequests.map((q) => {
      const units = toScale(q.amount, scale);
      const toHeir = q.heir !== undefined && inheriting.has(q.heir);
      return { units, heir: q.heir, voidToHeir: toHeir && !consent && units > 0n };
    });
    for (const q of bequests)
      if (q.voidToHeir)
        steps.push({
          kind: 'estate',
          detail: `A bequest of ${f(q.units)} to the ${HEIR_LABELS[q.heir!]}, an inheriting heir, is void without the other heirs' consent ("no bequest to an heir").`,
        });
    const requested = bequests.reduce((a, q) => a + q.units, 0n);
    const valid = bequests.reduce((a, q) => a + (q.voidToHeir ? 0n : q.units), 0n);
    const limit = consent ? net : oneThird;
    const allowed = valid > limit ? limit : valid;
    const distributable = net - allowed;
    const paid =
      valid === 0n
        ? bequests.map(() => 0n)
        : apportion(
            bequests.map((q) => (q.voidToHeir ? Fraction.ZERO : Fraction.of(q.units, valid))),
            allowed,
          );
    if (valid > 0n)
      steps.push({
        kind: 'estate',
        detail:
          allowed < valid
            ? `Bequests of ${f(valid)} exceed ${consent ? 'the net estate' : `one third of it (${f(oneThird)}) and the heirs have not consented`}; ${f(allowed)} is paid, each bequest reduced in proportion.`
            : `Bequests of ${f(valid)} are paid${valid > oneThird ? " (above one third, with the heirs' consent)" : ' (within one third)'}.`,
      });
    steps.push({
      kind: 'estate',
      detail: `The heirs divide ${f(distributable)}; amounts are rounded to ${scale} decimals by the same largest-remainder rule as basis points.`,
    });
    amounts = apportion(
      persons.map((p) => p.share),
      distributable,
    );
    estateOut = {
      total: f(total),
      funeral: f(funeral),
      debts: f(debts),
      netEstate: f(net),
      oneThird: f(oneThird),
      bequestsRequested: f(requested),
      bequestsAllowed: f(allowed),
      bequestsReduced: allowed < requested,
      bequestsOverOneThird: valid > oneThird,
      bequests: bequests.map((q, i) => ({
        requested: f(q.units),
        paid: f(paid[i]!),
        ...(q.heir ? { heir: q.heir } : {}),
        status: q.voidToHeir
          ? ('void-bequest-to-heir' as const)
          : paid[i]! < q.units
            ? ('reduced' as const)
            : ('paid' as const),
      })),
      heirsConsent: consent,
      distributable: f(distributable),
      scale,
    };
  }

  const shares: FaraidResult['shares'] = engine.shares.map((s, gi) => {
    const idx = persons.flatMap((p, i) => (p.group === gi ? [i] : []));
    const perBp = idx.map((i) => Number(bps[i]!));
    const bp = perBp.reduce((a, b) => a + b, 0);
    const out: FaraidResult['shares'][number] = {
      heir: s.heir,
      count: s.count,
      fraction: s.share.toString(),
      perPersonFraction: s.share.div(s.count).toString(),
      percentage: percentString(bp),
      basisPoints: bp,
      perPersonBasisPoints: perBp,
    };
    if (amounts) {
      const per = idx.map((i) => amounts![i]!);
      out.amount = formatUnits(
        per.reduce((a, b) => a + b, 0n),
        scale,
      );
      out.perPersonAmounts = per.map((u) => formatUnits(u, scale));
    }
    return out;
  });

  let treasury: FaraidResult['treasury'];
  if (engine.treasury) {
    const at = persons.length - 1;
    const bp = Number(bps[at]!);
    treasury = {
      recipient: 'publicTreasury',
      fraction: engine.treasury.toString(),
      percentage: percentString(bp),
      basisPoints: bp,
      ...(amounts ? { amount: formatUnits(amounts[at]!, scale) } : {}),
    };
  }

  return {
    shares,
    excluded: engine.excluded,
    steps,
    madhhab,
    base: engine.base.toString(),
    ...(engine.awlBase !== undefined ? { awlBase: engine.awlBase.toString() } : {}),
    correctedBase: engine.correctedBase.toString(),
    awl: engine.awl,
    radd: engine.radd,
    spouseRadd: engine.spouseRadd,
    ...(treasury ? { treasury } : {}),
    specialCases: engine.specialCases,
    ...(estateOut ? { estate: estateOut } : {}),
  };
}

/**
 * The spouse-radd setting: the request's, else the jurisdiction's recorded
 * practice (islamicLaw.spouseRadd), else true; with where it came from.
 */
export function spouseRaddSetting(
  requested: boolean | undefined,
  jurisdiction: string | undefined,
  index?: JurisdictionIndex,
): { value: boolean; source: string } {
  if (requested !== undefined) return { value: requested, source: 'set by the request' };
  if (jurisdiction !== undefined) {
    const j = (index ?? defaultJurisdictions()).resolve(jurisdiction);
    const recorded = j.islamicLaw.spouseRadd;
    if (recorded !== undefined) return { value: recorded, source: `the recorded practice of ${j.name}` };
    return { value: true, source: `the default; nothing is recorded for ${j.name}` };
  }
  return { value: true, source: 'the default' };
}
