/**
 * REST throughput of GET /api/v1/contracts/templates with a valid key, against a
 * bare Fastify route answering the same JSON, measured with autocannon in one run.
 *
 *   npx tsx bench/rest.ts
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/keys.js';
import { TOOLS } from '../src/tools/index.js';
import { TEMPLATES } from '../src/contracts/templates.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fmt, isMain } from './util.js';

const DURATION_S = 5;
const CONNECTIONS = 32;

async function load(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchRest(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-rest-'));
  // Request logging off for the comparison (bare Fastify logs nothing either); see the second svc figure for info-level logs.
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  const { key } = await createKey(services.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock);
  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const svcUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1/contracts/templates`;

  const bare = Fastify();
  const body = { success: true, templates: TEMPLATES, meta: { requestId: 'req_x', timestamp: new Date().toISOString() } };
  bare.get('/api/v1/contracts/templates', async () => body);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/api/v1/contracts/templates`;

  const auth = { authorization: `Bearer ${key}` };
  await load(bareUrl, {}); // warm-up both
  await load(svcUrl, auth);
  const bareRps = (await load(bareUrl, {}) + (await load(bareUrl, {}))) / 2;
  const svcRps = (await load(svcUrl, auth) + (await load(svcUrl, auth))) / 2;

  await app.close();
  await closeServices(services);
  await bare.close();

  // The same with the default info-level request logs (to stderr, redirected away by the caller if wanted).
  const services2 = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('info') });
  const app2 = await buildApp(services2, TOOLS);
  await app2.listen({ port: 0, host: '127.0.0.1' });
  const svc2Url = `http://127.0.0.1:${(app2.server.address() as { port: number }).port}/api/v1/contracts/templates`;
  const origWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write; // logs discarded, cost still paid
  let svcInfoRps: number;
  try {
    svcInfoRps = await load(svc2Url, auth);
  } finally {
    process.stderr.write = origWrite;
  }
  await app2.close();
  await closeServices(services2);
  await rm(dir, { recursive: true, force: true });

  console.log('\nREST: GET /api/v1/contracts/templates (autocannon, %d connections, %d s per run)', CONNECTIONS, DURATION_S);
  console.log(`  bare Fastify route         ${fmt(bareRps, 0)} req/s`);
  console.log(`  svc (auth, validation)     ${fmt(svcRps, 0)} req/s   ratio ${fmt(svcRps / bareRps)}  (target >= 0.60)`);
  console.log(`  svc with info request logs ${fmt(svcInfoRps, 0)} req/s   ratio ${fmt(svcInfoRps / bareRps)}`);
}

if (isMain(import.meta.url)) await benchRest();
