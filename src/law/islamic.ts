import { ApiError } from '../core/errors.js';
import type { Finding, PlanBeneficiary, Source } from './findings.js';
import {
  DEFAULT_MADHHAB,
  Fraction,
  HEIR_KEYS,
  HEIR_LABELS,
  apportion,
  computeShares,
  type EngineResult,
  type HeirKey,
  type Madhhab,
} from './faraid/index.js';

/**
 * Relationship vocabulary and the Islamic plan checks (templates
 * `islamic-mirth` and `islamic-wasiyyah`). See docs-index/faraid.md.
 */

// --- Relationships -----------------------------------------------------------------

/** Lower-cases, drops apostrophes and turns every other non-letter into one space: "Son's Son" -> "sons son". */
export function normalizeRelationship(relationship: string): string {
  return relationship
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const HEIR_TERMS: Record<HeirKey, string[]> = {
  husband: ['husband', 'zawj', 'zauj'],
  wife: ['wife', 'zawja', 'zawjah', 'zauja'],
  son: ['son', 'ibn'],
  daughter: ['daughter', 'bint'],
  sonsSon: [
    'sons son',
    'son of son',
    'son of a son',
    'son of the son',
    'paternal grandson',
    'grandson through son',
    'grandson sons son',
    'ibn al ibn',
  ],
  sonsDaughter: [
    'sons daughter',
    'daughter of son',
    'daughter of a son',
    'daughter of the son',
    'paternal granddaughter',
    'granddaughter through son',
    'granddaughter sons daughter',
    'bint al ibn',
  ],
  father: ['father', 'ab', 'abu', 'dad'],
  mother: ['mother', 'umm', 'mom', 'mum'],
  paternalGrandfather: ['paternal grandfather', 'grandfather paternal', 'fathers father', 'father of father', 'jadd'],
  paternalGrandmother: ['paternal grandmother', 'grandmother paternal', 'fathers mother', 'mother of father'],
  maternalGrandmother: ['maternal grandmother', 'grandmother maternal', 'mothers mother', 'mother of mother'],
  fullBrother: ['full brother', 'brother full', 'germane brother', 'full blood brother', 'akh shaqiq'],
  fullSister: ['full sister', 'sister full', 'germane sister', 'full blood sister', 'ukht shaqiqa'],
  paternalHalfBrother: [
    'paternal half brother',
    'half brother paternal',
    'consanguine brother',
    'paternal brother',
    'half brother same father',
    'brother same father',
  ],
  paternalHalfSister: [
    'paternal half sister',
    'half sister paternal',
    'consanguine sister',
    'paternal sister',
    'half sister same father',
    'sister same father',
  ],
  maternalHalfBrother: [
    'maternal half brother',
    'half brother maternal',
    'uterine brother',
    'maternal brother',
    'half brother same mother',
    'brother same mother',
  ],
  maternalHalfSister: [
    'maternal half sister',
    'half sister maternal',
    'uterine sister',
    'maternal sister',
    'half sister same mother',
    'sister same mother',
  ],
  fullBrothersSon: [
    'full brothers son',
    'son of full brother',
    'nephew full brothers son',
    'nephew brothers son',
    'brothers son',
    'son of brother',
  ],
  paternalHalfBrothersSon: [
    'paternal half brothers son',
    'son of paternal half brother',
    'consanguine brothers son',
    'nephew paternal half brothers son',
  ],
  fullPaternalUncle: [
    'full paternal uncle',
    'paternal uncle',
    'uncle paternal',
    'fathers brother',
    'fathers full brother',
    'brother of father',
  ],
  paternalHalfPaternalUncle: [
    'paternal half paternal uncle',
    'paternal half uncle',
    'fathers paternal half brother',
    'fathers consanguine brother',
  ],
  fullPaternalUnclesSon: [
    'full paternal uncles son',
    'paternal uncles son',
    'paternal cousin',
    'fathers brothers son',
    'son of paternal uncle',
    'uncles son',
  ],
  paternalHalfPaternalUnclesSon: [
    'paternal half paternal uncles son',
    'paternal half uncles son',
    'fathers paternal half brothers son',
  ],
};

/**
 * Bare words mapped by convention to the heir they most often mean; each is
 * ambiguous and the check reports the assumption as an info finding.
 */
const ASSUMED_TERMS: Record<string, { heir: HeirKey; note: string }> = {
  grandson: {
    heir: 'sonsSon',
    note: 'a daughter\'s son is not an heir (dhawu al-arham); write "daughter\'s son" for him',
  },
  granddaughter: {
    heir: 'sonsDaughter',
    note: 'a daughter\'s daughter is not an heir; write "daughter\'s daughter" for her',
  },
  grandfather: {
    heir: 'paternalGrandfather',
    note: 'the mother\'s father is not an heir; write "maternal grandfather" for him',
  },
  brother: { heir: 'fullBrother', note: 'write "paternal half-brother" or "maternal half-brother" for a half-brother' },
  sister: { heir: 'fullSister', note: 'write "paternal half-sister" or "maternal half-sister" for a half-sister' },
  nephew: {
    heir: 'fullBrothersSon',
    note: 'a sister\'s son is not an heir; write "paternal half-brother\'s son" or "sister\'s son" where that is meant',
  },
  uncle: {
    heir: 'fullPaternalUncle',
    note: 'a maternal uncle is not an heir; write "maternal uncle" or "paternal half paternal uncle" where that is meant',
  },
  cousin: {
    heir: 'fullPaternalUnclesSon',
    note: 'only the son of a paternal uncle is an heir; write "maternal cousin" or "paternal uncle\'s daughter" otherwise',
  },
};

/** Words that cannot be mapped without more detail, with the heirs they may mean. */
const AMBIGUOUS_TERMS: Record<string, HeirKey[]> = {
  spouse: ['husband', 'wife'],
  child: ['son', 'daughter'],
  parent: ['father', 'mother'],
  grandchild: ['sonsSon', 'sonsDaughter'],
  grandparent: ['paternalGrandfather', 'paternalGrandmother', 'maternalGrandmother'],
  grandmother: ['paternalGrandmother', 'maternalGrandmother'],
  sibling: ['fullBrother', 'fullSister'],
  'half brother': ['paternalHalfBrother', 'maternalHalfBrother'],
  'half sister': ['paternalHalfSister', 'maternalHalfSister'],
  'half sibling': ['paternalHalfBrother', 'paternalHalfSister', 'maternalHalfBrother', 'maternalHalfSister'],
};

/** Relatives and others who are not heirs by fara'id (they may receive a wasiyyah). */
const NON_HEIR_TERMS = new Set([
  'friend',
  'charity',
  'mosque',
  'masjid',
  'waqf',
  'foundation',
  'trust',
  'organisation',
  'organization',
  'school',
  'neighbour',
  'neighbor',
  'colleague',
  'employee',
  'student',
  'teacher',
  'caretaker',
  'carer',
  'other',
  'none',
  'non heir',
  'nonheir',
  'partner',
  'fiance',
  'fiancee',
  'ex wife',
  'ex husband',
  'former wife',
  'former husband',
  'divorced wife',
  'divorced husband',
  'godson',
  'goddaughter',
  'godchild',
  'stepson',
  'stepdaughter',
  'step son',
  'step daughter',
  'stepchild',
  'step child',
  'stepfather',
  'step father',
  'stepmother',
  'step mother',
  'stepbrother',
  'step brother',
  'stepsister',
  'step sister',
  'adopted son',
  'adopted daughter',
  'adopted child',
  'foster son',
  'foster daughter',
  'foster child',
  'foster brother',
  'foster sister',
  'milk brother',
  'milk sister',
  'daughters son',
  'daughters daughter',
  'son of daughter',
  'daughter of daughter',
  'maternal grandson',
  'maternal granddaughter',
  'sons sons wife',
  'sons wife',
  'daughters husband',
  'son in law',
  'daughter in law',
  'father in law',
  'mother in law',
  'brother in law',
  'sister in law',
  'niece',
  'sisters son',
  'sisters daughter',
  'brothers daughter',
  'aunt',
  'paternal aunt',
  'maternal aunt',
  'maternal uncle',
  'mothers brother',
  'maternal grandfather',
  'mothers father',
  'grandfather maternal',
  'maternal cousin',
  'paternal uncles daughter',
  'female cousin',
  'maternal half brothers son',
  'uterine brothers son',
]);

/** The public treasury (bayt al-mal), which takes what a spouse who is the only heir does not (spouseRadd false). */
const TREASURY_TERMS = new Set([
  'public treasury',
  'treasury',
  'state treasury',
  'bayt al mal',
  'baytulmal',
  'bait al mal',
  'baitulmal',
  'bait ul mal',
  'baitul mal',
]);

const TERM_TO_HEIR = new Map<string, HeirKey>();
for (const k of HEIR_KEYS) for (const t of HEIR_TERMS[k]) TERM_TO_HEIR.set(t, k);

export type RelationshipClass =
  | { kind: 'heir'; heir: HeirKey; assumed?: string }
  | { kind: 'non-heir' }
  | { kind: 'treasury' }
  | { kind: 'ambiguous'; candidates: HeirKey[] }
  | { kind: 'unknown' }
  | { kind: 'missing' };

/** Classifies a free-text relationship (case-insensitive; spacing, hyphens and apostrophes ignored). */
export function classifyRelationship(relationship: string | undefined): RelationshipClass {
  if (relationship === undefined || relationship.trim() === '') return { kind: 'missing' };
  const n = normalizeRelationship(relationship);
  const heir = TERM_TO_HEIR.get(n);
  if (heir) return { kind: 'heir', heir };
  const assumed = ASSUMED_TERMS[n];
  if (assumed) return { kind: 'heir', heir: assumed.heir, assumed: assumed.note };
  const amb = AMBIGUOUS_TERMS[n];
  if (amb) return { kind: 'ambiguous', candidates: amb };
  if (NON_HEIR_TERMS.has(n)) return { kind: 'non-heir' };
  if (TREASURY_TERMS.has(n)) return { kind: 'treasury' };
  return { kind: 'unknown' };
}

/**
 * Maps a relationship to an heir type, or undefined when it names no heir, is
 * ambiguous ("spouse", "grandmother", "half-brother") or is unknown. Bare
 * "grandson", "granddaughter", "grandfather", "brother", "sister", "nephew",
 * "uncle" and "cousin" are read as the heir they usually mean (son's son,
 * son's daughter, paternal grandfather, full brother, full sister, full
 * brother's son, full paternal uncle, full paternal uncle's son).
 */
export function relationshipToHeir(relationship: string): HeirKey | undefined {
  const c = classifyRelationship(relationship);
  return c.kind === 'heir' ? c.heir : undefined;
}

// --- Plan checks ---------------------------------------------------------------------

export const ISLAMIC_SOURCES = {
  shares: {
    title:
      "Qur'an 4:11-12 and 4:176 (the shares); Al-Sirajiyyah (Sirajuddin al-Sajawandi), chapters on the sharers and residuaries",
    url: 'https://quran.com/4/11-12',
  },
  exclusion: {
    title: "Al-Sirajiyyah, chapter on exclusion (hajb); Ibn Qudama, al-Mughni, Kitab al-Fara'id",
    url: 'https://quran.com/4/11-12',
  },
  oneThird: {
    title:
      'Hadith of Sa\'d ibn Abi Waqqas: "One third, and one third is a lot" (Sahih al-Bukhari 2742; Sahih Muslim 1628)',
    url: 'https://sunnah.com/bukhari:2742',
  },
  noBequestToHeir: {
    title: 'Hadith: "There is no bequest to an heir" (Sunan Abi Dawud 2870; Jami\' at-Tirmidhi 2120)',
    url: 'https://sunnah.com/abudawud:2870',
  },
  vocabulary: { title: "svc fara'id engine: relationship vocabulary (docs-index/faraid.md)" },
  treasury: {
    title:
      "Radd to a spouse: Al-Sirajiyyah, chapter on radd (no return to a spouse; the surplus to the public treasury) and the later Hanafi fatwa (Ibn 'Abidin, Radd al-Muhtar) allowing it; Egyptian Law No. 77 of 1943 on inheritance, art. 30",
  },
} satisfies Record<string, Source>;

export interface IslamicCheckOptions {
  madhhab?: Madhhab;
  /** The heirs have consented to bequests above one third or to an heir: those findings become info. */
  heirsConsent?: boolean;
  /**
   * Surviving relatives who are not beneficiaries of the plan (typically heirs
   * excluded by nearer ones, such as brothers beside a father). They count:
   * two brothers reduce the mother to one sixth even when the father excludes
   * them. An unlisted heir who would take a share is an error in a mirath plan.
   */
  otherHeirs?: Partial<Record<HeirKey, number>>;
  /** A husband or wife as the only heir: radd to the spouse (true, default) or the surplus to the public treasury (false). */
  spouseRadd?: boolean;
  /** Where that setting came from (request, jurisdiction, default), for the finding that states it. */
  spouseRaddSource?: string;
}

export interface IslamicCheckResult {
  findings: Finding[];
  /** Expected percentage (two decimals) of each beneficiary whose share fara'id decides. */
  expected: Array<{ beneficiaryIndex: number; heir?: HeirKey; expectedPercentage: string }>;
}

const pct = (bp: number): string => `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
const toBp = (percentage: number): number => Math.round(percentage * 100);

/**
 * Checks a plan under an Islamic template. Percentages are compared in basis
 * points (percentage x 100, rounded): a beneficiary matches when its basis
 * points equal the per-person basis points fara'id gives (the same
 * largest-remainder rule as calculateFaraid; persons of one heir type take
 * the leftover points in the order they are listed).
 *
 * islamic-mirth: every beneficiary must be an heir, each carrying its share.
 * islamic-wasiyyah: non-heirs (and heirs excluded by nearer heirs) are
 * legatees, at most one third in total; the rest is divided among the heirs
 * by fara'id.
 */
export function checkIslamicPlan(
  template: 'islamic-mirth' | 'islamic-wasiyyah',
  beneficiaries: PlanBeneficiary[],
  opts: IslamicCheckOptions = {},
): IslamicCheckResult {
  const madhhab = opts.madhhab ?? DEFAULT_MADHHAB;
  const consent = opts.heirsConsent ?? false;
  const mirth = template === 'islamic-mirth';
  const findings: Finding[] = [];
  const expected: IslamicCheckResult['expected'] = [];
  const classes = beneficiaries.map((b) => classifyRelationship(b.relationship));

  // Relationship findings.
  classes.forEach((cl, i) => {
    const rel = beneficiaries[i]!.relationship ?? '';
    if (cl.kind === 'heir' && cl.assumed)
      findings.push({
        severity: 'info',
        rule: 'islamic.assumed-relationship',
        message: `Relationship "${rel}" is read as ${HEIR_LABELS[cl.heir]}; ${cl.assumed}.`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
      });
    else if (cl.kind === 'ambiguous')
      findings.push({
        severity: 'error',
        rule: 'islamic.ambiguous-relationship',
        message: `Relationship "${rel}" is ambiguous under fara'id: say which of ${cl.candidates.map((k) => HEIR_LABELS[k]).join(', ')} is meant.`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
      });
    else if (cl.kind === 'unknown' || cl.kind === 'missing')
      findings.push({
        severity: mirth ? 'error' : 'warning',
        rule: 'islamic.unmapped-relationship',
        message:
          cl.kind === 'missing'
            ? `No relationship given; an Islamic template needs each beneficiary's relationship to the deceased.${mirth ? '' : ' Treated as a non-heir legatee.'}`
            : `Relationship "${rel}" cannot be mapped to an heir of fara'id.${mirth ? ' Use a known term (see docs).' : ' Treated as a non-heir legatee.'}`,
        source: ISLAMIC_SOURCES.vocabulary,
        beneficiaryIndex: i,
      });
    else if (cl.kind === 'non-heir' && mirth)
      findings.push({
        severity: 'error',
        rule: 'faraid.non-heir',
        message: `Relationship "${rel}" is not an heir by fara'id, and a mirath plan gives only to heirs. Use the islamic-wasiyyah template to leave up to one third to non-heirs.`,
        source: ISLAMIC_SOURCES.shares,
        beneficiaryIndex: i,
        expected: '0.00',
      });
  });

  // Heir counts and the fara'id result.
  const heirIdx = new Map<HeirKey, number[]>();
  classes.forEach((cl, i) => {
    if (cl.kind === 'heir') heirIdx.set(cl.heir, [...(heirIdx.get(cl.heir) ?? []), i]);
  });
  let engine: EngineResult | undefined;
  if (heirIdx.size === 0 && !HEIR_KEYS.some((k) => (opts.otherHeirs?.[k] ?? 0) > 0)) {
    findings.push({
      severity: mirth ? 'error' : 'warning',
      rule: 'faraid.no-heirs',
      message: mirth
        ? "No beneficiary is an heir by fara'id; a mirath plan divides the estate among heirs."
        : "No beneficiary is an heir by fara'id; the whole plan is bequests.",
      source: ISLAMIC_SOURCES.shares,
    });
  } else {
    const counts: Partial<Record<HeirKey, number>> = {};
    for (const [k, idx] of heirIdx) counts[k] = idx.length;
    for (const k of HEIR_KEYS) {
      const n = opts.otherHeirs?.[k] ?? 0;
      if (Number.isInteger(n) && n > 0) counts[k] = (counts[k] ?? 0) + n;
    }
    const problems: string[] = [];
    if (counts.husband && counts.wife) problems.push('a husband and a wife cannot both be heirs of one person');
    for (const k of [
      'husband',
      'father',
      'mother',
      'paternalGrandfather',
      'paternalGrandmother',
      'maternalGrandmother',
    ] as const)
      if ((counts[k] ?? 0) > 1) problems.push(`there can be only one ${HEIR_LABELS[k]}`);
    if ((counts.wife ?? 0) > 4) problems.push('there can be at most four wives');
    if (problems.length > 0)
      findings.push({
        severity: 'error',
        rule: 'faraid.invalid-heirs',
        message: `The beneficiaries' relationships are impossible together: ${problems.join('; ')}.`,
        source: ISLAMIC_SOURCES.shares,
      });
    else
      engine = computeShares(counts, madhhab, {
        ...(opts.spouseRadd !== undefined ? { spouseRadd: opts.spouseRadd } : {}),
        ...(opts.spouseRaddSource ? { spouseRaddSource: opts.spouseRaddSource } : {}),
      });
  }

  const excludedBy = new Map((engine?.excluded ?? []).map((x) => [x.heir, x]));

  // Legatees (wasiyyah): non-heirs, unknown relationships, excluded heirs.
  let legacyBp = 0;
  if (!mirth) {
    classes.forEach((cl, i) => {
      const excludedHeir = cl.kind === 'heir' && excludedBy.has(cl.heir);
      const treasuryLegatee = cl.kind === 'treasury' && !engine?.treasury;
      if (cl.kind === 'non-heir' || cl.kind === 'unknown' || cl.kind === 'missing' || excludedHeir || treasuryLegatee)
        legacyBp += toBp(beneficiaries[i]!.percentage);
      if (excludedHeir && cl.kind === 'heir') {
        const x = excludedBy.get(cl.heir)!;
        findings.push({
          severity: 'info',
          rule: 'wasiyyah.excluded-heir-legatee',
          message: `The ${HEIR_LABELS[cl.heir]} is excluded from inheriting by the ${HEIR_LABELS[x.by]} (${x.reason}) and so may receive a bequest.`,
          source: ISLAMIC_SOURCES.exclusion,
          beneficiaryIndex: i,
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
      });
    if (legacyBp === 0)
      findings.push({
        severity: 'info',
        rule: 'wasiyyah.no-bequest',
        message: "No beneficiary is a legatee; the plan is a plain fara'id division.",
        source: ISLAMIC_SOURCES.shares,
      });
  }

  if (engine) {
    const e = engine;
    const heirBeneficiaries = [...heirIdx.entries()].filter(([k]) => !excludedBy.has(k));

    // Expected per-person basis points for the heirs, over what is left after bequests.
    const units = BigInt(Math.max(0, 10000 - legacyBp));
    const persons: Array<{ index: number; heir: HeirKey; share: Fraction }> = [];
    // Listed persons of a type first (in plan order), then unlisted ones (index -1).
    for (const s of e.shares) {
      const idx = heirIdx.get(s.heir) ?? [];
      for (let j = 0; j < s.count; j++)
        persons.push({ index: idx[j] ?? -1, heir: s.heir, share: s.share.div(s.count) });
    }
    // The public treasury's part (a spouse as the only heir, no radd to the spouse) is rounded last, like in calculateFaraid.
    const treasuryAt = e.treasury ? persons.length : -1;
    const allShares = [...persons.map((p) => p.share), ...(e.treasury ? [e.treasury] : [])];
    const bps = apportion(allShares, units);
    if (e.treasury) {
      const exp = Number(bps[treasuryAt]!);
      const holders = classes.flatMap((cl, i) => (cl.kind === 'treasury' ? [i] : []));
      const spouse = e.shares[0]!.heir;
      findings.push({
        severity: holders.length === 0 ? 'error' : 'info',
        rule: 'faraid.public-treasury',
        message:
          `The ${HEIR_LABELS[spouse]} is the only heir and, with no radd to a spouse (${opts.spouseRaddSource ?? 'spouseRadd false'}), keeps the fixed share; ` +
          `${pct(exp)}% goes to the public treasury (bayt al-mal)` +
          (holders.length === 0
            ? ': add a beneficiary with the relationship "public treasury", or apply radd to the spouse (spouseRadd true).'
            : '.'),
        source: ISLAMIC_SOURCES.treasury,
        expected: pct(exp),
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
          });
      });
    }
    const unlisted = new Map<HeirKey, number>();
    persons.forEach((p, j) => {
      const exp = Number(bps[j]!);
      if (p.index < 0) {
        if (exp > 0) unlisted.set(p.heir, (unlisted.get(p.heir) ?? 0) + exp);
        return;
      }
      expected.push({ beneficiaryIndex: p.index, heir: p.heir, expectedPercentage: pct(exp) });
      const got = toBp(beneficiaries[p.index]!.percentage);
      if (got === exp) return;
      const what = `the ${HEIR_LABELS[p.heir]}`;
      if (!mirth && got > exp)
        findings.push({
          severity: consent ? 'info' : 'warning',
          rule: 'wasiyyah.bequest-to-heir',
          message: `${what} receives ${pct(got)}% instead of the fara'id share ${pct(exp)}%: the extra is a bequest to an heir, valid only with the other heirs' consent${consent ? ', which has been given' : ''}.`,
          source: ISLAMIC_SOURCES.noBequestToHeir,
          beneficiaryIndex: p.index,
          expected: pct(exp),
        });
      else
        findings.push({
          severity: mirth || !consent ? 'error' : 'warning',
          rule: 'faraid.share-mismatch',
          message: `${what[0]!.toUpperCase()}${what.slice(1)} is given ${pct(got)}% but the fara'id share (${madhhab}) is ${pct(exp)}%${mirth ? '' : ` (its share of the ${pct(Number(units))}% left after bequests)`}.`,
          source: ISLAMIC_SOURCES.shares,
          beneficiaryIndex: p.index,
          expected: pct(exp),
        });
    });

    for (const [heir, bp] of unlisted)
      findings.push({
        severity: 'error',
        rule: 'faraid.missing-heir',
        message: `The ${HEIR_LABELS[heir]}, a surviving heir, is not a beneficiary of the plan but is entitled to ${pct(bp)}% of the estate.`,
        source: ISLAMIC_SOURCES.shares,
        expected: pct(bp),
      });

    // Excluded heirs in a mirath plan get nothing.
    if (mirth)
      classes.forEach((cl, i) => {
        if (cl.kind !== 'heir' || !excludedBy.has(cl.heir)) return;
        const x = excludedBy.get(cl.heir)!;
        expected.push({ beneficiaryIndex: i, heir: cl.heir, expectedPercentage: '0.00' });
        findings.push({
          severity: 'error',
          rule: 'faraid.excluded-heir',
          message: `The ${HEIR_LABELS[cl.heir]} inherits nothing: excluded by the ${HEIR_LABELS[x.by]} (${x.reason})`,
          source: ISLAMIC_SOURCES.exclusion,
          beneficiaryIndex: i,
          expected: '0.00',
        });
      });
    if (heirBeneficiaries.length > 0)
      findings.push({
        severity: 'info',
        rule: 'faraid.assumption',
        message: `Shares computed by fara'id (${madhhab} school) on the assumption that the heirs listed are all the surviving heirs; any other surviving heir changes them.`,
        source: ISLAMIC_SOURCES.shares,
      });
  }

  if (mirth)
    classes.forEach((cl, i) => {
      if (cl.kind === 'non-heir') expected.push({ beneficiaryIndex: i, expectedPercentage: '0.00' });
      if (cl.kind === 'treasury' && !engine?.treasury) {
        expected.push({ beneficiaryIndex: i, expectedPercentage: '0.00' });
        findings.push({
          severity: 'error',
          rule: 'faraid.non-heir',
          message:
            'The public treasury takes a part only when a husband or wife is the only heir and no radd to the spouse applies; here it takes nothing.',
          source: ISLAMIC_SOURCES.treasury,
          beneficiaryIndex: i,
          expected: '0.00',
        });
      }
    });
  expected.sort((a, b) => a.beneficiaryIndex - b.beneficiaryIndex);
  return { findings, expected };
}

/**
 * For generate_contract: throws VALIDATION_ERROR when an Islamic plan has
 * error findings, with one detail per finding (field `beneficiaries.<i>.percentage`
 * or `beneficiaries.<i>.relationship`, and `expected` where computed).
 */
export function assertIslamicPlan(
  template: 'islamic-mirth' | 'islamic-wasiyyah',
  beneficiaries: PlanBeneficiary[],
  opts: IslamicCheckOptions = {},
): IslamicCheckResult {
  const res = checkIslamicPlan(template, beneficiaries, opts);
  const errors = res.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0)
    throw ApiError.validation(
      `The plan does not follow the ${template} rules`,
      errors.map((f) => ({
        field:
          f.beneficiaryIndex === undefined
            ? 'beneficiaries'
            : `beneficiaries.${f.beneficiaryIndex}.${f.rule.startsWith('islamic.') || f.rule === 'faraid.non-heir' ? 'relationship' : 'percentage'}`,
        reason: `${f.rule}: ${f.message}`,
        ...(f.expected !== undefined ? { expected: f.expected } : {}),
      })),
    );
  return res;
}
