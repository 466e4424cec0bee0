/**
 * The largest plans the generator accepts, through the engine's worker pools as the service runs them: 50
 * beneficiaries and 10 assets (EVM: ERC-20 tokens and ERC-721 items; TON: jettons), with the switch, a grace period
 * and guardians. Each chain's generate time (first of its shape, then the same shape for another owner) is printed
 * against the time limit the engine gives that plan (`planTimeLimitMs`), and against a 2-beneficiary plan of the
 * same chain measured in the same run. Printed, never asserted.
 *
 *   npm run bench -- large
 */
import { generateEvm } from '../src/contracts/evm/generate.js';
import type { EvmScenarioInput } from '../src/contracts/evm/generate.js';
import type { Plan } from '../src/contracts/plan.js';
import { ContractEngine } from '../src/contracts/pools.js';
import { planTimeLimitMs } from '../src/contracts/time-limits.js';
import { fmt, isMain } from './util.js';

const evmAddr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const tonAddr = (i: number) => `0:${i.toString(16).padStart(64, '0')}`;

function shares(n: number): number[] {
  const base = Math.floor(10_000 / n);
  return Array.from({ length: n }, (_, i) => (i === 0 ? 10_000 - base * (n - 1) : base) / 100);
}

/** A plan of `n` beneficiaries and `assets` assets on `chain`; `seed` changes the owner only. */
export function largePlan(chain: 'evm' | 'ton', n: number, assets: number, seed = 0): Plan {
  const a = chain === 'evm' ? evmAddr : tonAddr;
  const plan: Plan = {
    blockchain: chain,
    ownerAddress: a(0xa0000 + seed),
    inheritanceTemplate: 'custom',
    beneficiaries: shares(n).map((percentage, i) => ({ name: `B${i}`, address: a(0xb0000 + i), percentage })),
    deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 30 },
    guardians: { addresses: [a(0x9001), a(0x9002), a(0x9003)], threshold: 2 },
  };
  if (assets > 0)
    plan.assets = Array.from({ length: assets }, (_, i) =>
      chain === 'ton'
        ? { type: 'jetton' as const, address: a(0x70000 + i) }
        : i % 2
          ? { type: 'erc721' as const, address: a(0x72000 + i), tokenId: String(i), beneficiary: a(0xb0000) }
          : { type: 'erc20' as const, address: a(0x70000 + i) },
    );
  return plan;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

export async function benchLargePlans(): Promise<void> {
  const engine = new ContractEngine();
  const evm = (plan: Plan) =>
    generateEvm(plan, {
      pool: engine.pool,
      execute: (s: EvmScenarioInput) =>
        engine.evm.run('scenario', s, { timeoutMs: planTimeLimitMs(engine.evm.timeoutMs, plan) }),
    });
  const ton = (plan: Plan) =>
    engine.ton.run('generate', plan, { timeoutMs: planTimeLimitMs(engine.ton.timeoutMs, plan) });
  const lines: string[] = ['Large plans (50 beneficiaries, 10 assets) through the engine pools:'];
  try {
    for (const [chain, run, base] of [
      ['evm', evm, engine.evm.timeoutMs],
      ['ton', ton, engine.ton.timeoutMs],
    ] as const) {
      // The small plan warms the pool's worker (solc or the FunC compiler and sandbox) and is the baseline.
      await run(largePlan(chain, 2, 0, 1));
      const small = await timed(() => run(largePlan(chain, 2, 0, 2)));
      const big = largePlan(chain, 50, 10, 3);
      const limit = planTimeLimitMs(base, big);
      const first = await timed(() => run(big));
      const again = await timed(() => run(largePlan(chain, 50, 10, 4)));
      lines.push(
        `  ${chain}: 2 beneficiaries ${fmt(small, 0)} ms; 50+10 first of its shape ${fmt(first, 0)} ms, same shape ` +
          `again ${fmt(again, 0)} ms (x${fmt(again / small)} of 2 beneficiaries); limit ${fmt(limit / 1000, 0)} s ` +
          `(pool's ${fmt(base / 1000, 0)} s scaled), first uses ${fmt((100 * first) / limit, 0)}% of it`,
      );
    }
  } finally {
    await engine.close();
  }
  process.stdout.write(lines.join('\n') + '\n');
}

if (isMain(import.meta.url)) await benchLargePlans();
