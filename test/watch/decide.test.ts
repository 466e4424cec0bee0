import { describe, expect, it } from 'vitest';
import type { SwitchSnapshot } from '../../src/contracts/deployments.js';
import { decide, deadlineOf } from '../../src/watch/decide.js';

const DAY = 86_400;
const base: SwitchSnapshot = {
  block: 10,
  blockTime: 1_000,
  lastCheckIn: 1_000,
  intervalSeconds: 90 * DAY,
  graceSeconds: 10 * DAY,
  triggered: false,
  claimed: {},
  balance: '1000',
};
const dl = deadlineOf(base);

describe('decide', () => {
  it('warns once at each lead time before the deadline', () => {
    const at30 = decide(base, base, [30, 7], new Set(), dl - 29 * DAY);
    expect(at30.map((e) => e.key)).toEqual([`warn:${dl}:30`]);
    expect(decide(base, base, [30, 7], new Set([`warn:${dl}:30`]), dl - 29 * DAY)).toEqual([]);
    expect(decide(base, base, [30, 7], new Set([`warn:${dl}:30`]), dl - 6 * DAY).map((e) => e.key)).toEqual([
      `warn:${dl}:7`,
    ]);
    expect(decide(base, base, [30, 7], new Set(), dl - 31 * DAY)).toEqual([]);
  });

  it('resets when the check-in moves forward and triggers when claimable', () => {
    const moved = { ...base, lastCheckIn: 2_000 };
    expect(decide(base, moved, [], new Set(), 2_000).map((e) => e.type)).toEqual(['deadman.reset']);
    const trig = decide(base, { ...base, triggered: true }, [30], new Set(), dl + 1);
    expect(trig.map((e) => e.key)).toEqual([`triggered:${dl}`]);
  });

  it('reports the claimed increase once, also after a reorg re-read', () => {
    const a = '0xAbC';
    const next = { ...base, triggered: true, claimed: { [a]: '400' } };
    const ev = decide({ ...base, triggered: true }, next, [], new Set([`triggered:${dl}`]), dl + 1);
    expect(ev).toEqual([
      {
        type: 'deadman.claimed',
        key: 'claimed:0xabc:native:400',
        data: { beneficiary: a, amount: '400', asset: 'native' },
      },
    ]);
    const emitted = new Set([`triggered:${dl}`, 'claimed:0xabc:native:400']);
    expect(decide(null, next, [], emitted, dl + 1)).toEqual([]);
  });
});
