import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, newAccount } from '../../src/accounts/records.js';
import { createLogger } from '../../src/core/log.js';
import { EmbedAhead } from '../../src/memoir/embed-ahead.js';
import { catchUpAhead } from '../../src/memoir/embed-catch-up.js';
import { doneMark } from '../../src/memoir/embed-marks.js';
import { MEMOIR_AHEAD_MARKS } from '../../src/memoir/records.js';
import { SLICE } from '../../src/memoir/turns.js';
import type { IndexValue, Store } from '../../src/store/port.js';
import { MEMOIR_HEIR_PLANS } from '../../src/memoir/heir-plans.js';
import { armedPlan } from '../support/heir-plans.js';
import { sendDueReminders } from '../../src/memoir/reminders.js';
import { tmpStore } from '../helpers.js';
import { ticker } from '../support/loop.js';
import { overriding } from '../support/store-wrap.js';

// Every quarter of an hour the service looks at every account's memoir (the catch-up, src/memoir/embed-catch-up.ts)
// and at every armed plan (the check-in reminders, src/memoir/reminders.ts). With 100,000 of them, sorting them out
// held the event loop 70 to 144 ms at once: both do it in slices, with turns between.

const N = 2 * SLICE + 5;
const llm = { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-none', model: 'm', embeddingModel: 'e' };
const clock = { now: () => new Date('2026-06-01T09:00:00Z') };
let store: Store;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ store, cleanup } = await tmpStore());
  await store.transact(async (tx) => {
    for (let i = 0; i < N; i++) {
      const account = newAccount({ name: `a${i}`, tier: 'public', kind: 'customer' }, clock);
      await tx.put(ACCOUNTS, account);
      await tx.put(MEMOIR_AHEAD_MARKS, doneMark(account.id, 'own', 'e', clock.now()));
    }
  });
});
afterAll(() => cleanup());

/** `store` whose reads of `collection` answer at once (in a transaction), so that the turns counted are the caller's. */
const atOnce = (collection: string) =>
  overriding(store, {
    all: (c: string) => store.transact((tx) => tx.all(c), { readOnly: true }),
    findBy: (c: string, field: string, value: IndexValue) =>
      c === collection
        ? store.transact((tx) => tx.findBy(c, field, value), { readOnly: true })
        : store.findBy(c, field, value),
  });

describe(`a catch-up over ${N} accounts, every memoir marked`, () => {
  it('passes them all by, giving the event loop turns while it sorts them out', async () => {
    const ahead = new EmbedAhead(llm, createLogger('silent'));
    const loop = ticker();
    const result = await catchUpAhead(atOnce(ACCOUNTS), ahead, clock);
    expect(loop.stop()).toBeGreaterThanOrEqual(4);
    expect(result).toEqual({ caughtUp: 0, skipped: 0, held: 0, left: 0, complete: true });
    await ahead.settle();
  });
});

describe(`the check-in reminders over ${N} armed plans, none due`, () => {
  it('remind nobody, giving the event loop turns while they look', async () => {
    const at = clock.now().toISOString();
    await store.transact(async (tx) => {
      for (let i = 0; i < N; i++) await tx.put(MEMOIR_HEIR_PLANS, armedPlan(i, at));
    });
    const loop = ticker();
    expect(await sendDueReminders(atOnce(MEMOIR_HEIR_PLANS), clock)).toBe(0);
    expect(loop.stop()).toBeGreaterThanOrEqual(2);
  });
});
