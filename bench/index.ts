/**
 * `npm run bench`: every benchmark, printed (never asserted). Each compares
 * against a baseline measured in the same run. Pass names to run a subset:
 * `npm run bench -- rest mcp`.
 */
import { benchAuth } from './auth.js';
import { benchCredits } from './credits.js';
import { benchEvm } from './evm.js';
import { benchHealth } from './health.js';
import { benchLimits } from './limits.js';
import { benchMcp } from './mcp.js';
import { benchMemoir } from './memoir.js';
import { benchMemoirRecall } from './memoir-recall.js';
import { benchRest } from './rest.js';
import { benchScale } from './scale.js';
import { benchSolana } from './solana.js';
import { benchStart } from './start.js';
import { benchStore } from './store.js';
import { benchTon } from './ton.js';
import { benchVaults } from './vaults.js';
import { benchWatch } from './watch.js';
import { benchWebhooks } from './webhooks.js';
import { benchLargePlans } from './large-plans.js';

const BENCHES: Record<string, () => Promise<void>> = {
  rest: benchRest,
  mcp: benchMcp,
  limits: benchLimits,
  store: benchStore,
  evm: benchEvm,
  ton: benchTon,
  webhooks: benchWebhooks,
  solana: benchSolana,
  auth: benchAuth,
  health: benchHealth,
  start: benchStart,
  credits: benchCredits,
  scale: benchScale,
  memoir: benchMemoir,
  'memoir-recall': benchMemoirRecall,
  watch: benchWatch,
  large: benchLargePlans,
  vaults: () => benchVaults(),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
