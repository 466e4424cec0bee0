/**
 * The chain watcher's benchmark. Prints figures; asserts nothing.
 *   1. Deployments verified per second: register_deployment (code and constructor arguments checked through
 *      JSON-RPC) of contracts deployed on a local anvil node, through the REST route.
 *   2. The watcher's cost per poll with 1k / 2k / 4k watched contracts (lowdb store; a stand-in chain answering
 *      from memory, so the figure is the watcher's own work: the reads it issues, decide, and one store
 *      transaction per contract, or WRITE_BATCH contracts per transaction), per 1,000 contracts, and its growth as
 *      ratios against 1k: linear growth keeps the per-1,000 cost flat (ratio ≈ 1).
 * Run: npm run bench -- watch   (or npx tsx bench/watch.ts)
 */
import { performance } from 'node:perf_hooks';
import { createPublicClient, createWalletClient, getAddress, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { STORE_INDEXES } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/log.js';
import { openLowdbStore } from '../src/store/index.js';
import { WRITE_BATCH, Watcher } from '../src/watch/watcher.js';
import { startTestServer, tmpDir } from '../test/helpers.js';
import { ANVIL_KEYS, startAnvil } from '../test/support/anvil.js';
import { SwitchChain, seedWatched } from '../test/support/switch-chain.js';
import { fmt, isMain } from './util.js';

const DAY = 86_400;
const SIZES = [1_000, 2_000, 4_000];
const HEIRS = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'] as Hex[];

async function verifiedPerSecond(): Promise<void> {
  const anvil = await startAnvil();
  const server = await startTestServer({
    config: {
      chains: { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs: 15_000, watchConfirmations: 2 },
    },
    listen: false,
    log: createLogger('silent'),
  });
  try {
    const owner = privateKeyToAccount(ANVIL_KEYS[0]);
    const chain = { ...foundry, rpcUrls: { default: { http: [anvil.url] } } };
    const wallet = createWalletClient({ account: owner, chain, transport: http(anvil.url) });
    const pub = createPublicClient({ chain, transport: http(anvil.url) });
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (
        await server.app.inject({
          method,
          url: `/api/v1${url}`,
          headers: { authorization: `Bearer ${server.adminKey}` },
          ...(payload ? { payload } : {}),
        })
      ).json();
    const gen = await api('POST', '/contracts/generate', {
      blockchain: 'evm',
      ownerAddress: owner.address,
      beneficiaries: [
        { name: 'A', address: HEIRS[0], percentage: 60 },
        { name: 'B', address: HEIRS[1], percentage: 40 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 180 },
    });
    const c = (await api('GET', `/contracts/${gen.id}`)).data as { id: string; deployData: Hex };
    const N = 20;
    const deployed: { address: Hex; txHash: Hex }[] = [];
    for (let i = 0; i < N; i++) {
      const txHash = await wallet.sendTransaction({ data: c.deployData, gas: 10_000_000n });
      const receipt = await pub.waitForTransactionReceipt({ hash: txHash });
      deployed.push({ address: getAddress(receipt.contractAddress!), txHash });
    }
    const t0 = performance.now();
    let verified = 0;
    for (const d of deployed) {
      const res = await api('POST', `/contracts/${c.id}/deployments`, { network: 31337, ...d });
      if (res.data?.status === 'verified') verified += 1;
    }
    const s = (performance.now() - t0) / 1000;
    console.log(
      `watch: ${verified}/${N} deployments verified (from their creation transaction, anvil on 127.0.0.1) in ` +
        `${fmt(s)} s: ${fmt(verified / s, 1)} verified/s, ${fmt((s * 1000) / N, 1)} ms each`,
    );
  } finally {
    await server.close();
    await anvil.stop();
  }
}

async function pollCost(): Promise<void> {
  const rows: { n: number; ms: number; per1k: number; calls: number; warnPer1k: number; batchedPer1k: number }[] = [];
  for (const n of SIZES) {
    const dir = await tmpDir('svc-bench-watch-');
    const store = await openLowdbStore({ dataDir: dir.dir, indexes: STORE_INDEXES });
    try {
      const chain = new SwitchChain();
      await seedWatched(store, chain, 'own_BENCH000000000000000000000', n, HEIRS);
      const watcher = new Watcher({
        store,
        clock: systemClock,
        networks: ['31337'],
        pollMs: 15_000,
        confirmations: 2,
        readerFor: async () => chain.reader(),
      });
      // The first read of each contract (nothing to send), then polls at new blocks: one steady poll with no
      // event, and one where every contract's 30-day warning falls due.
      await watcher.pollOnce('31337');
      // The median of several quiet polls, each at a new block (a single one is at the mercy of the JIT and GC).
      const times: number[] = [];
      let calls = 0;
      let steady = { read: 0 };
      for (let i = 0; i < 7; i++) {
        chain.advance(60);
        const calls0 = chain.calls;
        const t0 = performance.now();
        steady = await watcher.pollOnce('31337');
        times.push(performance.now() - t0);
        calls = chain.calls - calls0;
      }
      const ms = times.sort((a, b) => a - b)[3]!;
      // Two polls that write every contract: the 30-day warnings with one store transaction per contract, then the
      // 7-day warnings with the writes batched (WRITE_BATCH contracts per transaction).
      const writePoll = async (w: Watcher, days: number) => {
        chain.advance(days * DAY);
        const t = performance.now();
        const warned = await w.pollOnce('31337');
        if (warned.events !== n) throw new Error(`expected ${n} warnings, got ${warned.events}`);
        return ((performance.now() - t) * 1000) / n;
      };
      const single = new Watcher({
        store,
        clock: systemClock,
        networks: ['31337'],
        pollMs: 15_000,
        confirmations: 2,
        readerFor: async () => chain.reader(),
        writeBatch: 1,
      });
      const warnPer1k = await writePoll(single, 31);
      const batchedPer1k = await writePoll(watcher, 23);
      if (steady.read !== n) throw new Error(`expected ${n} reads, got ${steady.read}`);
      rows.push({ n, ms, per1k: (ms * 1000) / n, calls: (calls * 1000) / n, warnPer1k, batchedPer1k });
    } finally {
      await store.close();
      await dir.cleanup();
    }
  }
  const base = rows[0]!;
  for (const r of rows) {
    console.log(
      `watch: ${r.n} watched contracts, a poll at a new block with nothing to send: ${fmt(r.ms, 0)} ms, ` +
        `${fmt(r.per1k, 1)} ms and ${fmt(r.calls, 0)} chain calls per 1,000 contracts (per-1,000 ratio to 1k ` +
        `${fmt(r.per1k / base.per1k)}); a poll where every contract's warning is sent (one store transaction each, ` +
        `with its outbox event): ${fmt(r.warnPer1k, 1)} ms per 1,000 (ratio ${fmt(r.warnPer1k / base.warnPer1k)}); ` +
        `the same with ${WRITE_BATCH} contracts per transaction: ${fmt(r.batchedPer1k, 1)} ms per 1,000 (ratio ` +
        `${fmt(r.batchedPer1k / base.batchedPer1k)}, ${fmt(r.warnPer1k / r.batchedPer1k, 1)}x faster than one each)`,
    );
  }
  const worst = Math.max(...rows.map((r) => r.per1k / base.per1k));
  const worstWrite = Math.max(...rows.map((r) => r.warnPer1k / base.warnPer1k));
  const worstBatched = Math.max(...rows.map((r) => r.batchedPer1k / base.batchedPer1k));
  console.log(
    `watch: a quiet poll grows ${worst <= 1.3 ? 'linearly' : 'NOT linearly'} (largest per-1,000 ratio ${fmt(worst)}; ` +
      `linear keeps it near 1); a poll that writes every contract: largest per-1,000 ratio ${fmt(worstWrite)} ` +
      `with one transaction per contract, ${fmt(worstBatched)} with ${WRITE_BATCH} per transaction ` +
      `(lowdb appends each group commit to its journal; a ratio near 1 means a write costs the same in a larger store)`,
  );
}

export async function benchWatch(): Promise<void> {
  await verifiedPerSecond();
  await pollCost();
}

if (isMain(import.meta.url)) await benchWatch();
