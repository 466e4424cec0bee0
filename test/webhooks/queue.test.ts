import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/webhooks/claim.js';
import { DeliveryQueue, SendSlots } from '../../src/webhooks/queue.js';

/** A claimed job of subscription `webhookId` of account `ownerId`, as the send slots see it. */
const job = (id: string, webhookId: string, ownerId: string): Job =>
  ({ id, webhook: { id: webhookId, ownerId }, event: {}, attempt: 1, leaseUntil: Infinity }) as unknown as Job;

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
    // wh_a was served last, so wh_b comes first now, then wh_a: one each per turn (each is an account of its own).
    expect(q.takeDue(10, 2, 2).batch).toEqual(['b1', 'a2']);
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

  it('serves accounts in turn: one with a hundred subscriptions gets one turn, like an account with one', () => {
    const q = new DeliveryQueue();
    for (let w = 0; w < 100; w++) for (let i = 0; i < 5; i++) q.add(`a${w}_${i}`, `wh_a${w}`, 0, 'own_A');
    q.add('b0', 'wh_b', 0, 'own_B');
    q.add('b1', 'wh_b', 0, 'own_B');
    // By subscription, B's first would come after a hundred of A's; by account, at once.
    const first = q.takeDue(10, 4, 8).batch;
    expect(first).toEqual(['a0_0', 'b0', 'a1_0', 'b1']);
    // A's turns go round its own subscriptions; B has nothing left.
    expect(q.takeDue(10, 3, 8).batch).toEqual(['a2_0', 'a3_0', 'a4_0']);
    // A newcomer, C, waits for one of A's at most.
    q.add('c0', 'wh_c', 0, 'own_C');
    q.add('c1', 'wh_c', 0, 'own_C');
    expect(q.takeDue(10, 3, 8).batch).toEqual(['a5_0', 'c0', 'a6_0']);
  });
});

describe("the dispatcher's send slots", () => {
  it('give free slots to accounts in turn, then to their subscriptions in turn, within the bounds', () => {
    const slots = new SendSlots(4, 2);
    for (let w = 0; w < 50; w++) for (let i = 0; i < 3; i++) slots.push(job(`a${w}_${i}`, `wh_a${w}`, 'own_A'));
    slots.push(job('b0', 'wh_b', 'own_B'));
    slots.push(job('b1', 'wh_b', 'own_B'));
    slots.push(job('b2', 'wh_b', 'own_B'));
    const ids = (jobs: Job[]) => jobs.map((j) => j.id);
    // B's jobs need not wait for fifty of A's subscriptions; wh_b holds at most two slots.
    expect(ids(slots.take(() => false).send)).toEqual(['a0_0', 'b0', 'a1_0', 'b1']);
    expect(slots.sending).toBe(4);
    expect(slots.take(() => false).send).toEqual([]);
    slots.done('wh_b');
    slots.done('wh_a0');
    // One each per turn again (A's next subscription, then B's last job).
    expect(ids(slots.take(() => false).send)).toEqual(['a2_0', 'b2']);
    // A late job is answered apart without a slot, and the slot goes on to the next job.
    slots.done('wh_b');
    const { send, late } = slots.take((j) => j.id === 'a3_0');
    expect([ids(send), ids(late)]).toEqual([['a3_1'], ['a3_0']]);
  });

  it('give one subscription waiting alone its jobs in order, within both bounds, and turns once others arrive', () => {
    const slots = new SendSlots(4, 3);
    const ids = (jobs: Job[]) => jobs.map((j) => j.id);
    for (let i = 0; i < 6; i++) slots.push(job(`a${i}`, 'wh_a', 'own_A'));
    // Three for the subscription's bound, though four slots are free.
    expect(ids(slots.take(() => false).send)).toEqual(['a0', 'a1', 'a2']);
    expect(slots.take(() => false).send).toEqual([]);
    slots.done('wh_a');
    // A late job met on the way is answered apart, without a slot.
    const { send, late } = slots.take((j) => j.id === 'a3');
    expect([ids(send), ids(late)]).toEqual([['a4'], ['a3']]);
    expect(slots.sending).toBe(3);
    // Another account's subscription arrives: accounts take turns again (A's last job, then one of B's).
    slots.push(job('b0', 'wh_b', 'own_B'));
    slots.push(job('b1', 'wh_b', 'own_B'));
    slots.done('wh_a');
    expect(ids(slots.take(() => false).send)).toEqual(['a5', 'b0']);
    expect(ids(slots.take(() => false).send)).toEqual([]);
    slots.done('wh_a');
    slots.done('wh_a');
    expect(ids(slots.take(() => false).send)).toEqual(['b1']);
    expect(slots.drain()).toEqual([]);
  });

  it('take nothing and answer nothing late while every slot is busy', () => {
    const slots = new SendSlots(1, 1);
    slots.push(job('a0', 'wh_a', 'own_A'));
    slots.push(job('a1', 'wh_a', 'own_A'));
    expect(slots.take(() => false).send.map((j) => j.id)).toEqual(['a0']);
    // No slot free: the waiting job is not looked at, late or not.
    expect(slots.take(() => true)).toEqual({ send: [], late: [] });
    expect(slots.drain().map((j) => j.id)).toEqual(['a1']);
  });
});
