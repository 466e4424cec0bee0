/**
 * `npm run bench`: every benchmark, printed (never asserted). Each compares
 * against a baseline measured in the same run. Pass names to run a subset:
 * `npm run bench -- rest mcp`.
 *
 * Each benchmark's module is imported only when it runs: the ones that report
 * memory (webhooks, large) would otherwise count the heap of every other
 * benchmark's imports (compilers, chain sandboxes) in their figures.
 *
 * It runs under the node flags and environment of the `svc` command (the first line of bin/svc.js): started without
 * them, it starts itself again with them, so the figures (memory above all) are those of the service's runtime.
 * Baselines run in the same process, under the same flags.
 */
import { spawnSync } from 'node:child_process';
import { svcRuntime } from './util.js';

const { env, flags } = svcRuntime();
if (!flags.every((f) => process.execArgv.includes(f)) || Object.entries(env).some(([k, v]) => process.env[k] !== v)) {
  const run = spawnSync(process.execPath, [...flags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  process.exit(run.status ?? 1);
}

const BENCHES: Record<string, () => Promise<void>> = {
  rest: async () => (await import('./rest.js')).benchRest(),
  'rest-steps': async () => (await import('./rest-steps.js')).benchRestSteps(),
  mcp: async () => (await import('./mcp.js')).benchMcp(),
  limits: async () => (await import('./limits.js')).benchLimits(),
  store: async () => (await import('./store.js')).benchStore(),
  evm: async () => (await import('./evm.js')).benchEvm(),
  ton: async () => (await import('./ton.js')).benchTon(),
  webhooks: async () => (await import('./webhooks.js')).benchWebhooks(),
  solana: async () => (await import('./solana.js')).benchSolana(),
  auth: async () => (await import('./auth.js')).benchAuth(),
  health: async () => (await import('./health.js')).benchHealth(),
  start: async () => (await import('./start.js')).benchStart(),
  credits: async () => (await import('./credits.js')).benchCredits(),
  scale: async () => (await import('./scale.js')).benchScale(),
  memoir: async () => (await import('./memoir.js')).benchMemoir(),
  'memoir-recall': async () => (await import('./memoir-recall.js')).benchMemoirRecall(),
  watch: async () => (await import('./watch.js')).benchWatch(),
  large: async () => (await import('./large-plans.js')).benchLargePlans(),
  vaults: async () => (await import('./vaults.js')).benchVaults(),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
