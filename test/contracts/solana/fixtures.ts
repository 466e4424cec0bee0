import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { Plan } from '../../../src/contracts/plan.js';
import type { TemplateType } from '../../../src/law/templates.js';

/** A deterministic valid Solana address (base58 of 32 bytes) for a label. */
export function addr(label: string): string {
  return bs58.encode(createHash('sha256').update(label).digest());
}

/** Percentages with up to two decimals summing to exactly 100. */
export function percentages(n: number): number[] {
  const base = Math.floor(10_000 / n);
  const out = Array.from({ length: n }, () => base);
  out[n - 1]! += 10_000 - base * n;
  return out.map((bps) => bps / 100);
}

export interface FeatureSet {
  deadMansSwitch: boolean;
  multiSig: boolean;
  splTokens: boolean;
}

export const FEATURE_SETS: FeatureSet[] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
  deadMansSwitch: (i & 1) !== 0,
  multiSig: (i & 2) !== 0,
  splTokens: (i & 4) !== 0,
}));

export const featureLabel = (f: FeatureSet): string =>
  [f.deadMansSwitch && 'switch', f.multiSig && 'multisig', f.splTokens && 'spl'].filter(Boolean).join('-') || 'plain';

export function makePlan(template: TemplateType, f: FeatureSet, n: number, extra: Partial<Plan> = {}): Plan {
  const pct = percentages(n);
  return {
    blockchain: 'solana',
    ownerAddress: addr('owner'),
    inheritanceTemplate: template,
    beneficiaries: pct.map((percentage, i) => ({
      name: `Heir ${i + 1}`,
      address: addr(`heir-${i}`),
      percentage,
      relationship: 'son',
    })),
    ...(f.deadMansSwitch ? { deadMansSwitch: { enabled: true, intervalDays: 180, gracePeriodDays: 30 } } : {}),
    ...(f.multiSig ? { guardians: { addresses: [addr('g1'), addr('g2'), addr('g3')], threshold: 2 } } : {}),
    ...(f.splTokens
      ? { assets: [{ type: 'native' }, { type: 'spl', address: addr('mint-usdc'), symbol: 'USDC' }] }
      : {}),
    ...extra,
  } as Plan;
}
