import { describe, expect, it } from 'vitest';
import { planTimeLimitMs, USUAL_ASSETS, USUAL_BENEFICIARIES } from '../../src/contracts/time-limits.js';

const plan = (beneficiaries: number, assets = 0) => ({
  beneficiaries: Array.from({ length: beneficiaries }, () => ({})),
  assets: Array.from({ length: assets }, () => ({})),
});

describe('planTimeLimitMs', () => {
  it("is the pool's own limit for plans of the usual size", () => {
    expect(planTimeLimitMs(30_000, plan(1))).toBe(30_000);
    expect(planTimeLimitMs(30_000, plan(USUAL_BENEFICIARIES, USUAL_ASSETS))).toBe(30_000);
    expect(planTimeLimitMs(30_000, { beneficiaries: [{}] })).toBe(30_000);
  });

  it('grows with every beneficiary and asset beyond it, to three times at 50 and 10', () => {
    let last = planTimeLimitMs(30_000, plan(USUAL_BENEFICIARIES));
    for (let n = USUAL_BENEFICIARIES + 1; n <= 50; n++) {
      const next = planTimeLimitMs(30_000, plan(n));
      expect(next).toBeGreaterThan(last);
      last = next;
    }
    expect(planTimeLimitMs(30_000, plan(50, 3))).toBeGreaterThan(planTimeLimitMs(30_000, plan(50, 2)));
    expect(planTimeLimitMs(30_000, plan(50, 10))).toBe(90_000);
    expect(planTimeLimitMs(20, plan(50, 10))).toBe(60);
  });
});
