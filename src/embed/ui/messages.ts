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
