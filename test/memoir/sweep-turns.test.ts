import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, newAccount } from '../../src/accounts/records.js';
import { createLogger } from '../../src/core/log.js';
import { EmbedAhead } from '../../src/memoir/embed-ahead.js';
import { catchUpAhead } from '../../src/memoir/embed-catch-up.js';
import { doneMark } from '../../src/memoir/embed-marks.js';
import { MEMOIR_AHEAD_MARKS } from '../../src/memoir/records.js';
import { SLICE } from '../../src/memoir/turns.js';
import type { Store } from '../../src/store/port.js';
import { tmpStore } from '../helpers.js';
import { ticker } from '../support/loop.js';
import { overriding } from '../support/store-wrap.js';

// The catch-up (src/memoir/embed-catch-up.ts) looks at every account every quarter of an hour. With 100,000 accounts,
// sorting out the marked ones held the event loop 70 to 110 ms at once: it does so in slices, with turns between.

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

describe(`a catch-up over ${N} accounts, every memoir marked`, () => {
  it('passes them all by, giving the event loop turns while it sorts them out', async () => {
    // A store that reads each collection at once, so that the turns counted are the catch-up's own.
    const atOnce = overriding(store, {
      all: (collection: string) => store.transact((tx) => tx.all(collection), { readOnly: true }),
    });
    const ahead = new EmbedAhead(llm, createLogger('silent'));
    const loop = ticker();
    const result = await catchUpAhead(atOnce, ahead, clock);
    expect(loop.stop()).toBeGreaterThanOrEqual(4);
    expect(result).toEqual({ caughtUp: 0, skipped: 0, held: 0, left: 0, complete: true });
    await ahead.settle();
  });
});
