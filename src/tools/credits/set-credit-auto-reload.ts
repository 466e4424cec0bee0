import { AutoReloadInput, setAutoReload } from '../../credits/autoreload.js';
import { walletView, WalletOutput } from '../../credits/views.js';
import { defineTool, SESSION_ONLY, WRITE_IDEMPOTENT } from '../define.js';
import { creditDeps, creditRoute } from './common.js';

export const setCreditAutoReloadTool = defineTool({
  name: 'set_credit_auto_reload',
  example: { enabled: true, packType: 'starter', thresholds: [20], maxMonthlySpend: 2000 },
  title: 'Set automatic reloads',
  description:
    'When a debit leaves the balance below the highest threshold, one pack is charged to the card saved at checkout: one reload at a time, ' +
    'a cooldown between attempts, never more than maxMonthlySpend (minor units) a month. Three failed reloads in a row turn it off ' +
    '(a payment.failed event says why). Crossing any threshold sends a credits.low_balance event. Returns the wallet. Session and X-CSRF-Token; REST only.',
  domain: 'credits',
  ...SESSION_ONLY,
  annotations: WRITE_IDEMPOTENT,
  input: AutoReloadInput,
  output: WalletOutput,
  rest: creditRoute('PUT', 'auto-reload'),
  handler: async (input, ctx) =>
    walletView(await setAutoReload(creditDeps(ctx), ctx.principal.ownerId, input), ctx.clock.now()),
});
