import { apportion, type EngineResult, type Fraction, HEIR_LABELS, type HeirKey } from '../faraid/index.js';
import { schoolLabel } from '../faraid/jurisdiction-rules.js';
import { ISLAMIC_SOURCES, type PlanCheck, pct, toBp } from './common.js';

/**
 * The share rules of an Islamic plan check: each heir's percentage against
 * the fara'id share, the public treasury's part, heirs missing from the plan,
 * and excluded heirs and non-heirs in a mirath plan.
 */

interface Person {
  /** Beneficiary index, or -1 for a surviving heir not in the plan. */
  index: number;
  heir: HeirKey;
  share: Fraction;
}

/** The public treasury's part (a spouse as the only heir, no radd to the spouse) and who carries it. */
function treasuryFindings(ck: PlanCheck, e: EngineResult, exp: number): void {
  const { findings, expected, beneficiaries } = ck;
  const holders = ck.classes.flatMap((cl, i) => (cl.kind === 'treasury' ? [i] : []));
  const spouse = e.shares[0]!.heir;
  findings.push({
    severity: holders.length === 0 ? 'error' : 'info',
    rule: 'faraid.public-treasury',
    message:
      `The ${HEIR_LABELS[spouse]} is the only heir and, with no radd to a spouse (${ck.opts.spouseRaddSource ?? 'spouseRadd false'}), keeps the fixed share; ` +
      `${pct(exp)}% goes to the public treasury (bayt al-mal)` +
      (holders.length === 0
        ? ': add a beneficiary with the relationship "public treasury", or apply radd to the spouse (spouseRadd true).'
        : '.'),
    source: ISLAMIC_SOURCES.treasury,
    expected: pct(exp),
    params: { heir: spouse, treasuryPercent: exp / 100, treasuryNamed: holders.length === 0 ? 0 : 1 },
  });
  holders.forEach((i, n) => {
    const want = n === 0 ? exp : 0;
    expected.push({ beneficiaryIndex: i, expectedPercentage: pct(want) });
    if (toBp(beneficiaries[i]!.percentage) !== want)
      findings.push({
        severity: 'error',
        rule: 'faraid.share-mismatch',
        message: `The public treasury is given ${pct(toBp(beneficiaries[i]!.percentage))}% but its part is ${pct(want)}%${n > 0 ? ' (already carried by an earlier beneficiary)' : ''}.`,
        source: ISLAMIC_SOURCES.treasury,
        beneficiaryIndex: i,
        expected: pct(want),
        params: {
          variant: 'treasury',
          givenPercent: toBp(beneficiaries[i]!.percentage) / 100,
          expectedPercent: want / 100,
          carriedEarlier: n > 0 ? 1 : 0,
        },
      });
  });
}

/** One listed heir's percentage against the expected basis points. */
function personFinding(ck: PlanCheck, p: Person, exp: number, units: bigint): void {
  const { mirth, consent, madhhab } = ck;
  ck.expected.push({ beneficiaryIndex: p.index, heir: p.heir, expectedPercentage: pct(exp) });
  const got = toBp(ck.beneficiaries[p.index]!.percentage);
  if (got === exp) return;
  const what = `The ${HEIR_LABELS[p.heir]}`;
  if (!mirth && got > exp)
    ck.findings.push({
      severity: consent ? 'info' : 'warning',
      rule: 'wasiyyah.bequest-to-heir',
      message: `${what} receives ${pct(got)}% instead of the fara'id share ${pct(exp)}%: the extra is a bequest to an heir, valid only with the other heirs' consent${consent ? ', which has been given' : ''}.`,
      source: ISLAMIC_SOURCES.noBequestToHeir,
      beneficiaryIndex: p.index,
      expected: pct(exp),
      params: { heir: p.heir, givenPercent: got / 100, expectedPercent: exp / 100, consent: consent ? 1 : 0 },
    });
  else
    ck.findings.push({
      severity: mirth || !consent ? 'error' : 'warning',
      rule: 'faraid.share-mismatch',
      message: `${what} is given ${pct(got)}% but the fara'id share (${schoolLabel(madhhab)} school) is ${pct(exp)}%${mirth ? '' : ` (its share of the ${pct(Number(units))}% left after bequests)`}.`,
      source: ISLAMIC_SOURCES.shares,
      beneficiaryIndex: p.index,
      expected: pct(exp),
      params: {
        variant: 'heir',
        heir: p.heir,
        school: madhhab,
        givenPercent: got / 100,
        expectedPercent: exp / 100,
        ...(mirth ? {} : { leftPercent: Number(units) / 100 }),
      },
    });
}

/** Excluded heirs in a mirath plan get nothing. */
function excludedInMirath(ck: PlanCheck, e: EngineResult): void {
  const excludedBy = new Map(e.excluded.map((x) => [x.heir, x]));
  ck.classes.forEach((cl, i) => {
    if (cl.kind !== 'heir' || !excludedBy.has(cl.heir)) return;
    const x = excludedBy.get(cl.heir)!;
    ck.expected.push({ beneficiaryIndex: i, heir: cl.heir, expectedPercentage: '0.00' });
    ck.findings.push({
      severity: 'error',
      rule: 'faraid.excluded-heir',
      message: `The ${HEIR_LABELS[cl.heir]} inherits nothing: excluded by the ${HEIR_LABELS[x.by]} (${x.reason.replace(/\.$/, '')}).`,
      source: ISLAMIC_SOURCES.exclusion,
      beneficiaryIndex: i,
      expected: '0.00',
      params: { heir: cl.heir, by: x.by },
    });
  });
}

/** Every heir's expected per-person basis points over what is left after bequests, against the plan. */
export function shareFindings(ck: PlanCheck, e: EngineResult, legacyBp: number): void {
  const excluded = new Set(e.excluded.map((x) => x.heir));
  const heirBeneficiaries = [...ck.heirIdx.entries()].filter(([k]) => !excluded.has(k));

  const units = BigInt(Math.max(0, 10000 - legacyBp));
  const persons: Person[] = [];
  // Listed persons of a type first (in plan order), then unlisted ones (index -1).
  for (const s of e.shares) {
    const idx = ck.heirIdx.get(s.heir) ?? [];
    for (let j = 0; j < s.count; j++) persons.push({ index: idx[j] ?? -1, heir: s.heir, share: s.share.div(s.count) });
  }
  // The public treasury's part is rounded last, like in calculateFaraid.
  const allShares = [...persons.map((p) => p.share), ...(e.treasury ? [e.treasury] : [])];
  const bps = apportion(allShares, units);
  if (e.treasury) treasuryFindings(ck, e, Number(bps[persons.length]!));

  const unlisted = new Map<HeirKey, number>();
  persons.forEach((p, j) => {
    const exp = Number(bps[j]!);
    if (p.index >= 0) personFinding(ck, p, exp, units);
    else if (exp > 0) unlisted.set(p.heir, (unlisted.get(p.heir) ?? 0) + exp);
  });
  for (const [heir, bp] of unlisted)
    ck.findings.push({
      severity: 'error',
      rule: 'faraid.missing-heir',
      message: `The ${HEIR_LABELS[heir]}, a surviving heir, is not a beneficiary of the plan but is entitled to ${pct(bp)}% of the estate.`,
      source: ISLAMIC_SOURCES.shares,
      expected: pct(bp),
      params: { heir, expectedPercent: bp / 100 },
    });

  if (ck.mirth) excludedInMirath(ck, e);
  if (heirBeneficiaries.length > 0)
    ck.findings.push({
      severity: 'info',
      rule: 'faraid.assumption',
      message: `Shares computed by fara'id (${schoolLabel(ck.madhhab)} school) on the assumption that the heirs listed are all the surviving heirs; any other surviving heir changes them.`,
      source: ISLAMIC_SOURCES.shares,
      params: { school: ck.madhhab },
    });
}

/**
 * In a mirath plan, non-heirs and a treasury that takes nothing are expected at zero. `unresolved`: a relationship
 * names one of several heirs, so whether the treasury takes a part is not known yet (non-heirs take nothing anyway).
 */
export function mirathNonHeirFindings(ck: PlanCheck, e: EngineResult | undefined, unresolved = false): void {
  ck.classes.forEach((cl, i) => {
    if (cl.kind === 'non-heir') ck.expected.push({ beneficiaryIndex: i, expectedPercentage: '0.00' });
    if (cl.kind === 'treasury' && !unresolved && !e?.treasury) {
      ck.expected.push({ beneficiaryIndex: i, expectedPercentage: '0.00' });
      ck.findings.push({
        severity: 'error',
        rule: 'faraid.non-heir',
        message:
          'The public treasury takes a part only when a husband or wife is the only heir and no radd to the spouse applies; here it takes nothing.',
        source: ISLAMIC_SOURCES.treasury,
        beneficiaryIndex: i,
        expected: '0.00',
        params: { variant: 'treasury' },
      });
    }
  });
}
