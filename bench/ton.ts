/**
 * Benchmark of TON contract generation. Baseline: a bare func-js compile of
 * the same FunC source, measured in the same run. Compared with it:
 *   - generate (ton) for a shape seen for the first time: print, compile,
 *     full sandbox scenario, packaging;
 *   - generate (ton) p50 for a shape already compiled (the compile is cached
 *     per shape, so only the sandbox scenario and packaging remain).
 *
 *   npx tsx bench/ton.ts
 */
import { performance } from 'node:perf_hooks';
import { compileFunc as bareCompile } from '@ton-community/func-js';
import type { Plan } from '../src/contracts/plan.js';
import {
  allTonShapes,
  estimateTonFees,
  generateTon,
  tonContractSource,
  type TonShape,
} from '../src/contracts/ton/index.js';
import { fmt, isMain, percentile } from './util.js';

const BASELINE_RUNS = 7;
const WARM_RUNS = 15;

function rawAddress(i: number): string {
  return `0:${i.toString(16).padStart(64, '0')}`;
}

/** A plan of the shape; `seed` makes the owner differ, so no two runs verify the same plan. */
function planFor(shape: TonShape, n: number, seed = 0): Plan {
  const base = Math.floor(10000 / n);
  const plan: Plan = {
    blockchain: 'ton',
    ownerAddress: rawAddress(1_000_000 + seed),
    inheritanceTemplate: shape.template,
    beneficiaries: Array.from({ length: n }, (_, i) => ({
      name: `b${i}`,
      address: rawAddress(100 + i),
      percentage: (i === 0 ? 10000 - base * (n - 1) : base) / 100,
    })),
  };
  if (shape.deadMansSwitch)
    plan.deadMansSwitch = { enabled: true, intervalDays: 365, gracePeriodDays: shape.gracePeriod ? 30 : 0 };
  if (shape.guardians) plan.guardians = { addresses: [rawAddress(50), rawAddress(51), rawAddress(52)], threshold: 2 };
  return plan;
}

async function time<T>(f: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

export async function benchTon(): Promise<void> {
  const shapes = allTonShapes().filter((s) => s.template === 'custom');
  const reference = shapes.find((s) => s.deadMansSwitch && s.gracePeriod && s.guardians)!;
  const source = tonContractSource(reference);

  // warm the compiler module and the sandbox once, outside every measurement
  await bareCompile({ targets: ['c.fc'], sources: { 'c.fc': '() recv_internal() impure { }' } });

  const bare: number[] = [];
  for (let i = 0; i < BASELINE_RUNS; i++) {
    bare.push(
      await time(async () => {
        const r = await bareCompile({ targets: ['c.fc'], sources: { 'c.fc': source } });
        if (r.status !== 'ok') throw new Error('baseline compile failed');
      }),
    );
  }
  bare.sort((a, b) => a - b);
  const bareP50 = percentile(bare, 50);

  // first generate of each custom shape: compile + scenario (2 beneficiaries)
  let nextSeed = 1;
  const cold: number[] = [];
  for (const s of shapes) cold.push(await time(() => generateTon(planFor(s, 2, nextSeed++))));
  cold.sort((a, b) => a - b);
  const coldP50 = percentile(cold, 50);

  const warm = async (n: number) => {
    const xs: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) xs.push(await time(() => generateTon(planFor(reference, n, nextSeed++))));
    xs.sort((a, b) => a - b);
    return xs;
  };
  const w2 = await warm(2);
  const w10 = await warm(10);
  const w50: number[] = [];
  for (let i = 0; i < 5; i++) w50.push(await time(() => generateTon(planFor(reference, 50, nextSeed++))));
  w50.sort((a, b) => a - b);

  // the same plan again: its verification is remembered
  const again: number[] = [];
  const repeat = planFor(reference, 10, 0);
  await generateTon(repeat);
  for (let i = 0; i < WARM_RUNS; i++) again.push(await time(() => generateTon(repeat)));
  again.sort((a, b) => a - b);

  // storage rent of the reference shape (figures, not timings)
  const rent = (await estimateTonFees({ contractCode: source })).storageRent;

  const line = (label: string, ms: number) =>
    `  ${label.padEnd(58)} ${fmt(ms, 1).padStart(8)} ms   x${fmt(ms / bareP50)} of bare compile`;
  process.stdout.write(
    [
      'TON generate (compile + sandbox scenario) vs bare func-js compile of the same source',
      line(`baseline: bare func-js compile, p50 of ${BASELINE_RUNS}`, bareP50),
      line(`generate, first time per shape (compile + scenario), p50 of ${cold.length}`, coldP50),
      line(`generate, shape already compiled, 2 beneficiaries, p50 of ${WARM_RUNS}`, percentile(w2, 50)),
      line(`generate, shape already compiled, 2 beneficiaries, p95`, percentile(w2, 95)),
      line(`generate, shape already compiled, 10 beneficiaries, p50 of ${WARM_RUNS}`, percentile(w10, 50)),
      line(`generate, shape already compiled, 50 beneficiaries, p50 of ${w50.length}`, percentile(w50, 50)),
      line(`generate, identical plan again (verification remembered), p50`, percentile(again, 50)),
      `  cached vs first-time generate (2 beneficiaries): x${fmt(percentile(w2, 50) / coldP50)}`,
      `  storage rent of the reference shape (2 beneficiaries, 365-day interval, 30-day grace): ${rent.perYear} TON/year, ` +
        `${rent.overIntervalAndGrace} TON over interval + grace; reserve ${rent.reserve} TON, lasting ${rent.reserveLastsDays} days alone ` +
        `(${rent.stateCells} cells, ${rent.stateBits} bits)`,
      '',
    ].join('\n'),
  );
}

if (isMain(import.meta.url)) await benchTon();
