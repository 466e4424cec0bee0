/**
 * The family a plan names, as the civil-law checks read it (src/law/heirship.ts), and the words and figures their
 * findings share. The plan only names its beneficiaries, not the whole family: the family is read from their
 * `relationship` words (src/law/family-words.ts), and a reserve scenario is chosen as if the named relatives were the
 * whole family.
 */
import { thePlace } from '../core/messages/place-en.js';
import { bothParents, classifyRelationship, type RelationshipClass } from './family-words.js';
import type { PlanBeneficiary, Source } from './findings.js';
import type { HeirGroup, Jurisdiction, ReserveScenario } from './jurisdictions.js';

export function groupOf(cls: RelationshipClass): HeirGroup | undefined {
  if (cls === 'spouse') return 'spouse';
  if (cls === 'child' || cls === 'grandchild') return 'descendants';
  if (cls === 'parent') return 'parents';
  return undefined;
}

export function fractionValue(f: string): number {
  const [n, d] = f.split('/').map(Number);
  return (n ?? 0) / (d ?? 1);
}

export const EPS = 0.01; // percentages carry two decimals: a shortfall of one hundredth is rounding
export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const pct = (n: number): string => `${round2(n)}%`;
export const GROUP_WORDS: Record<HeirGroup, string> = {
  descendants: 'the children (descendants)',
  spouse: 'the spouse',
  parents: 'the parents',
};
/** The place as a sentence names it ("the Netherlands"), and at the start of one. */
export const at = (j: Jurisdiction): string => thePlace(j.name);
export const At = (j: Jurisdiction): string => thePlace(j.name, true);
/** A matrimonial regime after "is": "the legal community (…)", but plain "community property". */
export const theRegime = (r: string): string => (r === 'community property' ? r : `the ${r}`);
export const groupsText = (gs: readonly HeirGroup[]): string => gs.map((g) => GROUP_WORDS[g]).join(' and ');

export interface Family {
  cls: RelationshipClass[];
  spouse: boolean;
  children: number;
  grandchildren: number;
  parents: boolean;
  /** Parents named: 0, 1 or 2 ("parents" as one beneficiary counts two). */
  parentCount: number;
  /** Descendants counted for the scale: children, or 1 when only grandchildren are named. */
  descendants: number;
}

export function familyOf(j: Jurisdiction, beneficiaries: readonly PlanBeneficiary[]): Family {
  const partnersAreSpouses = j.spouseRights.registeredPartners !== 'not-spouse';
  const cls = beneficiaries.map((b) => classifyRelationship(b.relationship, { partnersAreSpouses }));
  const children = cls.filter((c) => c === 'child').length;
  const grandchildren = cls.filter((c) => c === 'grandchild').length;
  return {
    cls,
    spouse: cls.includes('spouse'),
    children,
    grandchildren,
    parents: cls.includes('parent'),
    parentCount: Math.min(
      2,
      beneficiaries.reduce((n, b, i) => n + (cls[i] !== 'parent' ? 0 : bothParents(b.relationship) ? 2 : 1), 0),
    ),
    descendants: children > 0 ? children : grandchildren > 0 ? 1 : 0,
  };
}

export function matches(s: ReserveScenario, f: Family, regime: 'community' | 'separate'): boolean {
  const w = s.when;
  return (
    (w.spouse === undefined || w.spouse === f.spouse) &&
    (w.parents === undefined || w.parents === f.parents) &&
    (w.parentsMin === undefined || f.parentCount >= w.parentsMin) &&
    (w.descendantsMin === undefined || f.descendants >= w.descendantsMin) &&
    (w.descendantsMax === undefined || f.descendants <= w.descendantsMax) &&
    (w.regime === undefined || w.regime === regime)
  );
}

export function mainSource(j: Jurisdiction): Source {
  return j.sources[0]!;
}

/** The regime the checks assume: the caller's, else community for 'default' and 'deferred' jurisdictions. */
export function regimeOf(j: Jurisdiction, given: 'community' | 'separate' | undefined): 'community' | 'separate' {
  if (given) return given;
  return j.maritalProperty.communityProperty === 'default' || j.maritalProperty.communityProperty === 'deferred'
    ? 'community'
    : 'separate';
}

/** The beneficiaries (their indexes) the plan names in any of `heirs`' groups. */
export function membersOf(f: Family, heirs: readonly HeirGroup[]): number[] {
  return f.cls.flatMap((c, i) => {
    const g = groupOf(c);
    return g !== undefined && heirs.includes(g) ? [i] : [];
  });
}
