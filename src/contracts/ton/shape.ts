import { ApiError, type ErrorDetail } from '../../core/errors.js';
import { Address } from '@ton/core';
import type { Plan } from '../plan.js';
import { isValidTonAddress } from './address.js';
import { TON_MAX_JETTONS } from './limits.js';
import { TEMPLATE_TYPES, type TemplateType } from '../../law/templates.js';

/**
 * What decides the TON contract's code (its "shape"). Everything else in a
 * plan (owner, beneficiaries, shares, interval, grace length, guardians and
 * threshold) lives in the initial data cell, so each shape compiles once.
 */
export interface TonShape {
  template: TemplateType;
  deadMansSwitch: boolean;
  gracePeriod: boolean;
  guardians: boolean;
  /** Jetton assets: wallet discovery (TEP-89), credited transfer notifications, per-beneficiary jetton claims. */
  jettons: boolean;
}

/** Beneficiaries are held in a dictionary keyed by an 8-bit index; 50 is the plan maximum. */
export const TON_MAX_BENEFICIARIES = 50;
/** Guardians' votes are a 16-bit mask; the plan allows at most 10 guardians. */
export const TON_MAX_GUARDIANS = 10;

export { TON_MAX_JETTONS };

export function templateId(t: TemplateType): number {
  return TEMPLATE_TYPES.indexOf(t) + 1;
}

export function shapeOf(plan: Plan): TonShape {
  const dms = plan.deadMansSwitch?.enabled === true;
  return {
    template: plan.inheritanceTemplate ?? 'custom',
    deadMansSwitch: dms,
    gracePeriod: dms && (plan.deadMansSwitch?.gracePeriodDays ?? 0) > 0,
    guardians: plan.guardians !== undefined && plan.guardians.addresses.length > 0,
    jettons: (plan.assets ?? []).some((a) => a.type === 'jetton'),
  };
}

export function shapeKey(s: TonShape): string {
  return `${s.template}|dms=${s.deadMansSwitch ? 1 : 0}|grace=${s.gracePeriod ? 1 : 0}|guardians=${s.guardians ? 1 : 0}|jettons=${s.jettons ? 1 : 0}`;
}

export function featuresOf(s: TonShape): string[] {
  const f = ['checkIn', 'claims', 'bounceHandling', 'ownerUpdate', 'ownerCancel'];
  if (s.deadMansSwitch) f.unshift('deadMansSwitch');
  else f.push('ownerRelease');
  if (s.gracePeriod) f.push('gracePeriod');
  if (s.guardians) f.push('multiSig');
  if (s.jettons) f.push('jettons');
  return f;
}

/**
 * Plan checks specific to the TON contract (the plan itself arrives
 * validated). Jettons need their master's address; other chains' token
 * types make no sense on TON.
 */
export function checkTonPlan(plan: Plan): void {
  const details: ErrorDetail[] = [];
  if (plan.beneficiaries.length > TON_MAX_BENEFICIARIES) {
    details.push({
      field: 'beneficiaries',
      reason: `the TON contract holds at most ${TON_MAX_BENEFICIARIES} beneficiaries`,
    });
  }
  (plan.assets ?? []).forEach((a, i) => {
    if (a.type === 'native') return;
    if (a.type === 'jetton') {
      if (!a.address || !isValidTonAddress(a.address)) {
        details.push({ field: `assets.${i}.address`, reason: 'a jetton needs the TON address of its jetton master' });
      }
    } else {
      details.push({ field: `assets.${i}.type`, reason: `asset type ${a.type} does not exist on TON (use native)` });
    }
  });
  const jettons = (plan.assets ?? []).filter((a) => a.type === 'jetton');
  if (jettons.length > TON_MAX_JETTONS) {
    details.push({ field: 'assets', reason: `the TON contract holds at most ${TON_MAX_JETTONS} jettons` });
  }
  const masters = jettons
    .map((a) => a.address ?? '')
    .filter((a) => isValidTonAddress(a))
    .map((a) => Address.parse(a).toRawString());
  if (new Set(masters).size !== masters.length) {
    details.push({ field: 'assets', reason: 'the same jetton master is listed twice' });
  }
  const g = plan.guardians;
  if (g) {
    if (g.addresses.length > TON_MAX_GUARDIANS) {
      details.push({ field: 'guardians.addresses', reason: `at most ${TON_MAX_GUARDIANS} guardians` });
    }
    if (g.threshold > g.addresses.length) {
      details.push({ field: 'guardians.threshold', reason: 'threshold exceeds the number of guardians' });
    }
  }
  const bps = plan.beneficiaries.map((b) => Math.round(b.percentage * 100));
  if (bps.reduce((a, b) => a + b, 0) !== 10000) {
    details.push({ field: 'beneficiaries', reason: 'shares must sum to exactly 100 percent (10000 basis points)' });
  }
  if (details.length > 0) throw ApiError.validation('The plan cannot be expressed as a TON contract', details);
}
