/**
 * EVM engine benchmark. Prints figures, each against a baseline measured in
 * the same run; asserts nothing.
 *   1. generate for a shape not yet compiled vs a bare solc compile of the same source (target ≤ 1.15)
 *   2. generate for a shape already compiled (cache hit), VM scenario included: p50 (target < 15 ms)
 *   3. 20 concurrent generates of distinct shapes: worker pool vs one worker, and event-loop delay (target p99 < 20 ms)
 * Run: npx tsx bench/evm.ts
 */
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { contractName, contractSource } from '../src/contracts/evm/contract.js';
import { generateEvm, warmUpEvm } from '../src/contracts/evm/generate.js';
import { SolcPool } from '../src/contracts/evm/pool.js';
import { allShapes, shapeKey, type EvmShape } from '../src/contracts/evm/shape.js';
import type { Plan } from '../src/contracts/plan.js';

const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

function planFor(shape: EvmShape, beneficiaries = 3): Plan {
  const pct = Array.from({ length: beneficiaries }, (_, i) =>
    i === 0 ? 100 - Math.floor(100 / beneficiaries) * (beneficiaries - 1) : Math.floor(100 / beneficiaries),
  );
  const plan: Plan = {
    blockchain: 'evm',
    ownerAddress: addr(0xa11ce),
    inheritanceTemplate: shape.template,
    beneficiaries: pct.map((percentage, i) => ({ name: `B${i}`, address: addr(0xb0000 + i), percentage })),
  };
  // Without deadMansSwitch the default switch applies: a shape without one says enabled: false.
  plan.deadMansSwitch = {
    enabled: shape.deadMansSwitch,
    intervalDays: 365,
    gracePeriodDays: shape.gracePeriod ? 30 : 0,
  };
  if (shape.guardians)
    plan.guardians = { addresses: [addr(0x9000 + 1), addr(0x9000 + 2), addr(0x9000 + 3)], threshold: 2 };
  const assets: NonNullable<Plan['assets']> = [];
  if (shape.erc20) assets.push({ type: 'erc20', address: addr(0x70001) });
  if (shape.erc721) assets.push({ type: 'erc721', address: addr(0x72001), tokenId: '1', beneficiary: addr(0xb0000) });
  if (assets.length > 0) plan.assets = assets;
  return plan;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

export async function benchEvm(): Promise<void> {
  console.log('\n# EVM engine');
  const shapes = allShapes();

  // 1. Uncompiled shape: generate vs bare compile of the same source. One warmed pool serves both
  //    (the bare compile asks no AST, so it is a separate cache entry: both are cache misses).
  {
    const pool = new SolcPool();
    await warmUpEvm(pool);
    // Let V8 finish tiering up solc's WebAssembly in every worker before measuring.
    await Promise.all(
      shapes
        .filter((s) => s.template === 'islamic-mirth')
        .slice(0, 6)
        .map((s) => pool.compile(contractSource(s))),
    );
    const common = shapes.filter((s) => s.template === 'common-law');
    const picks = [
      ...common.filter((s) => !s.erc20 && !s.erc721),
      ...common.filter((s) => s.erc20 && s.erc721 && s.deadMansSwitch && s.guardians === s.gracePeriod),
    ];
    const ratios: number[] = [];
    const rows: string[] = [];
    for (const [i, shape] of picks.entries()) {
      const timeBare = async () => {
        const t = performance.now();
        await pool.compile(contractSource(shape), { contractName: contractName(shape) });
        return performance.now() - t;
      };
      const timeGen = async () => {
        const t = performance.now();
        await generateEvm(planFor(shape), { pool });
        return performance.now() - t;
      };
      let b: number;
      let g: number;
      if (i % 2 === 0) {
        b = await timeBare();
        g = await timeGen();
      } else {
        g = await timeGen();
        b = await timeBare();
      }
      ratios.push(g / b);
      rows.push(
        `  ${shapeKey(shape).padEnd(40)} bare compile ${ms(b).padStart(10)}   generate ${ms(g).padStart(10)}   ratio ${(g / b).toFixed(2)}`,
      );
    }
    await pool.close();
    console.log(
      '1. Generate for a shape not yet compiled vs bare solc compile of the same source (target ratio ≤ 1.15)',
    );
    console.log(rows.join('\n'));
    console.log(`   median ratio ${median(ratios).toFixed(2)} over ${ratios.length} shapes (order alternated)`);
  }

  // 2. Cache hit: generate for a compiled shape, VM scenario included.
  {
    const pool = new SolcPool();
    const shape = shapes.find(
      (s) => s.template === 'custom' && s.deadMansSwitch && !s.gracePeriod && !s.guardians && !s.erc20 && !s.erc721,
    )!;
    const full = shapes.find((s) => s.template === 'custom' && s.gracePeriod && s.guardians && s.erc20 && s.erc721)!;
    for (const [label, s] of [
      ['custom.switch, 3 beneficiaries', shape],
      ['all features, 3 beneficiaries', full],
    ] as const) {
      const plan = planFor(s);
      const tFirst = performance.now();
      await generateEvm(plan, { pool });
      const first = performance.now() - tFirst;
      for (let i = 0; i < 5; i++) await generateEvm(plan, { pool }); // JIT warm-up
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t = performance.now();
        await generateEvm(plan, { pool });
        times.push(performance.now() - t);
      }
      console.log(
        `2. Generate, shape already compiled (${label}): p50 ${ms(median(times))}, p90 ${ms(pct(times, 90))} (target p50 < 15 ms); first (uncompiled) ${ms(first)}, ratio first/p50 ${(first / median(times)).toFixed(0)}x`,
      );
    }
    await pool.close();
  }

  // 3. 20 concurrent generates of distinct shapes: pool of one worker per core vs one worker.
  {
    const picks = shapes.filter((_, i) => i % 6 === 0).slice(0, 20);
    const run = async (size: number) => {
      // Every compile is queued at once on purpose, past the admission limit of a single worker's queue (its
      // estimated wait is what SERVICE_BUSY answers; test/contracts/fair-queues.test.ts tests it): here the wait is allowed.
      const pool = new SolcPool({ size, maxWaitMs: 600_000 });
      await pool.warmUp();
      const h = monitorEventLoopDelay({ resolution: 1 });
      h.enable();
      const t = performance.now();
      await Promise.all(picks.map((s) => generateEvm(planFor(s), { pool })));
      const wall = performance.now() - t;
      h.disable();
      await pool.close();
      return { wall, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
    };
    const one = await run(1);
    const many = await run(availableParallelism());
    console.log(`3. 20 concurrent generates of distinct shapes (${availableParallelism()} cores)`);
    console.log(
      `   one worker:        ${ms(one.wall)}  ${(20000 / one.wall).toFixed(2)} generates/s  event-loop delay p99 ${ms(one.p99)} max ${ms(one.max)}`,
    );
    console.log(
      `   ${availableParallelism()} workers (pool): ${ms(many.wall)}  ${(20000 / many.wall).toFixed(2)} generates/s  event-loop delay p99 ${ms(many.p99)} max ${ms(many.max)} (target p99 < 20 ms)`,
    );
    console.log(`   throughput ratio pool/one worker: ${(one.wall / many.wall).toFixed(2)}x`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchEvm();
}
