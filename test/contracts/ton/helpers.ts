import { createHash } from 'node:crypto';
import { Address } from '@ton/core';
import type { Plan } from '../../../src/contracts/plan.js';
import type { TemplateType } from '../../../src/law/templates.js';

/** A deterministic address for a label (no account exists there until a test installs one). */
export function addr(label: string, workchain = 0): Address {
  return new Address(workchain, createHash('sha256').update(`ton-test:${label}`).digest());
}

/** n shares in basis points summing to 10000, deliberately uneven. */
export function unevenShares(n: number): number[] {
  if (n === 1) return [10000];
  const weights = Array.from({ length: n }, (_, i) => i + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const bps = weights.map((w) => Math.floor((w * 10000) / total));
  bps[n - 1]! += 10000 - bps.reduce((a, b) => a + b, 0);
  return bps;
}

export interface PlanOptions {
  n: number;
  template?: TemplateType;
  dms?: { intervalDays: number; gracePeriodDays: number };
  guardians?: { n: number; threshold: number };
  friendly?: boolean;
  /** Number of jetton assets (masters at derived addresses). */
  jettons?: number;
}

export function makePlan(o: PlanOptions): Plan {
  const fmt = (a: Address) => (o.friendly ? a.toString({ bounceable: false }) : a.toRawString());
  const plan: Plan = {
    blockchain: 'ton',
    ownerAddress: fmt(addr('owner')),
    inheritanceTemplate: o.template ?? 'custom',
    beneficiaries: unevenShares(o.n).map((bps, i) => ({
      name: `Heir ${i}`,
      address: fmt(addr(`b${i}`)),
      percentage: bps / 100,
    })),
  };
  if (o.dms) plan.deadMansSwitch = { enabled: true, ...o.dms };
  if (o.jettons) {
    plan.assets = [
      { type: 'native' },
      ...Array.from({ length: o.jettons }, (_, j) => ({ type: 'jetton' as const, address: fmt(addr(`jetton${j}`)) })),
    ];
  }
  if (o.guardians) {
    plan.guardians = {
      addresses: Array.from({ length: o.guardians.n }, (_, i) => fmt(addr(`g${i}`))),
      threshold: o.guardians.threshold,
    };
  }
  return plan;
}
