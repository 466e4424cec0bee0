/**
 * Several instances on PostgreSQL and Redis, printed, never asserted:
 * - store: acknowledged put p50 with 10k records and 50 writers, lowdb and PostgreSQL side by side;
 * - limiter: hitAll per second, in process vs Redis (bench/engines.ts);
 * - REST: GET /api/v1/contracts/templates throughput with 1 and then 3 `svc serve` processes on the same PostgreSQL
 *   schema and Redis prefix (autocannon, one load per instance, as a load balancer would spread it);
 * - claims: how long the dispatcher's claim takes to get a due delivery alone, beside a subscription whose 20,000
 *   deliveries wait for a retry, and behind 1,000 accounts whose deliveries do;
 * - outbox: deliveries drained per second to a local HTTPS receiver by 1 and then 3 instances.
 *
 *   npx tsx bench/scale.ts        (or npm run bench -- scale)
 *
 * Engines as in the tests (test/support/engines.ts); a schema and key prefix of its own, removed after. On a machine
 * with few cores the instances share them, so the 3-instance figures show contention as much as scaling.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { STORE_INDEXES } from '../src/app.js';
import { DELIVERIES, EVENTS, newDelivery, type EventRecord } from '../src/events/events.js';
import { openLowdbStore, type Doc, type Store, type Tx } from '../src/store/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { randomSchema, testDatabaseUrl, testRedisUrl } from '../test/support/engines.js';
import { startCluster, call, type Cluster, type Instance } from '../test/scale/support.js';
import { makeCert, startReceiver } from '../test/webhooks/helpers.js';
import { dueClaimQuery } from '../src/webhooks/claim.js';
import { benchLimiters } from './engines.js';
import { fmt, isMain, percentile } from './util.js';

const RECORDS = 10_000;
const WRITERS = 50;
const PUTS_PER_WRITER = 20;

function record(n: number): Doc {
  return {
    id: `rec_${n.toString(36).padStart(8, '0')}`,
    ownerId: `own_${n % 5000}`,
    status: ['a', 'b', 'c'][n % 3],
    title: `Estate plan ${n}`,
    cents: n * 7919,
  };
}

/** p50 of acknowledged puts by 50 concurrent writers into a store holding 10k records. */
async function putP50(store: Store): Promise<{ p50: number; perSecond: number }> {
  for (let i = 0; i < RECORDS; i += 500) {
    await store.transact(async (tx) => {
      for (let n = i; n < i + 500; n++) await tx.put('records', record(n));
    });
  }
  const samples: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < PUTS_PER_WRITER; i++) {
        const t = performance.now();
        await store.put('records', record(RECORDS + w * PUTS_PER_WRITER + i));
        samples.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), perSecond: (WRITERS * PUTS_PER_WRITER) / (wall / 1000) };
}

async function benchStores(dbUrl: string, admin: pg.Client): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-scale-'));
  const lowdb = await openLowdbStore({ dataDir: dir, indexes: { records: ['ownerId', 'status'] } });
  let low: { p50: number; perSecond: number };
  try {
    low = await putP50(lowdb);
  } finally {
    await lowdb.close();
    await rm(dir, { recursive: true, force: true });
  }
  const schema = randomSchema('svc_bench_scale');
  const pgStore = await openPostgresStore({ url: dbUrl, schema, indexes: { records: ['ownerId', 'status'] } });
  let pgr: { p50: number; perSecond: number };
  try {
    pgr = await putP50(pgStore);
  } finally {
    await pgStore.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
  console.log(
    `  store put, ${RECORDS} records, ${WRITERS} writers: lowdb p50 ${fmt(low.p50)} ms (${fmt(low.perSecond, 0)} puts/s), ` +
      `PostgreSQL p50 ${fmt(pgr.p50)} ms (${fmt(pgr.perSecond, 0)} puts/s); PostgreSQL/lowdb p50 ratio ${fmt(pgr.p50 / low.p50, 2)}`,
  );
}

/**
 * Requests answered 2xx per second over `instances`, one autocannon load of `amount` requests each (a fresh internal
 * key each). Every key of the account shares its tier's limit (10,000 requests per 15 minutes for internal keys): the
 * loads are counted in requests, not seconds, so that on a fast machine they stay under it, and a refused request
 * (429) is never counted as throughput.
 */
async function restLoad(
  cluster: Cluster,
  instances: Instance[],
  amount: number,
): Promise<{ rps: number; non2xx: number }> {
  const keys = await Promise.all(
    instances.map(async (_, i) => {
      const made = await call(cluster.instances[0]!.url, cluster.key, 'POST', '/api/v1/api-keys', {
        name: `bench-${Date.now()}-${i}`,
        tier: 'internal',
        scopes: ['all'],
      });
      if (made.status !== 201)
        throw new Error(`could not make a bench key: ${made.status} ${JSON.stringify(made.json)}`);
      return made.json.data.key as string;
    }),
  );
  const results = await Promise.all(
    instances.map((inst, i) =>
      autocannon({
        url: `${inst.url}/api/v1/contracts/templates`,
        headers: { authorization: `Bearer ${keys[i]}` },
        connections: 16,
        amount,
        // The run ends at the first sample after the last answer: sampled often, so the time is the load's.
        sampleInt: 20,
        pipelining: 1,
      }),
    ),
  );
  return {
    rps: results.reduce((s, r) => s + r['2xx'] / r.duration, 0),
    non2xx: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
  };
}

/** Resident memory of a process (Linux /proc), or 0 when it cannot be read. */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The dispatchers' totals, from the line each instance logs when it stops: deliveries attempted, and transactions
 * (claims, outcome writes) run again after a conflict with another instance.
 */
function dispatcherTotals(instances: Instance[]): { attempts: number; conflicts: number } {
  let attempts = 0;
  let conflicts = 0;
  for (const i of instances) {
    for (const line of i.stderr().split('\n')) {
      if (!line.includes('webhook dispatcher stopped')) continue;
      try {
        const entry = JSON.parse(line) as { attempts?: number; conflicts?: number };
        attempts += entry.attempts ?? 0;
        conflicts += entry.conflicts ?? 0;
      } catch {
        // not a JSON log line
      }
    }
  }
  return { attempts, conflicts };
}

/**
 * Writes `n` due deliveries of new events straight into the shared store and times until all arrived; also samples
 * the instances' peak resident memory meanwhile.
 */
async function drain(
  cluster: Cluster,
  received: Set<string>,
  webhookId: string,
  ownerId: string,
  n: number,
): Promise<{ rate: number; rss: number }> {
  const store = await openPostgresStore({
    url: cluster.databaseUrl,
    schema: cluster.schema,
    indexes: STORE_INDEXES,
    poolSize: 2,
  });
  const ids: string[] = [];
  try {
    const now = Date.now();
    await store.transact(async (tx) => {
      ids.length = 0;
      for (let k = 0; k < n; k++) {
        const createdAt = new Date(now).toISOString();
        const event: EventRecord = {
          id: `evt_bench_${now}_${k}`,
          type: 'api_key.created',
          ownerId,
          created: Math.floor(now / 1000),
          createdAt,
          apiVersion: 'v1',
          data: { k },
        };
        await tx.put(EVENTS, event);
        await tx.put(DELIVERIES, newDelivery(event, webhookId, now, createdAt));
        ids.push(event.id);
      }
    });
  } finally {
    await store.close();
  }
  const t0 = performance.now();
  const deadline = t0 + 120_000;
  let rss = 0;
  let lastSample = -Infinity;
  while (!ids.every((id) => received.has(id))) {
    if (performance.now() > deadline)
      throw new Error(`outbox drain: ${ids.filter((id) => !received.has(id)).length} of ${n} not delivered in 120 s`);
    if (performance.now() - lastSample > 200) {
      lastSample = performance.now();
      for (const i of cluster.instances) rss = Math.max(rss, rssOf(i.child.pid));
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { rate: n / ((performance.now() - t0) / 1000), rss };
}

/**
 * How long a claim in turns (the dispatcher's query: accounts, then subscriptions, due deliveries first) takes to get
 * one due delivery, p50 over CLAIM_SAMPLES, every claim until it comes counted (a claim that finds nothing starts the
 * next one where it stopped looking, as the claim loop does). `backlog` writes what is there besides.
 */
async function claimUntilDue(dbUrl: string, admin: pg.Client, backlog: (tx: Tx) => Promise<void>) {
  const schema = randomSchema('svc_bench_claim');
  const store = await openPostgresStore({ url: dbUrl, schema, indexes: STORE_INDEXES });
  const samples: number[] = [];
  let claims = 0;
  try {
    await store.transact(backlog);
    let after: string | undefined;
    for (let i = 0; i <= CLAIM_SAMPLES; i++) {
      const event = { id: `evt_due_${i}`, ownerId: 'own_zz', type: 'contract.generated' } as EventRecord;
      await store.put(DELIVERIES, newDelivery(event, 'wh_zz', Date.now(), new Date().toISOString()));
      const t = performance.now();
      for (let got = 0; got === 0; ) {
        // The dispatcher's claim with one free send slot.
        const query = dueClaimQuery(1, Date.now(), { after });
        got = await store.claimWith<Doc & { ownerId: string }, number>(
          DELIVERIES,
          query,
          async (tx, records, reach) => {
            for (const r of records) await tx.put(DELIVERIES, { ...r, state: 'delivered' });
            if (typeof reach.after === 'string') after = reach.after;
            return records.length;
          },
        );
        if (i > 0) claims++; // the first claim builds the index: left out
      }
      if (i > 0) samples.push(performance.now() - t);
    }
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), claims: claims / CLAIM_SAMPLES };
}

const CLAIM_SAMPLES = 20;

/** Deliveries of `accounts` accounts (one subscription each), `each` of them, all waiting an hour for a retry. */
function inBackoff(accounts: number, each: number) {
  return async (tx: Tx) => {
    const later = Date.now() + 3_600_000;
    for (let a = 0; a < accounts; a++)
      for (let n = 0; n < each; n++) {
        const event = {
          id: `evt_${a}_${n}`,
          ownerId: `own_a${String(a).padStart(5, '0')}`,
          type: 'contract.generated',
        };
        await tx.put(DELIVERIES, newDelivery(event as EventRecord, `wh_${a}`, later, new Date().toISOString()));
      }
  };
}

async function benchBackoffClaims(dbUrl: string, admin: pg.Client): Promise<void> {
  const alone = await claimUntilDue(dbUrl, admin, async () => undefined);
  const deep = await claimUntilDue(dbUrl, admin, inBackoff(1, 20_000));
  const wide = await claimUntilDue(dbUrl, admin, inBackoff(1_000, 1));
  console.log(
    `  claim of a due delivery (one free slot), p50: alone ${fmt(alone.p50)} ms; beside one subscription with 20,000 ` +
      `deliveries in retry back-off ${fmt(deep.p50)} ms (ratio ${fmt(deep.p50 / alone.p50)}); behind 1,000 accounts ` +
      `in back-off ${fmt(wide.p50)} ms over ${fmt(wide.claims, 1)} claims (ratio ${fmt(wide.p50 / alone.p50)})`,
  );
}

async function benchInstances(): Promise<void> {
  const certDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-scale-tls-'));
  const tls = makeCert();
  const caFile = path.join(certDir, 'ca.pem');
  writeFileSync(caFile, tls.cert);
  const received = new Set<string>();
  const receiver = await startReceiver(
    tls,
    (req) => {
      received.add((JSON.parse(req.body) as { id: string }).id);
      return 200;
    },
    { record: false },
  );
  // The contract engines are not used here: warming them (seconds of CPU an instance, in their workers) would run in
  // the two instances started just before the three-instance figures, and count against them on a machine of two cores.
  const cluster = await startCluster(1, {
    SVC_WEBHOOK_ALLOW: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
    SVC_WARM_ENGINES: '0',
  });
  let instances: Instance[] = [];
  try {
    const first = cluster.instances[0]!;
    const sub = await call(first.url, cluster.key, 'POST', '/api/v1/webhooks/subscriptions', {
      url: receiver.url('/hook'),
      name: 'bench',
      events: ['api_key.created'],
    });
    if (sub.status !== 201) throw new Error(`subscription: ${sub.status}`);
    const webhookId = sub.json.data.id as string;
    const ownerId =
      sub.json.data.ownerId ??
      (
        await cluster.admin.query(`SELECT doc->>'ownerId' AS o FROM "${cluster.schema}".c_webhooks WHERE id = $1`, [
          webhookId,
        ])
      ).rows[0].o;

    // Within the account's 10,000 requests per 15 minutes: 800 + 3,000 here, 3 x (200 + 1,500) below, and the keys.
    await restLoad(cluster, [first], 800); // warm-up
    const one = await restLoad(cluster, [first], 3_000);
    const drainOne = await drain(cluster, received, webhookId, ownerId, 2000);

    await cluster.start();
    await cluster.start();
    const all = cluster.instances;
    await restLoad(cluster, all, 200); // warm-up
    const three = await restLoad(cluster, all, 1_500);
    const drainThree = await drain(cluster, received, webhookId, ownerId, 2000);

    console.log(
      `  REST GET /contracts/templates (PostgreSQL + Redis): 1 instance ${fmt(one.rps, 0)} req/s, 3 instances ${fmt(three.rps, 0)} req/s ` +
        `(ratio ${fmt(three.rps / one.rps, 2)}; non-2xx ${one.non2xx + three.non2xx}; ${os.cpus().length} cores)`,
    );
    console.log(
      `  outbox drain, 2000 deliveries: 1 instance ${fmt(drainOne.rate, 0)}/s, 3 instances ${fmt(drainThree.rate, 0)}/s ` +
        `(ratio ${fmt(drainThree.rate / drainOne.rate, 2)}); peak RSS of an instance ${fmt(drainOne.rss / 1048576, 0)} MB ` +
        `(1), ${fmt(drainThree.rss / 1048576, 0)} MB (3)`,
    );
    instances = all;
  } finally {
    await cluster.close();
    await receiver.close();
    await rm(certDir, { recursive: true, force: true });
  }
  // Read once every instance has stopped and logged its totals (both drains, and the deliveries of the REST load).
  const { attempts, conflicts } = dispatcherTotals(instances);
  console.log(
    `  outbox conflicts: ${conflicts} transaction re-runs over ${attempts} delivery attempts ` +
      `(${fmt(attempts > 0 ? conflicts / attempts : 0, 3)} per delivery, all instances, both drains)`,
  );
}

export async function benchScale(): Promise<void> {
  console.log('\n== scale: several instances on PostgreSQL and Redis ==');
  const dbUrl = await testDatabaseUrl();
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  try {
    await benchStores(dbUrl, admin);
    await benchBackoffClaims(dbUrl, admin);
  } finally {
    await admin.end();
  }
  await benchLimiters(await testRedisUrl());
  await benchInstances();
}

if (isMain(import.meta.url)) {
  await benchScale();
  process.exit(0);
}
