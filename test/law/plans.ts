// What the civil-law check tests build plans and read findings with (test/law/heirship.test.ts and its neighbours).
import type { Finding, PlanBeneficiary } from '../../src/law/findings.js';
import { loadJurisdictions, type Jurisdiction } from '../../src/law/jurisdictions.js';

export const index = loadJurisdictions();
export const J = (id: string): Jurisdiction => index.resolve(id);
/** A beneficiary named after the relationship unless a name is given. */
export const b = (
  relationship: string | undefined,
  percentage: number,
  name = relationship ?? 'someone',
): PlanBeneficiary => ({ name, percentage, relationship });
export const rules = (fs: Finding[], rule: string): Finding[] => fs.filter((f) => f.rule === rule);
export const reserve = (fs: Finding[]): Finding[] => rules(fs, 'forced-heirship.reserve');
