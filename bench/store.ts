/**
 * Benchmark of the lowdb store: acknowledged (durable) write latency under
 * concurrency, with 1k / 10k / 100k records already in the store, and the time
 * of one compaction (compactNow: the snapshot rewritten, the journal removed).
 * A write appends to the journal, so its latency should not grow with the store:
 * the run prints p50 at 100k as a ratio of p50 at 10k.
 *
 *   npx tsx bench/store.ts
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openLowdbStore, type Doc, type Store } from '../src/store/index.js';

const SIZES = [1_000, 10_000, 100_000];
const WRITERS = 50;
const PUTS_PER_WRITER = 20;
const TARGET_P50_MS = 10;
const TARGET_AT = 10_000;
/** p50 at the largest size may be at most this many times p50 at TARGET_AT. */
const MAX_GROWTH = 2;
const INDEXES = { contracts: ['ownerId', 'status'] };

const STATUSES = ['draft', 'review', 'signed', 'deployed', 'revoked'];
const JURISDICTIONS = ['FR', 'DE', 'ES', 'IT', 'BE', 'NL', 'PT', 'CH'];

/** A realistic contract record of about 200 bytes of JSON. */
function contract(n: number, now = Date.now()): Doc {
  return {
    id: `ctr_${n.toString(36).padStart(8, '0')}`,
    ownerId: `usr_${(n % 5_000).toString(36).padStart(6, '0')}`,
    status: STATUSES[n % STATUSES.length],
    jurisdiction: JURISDICTIONS[n % JURISDICTIONS.length],
    title: `Estate plan ${n}`,
    estateCents: 10_000_000 + ((n * 7_919) % 90_000_000),
    heirs: 1 + (n % 6),
    createdAt: new Date(now - n * 60_000).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
}

interface Row {
  records: number;
  recordBytes: number;
  openMs: number;
  p50: number;
  p99: number;
  max: number;
  writes: number;
  compactMs: number;
  fileBytes: number;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

function writesOf(store: Store): number {
  return (store as unknown as { stats?: { writes: number } }).stats?.writes ?? NaN;
}

async function benchSize(records: number): Promise<Row> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-store-'));
  try {
    // Pre-populate in one transaction (one file write).
    const seed = await openLowdbStore({ dataDir, indexes: INDEXES });
    await seed.transact(async (tx) => {
      for (let n = 0; n < records; n++) await tx.put('contracts', contract(n));
    });
    await seed.close();

    const t0 = performance.now();
    const store = await openLowdbStore({ dataDir, indexes: INDEXES });
    const openMs = performance.now() - t0;

    // Warm-up round, not measured: the first write after open pays for cold caches.
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => store.put('contracts', contract(w))));
    const writesBefore = writesOf(store);

    // 50 concurrent writers, each doing puts one after another: half update an
    // existing record, half insert a new one.
    const latencies: number[] = [];
    let next = records;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < PUTS_PER_WRITER; i++) {
        const doc =
          i % 2 === 0
            ? { ...contract((w * 7_919 + i * 104_729) % records), status: STATUSES[(w + i) % STATUSES.length] }
            : contract(next++);
        const start = performance.now();
        await store.put('contracts', doc);
        latencies.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    const writes = writesOf(store) - writesBefore;
    const c0 = performance.now();
    await store.compactNow();
    const compactMs = performance.now() - c0;
    await store.close();

    latencies.sort((a, b) => a - b);
    return {
      records,
      recordBytes: Math.round(JSON.stringify(contract(records)).length),
      openMs,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? NaN,
      writes,
      compactMs,
      fileBytes: (await stat(path.join(dataDir, 'svc.json'))).size,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(n / 1024).toFixed(0)} KiB`;
}

export async function benchStore(): Promise<void> {
  console.log(
    `store bench: ${WRITERS} concurrent writers x ${PUTS_PER_WRITER} puts (half updates, half inserts), ` +
      'latency = until the put is acknowledged (its journal entry fdatasynced); after one warm-up round',
  );
  console.log(`(${os.cpus().length} CPUs, tmpdir ${os.tmpdir()}, node ${process.version})\n`);
  const rows: Row[] = [];
  for (const records of SIZES) rows.push(await benchSize(records));

  const header = [
    'records',
    'rec size',
    'file size',
    'open',
    'p50 ack',
    'p99 ack',
    'max ack',
    'file writes',
    'puts/write',
    'compaction',
  ];
  const lines = rows.map((r) => [
    r.records.toLocaleString('en-US'),
    `${r.recordBytes} B`,
    fmtBytes(r.fileBytes),
    `${r.openMs.toFixed(0)} ms`,
    `${r.p50.toFixed(1)} ms`,
    `${r.p99.toFixed(1)} ms`,
    `${r.max.toFixed(1)} ms`,
    String(r.writes),
    ((WRITERS * PUTS_PER_WRITER) / r.writes).toFixed(1),
    `${r.compactMs.toFixed(0)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));

  const target = rows.find((r) => r.records === TARGET_AT);
  if (target) {
    const ok = target.p50 < TARGET_P50_MS;
    console.log(
      `\ntarget: p50 under ${TARGET_P50_MS} ms at ${TARGET_AT.toLocaleString('en-US')} records: ` +
        `${ok ? 'met' : 'NOT met'} (${target.p50.toFixed(1)} ms)`,
    );
    const largest = rows[rows.length - 1];
    if (largest && largest !== target) {
      const ratio = largest.p50 / target.p50;
      console.log(
        `growth: p50 at ${largest.records.toLocaleString('en-US')} records is ${ratio.toFixed(2)}x p50 at ` +
          `${TARGET_AT.toLocaleString('en-US')} (goal: at most ${MAX_GROWTH}x): ${ratio <= MAX_GROWTH ? 'met' : 'NOT met'}`,
      );
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchStore().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
