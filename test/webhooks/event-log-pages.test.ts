/**
 * The event log (list_webhook_events) pages through an account's events newest first, each event once, reading only
 * the events of the page asked for: an account keeps every event of the retention period (tens of thousands for a
 * busy one), and reading them all at each page made walking the log cost the square of its length.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { EVENTS, recordEvent } from '../../src/events/events.js';
import type { Tx } from '../../src/store/port.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { overriding } from '../support/store-wrap.js';

const N = 240;
const PAGE = 50;

let server: TestServer;
/** Event records the store handed out (reads and indexed reads) while counting. */
let eventsRead = 0;

/** `get` and `findBy` of `target`, counting the event records they hand out. */
function countingReads(target: Pick<Tx, 'get' | 'findBy'>) {
  return {
    get: async (collection: string, id: string) => {
      const doc = await target.get(collection, id);
      if (collection === EVENTS && doc) eventsRead += 1;
      return doc;
    },
    findBy: async (collection: string, field: string, value: never) => {
      const found = await target.findBy(collection, field, value);
      if (collection === EVENTS) eventsRead += found.length;
      return found;
    },
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const store = server.services.store;
  const transact = store.transact.bind(store);
  // Reads in transactions and outside them.
  store.transact = ((fn: (tx: Tx) => Promise<unknown>, opts?: never) =>
    transact((tx) => fn(overriding(tx, countingReads(tx))), opts)) as typeof store.transact;
  Object.assign(store, countingReads({ get: store.get.bind(store), findBy: store.findBy.bind(store) }));
});
afterAll(async () => {
  await server?.close();
});

it('pages the event log newest first, reading only each page', async () => {
  const owner = await server.account({ tier: 'partner' });
  const key = await server.key({ ownerId: owner, tier: 'partner', scopes: ['webhooks'] });
  const other = await server.account({ tier: 'partner' });
  const recorded: string[] = [];
  await server.services.store.transact(async (tx) => {
    for (let i = 0; i < N; i++) {
      const e = await recordEvent(tx, { type: 'contract.generated', ownerId: owner, data: { n: i } }, systemClock);
      recorded.push(e.id);
      // Another account's events in between: never listed, never counted as this account's.
      if (i % 10 === 0)
        await recordEvent(tx, { type: 'contract.generated', ownerId: other, data: { n: i } }, systemClock);
    }
  });
  eventsRead = 0;
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await server.app.inject({
      url: `/api/v1/webhooks/events?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      data: Array<{ id: string; data: { n: number } }>;
      meta: { pagination: { nextCursor: string | null; hasMore: boolean } };
    };
    seen.push(...body.data.map((e) => e.id));
    cursor = body.meta.pagination.nextCursor;
    expect(body.meta.pagination.hasMore).toBe(cursor !== null);
    pages += 1;
  } while (cursor !== null);
  expect(pages).toBe(Math.ceil(N / PAGE));
  expect(seen).toEqual([...recorded].sort().reverse());
  // Each page's events once (and a key check or two besides): not the whole log at every page.
  expect(eventsRead).toBeLessThanOrEqual(N + 2 * pages);
});
