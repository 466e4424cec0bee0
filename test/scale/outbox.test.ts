/**
 * The webhook outbox with three `svc serve` processes on one PostgreSQL schema: 1,000 events delivered to
 * a local HTTPS receiver while one instance is SIGKILLed mid-way. Every event arrives at least once; every request
 * the receiver got is a recorded attempt, and an event arrives more than once only when an attempt of its delivery did
 * not end in a recorded success: interrupted (in flight at the kill: the dead instance's lease expired and another
 * instance took the delivery over) or failed (e.g. timed out on a loaded machine). The counts are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, startWebhookCluster, type Cluster } from './support.js';

const EVENTS = 1000;

let cluster: Cluster;
let receiver: Awaited<ReturnType<typeof startWebhookCluster>>['receiver'];
let close: (() => Promise<void>) | undefined;
/** Event id -> times received. */
const received = new Map<string, number>();

beforeAll(async () => {
  ({ cluster, receiver, close } = await startWebhookCluster(3, (id) => {
    received.set(id, (received.get(id) ?? 0) + 1);
    return { status: 200, delayMs: 5 };
  }));
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('outbox with three instances', () => {
  it('delivers 1,000 events at least once while an instance is SIGKILLed; duplicates only for deliveries in flight at the kill', async () => {
    const [a, b, c] = cluster.instances;
    const sub = await call(a!.url, cluster.key, 'POST', '/api/v1/webhooks/subscriptions', {
      url: receiver.url('/hook'),
      name: 'scale',
      events: ['api_key.created'],
    });
    expect(sub.status).toBe(201);
    let made = 0;
    let killed = false;
    /** Answers other than 201 (a killed instance answers nothing): only 503 with Retry-After may be among them, never 500. */
    const refused: Array<{ status: number; code: unknown; retryAfter: string | null }> = [];
    const targets = () => (killed ? [a!, c!] : [a!, b!, c!]);
    const create = async (): Promise<void> => {
      while (made < EVENTS) {
        const n = made++;
        const list = targets();
        const res = await call(list[n % list.length]!.url, cluster.key, 'POST', '/api/v1/api-keys', {
          name: `outbox-${n}`,
          tier: 'public',
          scopes: ['contracts:read'],
        }).catch(() => undefined);
        if (res && res.status !== 201)
          refused.push({ status: res.status, code: res.json?.error?.code, retryAfter: res.headers.get('retry-after') });
        if (res?.status !== 201) made--; // the killed instance's unanswered request, or a 503: try again
        if (!killed && made >= EVENTS * 0.4) {
          killed = true;
          b!.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, create));
    await b!.exited;
    // A transaction that ran out of retries or lost its connection while the peer died is a 503, never a 500.
    for (const r of refused) {
      expect(r).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }

    const events = async () =>
      (
        await cluster.admin.query(`SELECT id FROM "${cluster.schema}".c_events WHERE doc->>'type' = 'api_key.created'`)
      ).rows.map((r) => r.id as string);
    const all = await events();
    expect(all.length).toBeGreaterThanOrEqual(EVENTS);
    const delivered = await eventually(() => all.every((id) => received.has(id)), 60_000, 200);
    expect(delivered, `${all.filter((id) => !received.has(id)).length} events never arrived`).toBe(true);

    // Every delivery record ends succeeded (the last outcomes are written just after the receiver answered).
    const states = async () =>
      (
        await cluster.admin.query(
          `SELECT doc->>'state' AS state, count(*)::int AS n FROM "${cluster.schema}".c_deliveries GROUP BY 1`,
        )
      ).rows;
    await eventually(async () => (await states()).length === 1, 20_000, 200);
    expect(await states()).toEqual([{ state: 'succeeded', n: all.length }]);

    // Every request the receiver got was recorded as an attempt first; an event arrives twice only when an attempt did
    // not end in a recorded success: interrupted (in flight at the kill, or its lease ran out on a loaded machine) or
    // timed out (the receiver answered too late).
    const rows = (
      await cluster.admin.query(
        `SELECT doc->>'eventId' AS event, doc->'attempts' AS attempts FROM "${cluster.schema}".c_deliveries`,
      )
    ).rows as Array<{
      event: string;
      attempts: Array<{ interrupted?: boolean; error: string | null; statusCode: number | null }>;
    }>;
    const byEvent = new Map(rows.map((r) => [r.event, r.attempts]));
    const interrupted = new Set(rows.filter((r) => r.attempts.some((a) => a.interrupted)).map((r) => r.event));
    const duplicates = [...received].filter(([, n]) => n > 1).map(([id]) => id);
    for (const [id, n] of received) {
      const attempts = byEvent.get(id)!;
      expect(n).toBeLessThanOrEqual(attempts.length);
      if (n > 1)
        expect(
          attempts.some((a) => a.interrupted || a.error !== null),
          `${id}: ${JSON.stringify(attempts)}`,
        ).toBe(true);
    }
    console.error(
      `outbox: ${all.length} events, ${duplicates.length} delivered more than once, ${interrupted.size} deliveries interrupted (in flight at the kill), ` +
        `${refused.length} key creations answered 503`,
    );
  }, 180_000); // 1,000 requests through three instances, then waits of up to 60 s and 20 s for the deliveries
});
