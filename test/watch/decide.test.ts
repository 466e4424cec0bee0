import { describe, expect, it } from 'vitest';
import type { SwitchSnapshot } from '../../src/contracts/deployments.js';
import { daysLeftOf, decide, deadlineOf } from '../../src/watch/decide.js';

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

  it('says the whole days really left, rounded down, and the lead time crossed', () => {
    const at30 = decide(base, base, [30, 7], new Set(), dl - 29 * DAY - 3_600);
    expect(at30.map((e) => e.data)).toEqual([{ deadline: dl, daysLeft: 29, leadDays: 30 }]);
    // Just past the 7-day lead time: 6 days and 23 hours left are 6 whole days.
    const at7 = decide(base, base, [30, 7], new Set([`warn:${dl}:30`]), dl - 7 * DAY + 3_600);
    expect(at7.map((e) => e.data)).toEqual([{ deadline: dl, daysLeft: 6, leadDays: 7 }]);
    expect(daysLeftOf(dl, dl - 12 * DAY)).toBe(12);
    expect(daysLeftOf(dl, dl - 12 * DAY + 1)).toBe(11);
    expect(daysLeftOf(dl, dl - 60)).toBe(0);
    // A watcher starting late sends the nearest lead time passed, with the days actually left.
    const late = decide(null, base, [30, 7], new Set(), dl - 2 * DAY);
    expect(late.map((e) => [e.key, e.data.daysLeft])).toEqual([[`warn:${dl}:7`, 2]]);
  });

  it('never announces a lead time crossed before the period began, after a deployment or a check-in', () => {
    // A 10-day interval and a 2-day grace: the deadline is 12 days after the last check-in.
    const short: SwitchSnapshot = { ...base, intervalSeconds: 10 * DAY, graceSeconds: 2 * DAY };
    const d = deadlineOf(short);
    expect(decide(null, short, [30, 7], new Set(), short.lastCheckIn)).toEqual([]);
    expect(decide(short, short, [30, 7], new Set(), short.lastCheckIn + 60)).toEqual([]);
    // The 7-day lead time is crossed 5 days in: warned then, once; the 30-day one never in this period.
    expect(decide(short, short, [30, 7], new Set(), d - 7 * DAY - 1)).toEqual([]);
    const at6 = decide(short, short, [30, 7], new Set(), d - 6 * DAY);
    expect(at6.map((e) => [e.key, e.data.daysLeft])).toEqual([[`warn:${d}:7`, 6]]);
    expect(decide(short, short, [30, 7], new Set([`warn:${d}:7`]), d - DAY)).toEqual([]);

    // A 30-day interval, no grace: the 30-day lead time is the whole period, crossed as it begins: never sent.
    const month: SwitchSnapshot = { ...base, intervalSeconds: 30 * DAY, graceSeconds: 0 };
    expect(decide(null, month, [30, 7], new Set(), month.lastCheckIn)).toEqual([]);
    expect(decide(month, month, [30, 7], new Set(), month.lastCheckIn + 3_600)).toEqual([]);
    // The owner checks in a day later: the reset, and no warning for the new deadline.
    const checkedIn = { ...month, lastCheckIn: month.lastCheckIn + DAY, blockTime: month.lastCheckIn + DAY };
    const after = decide(month, checkedIn, [30, 7], new Set(), checkedIn.lastCheckIn + 60);
    expect(after.map((e) => e.type)).toEqual(['deadman.reset']);
    // Its 7-day lead time still warns when crossed.
    const d2 = deadlineOf(checkedIn);
    expect(decide(checkedIn, checkedIn, [30, 7], new Set(), d2 - 5 * DAY).map((e) => e.key)).toEqual([`warn:${d2}:7`]);
  });

  it('resets when the check-in moves forward and triggers when claimable', () => {
    const moved = { ...base, lastCheckIn: 2_000 };
    expect(decide(base, moved, [], new Set(), 2_000).map((e) => e.type)).toEqual(['deadman.reset']);
    const trig = decide(base, { ...base, triggered: true }, [30], new Set(), dl + 1);
    expect(trig.map((e) => e.key)).toEqual([`triggered:${dl}`]);
  });

  it("tells the guardians' veto of a trigger from the owner's check-in", () => {
    // Both restart the clock; a veto spends one of the guardians' vetoes, the owner's sign of life gives them back.
    const guarded = { ...base, vetoesLeft: 2 };
    const vetoed = { ...guarded, lastCheckIn: 2_000, vetoesLeft: 1 };
    const [reset] = decide(guarded, vetoed, [], new Set(), 2_000);
    expect(reset).toMatchObject({
      type: 'deadman.reset',
      key: 'reset:2000',
      data: { lastCheckIn: 2_000, by: 'guardians', vetoesLeft: 1 },
    });
    const checkedIn = { ...vetoed, lastCheckIn: 3_000, vetoesLeft: 2 };
    expect(decide(vetoed, checkedIn, [], new Set(), 3_000)[0]?.data).toMatchObject({ lastCheckIn: 3_000, by: 'owner' });
    // A contract without vetoes, or a snapshot read before they were: the owner's, as it always was.
    expect(decide(base, { ...base, lastCheckIn: 2_000 }, [], new Set(), 2_000)[0]?.data).toMatchObject({ by: 'owner' });
    expect(decide(base, vetoed, [], new Set(), 2_000)[0]?.data).toMatchObject({ by: 'owner' });
  });

  it('reports a cancel once, not as a check-in, and warns no more', () => {
    const cancelled = { ...base, lastCheckIn: 2_000, cancelled: true };
    const d = deadlineOf(cancelled);
    const ev = decide(base, cancelled, [30, 7], new Set(), 2_000);
    expect(ev).toEqual([{ type: 'deadman.cancelled', key: 'cancelled', data: { lastCheckIn: 2_000 } }]);
    expect(decide(cancelled, cancelled, [30, 7], new Set(['cancelled']), d - 6 * DAY)).toEqual([]);
    expect(decide(null, cancelled, [30, 7], new Set(['cancelled']), d + 1)).toEqual([]);
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
