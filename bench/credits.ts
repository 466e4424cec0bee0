/**
 * Debits per second on the embedded store: each debit is one serializable
 * transaction (idempotency check, balance check, ledger entry, wallet update)
 * made durable before it resolves. Baseline in the same run: a bare durable
 * put of one record per operation, the least a debit could cost.
 *
 *   npx tsx bench/credits.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { STORE_INDEXES } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { addEntry, ledgerSum } from '../src/credits/ledger.js';
import { CREDIT_WALLETS, type WalletRecord } from '../src/credits/records.js';
import { debitCredits } from '../src/credits/spend.js';
import { openLowdbStore } from '../src/store/index.js';
import { fmt, isMain, percentile } from './util.js';

const WRITERS = 50;
const PER_WRITER = 40;
const SEQUENTIAL = 1_000;

interface Figures {
  label: string;
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function timed(
  label: string,
  writers: number,
  perWriter: number,
  op: (w: number, i: number) => Promise<unknown>,
): Promise<Figures> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        const s = performance.now();
        await op(w, i);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const ops = writers * perWriter;
  return { label, ops, perSecond: ops / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function benchCredits(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-credits-'));
  const store = await openLowdbStore({ dataDir, indexes: STORE_INDEXES });
  try {
    const config = loadConfig({ 'data-dir': dataDir }, {});
    const deps = { store, clock: systemClock, config, log: createLogger('silent') };
    const accounts = Array.from({ length: WRITERS }, (_, w) => `acct_bench${String(w).padStart(4, '0')}`);
    for (const a of accounts) {
      await addEntry(store, systemClock, a, {
        kind: 'grant',
        amount: 1_000_000,
        idempotencyKey: 'bench:seed',
        reference: { type: 'operator', id: 'bench' },
      });
    }
    const rows: Figures[] = [];
    rows.push(
      await timed('baseline: durable put, 50 writers', WRITERS, PER_WRITER, (w, i) =>
        store.put('bench_baseline', { id: `b_${w}_${i}`, ownerId: accounts[w]!, balance: i }),
      ),
    );
    rows.push(
      await timed('debit, 1 account, one after another', 1, SEQUENTIAL, (_w, i) =>
        debitCredits(deps, accounts[0]!, {
          credits: 1,
          idempotencyKey: `seq:${i}`,
          reference: { type: 'bench', id: String(i) },
          action: 'chat_message',
        }),
      ),
    );
    rows.push(
      await timed('debit, 50 accounts concurrently', WRITERS, PER_WRITER, (w, i) =>
        debitCredits(deps, accounts[w]!, {
          credits: 1,
          idempotencyKey: `par:${i}`,
          reference: { type: 'bench', id: String(i) },
          action: 'chat_message',
        }),
      ),
    );
    rows.push(
      await timed('debit, 1 account, 50 concurrent callers', WRITERS, PER_WRITER, (w, i) =>
        debitCredits(deps, accounts[1]!, {
          credits: 1,
          idempotencyKey: `hot:${w}:${i}`,
          reference: { type: 'bench', id: `${w}.${i}` },
          action: 'chat_message',
        }),
      ),
    );
    const base = rows[0]!.perSecond;
    console.log('\n== credits: debits per second on the embedded store (lowdb), each durable before it resolves ==');
    console.log(
      'case'.padEnd(44) +
        'ops'.padStart(7) +
        'ops/s'.padStart(10) +
        'p50 ms'.padStart(9) +
        'p99 ms'.padStart(9) +
        '  vs baseline',
    );
    for (const r of rows) {
      console.log(
        r.label.padEnd(44) +
          String(r.ops).padStart(7) +
          fmt(r.perSecond, 0).padStart(10) +
          fmt(r.p50).padStart(9) +
          fmt(r.p99).padStart(9) +
          `  ${fmt(r.perSecond / base)}x`,
      );
    }
    // The wallet must still equal its ledger after all that.
    for (const a of accounts.slice(0, 2)) {
      const wallet = await store.get<WalletRecord>(CREDIT_WALLETS, a);
      const sum = await ledgerSum(store, a);
      console.log(
        `check ${a}: balance ${wallet?.balance} = ledger sum ${sum}: ${wallet?.balance === sum ? 'ok' : 'MISMATCH'}`,
      );
    }
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await benchCredits();
