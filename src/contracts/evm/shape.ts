import type { Plan } from '../plan.js';
import { TEMPLATE_TYPES, type TemplateType } from '../../law/templates.js';

/**
 * The shape of a generated EVM contract: template and feature set. One shape
 * is one fixed Solidity source; owner, beneficiaries, shares, interval,
 * guardians and assets are constructor arguments, never part of the source.
 */
export interface EvmShape {
  template: TemplateType;
  deadMansSwitch: boolean;
  /** Only with the switch: a grace period after the deadline. */
  gracePeriod: boolean;
  /** Guardians (the `multiSig` feature). */
  guardians: boolean;
  erc20: boolean;
  erc721: boolean;
}

export function shapeOf(plan: Plan): EvmShape {
  const dms = plan.deadMansSwitch;
  // Without deadMansSwitch the default switch applies (365 days, as withPlanDefaults in validate.ts applies it); only `enabled: false` turns it off.
  const sw = dms === undefined || dms.enabled !== false;
  const assets = plan.assets ?? [];
  return {
    template: plan.inheritanceTemplate ?? 'custom',
    deadMansSwitch: sw,
    gracePeriod: sw && (dms?.gracePeriodDays ?? 0) > 0,
    guardians: plan.guardians !== undefined && plan.guardians.addresses.length > 0,
    erc20: assets.some((a) => a.type === 'erc20'),
    erc721: assets.some((a) => a.type === 'erc721'),
  };
}

export function shapeKey(s: EvmShape): string {
  const parts: string[] = [s.template];
  parts.push(s.deadMansSwitch ? (s.gracePeriod ? 'switch-grace' : 'switch') : 'no-switch');
  if (s.guardians) parts.push('guardians');
  if (s.erc20) parts.push('erc20');
  if (s.erc721) parts.push('erc721');
  return parts.join('.');
}

/** Every shape: 5 templates × (no switch, switch, switch with grace) × guardians × erc20 × erc721. */
export function allShapes(): EvmShape[] {
  const out: EvmShape[] = [];
  for (const template of TEMPLATE_TYPES) {
    for (const sw of [0, 1, 2]) {
      for (const guardians of [false, true]) {
        for (const erc20 of [false, true]) {
          for (const erc721 of [false, true]) {
            out.push({ template, deadMansSwitch: sw > 0, gracePeriod: sw === 2, guardians, erc20, erc721 });
          }
        }
      }
    }
  }
  return out;
}

/** Names listed in `contractInfo.features`. */
export function shapeFeatures(s: EvmShape): string[] {
  const f = [
    'nativeShares',
    'pullPayments',
    'updateBeneficiaries',
    'ownerWithdrawal',
    'cancel',
    'reentrancyGuard',
    'checkIn',
  ];
  if (s.deadMansSwitch) f.push('deadMansSwitch');
  else f.push('ownerRelease');
  if (s.gracePeriod) f.push('gracePeriod');
  if (s.guardians) {
    f.push('multiSig', 'guardianEarlyRelease');
    if (s.gracePeriod) f.push('guardianVeto');
  }
  if (s.erc20) f.push('erc20');
  if (s.erc721) f.push('erc721');
  return f;
}
