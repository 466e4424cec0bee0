import { ApiError } from '../core/errors.js';
import type { PlanBeneficiary } from './findings.js';
import { DEFAULT_MADHHAB, type HeirKey } from './faraid/index.js';
import type { IslamicCheckOptions, IslamicCheckResult, PlanCheck } from './islamic/common.js';
import { faraidOfPlan, legateeFindings, relationshipFindings } from './islamic/heir-rules.js';
import { classifyRelationship } from './islamic/relationships.js';
import { mirathNonHeirFindings, shareFindings } from './islamic/share-rules.js';

export { ISLAMIC_SOURCES, type IslamicCheckOptions, type IslamicCheckResult } from './islamic/common.js';
export {
  classifyRelationship,
  normalizeRelationship,
  type RelationshipClass,
  relationshipToHeir,
} from './islamic/relationships.js';

/**
 * The Islamic plan checks (templates `islamic-mirth` and `islamic-wasiyyah`).
 * The relationship vocabulary is in islamic/relationships.ts, the rules in
 * islamic/heir-rules.ts and islamic/share-rules.ts. See docs-index/faraid.md.
 */

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
  const mirth = template === 'islamic-mirth';
  const classes = beneficiaries.map((b) => classifyRelationship(b.relationship, opts.madhhab ?? DEFAULT_MADHHAB));
  const heirIdx = new Map<HeirKey, number[]>();
  classes.forEach((cl, i) => {
    if (cl.kind === 'heir') heirIdx.set(cl.heir, [...(heirIdx.get(cl.heir) ?? []), i]);
  });
  const ck: PlanCheck = {
    beneficiaries,
    opts,
    madhhab: opts.madhhab ?? DEFAULT_MADHHAB,
    consent: opts.heirsConsent ?? false,
    mirth,
    classes,
    heirIdx,
    findings: [],
    expected: [],
  };

  relationshipFindings(ck);
  // A word that may name more than one heir ("spouse": husband or wife) is an error above, and whichever heir it names
  // changes the others' shares: no share is checked and no percentage expected until the plan says which is meant
  // (computed without that person, they would be wrong in every reading).
  const unresolved = classes.some((cl) => cl.kind === 'ambiguous');
  const engine = unresolved ? undefined : faraidOfPlan(ck);
  const legacyBp = mirth || unresolved ? 0 : legateeFindings(ck, engine);
  if (engine) shareFindings(ck, engine, legacyBp);
  if (mirth) mirathNonHeirFindings(ck, engine, unresolved);
  ck.expected.sort((a, b) => a.beneficiaryIndex - b.beneficiaryIndex);
  return { findings: ck.findings, expected: ck.expected };
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
