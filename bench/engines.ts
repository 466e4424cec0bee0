/**
 * Micro figures of the networked engines, printed, never asserted:
 * - PostgreSQL store: acknowledged single put p50/p99 (1 writer, then 50 writers) with 10k records, pipeline mode
 *   on and off; a read-increment-write transaction under contention; findBy; SKIP LOCKED claim drain rate.
 * - Redis limiter: hits per second (100 in flight) against the in-process limiter.
 *
 *   npx tsx bench/engines.ts
 *
 * Uses the engines the tests use (test/support/engines.ts): SVC_TEST_DATABASE_URL / SVC_TEST_REDIS_URL, the local
 * servers, or servers started from the Debian packages. Works in a schema / key prefix of its own, removed after.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { MemoryRateLimiter } from '../src/keys/limiter.js';
import { RedisRateLimiter } from '../src/keys/redis-limiter.js';
import type { Doc } from '../src/store/port.js';
import { openPostgresStore, type ClaimableStore } from '../src/store/postgres/index.js';
import { randomSchema, testDatabaseUrl, testRedisUrl } from '../test/support/engines.js';
import { fmt, isMain, percentile } from './util.js';

const RECORDS = 10_000;
const WRITERS = 50;
const PUTS_PER_WRITER = 20;

function contract(n: number): Doc {
  return {
    id: `ctr_${n.toString(36).padStart(8, '0')}`,
    ownerId: `usr_${(n % 5_000).toString(36).padStart(6, '0')}`,
    status: ['draft', 'review', 'signed'][n % 3],
    title: `Estate plan ${n}`,
    estateCents: 10_000_000 + ((n * 7_919) % 90_000_000),
    createdAt: new Date(1_700_000_000_000 - n * 60_000).toISOString(),
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function summary(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(s, 50))} ms, p99 ${fmt(percentile(s, 99))} ms (${s.length} samples)`;
}

async function benchPostgresStore(url: string, pipeline: boolean): Promise<void> {
  const schema = randomSchema('svc_bench');
  const store = (await openPostgresStore({
    url,
    schema,
    indexes: { contracts: ['ownerId', 'status'], deliveries: ['state'] },
    pipeline,
    poolSize: Number(process.env.SVC_BENCH_PG_POOL ?? 10),
  })) as ClaimableStore & {
    stats: { retries: number };
  };
  try {
    for (let i = 0; i < RECORDS; i += 500) {
      await store.transact(async (tx) => {
        for (let n = i; n < i + 500; n++) await tx.put('contracts', contract(n));
      });
    }
    console.log(`  pipeline ${pipeline ? 'on ' : 'off'}, ${RECORDS} records:`);

    const single: number[] = [];
    for (let i = 0; i < 300; i++) single.push(await timed(() => store.put('contracts', contract(RECORDS + i))));
    console.log(`    put, 1 writer:            ${summary(single)}`);

    const many: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < PUTS_PER_WRITER; i++)
          many.push(await timed(() => store.put('contracts', contract(2 * RECORDS + w * PUTS_PER_WRITER + i))));
      }),
    );
    const wall = performance.now() - t0;
    console.log(
      `    put, ${WRITERS} writers:          ${summary(many)}, ${fmt((WRITERS * PUTS_PER_WRITER) / (wall / 1000), 0)} puts/s`,
    );

    const reads: number[] = [];
    for (let i = 0; i < 300; i++)
      reads.push(
        await timed(() => store.findBy('contracts', 'ownerId', `usr_${(i % 5000).toString(36).padStart(6, '0')}`)),
      );
    console.log(`    findBy (2-3 rows):        ${summary(reads)}`);

    await store.put('counters', { id: 'c', n: 0 });
    const retries = store.stats.retries;
    const rmw: number[] = [];
    let gaveUp = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 10; i++) {
          try {
            rmw.push(
              await timed(() =>
                store.transact(async (tx) => {
                  const c = await tx.get<{ id: string; n: number }>('counters', 'c');
                  await tx.put('counters', { id: 'c', n: c!.n + 1 });
                }),
              ),
            );
          } catch {
            gaveUp++;
          }
        }
      }),
    );
    const final = (await store.get<{ id: string; n: number }>('counters', 'c'))!.n;
    console.log(
      `    one hot counter, 20 tx in flight: ${summary(rmw)}, ${store.stats.retries - retries} retries, ${gaveUp} gave up, counter ${final} (= 200 - gave up)`,
    );

    if (pipeline) {
      const N = 5000;
      for (let i = 0; i < N; i += 500) {
        await store.transact(async (tx) => {
          for (let n = i; n < i + 500; n++)
            await tx.put('deliveries', { id: `d${n}`, state: 'pending', nextAttemptAt: 0 });
        });
      }
      const seen = new Set<string>();
      let dup = 0;
      const t1 = performance.now();
      await Promise.all(
        [1, 2, 3].map(async (w) => {
          for (;;) {
            const got = await store.claim('deliveries', {
              field: 'state',
              value: 'pending',
              dueField: 'nextAttemptAt',
              dueBefore: 1,
              limit: 50,
              set: { state: 'delivering', owner: w },
            });
            if (got.length === 0) return;
            for (const d of got) seen.has(d.id) ? dup++ : seen.add(d.id);
          }
        }),
      );
      const ms = performance.now() - t1;
      console.log(
        `    claim drain, 3 claimers x 50: ${N} rows in ${fmt(ms, 0)} ms (${fmt(N / (ms / 1000), 0)} rows/s), ${seen.size} distinct, ${dup} duplicates`,
      );
    }
  } finally {
    await store.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

async function hitsPerSecond(hit: (i: number) => Promise<unknown>, inFlight: number, ms: number): Promise<number> {
  let n = 0;
  const deadline = performance.now() + ms;
  await Promise.all(
    Array.from({ length: inFlight }, async (_, w) => {
      while (performance.now() < deadline) await hit(w * 1_000_000 + n++);
    }),
  );
  return n / (ms / 1000);
}

export async function benchLimiters(url: string): Promise<void> {
  const mem = new MemoryRateLimiter();
  const now = new Date();
  const memRate = await hitsPerSecond(
    async (i) =>
      mem.hitAll(
        [
          { key: `k${i % 1000}`, limit: 1e9 },
          { key: `b${i % 1000}`, limit: 1e9 },
        ],
        now,
      ),
    100,
    2000,
  );
  const redis = new RedisRateLimiter({ url, prefix: `svc-bench:${randomBytes(4).toString('hex')}:` });
  await redis.ready();
  try {
    const redisRate = await hitsPerSecond(
      (i) =>
        redis.hitAll(
          [
            { key: `k${i % 1000}`, limit: 1e9 },
            { key: `b${i % 1000}`, limit: 1e9 },
          ],
          now,
        ),
      100,
      3000,
    );
    console.log(
      `  hitAll (2 counters), 100 in flight: in-process ${fmt(memRate, 0)}/s, Redis ${fmt(redisRate, 0)}/s (ratio ${fmt(memRate / redisRate, 1)})`,
    );
  } finally {
    await redis.close();
  }
}

export async function benchEngines(): Promise<void> {
  console.log('\n== engines: PostgreSQL store, Redis limiter ==');
  const dbUrl = await testDatabaseUrl();
  await benchPostgresStore(dbUrl, true);
  await benchPostgresStore(dbUrl, false);
  await benchLimiters(await testRedisUrl());
}

if (isMain(import.meta.url)) {
  await benchEngines();
  process.exit(0);
}
