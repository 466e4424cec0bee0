import { ApiError } from '../../core/errors.js';
import { computeShares, type EngineResult, HEIR_KEYS, HEIR_LABELS, type HeirKey } from '../faraid/index.js';
import { ISLAMIC_SOURCES, type PlanCheck, pct, toBp } from './common.js';

/** What an owner whose relationship names no heir can do. */
const NAME_AN_HEIR =
  'Give the relationship to the deceased as an heir: son, daughter, husband, wife, father, mother, brother, sister and so on.';

/**
 * The first rules of an Islamic plan check: how each relationship reads, the
 * heirs it makes and their fara'id shares, and the legatees of a wasiyyah.
 */

/** Assumed, ambiguous, unmapped and (in a mirath plan) non-heir relationships. */
export function relationshipFindings(ck: PlanCheck): void {
  const { mirth, findings } = ck;
  ck.classes.forEach((cl, i) => {
    const rel = ck.beneficiaries[i]!.relationship ?? '';
    if (cl.kind === 'heir' && cl.assumed)
      findings.push({
        severity: 'info',
        rule: 'islamic.assumed-relationship',
        message: `Relationship "${rel}" is read as ${HEIR_LABELS[cl.heir]}; ${cl.assumed}.`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
        params: { beneficiary: i + 1, heir: cl.heir },
      });
    else if (cl.kind === 'ambiguous')
      findings.push({
        severity: 'error',
        rule: 'islamic.ambiguous-relationship',
        message: `Relationship "${rel}" is ambiguous under fara'id: say which of ${cl.candidates.map((k) => HEIR_LABELS[k]).join(', ')} is meant. The shares are checked once it is known.`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
        params: { beneficiary: i + 1, candidates: cl.candidates.join(',') },
      });
    else if (cl.kind === 'unknown' || cl.kind === 'missing')
      findings.push({
        severity: mirth ? 'error' : 'warning',
        rule: 'islamic.unmapped-relationship',
        message:
          cl.kind === 'missing'
            ? `No relationship given; an Islamic template needs each beneficiary's relationship to the deceased.${mirth ? '' : ' Treated as a non-heir legatee.'}`
            : `Relationship "${rel}" cannot be mapped to an heir of fara'id.${mirth ? ` ${NAME_AN_HEIR}` : ' Treated as a non-heir legatee.'}`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
        params: { variant: cl.kind, beneficiary: i + 1, mirth: mirth ? 1 : 0 },
      });
    else if (cl.kind === 'non-heir' && mirth)
      findings.push({
        severity: 'error',
        rule: 'faraid.non-heir',
        message: `Relationship "${rel}" is not an heir by fara'id, and a mirath plan gives only to heirs. Use the islamic-wasiyyah template to leave up to one third to non-heirs.`,
        source: ISLAMIC_SOURCES.shares,
        beneficiaryIndex: i,
        expected: '0.00',
        params: { variant: 'relationship', beneficiary: i + 1 },
      });
  });
}

/**
 * Why the heir counts cannot describe one family, if they cannot: each problem in words and as a code for the
 * finding's params ("husband-and-wife", "one:<heir key>", "wives").
 */
function impossibleHeirs(counts: Partial<Record<HeirKey, number>>): Array<{ text: string; code: string }> {
  const problems: Array<{ text: string; code: string }> = [];
  if (counts.husband && counts.wife)
    problems.push({ text: 'a husband and a wife cannot both be heirs of one person', code: 'husband-and-wife' });
  for (const k of [
    'husband',
    'father',
    'mother',
    'paternalGrandfather',
    'paternalGrandmother',
    'maternalGrandmother',
  ] as const)
    if ((counts[k] ?? 0) > 1) problems.push({ text: `there can be only one ${HEIR_LABELS[k]}`, code: `one:${k}` });
  if ((counts.wife ?? 0) > 4) problems.push({ text: 'there can be at most four wives', code: 'wives' });
  return problems;
}

/** The fara'id result for the heirs of the plan and the other surviving heirs, or undefined when there is none. */
export function faraidOfPlan(ck: PlanCheck): EngineResult | undefined {
  const { opts, mirth, findings } = ck;
  if (ck.heirIdx.size === 0 && !HEIR_KEYS.some((k) => (opts.otherHeirs?.[k] ?? 0) > 0)) {
    findings.push({
      severity: mirth ? 'error' : 'warning',
      rule: 'faraid.no-heirs',
      message: mirth
        ? "No beneficiary is an heir by fara'id; a mirath plan divides the estate among heirs."
        : "No beneficiary is an heir by fara'id; the whole plan is bequests.",
      source: ISLAMIC_SOURCES.shares,
      params: { mirth: mirth ? 1 : 0 },
    });
    return undefined;
  }
  const counts: Partial<Record<HeirKey, number>> = {};
  for (const [k, idx] of ck.heirIdx) counts[k] = idx.length;
  for (const k of HEIR_KEYS) {
    const n = opts.otherHeirs?.[k] ?? 0;
    if (Number.isInteger(n) && n > 0) counts[k] = (counts[k] ?? 0) + n;
  }
  const problems = impossibleHeirs(counts);
  if (problems.length > 0) {
    findings.push({
      severity: 'error',
      rule: 'faraid.invalid-heirs',
      message: `The beneficiaries' relationships are impossible together: ${problems.map((p) => p.text).join('; ')}.`,
      source: ISLAMIC_SOURCES.shares,
      params: { problems: problems.map((p) => p.code).join(',') },
    });
    return undefined;
  }
  try {
    return computeShares(counts, ck.madhhab, {
      ...(opts.spouseRadd !== undefined ? { spouseRadd: opts.spouseRadd } : {}),
      ...(opts.spouseRaddSource ? { spouseRaddSource: opts.spouseRaddSource } : {}),
      ...(opts.daughtersRadd ? { daughtersRadd: opts.daughtersRadd } : {}),
      ...(opts.grandfatherSharing ? { grandfatherSharing: opts.grandfatherSharing } : {}),
      ...(opts.mushtarakaSharing ? { mushtarakaSharing: opts.mushtarakaSharing } : {}),
    });
  } catch (e) {
    // Distant kindred whose tanzil shares the counts do not decide: refused by the engine (see faraid/arham-shares.ts).
    if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR') throw e;
    findings.push({
      severity: mirth ? 'error' : 'warning',
      rule: 'faraid.distant-kindred',
      message: `The shares cannot be checked: ${e.details?.[0]?.reason ?? e.message}.`,
      source: ISLAMIC_SOURCES.shares,
      params: { mirth: mirth ? 1 : 0 },
    });
    return undefined;
  }
}

/**
 * Legatees of a wasiyyah (non-heirs, unknown relationships, excluded heirs,
 * the treasury when it takes nothing by fara'id) and the one-third limit.
 * Returns the bequests' total in basis points.
 */
export function legateeFindings(ck: PlanCheck, engine: EngineResult | undefined): number {
  const { findings, consent } = ck;
  const excludedBy = new Map((engine?.excluded ?? []).map((x) => [x.heir, x]));
  let legacyBp = 0;
  ck.classes.forEach((cl, i) => {
    const excludedHeir = cl.kind === 'heir' && excludedBy.has(cl.heir);
    const treasuryLegatee = cl.kind === 'treasury' && !engine?.treasury;
    if (cl.kind === 'non-heir' || cl.kind === 'unknown' || cl.kind === 'missing' || excludedHeir || treasuryLegatee)
      legacyBp += toBp(ck.beneficiaries[i]!.percentage);
    if (excludedHeir && cl.kind === 'heir') {
      const x = excludedBy.get(cl.heir)!;
      findings.push({
        severity: 'info',
        rule: 'wasiyyah.excluded-heir-legatee',
        message: `The ${HEIR_LABELS[cl.heir]} is excluded from inheriting by the ${HEIR_LABELS[x.by]} (${x.reason.replace(/\.$/, '')}) and so may receive a bequest.`,
        source: ISLAMIC_SOURCES.exclusion,
        beneficiaryIndex: i,
        params: { heir: cl.heir, by: x.by },
      });
    }
  });
  if (legacyBp * 3 > 10000)
    findings.push({
      severity: consent ? 'info' : 'warning',
      rule: 'wasiyyah.over-one-third',
      message: `Bequests total ${pct(legacyBp)}%, more than one third of the estate; the excess is valid only with the heirs' consent${consent ? ', which has been given' : ''}.`,
      source: ISLAMIC_SOURCES.oneThird,
      expected: '33.33',
      params: { bequestPercent: legacyBp / 100, consent: consent ? 1 : 0 },
    });
  if (legacyBp === 0)
    findings.push({
      severity: 'info',
      rule: 'wasiyyah.no-bequest',
      message: "No beneficiary is a legatee; the plan is a plain fara'id division.",
      source: ISLAMIC_SOURCES.shares,
      params: {},
    });
  return legacyBp;
}
