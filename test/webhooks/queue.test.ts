import { describe, expect, it } from 'vitest';
import { DeliveryQueue } from '../../src/webhooks/queue.js';

describe("the dispatcher's queue of pending deliveries", () => {
  it('takes what is due, earliest first, and names when the next one not yet due is due', () => {
    const q = new DeliveryQueue();
    q.add('d-later', 'wh_a', 5_000);
    q.add('d-new', 'wh_a', 1_000);
    q.add('d-retry', 'wh_a', 900); // due before the new one: taken first
    q.add('d-much-later', 'wh_a', 9_000);
    expect(q.takeDue(1_000, 10, 10)).toEqual({ batch: ['d-retry', 'd-new'], earliest: 5_000 });
    expect([q.queuedCount, q.heldCount, q.heldFor('wh_a'), q.nextDue()]).toEqual([2, 2, 2, 5_000]);
    expect([q.hasDue(4_999), q.hasDue(5_000)]).toEqual([false, true]);
  });

  it('keeps arrival order among deliveries due at the same time, and a moved one counts once', () => {
    const q = new DeliveryQueue();
    for (const id of ['d1', 'd2', 'd3']) q.add(id, 'wh_a', 100);
    q.add('d1', 'wh_a', 2_000); // queued again for later: its earlier place is gone
    q.add('d2', 'wh_a', 100); // the same time again: it keeps its place
    expect(q.queuedCount).toBe(3);
    expect(q.takeDue(100, 10, 10)).toEqual({ batch: ['d2', 'd3'], earliest: 2_000 });
    expect(q.takeDue(2_000, 10, 10)).toEqual({ batch: ['d1'], earliest: Infinity });
    expect([q.queuedCount, q.nextDue()]).toEqual([0, null]);
  });

  it('serves subscriptions in turn within the bounds, and leaves a held delivery alone', () => {
    const q = new DeliveryQueue();
    for (let i = 0; i < 3; i++) {
      q.add(`a${i}`, 'wh_a', 0);
      q.add(`b${i}`, 'wh_b', 0);
    }
    // Two in all this time, one per subscription at most.
    expect(q.takeDue(10, 2, 1).batch).toEqual(['a0', 'b0']);
    q.add('a0', 'wh_a', 0); // held: not queued again
    expect(q.isQueued('a0')).toBe(false);
    q.release('a0');
    expect(q.takeDue(10, 1, 1).batch).toEqual(['a1']); // one in all: wh_a's turn (wh_b still holds b0)
    q.release('b0');
    // wh_a was served last, so wh_b comes first now.
    expect(q.takeDue(10, 2, 2).batch).toEqual(['b1', 'b2']);
  });

  it('finds a due delivery behind any number waiting for a later retry', () => {
    const q = new DeliveryQueue();
    for (let i = 0; i < 50_000; i++) q.add(`later${i}`, 'wh_down', 60_000 + i);
    q.add('now', 'wh_down', 0);
    const { batch, earliest } = q.takeDue(1, 5, 5);
    expect(batch).toEqual(['now']);
    expect(earliest).toBe(60_000);
    expect(q.queuedCount).toBe(50_000);
  });
});
