import { describe, expect, it } from 'vitest';
import { currentQueueCaller, FairQueue, runAsQueueCaller } from '../../src/core/fair-queue.js';

/** Everything left in the queue, in the order it would be served. */
function order<T>(q: FairQueue<T>): T[] {
  const out: T[] = [];
  for (let item = q.shift(); item !== undefined; item = q.shift()) out.push(item);
  return out;
}

describe('FairQueue', () => {
  it('keeps one account first-in, first-out', () => {
    const q = new FairQueue<string>();
    for (const x of ['a1', 'a2', 'a3']) q.push('A', 1, x);
    expect(q.size).toBe(3);
    expect(order(q)).toEqual(['a1', 'a2', 'a3']);
    expect(q.size).toBe(0);
  });

  it("serves a newcomer after at most one of another account's queued items, however many it queued", () => {
    const q = new FairQueue<string>();
    for (let i = 1; i <= 10; i++) q.push('A', 1, `a${i}`);
    expect(q.shift()).toBe('a1'); // running
    q.push('B', 1, 'b1');
    expect(q.ahead('C', 1)).toBe(1); // one of A's, then the newcomer C would follow B
    expect(q.shift()).toBe('b1');
    expect(order(q)).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10']);
  });

  it('alternates accounts with work, and weights their turns', () => {
    const even = new FairQueue<string>();
    for (let i = 1; i <= 3; i++) even.push('A', 1, `a${i}`);
    for (let i = 1; i <= 3; i++) even.push('B', 1, `b${i}`);
    expect(order(even)).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);

    const weighted = new FairQueue<string>();
    for (let i = 1; i <= 6; i++) weighted.push('P', 2, `p${i}`);
    for (let i = 1; i <= 3; i++) weighted.push('Q', 1, `q${i}`);
    const served = order(weighted);
    // Among the first six, the weight-2 account has twice the turns.
    expect(served.slice(0, 6).filter((x) => x.startsWith('p'))).toHaveLength(4);
    expect(served).toHaveLength(9);
  });

  it('an account that paused gets no credit for the time away', () => {
    const q = new FairQueue<string>();
    q.push('A', 1, 'a1');
    expect(q.shift()).toBe('a1');
    for (let i = 1; i <= 6; i++) q.push('B', 1, `b${i}`);
    expect([q.shift(), q.shift(), q.shift(), q.shift()]).toEqual(['b1', 'b2', 'b3', 'b4']);
    // A comes back with three: it rejoins at the current turn instead of being owed the three turns it missed.
    for (let i = 2; i <= 4; i++) q.push('A', 1, `a${i}`);
    const rest = order(q);
    expect(rest[0]).toBe('a2');
    expect(rest.indexOf('a4')).toBeGreaterThan(rest.indexOf('b5'));
  });

  it('counts what comes before an item pushed now', () => {
    const q = new FairQueue<string>();
    expect(q.ahead('A', 1)).toBe(0);
    for (let i = 1; i <= 4; i++) q.push('A', 1, `a${i}`);
    expect(q.ahead('A', 1)).toBe(4); // its own queue
    expect(q.ahead('B', 1)).toBe(1); // one of A's, by the tie
    q.push('B', 1, 'b1');
    expect(q.ahead('B', 1)).toBe(3); // b1, and A's items up to its turn
  });

  it('removes an item anywhere and drains the rest', () => {
    const q = new FairQueue<string>();
    q.push('A', 1, 'a1');
    q.push('B', 1, 'b1');
    q.push('A', 1, 'a2');
    expect(q.remove('b1')).toBe(true);
    expect(q.remove('b1')).toBe(false);
    expect(q.size).toBe(2);
    expect(q.drain().sort()).toEqual(['a1', 'a2']);
    expect(q.size).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('the caller of a tool call is carried through awaits; outside a call, the system', async () => {
    expect(currentQueueCaller().account).toBe('(system)');
    const seen = await runAsQueueCaller({ account: 'acct_x', weight: 2 }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return currentQueueCaller();
    });
    expect(seen).toEqual({ account: 'acct_x', weight: 2 });
  });
});
