// Names shown to the user that more than one part of the wizard needs: the
// step titles (step list, headings, "Go to" links) and the blockchain choices.
import type { StepId } from './form.js';

export const STEP_TITLES: Record<StepId, string> = {
  chain: 'Blockchain',
  template: 'Template and jurisdiction',
  beneficiaries: 'Owner and beneficiaries',
  switch: "Dead man's switch and guardians",
  review: 'Review',
  generate: 'Generate',
  result: 'Your contract',
};

export const CHAINS = [
  { id: 'evm', label: 'EVM (Ethereum and compatible chains): Solidity, compiled and tested' },
  { id: 'solana', label: 'Solana: Rust/Anchor program with build instructions' },
  { id: 'ton', label: 'TON: FunC contract, compiled and tested' },
] as const;

const BENEFICIARY_FIELDS: Record<string, string> = {
  name: 'name',
  address: 'wallet address',
  percentage: 'share',
  relationship: 'relationship',
};

const FIELD_LABELS: Record<string, string> = {
  blockchain: 'Blockchain',
  inheritanceTemplate: 'Inheritance template',
  jurisdiction: 'Jurisdiction',
  ownerAddress: 'Owner wallet address',
  beneficiaries: 'Shares',
  'deadMansSwitch.enabled': "Dead man's switch",
  'deadMansSwitch.intervalDays': 'Check-in interval',
  'deadMansSwitch.gracePeriodDays': 'Grace period',
  'guardians.addresses': 'Guardian addresses',
  'guardians.threshold': 'Guardians needed to confirm',
};

/** What a field is called in the error summary. */
export function fieldLabel(field: string): string {
  const m = /^beneficiaries\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (m) return `Beneficiary ${Number(m[1]) + 1}${m[2] ? `: ${BENEFICIARY_FIELDS[m[2]] ?? m[2]}` : ''}`;
  return FIELD_LABELS[field] ?? (field || 'Plan');
}
