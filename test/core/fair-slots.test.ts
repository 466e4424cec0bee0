import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/core/errors.js';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import { FairSlots, type Release } from '../../src/core/fair-slots.js';
import { rejection } from '../support/rejection.js';

const as = <T>(account: string, fn: () => T): T => runAsQueueCaller({ account, weight: 1 }, fn);

/** Lets queued promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('FairSlots', () => {
  it('grants up to its size at once; a release hands the place to the next caller, once however often it is called', async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 2, maxWaitMs: Infinity });
    const first = await slots.acquire();
    await slots.acquire();
    expect(slots.running).toBe(2);
    let third: Release | undefined;
    void slots.acquire().then((r) => (third = r));
    await settle();
    expect(third).toBeUndefined();
    expect(slots.queued).toBe(1);
    first();
    first();
    await settle();
    expect(third).toBeDefined();
    expect(slots.running).toBe(2);
    expect(slots.queued).toBe(0);
    expect(slots.stats.granted).toBe(3);
  });

  it('runs work with a place and gives it back however the work ends', async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, maxWaitMs: Infinity });
    expect(await slots.run(undefined, async () => slots.running)).toBe(1);
    expect(slots.running).toBe(0);
    await expect(slots.run(undefined, () => Promise.reject(new Error('the program failed')))).rejects.toThrow(
      /the program failed/,
    );
    expect(slots.running).toBe(0);
    // A refused place runs nothing.
    const aborted = new AbortController();
    aborted.abort(new Error('gone'));
    let ran = false;
    await expect(slots.run(aborted.signal, async () => void (ran = true))).rejects.toThrow(/gone/);
    expect(ran).toBe(false);
  });

  it("serves accounts in turn: B's one job goes before the five A queued while holding a place", async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, maxWaitMs: Infinity });
    const order: string[] = [];
    const job = (account: string, label: string) =>
      as(account, () => slots.acquire()).then(async (release) => {
        order.push(label);
        await settle();
        release();
      });
    const holder = await as('acct_A', () => slots.acquire());
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((l) => job('acct_A', l));
    const b = job('acct_B', 'b');
    holder();
    await Promise.all([...a, b]);
    // First come, first served would put b last; A's turn went to the place it held.
    expect(order).toEqual(['b', 'a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it("refuses an account's job past its own queue bound, and still lets another account wait", async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, maxQueue: 2, maxWaitMs: Infinity });
    await as('acct_A', () => slots.acquire());
    const waiting = [as('acct_A', () => slots.acquire()), as('acct_A', () => slots.acquire())];
    const e = (await rejection(as('acct_A', () => slots.acquire()))) as ApiError;
    expect(e).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/you have 2 jobs waiting; retry/) });
    expect(Date.parse(e.retryAfter!)).toBeGreaterThan(Date.now());
    void as('acct_B', () => slots.acquire());
    expect(slots.queued).toBe(3);
    expect(slots.stats.busy).toBe(1);
    void waiting;
  });

  it('refuses at once a job whose estimated wait is over the limit, with a retry time from the estimate', async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, typicalMs: 1_000, maxWaitMs: 1_500 });
    await as('acct_A', () => slots.acquire());
    const queued = as('acct_A', () => slots.acquire());
    queued.catch(() => undefined);
    // One of A's waiting and one running, at about 1 s each: 2 s > 1.5 s.
    const e = (await rejection(as('acct_A', () => slots.acquire()))) as ApiError;
    expect(e).toMatchObject({
      code: 'SERVICE_BUSY',
      message: expect.stringMatching(/would wait about 2 s, longer than the 1.5 s allowed; retry in about 2 s$/),
    });
    const retryS = (Date.parse(e.retryAfter!) - Date.now()) / 1000;
    expect(retryS).toBeGreaterThan(1);
    expect(retryS).toBeLessThanOrEqual(3);
    // Another account would go next: admitted.
    const b = as('acct_B', () => slots.acquire());
    b.catch(() => undefined);
    expect(slots.queued).toBe(2);
  });

  it('refuses a caller that waited maxWaitMs, and takes an aborted one out of the queue', async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, typicalMs: 1, maxWaitMs: 50 });
    const held = await slots.acquire();
    const late = await rejection(slots.acquire());
    expect(late).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/waited 0.05 s/) });
    expect(slots.queued).toBe(0);

    const patient = new FairSlots({ name: 'The test programs', size: 1, maxWaitMs: Infinity });
    const release = await patient.acquire();
    const controller = new AbortController();
    const aborted = patient.acquire(controller.signal);
    expect(patient.queued).toBe(1);
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    expect(patient.queued).toBe(0);
    expect(patient.stats.aborted).toBe(1);
    await expect(patient.acquire(AbortSignal.abort(new Error('before')))).rejects.toThrow('before');
    release();
    held();
    expect(patient.running).toBe(0);
  });

  it('hands out the places a larger size adds at once', async () => {
    const slots = new FairSlots({ name: 'The test programs', size: 1, maxWaitMs: Infinity });
    await slots.acquire();
    const granted: number[] = [];
    for (const n of [1, 2]) void slots.acquire().then(() => granted.push(n));
    await settle();
    expect(granted).toEqual([]);
    slots.configure({ size: 3 });
    await settle();
    expect(granted).toEqual([1, 2]);
    expect(slots.running).toBe(3);
  });
});
