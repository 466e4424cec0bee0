// Names shown to the user that more than one part of the wizard needs: the
// step titles (step list, headings, "Go to" links), the blockchain choices and
// what each field is called in the error summary. The words are in ./i18n/.
import type { StepId } from './form.js';
import type { Strings } from './i18n/index.js';

export const stepTitle = (t: Strings, step: StepId): string => t.steps[step];

export const CHAIN_IDS = ['evm', 'solana', 'ton'] as const;

/** What a field is called in the error summary. */
export function fieldLabel(t: Strings, field: string): string {
  const m = /^beneficiaries\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (m) {
    const n = String(Number(m[1]) + 1);
    return m[2] ? t.beneficiaryField(n, t.rowField[m[2]] ?? m[2]) : t.beneficiary(n);
  }
  return t.field[field] ?? (field || t.plan);
}
