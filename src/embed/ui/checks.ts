// The wizard's own checks of the form, field by field and all at once, with the
// same problems and words as the API (src/core/messages/): they run as the
// person types, in their language, and every field's problem shows together.
// The API still checks the plan (validate_plan); what it finds that these do not
// (a TON address, the law) is shown in its words.
import { evmAddressIssue, type Issue, parseDecimal, percentageIssue, sumIssue } from '../../core/messages/issues.js';

/** The parts of the wizard's form these checks read (the form in ./form.ts has them; kept here so the two files do not import each other). */
export interface CheckedForm {
  blockchain: string;
  ownerAddress: string;
  beneficiaries: ReadonlyArray<{ name: string; address: string; percentage: string }>;
  switchEnabled: boolean;
  intervalDays: string;
  gracePeriodDays: string;
  guardians: string;
  threshold: string;
}

const EVM_ZERO = /^0x0{40}$/i;

/** Bounds of the switch's fields (the plan schema's). */
const DAYS = { intervalDays: [1, 3650], gracePeriodDays: [0, 365] } as const;

export const guardianList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

function wholeNumberIssue(text: string, min: number, max: number): Issue | undefined {
  const t = text.trim();
  if (!/^\d{1,7}$/.test(t)) return { code: 'whole_number' };
  const n = Number(t);
  if (n < min) return { code: 'number_min', min };
  if (n > max) return { code: 'number_max', max };
  return undefined;
}

/** Every problem of the form the wizard can see by itself, by field path (as the API names fields). */
export function formIssues(form: CheckedForm): Record<string, Issue> {
  const out: Record<string, Issue> = {};
  const evm = form.blockchain === 'evm';
  const owner = form.ownerAddress.trim();
  if (!owner) out.ownerAddress = { code: 'address_required' };
  else if (evm) {
    const issue = evmAddressIssue(owner);
    if (issue) out.ownerAddress = issue;
    else if (EVM_ZERO.test(owner)) out.ownerAddress = { code: 'zero_owner' };
  }
  const seen = new Map<string, number>();
  const shares: number[] = [];
  let allShares = true;
  form.beneficiaries.forEach((b, i) => {
    const f = `beneficiaries.${i}`;
    if (!b.name.trim()) out[`${f}.name`] = { code: 'name_required' };
    const address = b.address.trim();
    if (!address) out[`${f}.address`] = { code: 'address_required' };
    else if (evm) {
      const issue = evmAddressIssue(address);
      const key = address.toLowerCase();
      if (issue) out[`${f}.address`] = issue;
      else if (EVM_ZERO.test(address)) out[`${f}.address`] = { code: 'zero_address' };
      else if (owner && key === owner.toLowerCase()) out[`${f}.address`] = { code: 'owner_is_beneficiary' };
      else if (seen.has(key)) out[`${f}.address`] = { code: 'duplicate_beneficiary', other: seen.get(key)! };
      else seen.set(key, i);
    }
    const share = percentageIssue(b.percentage);
    if ('issue' in share) {
      out[`${f}.percentage`] = share.issue;
      allShares = false;
    } else shares.push(share.value);
  });
  if (allShares) {
    const sum = sumIssue(shares);
    if (sum) out.beneficiaries = sum;
  }
  for (const [field, [min, max]] of Object.entries(DAYS)) {
    const issue = wholeNumberIssue(form[field as keyof typeof DAYS], min, max);
    if (issue) out[`deadMansSwitch.${field}`] = issue;
  }
  const guardians = guardianList(form.guardians);
  if (!form.switchEnabled && guardians.length === 0) out['deadMansSwitch.enabled'] = { code: 'no_release' };
  if (guardians.length) {
    if (guardians.length > 10) out['guardians.addresses'] = { code: 'too_many', max: 10 };
    const seenG = new Set<string>();
    for (const g of guardians) {
      const issue = evm ? evmAddressIssue(g) : undefined;
      const key = g.toLowerCase();
      if (issue) out['guardians.addresses'] ??= issue;
      else if (evm && EVM_ZERO.test(g)) out['guardians.addresses'] ??= { code: 'zero_guardian' };
      else if (evm && owner && key === owner.toLowerCase())
        out['guardians.addresses'] ??= { code: 'guardian_is_owner' };
      else if (seenG.has(key)) out['guardians.addresses'] ??= { code: 'guardian_duplicate' };
      seenG.add(key);
    }
    const threshold = wholeNumberIssue(form.threshold, 1, 10);
    if (threshold) out['guardians.threshold'] = threshold;
    else if (Number(form.threshold) > guardians.length)
      out['guardians.threshold'] = { code: 'threshold_exceeds', count: guardians.length };
  }
  return out;
}

/** A number typed in a field, as the API takes it (a decimal comma understood), or undefined. */
export const typedNumber = (text: string): number | undefined => parseDecimal(text);
