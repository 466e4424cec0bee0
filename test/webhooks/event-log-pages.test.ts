/**
 * The event log (list_webhook_events) pages through an account's events newest first, each event once, reading only
 * the events of the page asked for: an account keeps every event of the retention period (tens of thousands for a
 * busy one), and reading them all at each page made walking the log cost the square of its length.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { EVENTS, recordEvent } from '../../src/events/events.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { countReads } from '../support/store-wrap.js';

const N = 240;
const PAGE = 50;

let server: TestServer;
let reads: ReturnType<typeof countReads>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  reads?.restore();
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
  reads = countReads(server.services.store, EVENTS);
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
  expect(reads.count()).toBeLessThanOrEqual(N + 2 * pages);
});
