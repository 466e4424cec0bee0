/** The start-up scan of pending deliveries reads the outbox a page at a time and keeps only what the queue needs. */
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERIES, type DeliveryRecord } from '../../src/events/events.js';
import { pendingPages } from '../../src/webhooks/claim.js';
import { tempStore } from './helpers.js';

function delivery(n: number, state: DeliveryRecord['state'], nextAttemptAt: number | null): DeliveryRecord {
  return {
    id: `dlv_${String(n).padStart(3, '0')}`,
    eventId: `evt_${n}`,
    webhookId: `wh_${n % 3}`,
    ownerId: 'own_a',
    type: 'contract.generated',
    state,
    nextAttemptAt,
    attempts: [],
    leaseOwner: null,
    leaseUntil: null,
    createdAt: new Date(0).toISOString(),
    completedAt: null,
  };
}

describe('pendingPages', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('yields every pending delivery once, in pages no larger than asked, and skips the others', async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const states: DeliveryRecord['state'][] = ['pending', 'succeeded', 'pending', 'delivering', 'failed'];
    for (let n = 0; n < 23; n++) {
      const state = states[n % states.length]!;
      await t.store.put(DELIVERIES, delivery(n, state, state === 'pending' ? 1000 + n : null));
    }
    const pages = [];
    for await (const page of pendingPages(t.store, 4)) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(4);
    const got = pages.flat().sort((a, b) => a.id.localeCompare(b.id));
    const want = Array.from({ length: 23 }, (_, n) => n)
      .filter((n) => n % 5 === 0 || n % 5 === 2)
      .map((n) => ({
        id: `dlv_${String(n).padStart(3, '0')}`,
        webhookId: `wh_${n % 3}`,
        ownerId: 'own_a',
        due: 1000 + n,
      }));
    expect(got).toEqual(want);
  });

  it('skips a delivery that left pending after its id was read', async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    for (let n = 0; n < 6; n++) await t.store.put(DELIVERIES, delivery(n, 'pending', 0));
    const seen: string[] = [];
    for await (const page of pendingPages(t.store, 2)) {
      seen.push(...page.map((q) => q.id));
      // The dispatcher claims while the scan goes on: a later record is no longer pending when its page is read.
      if (seen.length === 2) await t.store.put(DELIVERIES, delivery(5, 'succeeded', null));
    }
    expect(seen.sort()).toEqual(['dlv_000', 'dlv_001', 'dlv_002', 'dlv_003', 'dlv_004']);
  });
});
