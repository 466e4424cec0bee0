/**
 * Two `svc serve` processes on one PostgreSQL schema deliver a backlog of webhook events to a slow local HTTPS receiver
 * (it records when each request arrives); one of them is SIGKILLed mid-way. A delivery is sent again (its attempt
 * marked interrupted) only when its lease expired while it was in flight: an instance holds under lease no more
 * deliveries of a subscription than its send slots for it (8), so at most 8 are taken over before their request ever
 * arrived, whatever the backlog (before, an instance claimed 8 times its slots ahead, and the survivor re-sent all of
 * them: about 60, most never sent), and a delivery that arrives twice arrived again only after its lease ran out (on a
 * loaded machine that can also happen to a live instance whose outcome write stalled past the lease: that delivery was
 * in flight too). Every event arrives; key creations through the surviving instance answer 201, or 503 with Retry-After
when their transaction ran out of retries on a loaded machine (never a 500): those are sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, startWebhookCluster, type Cluster } from './support.js';

const EVENTS = 200;
/** The dispatcher's default send slots per subscription (src/webhooks/dispatcher.ts perSubscription). */
const SLOTS_PER_SUBSCRIPTION = 8;

let cluster: Cluster;
let receiver: Awaited<ReturnType<typeof startWebhookCluster>>['receiver'];
let close: (() => Promise<void>) | undefined;
/** Event id -> times received. */
const received = new Map<string, number>();
/** Event id -> arrival times (ms). */
const arrivals = new Map<string, number[]>();
let requests = 0;

beforeAll(async () => {
  // Slow answers (500 ms): each instance has its 8 slots busy and a backlog waiting when the kill comes.
  ({ cluster, receiver, close } = await startWebhookCluster(2, (id) => {
    requests++;
    received.set(id, (received.get(id) ?? 0) + 1);
    arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()]);
    return { status: 200, delayMs: 500 };
  }));
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('webhook deliveries when an instance is SIGKILLed', () => {
  it('are re-sent only when they were in flight at the kill', async () => {
    const [a, b] = cluster.instances;
    const sub = await call(a!.url, cluster.key, 'POST', '/api/v1/webhooks/subscriptions', {
      url: receiver.url('/hook'),
      name: 'redeliver',
      events: ['api_key.created'],
    });
    expect(sub.status).toBe(201);
    // The backlog, written through the instance that stays up; both instances claim from it.
    /** Answers other than 201: only 503 with Retry-After may be among them. */
    const refused: Array<{ status: number; code: unknown; retryAfter: string | null }> = [];
    let made = 0;
    const creating = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < EVENTS) {
          const n = made++;
          const res = await call(a!.url, cluster.key, 'POST', '/api/v1/api-keys', {
            name: `redeliver-${n}`,
            tier: 'public',
            scopes: ['contracts:read'],
          });
          if (res.status === 201) continue;
          refused.push({ status: res.status, code: res.json?.error?.code, retryAfter: res.headers.get('retry-after') });
          made--; // not created: try again
        }
      }),
    );
    // Both instances are sending (slots full), with most of the backlog still to come: kill one.
    expect(await eventually(() => requests >= 2 * SLOTS_PER_SUBSCRIPTION, 60_000, 20)).toBe(true);
    const killedAt = Date.now();
    b!.child.kill('SIGKILL');
    await b!.exited;
    const atKill = requests;
    await creating;
    for (const r of refused) {
      expect(r).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }

    const events = (
      await cluster.admin.query(`SELECT id FROM "${cluster.schema}".c_events WHERE doc->>'type' = 'api_key.created'`)
    ).rows.map((r) => r.id as string);
    expect(events).toHaveLength(EVENTS);
    const delivered = await eventually(() => events.every((id) => received.has(id)), 90_000, 200);
    expect(delivered, `${events.filter((id) => !received.has(id)).length} events never arrived`).toBe(true);
    const states = async () =>
      (
        await cluster.admin.query(
          `SELECT doc->>'state' AS state, count(*)::int AS n FROM "${cluster.schema}".c_deliveries GROUP BY 1`,
        )
      ).rows;
    await eventually(async () => (await states()).length === 1, 20_000, 200);
    expect(await states()).toEqual([{ state: 'succeeded', n: EVENTS }]);
    // The backlog was real: much of it was still to be sent when the instance died.
    expect(EVENTS - atKill).toBeGreaterThan(4 * SLOTS_PER_SUBSCRIPTION);

    const rows = (
      await cluster.admin.query(
        `SELECT doc->>'eventId' AS event, doc->'attempts' AS attempts FROM "${cluster.schema}".c_deliveries`,
      )
    ).rows as Array<{
      event: string;
      attempts: Array<{ interrupted?: boolean; error: string | null }>;
    }>;
    const interrupted = rows.filter((r) => r.attempts.some((x) => x.interrupted)).map((r) => r.event);
    const duplicates = [...received].filter(([, n]) => n > 1).map(([id]) => id);
    // Interrupted deliveries whose request had not arrived before the takeover: on the wire (or about to be) at the
    // kill, or claimed and never sent. Only the former may exist, and an instance has at most its slots of them.
    const neverArrivedBefore = interrupted.filter((id) => (arrivals.get(id) ?? []).length < 2);
    const since = (id: string) => (arrivals.get(id) ?? []).map((t) => t - killedAt).join('/');
    console.error(
      `redelivery: ${EVENTS} events, ${atKill} requests before the kill, ${interrupted.length} deliveries taken over (interrupted), ` +
        `${duplicates.length} received twice, ${neverArrivedBefore.length} taken over before their request arrived`,
    );
    console.error(
      `redelivery: arrivals of the taken-over deliveries, ms from the kill: ${interrupted.map(since).join(' ')}`,
    );
    // Re-sent only when the lease expired while the delivery was in flight: the instance that died had at most its
    // send slots' worth under lease (the previous code claimed 8 times as many ahead, and the survivor re-sent them all).
    expect(neverArrivedBefore.length).toBeLessThanOrEqual(SLOTS_PER_SUBSCRIPTION);
    for (const id of neverArrivedBefore) expect(arrivals.get(id)![0]!).toBeGreaterThan(killedAt);
    // A delivery sent twice was sent again only after its lease (8 s) had expired: at least the lease minus the
    // attempt timeout (5 s; a claim is sent only while that much of its lease is left) after the first request.
    for (const id of duplicates) {
      expect(interrupted.includes(id), `${id} arrived twice without an interrupted attempt`).toBe(true);
      const [first, second] = arrivals.get(id)!;
      expect(second! - first!, `${id}: ${since(id)}`).toBeGreaterThanOrEqual(8000 - 5000);
    }
    const byEvent = new Map(rows.map((r) => [r.event, r.attempts]));
    for (const [id, n] of received) expect(n).toBeLessThanOrEqual(byEvent.get(id)!.length);
  }, 240_000);
});
