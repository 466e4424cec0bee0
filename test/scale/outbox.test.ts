/**
 * The webhook outbox with three `svc serve` processes on one PostgreSQL schema (issue 16): 1,000 events delivered to
 * a local HTTPS receiver while one instance is SIGKILLed mid-way. Every event arrives at least once; an event arrives
 * twice only when its delivery was in flight at the kill, which the store records as an interrupted attempt (the
 * lease of the dead instance expired and another instance took the delivery over).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers.js';
import { makeCert, startReceiver } from '../webhooks/helpers.js';
import { call, eventually, startCluster, type Cluster } from './support.js';

const EVENTS = 1000;

let cluster: Cluster;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let certs: Awaited<ReturnType<typeof tmpDir>>;
/** Event id -> times received. */
const received = new Map<string, number>();

beforeAll(async () => {
  certs = await tmpDir('svc-scale-tls-');
  const tls = makeCert();
  const caFile = path.join(certs.dir, 'ca.pem');
  writeFileSync(caFile, tls.cert);
  receiver = await startReceiver(
    tls,
    (req) => {
      const id = (JSON.parse(req.body) as { id: string }).id;
      received.set(id, (received.get(id) ?? 0) + 1);
      return { status: 200, delayMs: 5 };
    },
    { record: false },
  );
  // Short timeout and lease, so the dead instance's deliveries are taken over within seconds.
  cluster = await startCluster(3, {
    SVC_WEBHOOK_ALLOW: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
    SVC_WEBHOOK_TIMEOUT_MS: '2000',
    SVC_WEBHOOK_LEASE_MS: '4000',
  });
}, 120_000);

afterAll(async () => {
  await cluster?.close();
  await receiver?.close();
  await certs?.cleanup();
});

describe('outbox with three instances', () => {
  it('delivers 1,000 events at least once while an instance is SIGKILLed; duplicates only for deliveries in flight at the kill', async () => {
    const [a, b, c] = cluster.instances;
    const sub = await call(a!.url, cluster.key, 'POST', '/api/v1/webhooks/subscriptions', { url: receiver.url('/hook'), name: 'scale', events: ['api_key.created'] });
    expect(sub.status).toBe(201);
    let made = 0;
    let killed = false;
    const targets = () => (killed ? [a!, c!] : [a!, b!, c!]);
    const create = async (): Promise<void> => {
      while (made < EVENTS) {
        const n = made++;
        const list = targets();
        const res = await call(list[n % list.length]!.url, cluster.key, 'POST', '/api/v1/api-keys', { name: `outbox-${n}`, tier: 'public', scopes: ['contracts:read'] }).catch(() => undefined);
        if (!res || res.status !== 201) made--; // the killed instance's unanswered request: try again elsewhere
        if (!killed && made >= EVENTS * 0.4) {
          killed = true;
          b!.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, create));
    await b!.exited;

    const events = async () =>
      (await cluster.admin.query(`SELECT id FROM "${cluster.schema}".c_events WHERE doc->>'type' = 'api_key.created'`)).rows.map((r) => r.id as string);
    const all = await events();
    expect(all.length).toBeGreaterThanOrEqual(EVENTS);
    const delivered = await eventually(() => all.every((id) => received.has(id)), 60_000, 200);
    expect(delivered, `${all.filter((id) => !received.has(id)).length} events never arrived`).toBe(true);

    // Every delivery record ends succeeded (the last outcomes are written just after the receiver answered).
    const states = async () =>
      (await cluster.admin.query(`SELECT doc->>'state' AS state, count(*)::int AS n FROM "${cluster.schema}".c_deliveries GROUP BY 1`)).rows;
    await eventually(async () => (await states()).length === 1, 20_000, 200);
    expect(await states()).toEqual([{ state: 'succeeded', n: all.length }]);

    // Duplicates: only events whose delivery has an interrupted attempt (in flight at the kill).
    const interrupted = new Set(
      (
        await cluster.admin.query(
          `SELECT doc->>'eventId' AS event FROM "${cluster.schema}".c_deliveries
            WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'attempts') a WHERE (a->>'interrupted')::boolean)`,
        )
      ).rows.map((r) => r.event as string),
    );
    const duplicates = [...received].filter(([, n]) => n > 1).map(([id]) => id);
    for (const id of duplicates) expect(interrupted.has(id)).toBe(true);
    for (const [, n] of received) expect(n).toBeLessThanOrEqual(2);
    console.error(`outbox: ${all.length} events, ${duplicates.length} delivered twice, ${interrupted.size} in flight at the kill`);
  });
});
