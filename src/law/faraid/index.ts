import { thePlace } from '../../core/messages/place-en.js';
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../../core/errors.js';
import { defaultJurisdictions, type JurisdictionIndex } from '../jurisdictions.js';
import { apportion, formatUnits } from './apportion.js';
import type { Jurisdiction } from '../jurisdiction-schema.js';
import { computeShares, type EngineOptions, type EngineResult, type Step } from './engine.js';
import { settleEstate } from './estate.js';
import { Fraction, lcm } from './fraction.js';
import { checkGrandmothers, resolveGrandmothers } from './grandmothers.js';
import { HEIR_KEYS, type Madhhab } from './heirs.js';
import {
  computableSchool,
  resolveJurisdiction,
  type SchoolSelection,
  schoolChoice,
  schoolLabel,
  selectSchool,
} from './jurisdiction-rules.js';
import {
  type BequestOutcome,
  checkPredeceasedInput,
  heirsWithGrandchildren,
  obligatoryBequest,
  representation,
} from './obligatory-bequest.js';
import { type FaraidInput, FaraidInputSchema, type FaraidResult } from './schema.js';

export {
  ARHAM_KEYS,
  HEIR_KEYS,
  MADHHABS,
  DEFAULT_MADHHAB,
  HEIR_LABELS,
  MAX_COUNT,
  type HeirKey,
  type Madhhab,
} from './heirs.js';
export { Fraction } from './fraction.js';
export {
  computableSchool,
  isComputable,
  resolveJurisdiction,
  type SchoolChoice,
  type SchoolSelection,
  schoolChoice,
  schoolLabel,
  selectSchool,
} from './jurisdiction-rules.js';
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

/** The groups the estate is divided among: the heirs (scaled after any obligatory bequest), then the grandchildren. */
interface Division {
  engine: EngineResult;
  groups: Array<{ heir: string; count: number; share: Fraction }>;
  treasury?: Fraction;
  steps: Step[];
  bequest?: BequestOutcome;
}

/** Runs the engine on the heirs and applies the jurisdiction's obligatory bequest when predeceased children are given. */
function divide(data: FaraidInput, madhhab: Madhhab, opts: EngineOptions, j: Jurisdiction | undefined): Division {
  const children = data.predeceasedChildren ?? [];
  const rule = j?.islamicLaw.obligatoryBequest;
  if (children.length > 0) {
    const b = data.estate?.bequests;
    const bequestsGiven = Array.isArray(b) ? b.length > 0 : b !== undefined && Number(b) > 0;
    checkPredeceasedInput(data.heirs, children, rule, data.jurisdiction, bequestsGiven);
  }
  if (children.length > 0 && rule?.kind === 'representation') {
    checkHeirs(data.heirs, true);
    const r = representation(data.heirs, children, madhhab, opts, rule);
    const bequest: BequestOutcome = {
      groups: r.groups,
      total: r.total,
      uncapped: r.total,
      capped: false,
      steps: r.steps,
    };
    return {
      engine: r.engine,
      groups: [...r.heirs.map((g) => ({ heir: g.heir as string, count: g.count, share: g.share })), ...r.groups],
      ...(r.engine.treasury ? { treasury: r.engine.treasury } : {}),
      steps: [...r.steps, ...r.engine.steps],
      bequest,
    };
  }
  const heirs = heirsWithGrandchildren(data.heirs, children, madhhab);
  checkHeirs(heirs);
  const engine = computeShares(heirs, madhhab, opts);
  const groups = engine.shares.map((s) => ({ heir: s.heir as string, count: s.count, share: s.share }));
  if (children.length === 0 || !rule)
    return { engine, groups, ...(engine.treasury ? { treasury: engine.treasury } : {}), steps: [...engine.steps] };
  const bequest = obligatoryBequest(heirs, children, madhhab, opts, rule, engine);
  const rest = Fraction.ONE.sub(bequest.total);
  return {
    engine,
    groups: [...groups.map((g) => ({ ...g, share: g.share.mul(rest) })), ...bequest.groups],
    ...(engine.treasury ? { treasury: engine.treasury.mul(rest) } : {}),
    steps: [...bequest.steps, ...engine.steps],
    bequest,
  };
}

/** An impossible heir set (husband with wife, no heir at all): a 400 with one detail per problem. */
function checkHeirs(heirs: FaraidInput['heirs'], representedChildren = false): void {
  const details: ErrorDetail[] = [];
  if ((heirs.husband ?? 0) > 0 && (heirs.wife ?? 0) > 0) {
    details.push({ field: 'heirs.husband', reason: 'a husband and a wife cannot both survive the same deceased' });
    details.push({ field: 'heirs.wife', reason: 'a husband and a wife cannot both survive the same deceased' });
  }
  if (!representedChildren && !HEIR_KEYS.some((k) => (heirs[k] ?? 0) > 0))
    details.push({ field: 'heirs', reason: 'at least one heir is required' });
  if (details.length > 0) throw ApiError.validation('Impossible set of heirs', details);
}

/** The step that states the school applied and why, and the note when the caller overrode the jurisdiction's school. */
function schoolSteps(sel: SchoolSelection): Step[] {
  const steps: Step[] = [{ kind: 'madhhab', detail: `School: ${schoolLabel(sel.madhhab)}, ${schoolChoice(sel)}.` }];
  if (sel.note) steps.push({ kind: 'madhhab', detail: sel.note });
  return steps;
}

/**
 * The engine options: the spouse-radd setting (the Ja'fari default for a wife alone) and the jurisdiction's
 * statutes that change the classical rules, if any (daughters' radd, the grandfather with siblings, the mushtaraka).
 */
function engineOptions(
  data: FaraidInput,
  madhhab: Madhhab,
  j: Jurisdiction | undefined,
  index?: JurisdictionIndex,
): EngineOptions {
  const spouse = jafariSpouseDefault(madhhab, spouseRaddSetting(data.spouseRadd, data.jurisdiction, index));
  return { spouseRadd: spouse.value, spouseRaddSource: spouse.source, ...statuteOptions(j) };
}

/** The citations of the jurisdiction's statutes the engine applies (EngineOptions), for calculations and plan checks. */
export function statuteOptions(
  j: Jurisdiction | undefined,
): Pick<EngineOptions, 'daughtersRadd' | 'grandfatherSharing' | 'mushtarakaSharing'> {
  const il = j?.islamicLaw;
  const daughtersRadd = il?.daughtersRadd?.source.title;
  const grandfatherSharing = il?.grandfatherSharing?.source.title;
  const mushtarakaSharing = il?.mushtarakaSharing?.source.title;
  return {
    ...(daughtersRadd ? { daughtersRadd } : {}),
    ...(grandfatherSharing ? { grandfatherSharing } : {}),
    ...(mushtarakaSharing ? { mushtarakaSharing } : {}),
  };
}

/**
 * Every person's share, for rounding person by person (see apportion); the
 * treasury, when it takes a part, is the last "person" (group -1). Also the
 * corrected base (tashih): the common denominator of every person's share.
 */
function personsOf(division: Division): { persons: Array<{ group: number; share: Fraction }>; correctedBase: bigint } {
  const persons: Array<{ group: number; share: Fraction }> = [];
  let correctedBase = 1n;
  division.groups.forEach((s, gi) => {
    const each = s.share.div(s.count);
    correctedBase = lcm(correctedBase, each.den);
    for (let i = 0; i < s.count; i++) persons.push({ group: gi, share: each });
  });
  if (division.treasury) {
    persons.push({ group: -1, share: division.treasury });
    correctedBase = lcm(correctedBase, division.treasury.den);
  }
  return { persons, correctedBase };
}

/**
 * Divides an estate by fara'id. Invalid input or an impossible heir set
 * (husband with wife, no heir, costs above the estate) throws
 * ApiError('VALIDATION_ERROR') with one detail per problem.
 *
 * The school is the request's madhhab, else the jurisdiction's recorded
 * school, else Hanafi; the jurisdiction's statutes (daughters' radd, the
 * grandfather with siblings, the mushtaraka, obligatory bequest) apply when it
 * records them.
 */
export function calculateFaraid(input: FaraidInput, deps: { jurisdictions?: JurisdictionIndex } = {}): FaraidResult {
  const parsed = FaraidInputSchema.safeParse(input);
  if (!parsed.success) throw ApiError.validation("Invalid fara'id input", zodDetails(parsed.error));
  const { estate } = parsed.data;
  const j = resolveJurisdiction(parsed.data.jurisdiction, deps.jurisdictions);
  const sel = selectSchool(parsed.data.madhhab, j);
  const madhhab = computableSchool(sel, 'jurisdiction');
  let data = parsed.data;
  let grandmotherSteps: Step[] = [];
  if (data.grandmothers?.length) {
    checkGrandmothers(data.grandmothers, data.heirs, madhhab);
    const resolved = resolveGrandmothers(data.grandmothers, data.heirs, madhhab);
    data = { ...data, heirs: resolved.heirs };
    grandmotherSteps = resolved.steps;
  }
  const division = divide(data, madhhab, engineOptions(data, madhhab, j, deps.jurisdictions), j);
  const { engine } = division;
  const steps: Step[] = [...schoolSteps(sel), ...grandmotherSteps, ...division.steps];

  const { persons, correctedBase } = personsOf(division);
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

  const shares: FaraidResult['shares'] = division.groups.map((s, gi) => {
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
  if (division.treasury) {
    const at = persons.length - 1;
    const bp = Number(bps[at]!);
    treasury = {
      recipient: 'publicTreasury',
      fraction: division.treasury.toString(),
      percentage: percentString(bp),
      basisPoints: bp,
      ...(amounts ? { amount: formatUnits(amounts[at]!, scale) } : {}),
    };
  }

  const { bequest } = division;
  return {
    shares,
    excluded: engine.excluded,
    steps,
    madhhab,
    school: {
      madhhab: sel.madhhab,
      chosenBy: sel.chosenBy,
      source: sel.source,
      ...(sel.jurisdictionMadhhab !== undefined ? { jurisdictionMadhhab: sel.jurisdictionMadhhab } : {}),
      ...(sel.note ? { note: sel.note } : {}),
    },
    base: engine.base.toString(),
    ...(engine.awlBase !== undefined ? { awlBase: engine.awlBase.toString() } : {}),
    correctedBase: correctedBase.toString(),
    awl: engine.awl,
    radd: engine.radd,
    spouseRadd: engine.spouseRadd,
    ...(treasury ? { treasury } : {}),
    ...(bequest && j?.islamicLaw.obligatoryBequest
      ? {
          obligatoryBequest: {
            fraction: bequest.total.toString(),
            uncappedFraction: bequest.uncapped.toString(),
            capped: bequest.capped,
            source: j.islamicLaw.obligatoryBequest.source.title,
          },
        }
      : {}),
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
    const cited = j.islamicLaw.spouseRaddSource?.title;
    if (recorded !== undefined)
      return { value: recorded, source: `the recorded practice of ${thePlace(j.name)}${cited ? `, ${cited}` : ''}` };
    return { value: true, source: `the default; nothing is recorded for ${thePlace(j.name)}` };
  }
  return { value: true, source: 'the default' };
}
