/**
 * Benchmark of webhook delivery: signed, durable deliveries per second to a
 * local HTTPS receiver, against bare POST loops to the same receiver in the
 * same run, plus resident memory sampled over 100k deliveries.
 *
 *   npx tsx bench/webhooks.ts
 *
 * It runs on the compiled service in dist/ (`npm run build` first), in a node of its own started with the svc
 * command's flags: see ./compiled.ts.
 *
 * Knobs (environment): BENCH_WEBHOOKS_N (deliveries in the memory run, default
 * 100000), BENCH_WEBHOOKS_AHEAD (claimAhead, default 16), BENCH_WEBHOOKS_BACKLOG
 * (undelivered events the producer allows, default 1000), BENCH_WEBHOOKS_RETENTION
 * (ms, default 500). BENCH_WEBHOOKS_ONLY=ours|undici runs one side alone (a warm-up, then BENCH_WEBHOOKS_N of it), to
 * profile it (scripts/profile-diff.ts). BENCH_WEBHOOKS_RECEIVER=process runs the receiver in a node process of its own
 * instead of this process's main thread (docs/architecture.md, the thirteenth look: the service's ratio is lower so).
 *
 * Baselines, same concurrency and receiver, and the same request on the wire: a
 * JSON body of the delivery payload's shape and size, and the same headers with
 * values of the same length (a fixed signature: computing it is our work). Ours
 * add the signing, and store writes before and after each request. The bench
 * prints the mean body size and header count the receiver saw for each.
 *  - undici: an undici Agent `request` loop (undici is also the dispatcher's transport).
 *  - https:  node:https keep-alive loop.
 * 7 interleaved rounds of 10k after a warm-up; the ratio is the median of the
 * per-round ratios, each ours against the undici run beside it (ours right after
 * undici in even rounds, right before it in odd ones, so that a machine getting
 * busier or quieter favours neither). Beside the rates, the process's CPU time
 * per delivery (all its threads: ours includes the store's writer thread and the
 * webhook sender thread), which other load on the machine moves less than a rate,
 * and the main thread's alone: the receiver and the bare loops' senders run there,
 * and the dispatcher with the store, while the service's HTTP requests go out from
 * its sender thread, and the writer and V8's collector helpers run beside it.
 * Ours: events recorded through `recordEvent` (the outbox, durable) by a
 * producer keeping a bounded backlog, delivered by the Dispatcher (claim write,
 * signed POST, outcome write). Each delivery is only counted once its outcome
 * is durable. Retention is shortened so the store holds a bounded window.
 * The producer's work is the emitting operation's, done in the main thread
 * beside the deliveries: after the rounds the bench records as many events
 * alone, in a store of its own, and prints that main-thread CPU per event and
 * the main thread's ratio without it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { systemClock } from '../src/core/clock.js';
import { recordEvent } from '../src/events/events.js';
import { openLowdbStore } from '../src/store/index.js';
import type { Store } from '../src/store/port.js';
import { Dispatcher, WEBHOOK_INDEXES, createWebhook } from '../src/webhooks/index.js';
import { USER_AGENT } from '../src/webhooks/subscriptions.js';
import { deps, hasOpenssl, testKeyring, makeCert, startReceiver } from '../test/webhooks/helpers.js';
import { runOnDist, runningFromSource } from './compiled.js';
import { cpuByThreadName, cpuSince, median, threadCpuUsage } from './util.js';

const CONCURRENCY = 32;
const TARGET_RATIO = 0.8;
const TARGET_RSS = 300 * 1024 * 1024;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** An id of the length of the service's (`<prefix>_` + 26 characters). */
const idOf = (prefix: string, n: number) => `${prefix}_${String(n).padStart(26, '0')}`;

/** A baseline request: the body and headers of a delivery (same fields, same lengths), with a fixed signature. */
function request(n: number, webhookId: string): { body: string; headers: Record<string, string> } {
  const now = Date.now();
  const t = Math.floor(now / 1000);
  const id = idOf('evt', n);
  const body = JSON.stringify({
    id,
    type: 'contract.generated',
    created: t,
    apiVersion: 'v1',
    accountId: 'own_bench',
    data: { contractId: `ctr_${n}`, chain: 'evm', beneficiaries: 3 },
    event: 'contract.generated',
    timestamp: new Date(now).toISOString(),
    webhookId,
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-signature': `t=${t},v1=${'0'.repeat(64)}`,
      'x-webhook-timestamp': String(t),
      'x-webhook-event': 'contract.generated',
      'x-webhook-delivery': id,
      'x-webhook-attempt': '1',
    },
  };
}

/** What the receiver saw on one path: requests, body bytes, header lines. */
type Seen = Map<string, { n: number; bytes: number; headers: number }>;

/**
 * The receiver's program when it runs apart: the same answer as startReceiver's (200, "ok"), counting what it saw per
 * path, which it prints as one JSON line when its standard input ends.
 */
const RECEIVER_PROGRAM = `
const https = require('node:https');
const seen = {};
const server = https.createServer({ key: process.env.RECEIVER_KEY, cert: process.env.RECEIVER_CERT, keepAliveTimeout: 30000 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const s = (seen[req.url] ??= { n: 0, bytes: 0, headers: 0 });
    s.n++;
    s.bytes += Buffer.concat(chunks).toString('utf8').length;
    s.headers += Object.keys(req.headers).length;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
process.stdin.resume();
process.stdin.on('end', () => { process.stdout.write(JSON.stringify({ seen }) + '\\n'); process.exit(0); });
`;

/** The receiver in a node process of its own; closing it adds what it saw to `seen`. */
async function startReceiverProcess(tls: { key: string; cert: string }, seen: Seen) {
  const child = spawn(process.execPath, ['-e', RECEIVER_PROGRAM], {
    env: { ...process.env, RECEIVER_KEY: tls.key, RECEIVER_CERT: tls.cert },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error('the receiver process ended without answering');
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const { port } = (await next()) as { port: number };
  return {
    port,
    url: (p = '/hook') => `https://127.0.0.1:${port}${p}`,
    async close() {
      child.stdin!.end();
      const counts = (await next()).seen as Record<string, { n: number; bytes: number; headers: number }>;
      for (const [p, c] of Object.entries(counts)) seen.set(p, c);
    },
  };
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

/** Events recorded per transaction by the bench's producer. */
const BATCH = 250;
const ROUNDS = 7;
const ROUND_N = 10_000;
const WARMUP_N = 3_000;

/** Records events `first` .. `first + k - 1` of the bench's account in one transaction, as an operation emitting them does. */
async function recordEvents(store: Store, first: number, k: number): Promise<void> {
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
}

/** A lowdb store in a fresh directory with the bench account's one subscription to `url`, for every event. */
async function subscribedStore(url: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-wh-'));
  const store = await openLowdbStore({ dataDir: dir, indexes: WEBHOOK_INDEXES });
  const { webhook } = await createWebhook(deps(store, systemClock, { allow: '127.0.0.1' }), 'own_bench', {
    url,
    events: ['*'],
  });
  return { dir, store, webhook };
}

/**
 * The main thread's CPU per event for recording `n` events and their deliveries alone (a store of its own, one
 * subscription, no dispatcher), in microseconds. In the rounds the same work runs in the main thread beside the
 * deliveries: it is the emitting operation's share of a delivery (the event must be durable before it can be sent),
 * not the sending's.
 */
async function recordingCpu(n: number, batch: number): Promise<number> {
  // Nothing is sent: the subscription's address is never reached.
  const { dir, store } = await subscribedStore('https://127.0.0.1:9/hook');
  try {
    for (let at = 0; at < WARMUP_N; at += batch) await recordEvents(store, at, batch);
    let used = 0;
    for (let at = WARMUP_N; at < WARMUP_N + n; at += batch) {
      const before = threadCpuUsage();
      await recordEvents(store, at, batch);
      const d = threadCpuUsage(before);
      used += d.user + d.system;
    }
    return used / n;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchWebhooks(): Promise<void> {
  // On the compiled service, as `svc serve` runs it: the memory figures are then the service's, not tsx's too.
  if (runningFromSource(import.meta.url)) return runOnDist(fileURLToPath(import.meta.url));
  if (!hasOpenssl()) {
    console.log('webhooks: skipped (the openssl CLI is needed to make a test certificate)');
    return;
  }
  const total = Number(process.env.BENCH_WEBHOOKS_N ?? 100_000);
  const only = process.env.BENCH_WEBHOOKS_ONLY;
  if (only !== undefined && only !== 'ours' && only !== 'undici')
    throw new Error(`BENCH_WEBHOOKS_ONLY must be ours or undici, not ${JSON.stringify(only)}`);
  const tls = makeCert();
  // What the receiver saw, per path: requests, body bytes and header lines (to show the baselines send the same).
  const seen: Seen = new Map();
  const apart = process.env.BENCH_WEBHOOKS_RECEIVER === 'process';
  if (!apart && process.env.BENCH_WEBHOOKS_RECEIVER !== undefined)
    throw new Error(
      `BENCH_WEBHOOKS_RECEIVER must be process or unset, not ${JSON.stringify(process.env.BENCH_WEBHOOKS_RECEIVER)}`,
    );
  const receiver = apart
    ? await startReceiverProcess(tls, seen)
    : await startReceiver(
        tls,
        (r) => {
          let s = seen.get(r.path);
          if (!s) seen.set(r.path, (s = { n: 0, bytes: 0, headers: 0 }));
          s.n++;
          s.bytes += r.body.length;
          s.headers += Object.keys(r.headers).length;
          return 200;
        },
        { record: false },
      );
  const url = receiver.url('/hook');
  const origin = `https://127.0.0.1:${receiver.port}`;
  console.log(
    `\nwebhooks: ${CONCURRENCY} concurrent deliveries to a local HTTPS receiver (${apart ? 'a process of its own' : 'same process'}), ${os.cpus().length} cores`,
  );

  // The subscription ours deliver to; the baselines name it in their bodies too.
  const { dir, store, webhook } = await subscribedStore(url);

  // Baseline 1: bare undici (the same package the dispatcher sends with). Paths as long as ours.
  const agent = new Agent({ connect: { ca: tls.cert }, connections: CONCURRENCY });
  const undiciPost = async (i: number) => {
    const { body, headers } = request(i, webhook.id);
    const r = await agent.request({ origin, path: '/hk-u', method: 'POST', headers, body });
    await r.body.dump();
    if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}`);
  };

  // Baseline 2: bare node:https keep-alive.
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: tls.cert });
  const httpsPost = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { body, headers } = request(i, webhook.id);
      const req = https.request(
        receiver.url('/hk-h'),
        { method: 'POST', agent: httpsAgent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  // Ours: outbox + dispatcher.
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
        await recordEvents(store, first, k);
      } else {
        await new Promise((r) => setTimeout(r, 2));
      }
      onProgress?.(dispatcher.stats().succeeded - base);
    }
    return n / ((performance.now() - t0) / 1000);
  };

  const close = async () => {
    await agent.close();
    httpsAgent.destroy();
    await dispatcher.stop();
    await store.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  };
  if (only) {
    // One side alone, warm-up included, for a profile of it: nothing else runs in the process meanwhile.
    const run = only === 'ours' ? (n: number) => deliver(n) : (n: number) => loop(n, undiciPost);
    await run(WARMUP_N);
    const cpuBefore = process.cpuUsage();
    const mainBefore = threadCpuUsage();
    const rate = await run(total);
    const main = threadCpuUsage(mainBefore);
    const used = process.cpuUsage(cpuBefore);
    await close();
    console.log(
      `  ${only} alone: ${total} after a warm-up of ${WARMUP_N} (${total + WARMUP_N} units in a profile of the run), ` +
        `${rate.toFixed(0)}/s, CPU ${((used.user + used.system) / total).toFixed(0)} µs each (all threads), ` +
        `${((main.user + main.system) / total).toFixed(0)} µs of it in the main thread`,
    );
    return;
  }

  // Warm-up (JIT, TLS sessions, pools). Then the memory run, before the
  // rounds: run after them, it started from the resident size the rounds had
  // reached (about 420 MB; it does not shrink back) and could not show what
  // the deliveries themselves need. Then rounds interleaved so that load from
  // elsewhere on the machine hits all three alike. The ratio is the median of
  // the per-round ratios (each ours against the undici run beside it).
  await loop(WARMUP_N, undiciPost);
  await loop(WARMUP_N, httpsPost);
  await deliver(WARMUP_N);
  const before = process.memoryUsage();

  // Memory over `total` deliveries.
  const samples: Array<{
    delivered: number;
    rss: number;
    heap: number;
    reserved: number;
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
      // What V8 has reserved for the heap: it grows when garbage is made faster than collected.
      reserved: mem.heapTotal,
      // Outside the heap: memory of C++ objects bound to JS ones, and of it the ArrayBuffers and Buffers (sockets, bodies).
      external: mem.external,
      buffers: mem.arrayBuffers,
      inflight: dispatcher.stats().inflight,
      rate: (delivered - lastDelivered) / ((now - lastMark) / 1000),
    });
    lastMark = now;
    lastDelivered = delivered;
  });
  const rates = { undici: [] as number[], https: [] as number[], ours: [] as number[] };
  /** CPU time of the process (every thread) per delivery of each run, in microseconds. */
  const cpu = { undici: [] as number[], ours: [] as number[] };
  /** The main thread's alone (receiver, bare senders, dispatcher and store), in microseconds. */
  const mainCpu = { undici: [] as number[], ours: [] as number[] };
  /** Per thread name (the main thread, the service's named threads, V8's helpers), in microseconds, per round. */
  const byThread = { undici: new Map<string, number[]>(), ours: new Map<string, number[]>() };
  const timed = async (side: 'undici' | 'ours', run: () => Promise<number>): Promise<number> => {
    const before = process.cpuUsage();
    const mainBefore = threadCpuUsage();
    const threadsBefore = cpuByThreadName();
    const rate = await run();
    const threads = cpuSince(threadsBefore, cpuByThreadName());
    const main = threadCpuUsage(mainBefore);
    const used = process.cpuUsage(before);
    cpu[side].push((used.user + used.system) / ROUND_N);
    mainCpu[side].push((main.user + main.system) / ROUND_N);
    for (const [name, us] of threads) {
      const list = byThread[side].get(name) ?? [];
      list.push(us / ROUND_N);
      byThread[side].set(name, list);
    }
    return rate;
  };
  const runUndici = async () => rates.undici.push(await timed('undici', () => loop(ROUND_N, undiciPost)));
  const runOurs = async () => rates.ours.push(await timed('ours', () => deliver(ROUND_N)));
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      await runUndici();
      await runOurs();
    } else {
      await runOurs();
      await runUndici();
    }
    rates.https.push(await loop(ROUND_N, httpsPost));
  }
  const ratios = rates.ours.map((x, i) => x / rates.undici[i]!);
  const cpuRatios = cpu.ours.map((x, i) => cpu.undici[i]! / x);
  const mainRatios = mainCpu.ours.map((x, i) => mainCpu.undici[i]! / x);
  await close();
  const stats = dispatcher.stats();
  const recording = await recordingCpu(ROUND_N, BATCH);

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
    `  CPU per delivery (all threads) bare undici ${median(cpu.undici).toFixed(0)} µs, ours ${median(cpu.ours).toFixed(0)} µs   ratio ${median(cpuRatios).toFixed(2)} (per round ${cpuRatios.map((x) => x.toFixed(2)).join(', ')})`,
  );
  console.log(
    `  CPU per delivery (main thread) bare undici ${median(mainCpu.undici).toFixed(0)} µs, ours ${median(mainCpu.ours).toFixed(0)} µs   ratio ${median(mainRatios).toFixed(2)} (per round ${mainRatios.map((x) => x.toFixed(2)).join(', ')})`,
  );
  const withoutRecording = median(mainCpu.undici) / (median(mainCpu.ours) - recording);
  console.log(
    `  of ours, recording each event and its delivery (the emitting operation's work), measured alone: ${recording.toFixed(0)} µs of the main thread; its ratio without it ${withoutRecording.toFixed(2)}`,
  );
  // Where each side's CPU goes, by thread (from /proc: 10 ms ticks, so a microsecond or so per delivery either way).
  const threadLine = (side: 'undici' | 'ours') =>
    [...byThread[side]]
      .map(([name, xs]) => [name, median(xs)] as const)
      .filter(([, us]) => us >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => `${name} ${us.toFixed(0)}`)
      .join(', ');
  if (byThread.ours.size > 0)
    console.log(
      `  CPU per delivery by thread, µs (medians; V8Worker: V8's collector and compiler helpers): ours ${threadLine('ours')}; bare undici ${threadLine('undici')}`,
    );
  const labels: Record<string, string> = { '/hk-u': 'undici', '/hk-h': 'https', '/hook': 'ours' };
  for (const [p, s] of seen)
    console.log(
      `  requests received (${labels[p] ?? p}): ${s.n}, mean body ${(s.bytes / s.n).toFixed(0)} bytes, ${(s.headers / s.n).toFixed(0)} headers`,
    );
  console.log(
    `  ${total} deliveries: ${fmt(longRate)} (attempts ${stats.attempts}, failed ${stats.failed}, events pruned ${stats.pruned}); resident memory:`,
  );
  console.log(
    `    before: rss ${mb(before.rss)}, heap ${mb(before.heapUsed)} of ${mb(before.heapTotal)} (process, receiver, store, after the warm-up)`,
  );
  for (const s of samples)
    console.log(
      `    ${String(s.delivered).padStart(7)} delivered  rss ${mb(s.rss).padStart(7)}  heap ${mb(s.heap).padStart(7)} of ${mb(s.reserved).padStart(7)}  ` +
        `external ${mb(s.external).padStart(7)} (buffers ${mb(s.buffers).padStart(7)})  ` +
        `held ${String(s.inflight).padStart(4)}  ${fmt(s.rate)}`,
    );
  if (samples.length >= 2) {
    const first = samples[0]!.rss;
    const max = Math.max(...samples.map((s) => s.rss));
    const last = samples[samples.length - 1]!.rss;
    console.log(
      `  rss first ${mb(first)}, max ${mb(max)} (target < ${mb(TARGET_RSS)}), last ${mb(last)} (growth ${(((last - first) / first) * 100).toFixed(0)}%)`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await benchWebhooks();
}
