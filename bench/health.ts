/**
 * Event-loop health under load: /health latency while 20
 * generates per chain and the pathological inputs run at once, and how fast
 * each pathological input is answered. The baseline is /health on the idle
 * server, measured first in the same run.
 *
 *   npx tsx bench/health.ts
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import { closeServices, openServices } from '../src/app.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/provision.js';
import { MemoryRateLimiter } from '../src/keys/limiter.js';
import { systemClock } from '../src/core/clock.js';
import { TOOLS } from '../src/tools/index.js';
import { fmt, isMain, percentile } from './util.js';

class UnboundedLimiter extends MemoryRateLimiter {
  override hitAllNow(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date) {
    // The entries are the caller's (kept from one request to the next): raised in a copy.
    return super.hitAllNow(
      entries.map((e) => ({ key: e.key, limit: e.limit * 1_000_000 })),
      now,
    );
  }
}

const sol = (label: string) => bs58.encode(createHash('sha256').update(label).digest());
const evmAddr = (i: number) => '0x' + createHash('sha256').update(`evm${i}`).digest('hex').slice(0, 40);
const tonAddr = (i: number) => '0:' + createHash('sha256').update(`ton${i}`).digest('hex');

function plan(chain: 'evm' | 'ton' | 'solana', i: number): Record<string, unknown> {
  const addr = chain === 'evm' ? evmAddr : chain === 'ton' ? tonAddr : (n: number) => sol(`sol${n}`);
  return {
    blockchain: chain,
    ownerAddress: addr(1000 + i),
    beneficiaries: [
      { name: 'A', address: addr(2000 + i), percentage: 60 },
      { name: 'B', address: addr(3000 + i), percentage: 40 },
    ],
    // Distinct intervals: every plan is its own job (no result shared between them).
    deadMansSwitch: { enabled: true, intervalDays: 100 + i },
  };
}

export async function benchHealth(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-health-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  services.limiter = new UnboundedLimiter();
  const { key } = await createKey(services.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock);
  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  const probe = async (ms: number): Promise<number[]> => {
    const times: number[] = [];
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const t = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    return times.sort((a, b) => a - b);
  };

  const idle = await probe(2000);

  const pathological: Array<[string, () => Promise<Response>]> = [
    [
      'solana estimate_gas, "#[]" x 333,000',
      () =>
        fetch(`${base}/api/v1/contracts/estimate-gas`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ blockchain: 'solana', contractCode: '#[]'.repeat(333_000) }),
        }),
    ],
    [
      'solana estimate_gas, Vec< nested 20,000 deep',
      () =>
        fetch(`${base}/api/v1/contracts/estimate-gas`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            blockchain: 'solana',
            contractCode: `pub struct A { x: ${'Vec<'.repeat(20_000)}u8${'>'.repeat(20_000)} }`,
          }),
        }),
    ],
    [
      'ton estimate_gas, FunC ( nested 5,000 deep',
      () =>
        fetch(`${base}/api/v1/contracts/estimate-gas`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            blockchain: 'ton',
            contractCode: `int f() { return ${'('.repeat(5_000)}1${')'.repeat(5_000)}; }`,
          }),
        }),
    ],
    [
      'ton estimate_gas, a 400 kB FunC source',
      () =>
        fetch(`${base}/api/v1/contracts/estimate-gas`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ blockchain: 'ton', contractCode: ';; padding\n'.repeat(40_000) }),
        }),
    ],
    [
      'get_jurisdiction, a 60 kB id',
      () => fetch(`${base}/api/v1/jurisdictions/${'x'.repeat(60_000)}`, { headers: auth }),
    ],
    [
      'get_jurisdiction, a 250-character near-miss',
      () => fetch(`${base}/api/v1/jurisdictions/${'californi'.repeat(27)}a`, { headers: auth }),
    ],
  ];

  let load = true;
  const probing = (async () => {
    const times: number[] = [];
    while (load) times.push(...(await probe(200)));
    return times.sort((a, b) => a - b);
  })();
  const started = performance.now();
  const generates = (['evm', 'ton', 'solana'] as const).flatMap((chain) =>
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${base}/api/v1/contracts/generate`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(plan(chain, i)),
      }).then((r) => r.status),
    ),
  );
  const patho = pathological.map(async ([name, run]) => {
    const t = performance.now();
    const res = await run();
    const body = (await res.json()) as { error?: { code: string } };
    return { name, status: res.status, code: body.error?.code ?? '-', ms: performance.now() - t };
  });
  const [statuses, answers] = await Promise.all([Promise.all(generates), Promise.all(patho)]);
  const loadMs = performance.now() - started;
  load = false;
  const busy = await probing;

  const engine = services.contracts;
  const pools = (['ton', 'evm', 'solana'] as const)
    .map(
      (n) =>
        `${n} ${engine[n].stats.workersStarted} started, ${engine[n].stats.completed} jobs, ${engine[n].stats.timeouts} timeouts, ${engine[n].stats.busy} busy`,
    )
    .join('; ');
  const solcWorkers = engine.pool.size;
  await app.close();
  await closeServices(services);
  await rm(dir, { recursive: true, force: true });

  const ok = statuses.filter((s) => s === 200).length;
  console.log(
    `\nEvent loop under load: /health while 60 generates (20 per chain) and the pathological inputs run at once`,
  );
  console.log(
    `  /health idle        p50 ${fmt(percentile(idle, 50))} ms  p99 ${fmt(percentile(idle, 99))} ms  (${idle.length} probes)`,
  );
  console.log(
    `  /health under load  p50 ${fmt(percentile(busy, 50))} ms  p99 ${fmt(percentile(busy, 99))} ms  max ${fmt(busy.at(-1) ?? NaN)} ms  (${busy.length} probes; goal p99 < 50 ms)`,
  );
  console.log(
    `  generates: ${ok}/${statuses.length} answered 200 in ${fmt(loadMs / 1000, 1)} s (others: ${[...new Set(statuses.filter((s) => s !== 200))].join(', ') || 'none'})`,
  );
  console.log(`  worker pools: solc ${solcWorkers} workers; ${pools}`);
  for (const a of answers)
    console.log(`  ${a.name.padEnd(46)} ${a.status} ${a.code}  ${fmt(a.ms, 0)} ms (goal < 1000 ms, an enveloped 4xx)`);
}

if (isMain(import.meta.url)) await benchHealth();
