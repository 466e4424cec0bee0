/**
 * Rate limiter correctness under load: twice the limit of requests in parallel
 * on one key, over real HTTP; exactly the limit must succeed.
 *
 *   npx tsx bench/limits.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'node:http';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/keys.js';
import { RATE_LIMITS } from '../src/keys/limits.js';
import type { Tier } from '../src/keys/scopes.js';
import { TOOLS } from '../src/tools/index.js';
import { isMain } from './util.js';

export async function benchLimits(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-limits-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  console.log('\nRate limiter under load: 2 × limit parallel requests on one key (real HTTP)');
  for (const tier of ['public', 'partner'] as Tier[]) {
    const { key } = await createKey(services.store, { name: 'bench', tier, scopes: ['contracts'] }, systemClock);
    const limit = RATE_LIMITS[tier].all;
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const statuses = await Promise.all(
      Array.from({ length: 2 * limit }, () =>
        fetch(`${base}/api/v1/contracts/templates`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    agent.destroy();
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    console.log(`  ${tier.padEnd(8)} limit ${limit}: ${ok} succeeded, ${limited} got 429 — ${ok === limit ? 'exact' : 'WRONG'}`);
  }
  await app.close();
  await closeServices(services);
  await rm(dir, { recursive: true, force: true });
}

if (isMain(import.meta.url)) await benchLimits();
