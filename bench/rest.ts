/**
 * REST throughput of GET /api/v1/contracts/templates with a valid key, against a
 * bare Fastify route answering the same JSON with the same headers, measured with autocannon in one run. Beside them,
 * the bare route's handler added to the service's app (outside /api/): what the app costs by itself, so that the gap
 * splits into the app's part (Fastify's options, hook and route table) and the tool wrapper's (auth, limits, envelope).
 *
 *   npx tsx bench/rest.ts
 *
 * BENCH_REST_ONLY=svc|bare loads one side alone (five runs, no warm-up of the other; with BENCH_REST_LOG=info the
 * service logs its request lines), to profile it
 * (scripts/profile-diff.ts): node refuses the profiler's flags in NODE_OPTIONS, so give them to node itself,
 * `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/rest.ts`.
 */
import pino from 'pino';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger, TurnLines } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/provision.js';
import { TOOLS } from '../src/tools/index.js';
import { MemoryRateLimiter } from '../src/keys/limiter.js';

/**
 * The service's own in-process limiter, counting every request, in windows of 100 ms rather than 15 minutes: the
 * internal tier's 10,000 requests a window are then 100,000 a second, which no run reaches, so a load run is never
 * cut off, and the limiter does all its work on every request (its window rolls over ten times a second: more work,
 * not less). A wrapper that raised the limits on each call did this before; its own lookup per request was counted
 * as the service's.
 */
export function benchLimiter(): MemoryRateLimiter {
  return new MemoryRateLimiter(100);
}
import { TEMPLATES } from '../src/law/templates.js';
import { MAX_PAGE_LIMIT, paginateOffset } from '../src/core/pagination.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadRun } from './load.js';
import { fmt, isMain, median } from './util.js';

/**
 * Where the request lines go: /dev/null, written synchronously once per turn of the event loop as the service writes
 * stderr (`TurnLines` in src/core/log.ts).
 * `pino.destination(path)` alone is asynchronous: its writes went to libuv's threads and its backlog grew in the heap
 * (about 200 bytes a line), which the figure counted as the log level's cost.
 */
const devNull = () => new TurnLines(pino.destination({ dest: '/dev/null', sync: true }));

const DURATION_S = 3;
/** Odd, for a median; more rounds than runs of other benches because other load on the machine skews single runs. */
const ROUNDS = 7;
/** Rounds of the info-level service against the bare route, after the others. */
const INFO_ROUNDS = 3;

const CONNECTIONS = 32;

/**
 * Microseconds of this process's CPU (server and autocannon together) per request of the last load() run: unlike
 * requests per second, it hardly moves when other programs take the machine's cores.
 */
let lastCpuPerRequest = Number.NaN;
/** Requests answered in the last load() run. */
let lastRequests = 0;

async function load(url: string, headers: Record<string, string>): Promise<number> {
  const run = await loadRun({ url, headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  lastCpuPerRequest = run.cpuPerRequest;
  lastRequests = run.requests;
  return run.rate;
}

/** Store reads (the access revision included) per request with the bench's key, over a short sequential run. */
async function storeReadsPerRequest(
  services: Awaited<ReturnType<typeof openServices>>,
  url: string,
  headers: Record<string, string>,
): Promise<number> {
  const raw = services.store;
  const READS = new Set(['get', 'findBy', 'all', 'count', 'transact', 'accessRevision']);
  let reads = 0;
  services.store = new Proxy(raw, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop !== 'string' || !READS.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        reads++;
        return value.apply(target, args);
      };
    },
  });
  try {
    await fetch(url, { headers }).then((r) => r.arrayBuffer()); // the wrapper's own cache entry
    reads = 0;
    const N = 200;
    for (let i = 0; i < N; i++) await fetch(url, { headers }).then((r) => r.arrayBuffer());
    return reads / N;
  } finally {
    services.store = raw;
  }
}

/**
 * The service on `dir` at a log level (request lines at info and below, written to /dev/null: the cost is paid,
 * nothing shown), counting with the real limiter raised, listening; its templates URL and how to stop it.
 */
async function startService(dir: string, level: string, plain: BareHandler) {
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), {
    log: createLogger(level, level === 'warn' ? undefined : devNull()),
  });
  services.limiter = benchLimiter();
  const app = await buildApp(services, TOOLS);
  // The bare route's handler in the service's app, outside /api/ (so its hook counts nothing): what the app costs
  // by itself (its server options, its onSend hook, a table of some hundred routes), without any tool's wrapper.
  app.get(APP_ROUTE, plain);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const url = `${base}/api/v1/contracts/templates`;
  const close = async () => {
    await app.close();
    await closeServices(services);
  };
  return { services, url, appUrl: `${base}${APP_ROUTE}`, close };
}

/**
 * The bare route's answer: the templates catalogue in svc's envelope, with a request id of the same length, the
 * timestamp and the pagination (bench/rest-steps.ts answers it too).
 */
export function bareAnswer() {
  const page = paginateOffset(TEMPLATES, 1, MAX_PAGE_LIMIT);
  const requestId = `req_${'0'.repeat(26)}`;
  const body = {
    success: true,
    templates: page.items,
    meta: { requestId, timestamp: new Date().toISOString(), pagination: page.pagination },
  };
  return { requestId, body };
}

const APP_ROUTE = '/bench/plain-templates';
type BareHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export async function benchRest(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-rest-'));
  // Request logging off for the comparison (bare Fastify logs nothing either); the last figure is the info level's.
  // BENCH_REST_LOG=info (with BENCH_REST_ONLY=svc): the service with its default request lines.
  // The baseline answers what svc answers: the same body (the catalogue, then meta with a request id of the same
  // length, the timestamp and the pagination) and the same headers (X-Request-Id and the three X-RateLimit-*), which
  // the client parses too; Fastify serialises the body on each request, as a route returning an object does.
  const bare = Fastify();
  const { requestId, body } = bareAnswer();
  const resetAt = new Date(Date.now() + 15 * 60_000).toISOString();
  const plain: BareHandler = async (_req, reply) => {
    reply
      .header('X-Request-Id', requestId)
      .header('X-RateLimit-Limit', 10_000)
      .header('X-RateLimit-Remaining', 9_999)
      .header('X-RateLimit-Reset', resetAt);
    return body;
  };
  bare.get('/api/v1/contracts/templates', plain);
  // The route as it was measured before: the body alone, without pagination or the four headers (for reference).
  bare.get('/body-only', async () => ({
    success: true,
    templates: TEMPLATES,
    meta: { requestId: 'req_x', timestamp: body.meta.timestamp },
  }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  const bareUrl = `${bareBase}/api/v1/contracts/templates`;
  const bodyOnlyUrl = `${bareBase}/body-only`;

  const svc = await startService(dir, process.env.BENCH_REST_LOG ?? 'warn', plain);
  const { services, url: svcUrl, appUrl } = svc;
  const { key } = await createKey(services.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock);
  const auth = { authorization: `Bearer ${key}` };
  const only = process.env.BENCH_REST_ONLY;
  if (only !== undefined) {
    if (only !== 'svc' && only !== 'bare')
      throw new Error(`BENCH_REST_ONLY must be svc or bare, not ${JSON.stringify(only)}`);
    let requests = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < 5; i++) {
      await load(only === 'svc' ? svcUrl : bareUrl, auth);
      requests += lastRequests;
    }
    const used = process.cpuUsage(cpu);
    await svc.close();
    await bare.close();
    await rm(dir, { recursive: true, force: true });
    console.log(
      `REST, ${only} alone: ${requests} requests, CPU ${fmt((used.user + used.system) / requests, 1)} µs each (with autocannon's)`,
    );
    return;
  }
  await load(bareUrl, auth); // warm-up all four
  await load(bodyOnlyUrl, auth);
  await load(appUrl, auth);
  await load(svcUrl, auth);
  // Alternate them so that load from elsewhere on the machine hits all alike;
  // each round's ratio compares neighbouring runs, and the median round is reported.
  const bareRuns: number[] = [];
  const svcRuns: number[] = [];
  const ratios: number[] = [];
  const bodyOnlyRatios: number[] = [];
  const appRatios: number[] = [];
  const bareCpu: number[] = [];
  const svcCpu: number[] = [];
  const appCpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bareRuns.push(await load(bareUrl, auth));
    bareCpu.push(lastCpuPerRequest);
    const bodyOnly = await load(bodyOnlyUrl, auth);
    const app = await load(appUrl, auth);
    appCpu.push(lastCpuPerRequest);
    svcRuns.push(await load(svcUrl, auth));
    svcCpu.push(lastCpuPerRequest);
    ratios.push(svcRuns[i]! / bareRuns[i]!);
    bodyOnlyRatios.push(svcRuns[i]! / bodyOnly);
    appRatios.push(app / bareRuns[i]!);
  }
  const cpuRatio = median(bareCpu.map((b, i) => b / svcCpu[i]!));
  const appCpuRatio = median(bareCpu.map((b, i) => b / appCpu[i]!));
  const reads = await storeReadsPerRequest(services, svcUrl, auth);
  const bareRps = median(bareRuns);
  const svcRps = median(svcRuns);
  const ratio = median(ratios);

  // The same service at the default level, which logs a line per request, alone beside the bare route once the first
  // is closed (two services in one process slow each other), warmed up, in rounds of its own against the bare route.
  await svc.close();
  const info = await startService(dir, 'info', plain);
  const svc2Url = info.url;
  await load(svc2Url, auth);
  const infoRatios: number[] = [];
  const infoCpuRatios: number[] = [];
  for (let i = 0; i < INFO_ROUNDS; i++) {
    const b = await load(bareUrl, auth);
    const bCpu = lastCpuPerRequest;
    infoRatios.push((await load(svc2Url, auth)) / b);
    infoCpuRatios.push(bCpu / lastCpuPerRequest);
  }
  await info.close();
  await bare.close();
  await rm(dir, { recursive: true, force: true });

  console.log(
    '\nREST: GET /api/v1/contracts/templates (autocannon in this process, %d connections, %d rounds of alternating %d s runs, medians)',
    CONNECTIONS,
    ROUNDS,
    DURATION_S,
  );
  console.log(`  bare Fastify route         ${fmt(bareRps, 0)} req/s (the same body and headers)`);
  console.log(
    `  svc (auth, limits, checks) ${fmt(svcRps, 0)} req/s   ratio ${fmt(ratio)}  (target >= 0.90; per round: ${ratios.map((r) => fmt(r)).join(', ')})`,
  );
  console.log(
    `  CPU per request (with autocannon's) bare ${fmt(median(bareCpu), 1)} µs, svc ${fmt(median(svcCpu), 1)} µs   ratio ${fmt(cpuRatio)}  (less sensitive to other load on the machine)`,
  );
  console.log(
    `  the bare route in svc's app ratio ${fmt(median(appRatios))} (CPU ${fmt(appCpuRatio)}; svc's server options, hook and routes, without a tool: ${fmt(median(appCpu), 1)} µs)`,
  );
  console.log(
    `  against the body alone      ratio ${fmt(median(bodyOnlyRatios))}  (the baseline before it sent svc's pagination and four headers)`,
  );
  console.log(`  store reads per request    ${fmt(reads)} (a cached key: the access revision only)`);
  console.log(
    `  svc with info request logs ratio ${fmt(median(infoRatios))} (CPU ${fmt(median(infoCpuRatios))}; the default level, a line per request; per round: ${infoRatios.map((r) => fmt(r)).join(', ')})`,
  );
}

if (isMain(import.meta.url)) await benchRest();
