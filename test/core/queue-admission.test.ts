import { describe, expect, it } from 'vitest';
import { exactSeconds, roundedUpSeconds } from '../../src/core/queue-admission.js';

// The words of a SERVICE_BUSY refusal compare an estimate with a limit: both in seconds, never rounded to the same
// figure when the estimate is over the limit (an estimate of 2 s against a limit of 1.5 s once read "about 2 s,
// longer than the 2 s allowed").
describe('the durations in a refusal', () => {
  it('give a limit to the millisecond', () => {
    expect(exactSeconds(30_000)).toBe('30 s');
    expect(exactSeconds(1_500)).toBe('1.5 s');
    expect(exactSeconds(50)).toBe('0.05 s');
    expect(exactSeconds(1_234)).toBe('1.234 s');
  });

  it('round an estimate up, to a tenth under 10 s and to the second above', () => {
    expect(roundedUpSeconds(2_000)).toBe('2 s');
    expect(roundedUpSeconds(1_501)).toBe('1.6 s');
    expect(roundedUpSeconds(9_999)).toBe('10 s');
    expect(roundedUpSeconds(30_001)).toBe('31 s');
    expect(roundedUpSeconds(45_000)).toBe('45 s');
  });

  it('read an estimate over a limit as more than the limit', () => {
    for (const limit of [1, 50, 999, 1_000, 1_500, 1_550, 9_950, 10_000, 12_500, 30_000, 120_000]) {
      for (const over of [1, 10, 99, 100, 501, 1_000]) {
        const estimate = limit + over;
        expect(Number.parseFloat(roundedUpSeconds(estimate))).toBeGreaterThan(Number.parseFloat(exactSeconds(limit)));
      }
    }
  });
});
