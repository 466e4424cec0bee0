/**
 * Benchmark of webhook delivery: signed, durable deliveries per second to a
 * local HTTPS receiver, against bare POST loops to the same receiver in the
 * same run, plus resident memory sampled over 100k deliveries.
 *
 *   npx tsx bench/webhooks.ts
 *
 * Knobs (environment): BENCH_WEBHOOKS_N (deliveries in the memory run, default
 * 100000), BENCH_WEBHOOKS_AHEAD (claimAhead, default 16), BENCH_WEBHOOKS_BACKLOG
 * (undelivered events the producer allows, default 1000), BENCH_WEBHOOKS_RETENTION
 * (ms, default 500).
 *
 * Baselines, same concurrency and receiver, a JSON body of the same shape and
 * only a content-type header (ours add the signature and the other X-Webhook
 * headers, and a store write before and after each request):
 *  - undici: an undici Agent `request` loop (undici is also the dispatcher's transport).
 *  - https:  node:https keep-alive loop.
 * 5 interleaved rounds of 10k after a warm-up; the ratio is the median of the
 * per-round ratios (ours against the undici run just before it).
 * Ours: events recorded through `recordEvent` (the outbox, durable) by a
 * producer keeping a bounded backlog, delivered by the Dispatcher (claim write,
 * signed POST, outcome write). Each delivery is only counted once its outcome
 * is durable. Retention is shortened so the store holds a bounded window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { systemClock } from '../src/core/clock.js';
import { recordEvent } from '../src/events/events.js';
import { openLowdbStore } from '../src/store/index.js';
import { Dispatcher, WEBHOOK_INDEXES, createWebhook } from '../src/webhooks/index.js';
import { deps, hasOpenssl, testKeyring, makeCert, startReceiver } from '../test/webhooks/helpers.js';

const CONCURRENCY = 32;
const TARGET_RATIO = 0.5;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function body(n: number): string {
  return JSON.stringify({
    id: `evt_${n}`,
    type: 'contract.generated',
    created: 1_700_000_000,
    apiVersion: 'v1',
    data: { contractId: `ctr_${n}`, chain: 'evm', beneficiaries: 3 },
  });
}

async function loop(n: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await one(next++);
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

const ROUNDS = 5;
const ROUND_N = 10_000;
const WARMUP_N = 3_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchWebhooks(): Promise<void> {
  if (!hasOpenssl()) {
    console.log('webhooks: skipped (the openssl CLI is needed to make a test certificate)');
    return;
  }
  const total = Number(process.env.BENCH_WEBHOOKS_N ?? 100_000);
  const tls = makeCert();
  const receiver = await startReceiver(tls, () => 200, { record: false });
  const url = receiver.url('/hook');
  const origin = `https://127.0.0.1:${receiver.port}`;
  console.log(
    `\nwebhooks: ${CONCURRENCY} concurrent deliveries to a local HTTPS receiver (same process), ${os.cpus().length} cores`,
  );

  // Baseline 1: bare undici (the same package the dispatcher sends with).
  const agent = new Agent({ connect: { ca: tls.cert }, connections: CONCURRENCY });
  const undiciPost = async (i: number) => {
    const r = await agent.request({
      origin,
      path: '/hook',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(i),
    });
    await r.body.dump();
    if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}`);
  };

  // Baseline 2: bare node:https keep-alive.
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: tls.cert });
  const httpsPost = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const b = body(i);
      const req = https.request(
        url,
        {
          method: 'POST',
          agent: httpsAgent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(b);
    });

  // Ours: outbox + dispatcher.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-wh-'));
  const store = await openLowdbStore({ dataDir: dir, indexes: WEBHOOK_INDEXES });
  await createWebhook(deps(store, systemClock, { allow: '127.0.0.1' }), 'own_bench', { url, events: ['*'] });
  const dispatcher = new Dispatcher({
    store,
    clock: systemClock,
    keyring: testKeyring,
    ca: tls.cert,
    allow: '127.0.0.1',
    maxConcurrent: CONCURRENCY,
    perSubscription: CONCURRENCY,
    // 32 on the wire like the baselines; 16 x 32 = 512 claimed and unconfirmed at
    // most, the same bound as the service's defaults (64 x 8).
    claimAhead: Number(process.env.BENCH_WEBHOOKS_AHEAD ?? 16),
    jitterMs: 0,
    retentionMs: Number(process.env.BENCH_WEBHOOKS_RETENTION ?? 500),
    pruneEveryMs: 250,
  });
  dispatcher.start();
  const BATCH = 250;
  const BACKLOG = Number(process.env.BENCH_WEBHOOKS_BACKLOG ?? 1_000);
  let produced = 0;
  /** Records `n` events through the outbox (bounded backlog) and waits until all are durably confirmed. */
  const deliver = async (n: number, onProgress?: (delivered: number) => void): Promise<number> => {
    const base = dispatcher.stats().succeeded;
    const goal = produced + n;
    const t0 = performance.now();
    while (dispatcher.stats().succeeded - base < n) {
      const delivered = dispatcher.stats().succeeded;
      if (produced < goal && produced - delivered < BACKLOG) {
        const k = Math.min(BATCH, goal - produced);
        const first = produced;
        produced += k;
        await store.transact(async (tx) => {
          for (let i = 0; i < k; i++)
            await recordEvent(
              tx,
              {
                type: 'contract.generated',
                ownerId: 'own_bench',
                data: { contractId: `ctr_${first + i}`, chain: 'evm', beneficiaries: 3 },
              },
              systemClock,
            );
        });
      } else {
        await new Promise((r) => setTimeout(r, 2));
      }
      onProgress?.(dispatcher.stats().succeeded - base);
    }
    return n / ((performance.now() - t0) / 1000);
  };

  // Warm-up (JIT, TLS sessions, pools), then rounds interleaved so that load
  // from elsewhere on the machine hits all three alike. The ratio is the median
  // of the per-round ratios (each ours against the undici run just before it).
  await loop(WARMUP_N, undiciPost);
  await loop(WARMUP_N, httpsPost);
  await deliver(WARMUP_N);
  const rates = { undici: [] as number[], https: [] as number[], ours: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.undici.push(await loop(ROUND_N, undiciPost));
    rates.https.push(await loop(ROUND_N, httpsPost));
    rates.ours.push(await deliver(ROUND_N));
  }
  const ratios = rates.ours.map((x, i) => x / rates.undici[i]!);
  await agent.close();
  httpsAgent.destroy();

  // Memory over `total` deliveries.
  const samples: Array<{
    delivered: number;
    rss: number;
    heap: number;
    external: number;
    buffers: number;
    inflight: number;
    rate: number;
  }> = [];
  const step = Math.max(1, Math.floor(total / 10));
  let lastMark = performance.now();
  let lastDelivered = 0;
  const longRate = await deliver(total, (delivered) => {
    if (delivered - lastDelivered < step) return;
    const now = performance.now();
    const mem = process.memoryUsage();
    samples.push({
      delivered,
      rss: mem.rss,
      // Which part of the RSS is the JS heap (records, closures) and how many deliveries the dispatcher holds.
      heap: mem.heapUsed,
      // Outside the heap: memory of C++ objects bound to JS ones, and of it the ArrayBuffers and Buffers (sockets, bodies).
      external: mem.external,
      buffers: mem.arrayBuffers,
      inflight: dispatcher.stats().inflight,
      rate: (delivered - lastDelivered) / ((now - lastMark) / 1000),
    });
    lastMark = now;
    lastDelivered = delivered;
  });
  await dispatcher.stop();
  const stats = dispatcher.stats();
  await store.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });

  const fmt = (r: number) => `${r.toFixed(0)}/s`;
  const list = (xs: number[]) => xs.map(fmt).join(', ');
  const ours = median(rates.ours);
  console.log(`  median of ${ROUNDS} interleaved rounds of ${ROUND_N}:`);
  console.log(`  bare undici POST loop     ${fmt(median(rates.undici))}  (${list(rates.undici)})`);
  console.log(`  bare node:https POST loop ${fmt(median(rates.https))}  (${list(rates.https)})`);
  console.log(`  signed durable deliveries ${fmt(ours)}  (${list(rates.ours)})`);
  console.log(
    `  ratio vs undici: ${median(ratios).toFixed(2)} (target >= ${TARGET_RATIO}; median of the per-round ratios ${ratios.map((x) => x.toFixed(2)).join(', ')})`,
  );
  console.log(`  ratio vs https:  ${(ours / median(rates.https)).toFixed(2)}`);
  console.log(
    `  ${total} deliveries: ${fmt(longRate)} (attempts ${stats.attempts}, failed ${stats.failed}, events pruned ${stats.pruned}); resident memory:`,
  );
  for (const s of samples)
    console.log(
      `    ${String(s.delivered).padStart(7)} delivered  rss ${mb(s.rss).padStart(7)}  heap ${mb(s.heap).padStart(7)}  ` +
        `external ${mb(s.external).padStart(7)} (buffers ${mb(s.buffers).padStart(7)})  ` +
        `held ${String(s.inflight).padStart(4)}  ${fmt(s.rate)}`,
    );
  if (samples.length >= 2) {
    const first = samples[0]!.rss;
    const max = Math.max(...samples.map((s) => s.rss));
    const last = samples[samples.length - 1]!.rss;
    console.log(
      `  rss first ${mb(first)}, max ${mb(max)}, last ${mb(last)} (growth ${(((last - first) / first) * 100).toFixed(0)}%)`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await benchWebhooks();
}
