import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../../core/errors.js';
import { defaultJurisdictions, type JurisdictionIndex } from '../jurisdictions.js';
import { apportion, formatUnits } from './apportion.js';
import { computeShares, type Step } from './engine.js';
import { settleEstate } from './estate.js';
import type { Fraction } from './fraction.js';
import { DEFAULT_MADHHAB, HEIR_KEYS, type Madhhab } from './heirs.js';
import { type FaraidInput, FaraidInputSchema, type FaraidResult } from './schema.js';

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
export { type SchoolRules, schoolRules } from './school.js';
export {
  AmountSchema,
  BequestSchema,
  EstateInputSchema,
  type FaraidInput,
  FaraidInputSchema,
  type FaraidResult,
  FaraidResultSchema,
  HeirsSchema,
  ShareSchema,
} from './schema.js';

/**
 * The fara'id calculation as a service: input checks, the engine
 * (engine.ts), rounding to basis points, the estate in amounts (estate.ts)
 * and the result shape (schema.ts).
 */

function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join('.'), reason: i.message }));
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
  const spouse = jafariSpouseDefault(
    madhhab,
    spouseRaddSetting(parsed.data.spouseRadd, parsed.data.jurisdiction, deps.jurisdictions),
  );

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
    const settled = settleEstate(
      estate,
      engine,
      persons.map((p) => p.share),
      steps,
    );
    estateOut = settled.estate;
    amounts = settled.amounts;
    scale = settled.scale;
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
 * Ja'fari law has its own rule when nothing else decides: the husband alone
 * takes everything, the wife alone only her quarter, the rest going to the
 * state (Iran Civil Code arts. 949, 866). The jafari path reads the setting
 * for the wife only, so the default becomes false there.
 */
export function jafariSpouseDefault(
  madhhab: Madhhab,
  s: { value: boolean; source: string },
): { value: boolean; source: string } {
  if (madhhab !== 'jafari' || !s.source.startsWith('the default')) return s;
  return { value: false, source: "the Ja'fari rule (Iran Civil Code art. 949: the wife alone keeps only her share)" };
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
