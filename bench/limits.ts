/**
 * Rate limiter correctness under load: twice the limit of requests in parallel
 * on one key, and spread over five keys of one account (one budget), over real
 * HTTP; exactly the limit must succeed.
 *
 *   npx tsx bench/limits.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/provision.js';
import { RATE_LIMITS } from '../src/keys/limits.js';
import type { Tier } from '../src/accounts/scopes.js';
import { TOOLS } from '../src/tools/index.js';
import { isMain } from './util.js';

export async function benchLimits(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-limits-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  console.log(
    '\nRate limiter under load: 2 × limit parallel requests on one key, then spread over 5 keys of one account (real HTTP)',
  );
  for (const [tier, keyCount] of [
    ['public', 1],
    ['partner', 1],
    ['public', 5],
    ['partner', 5],
  ] as Array<[Tier, number]>) {
    const first = await createKey(services.store, { name: 'bench', tier, scopes: ['contracts'] }, systemClock);
    const keys = [first.key];
    // More keys of the same account: they share its one budget.
    for (let i = 1; i < keyCount; i++)
      keys.push(
        (
          await createKey(
            services.store,
            { name: 'bench', tier, scopes: ['contracts'], ownerId: first.record.ownerId },
            systemClock,
          )
        ).key,
      );
    const limit = RATE_LIMITS[tier].all;
    // 250 requests in flight at a time: a couple of thousand connections at once overflow the listen backlog.
    const statuses: number[] = [];
    for (let start = 0; start < 2 * limit; start += 250) {
      const batch = Array.from({ length: Math.min(250, 2 * limit - start) }, (_, j) =>
        fetch(`${base}/api/v1/contracts/templates`, {
          headers: { authorization: `Bearer ${keys[(start + j) % keys.length]}` },
        }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    console.log(
      `  ${tier.padEnd(8)} ${keyCount} key(s), account limit ${limit}: ${ok} succeeded, ${limited} got 429 — ${ok === limit ? 'exact' : 'WRONG'}`,
    );
  }
  await app.close();
  await closeServices(services);
  await rm(dir, { recursive: true, force: true });
}

if (isMain(import.meta.url)) await benchLimits();
