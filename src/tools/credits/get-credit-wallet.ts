import { storageUsage, StorageUsageSchema } from '../../accounts/quota.js';
import { EmptyInput, getWallet, WalletOutput } from '../../credits/views.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';
import { creditRoute } from './common.js';

export const getCreditWalletTool = defineTool({
  name: 'get_credit_wallet',
  example: {},
  title: 'Show the credit wallet',
  description:
    "The account's credit balance (the sum of its ledger, never negative), lifetime totals, auto-reload settings and state, and the storage it uses " +
    '(bytes used, reserved by uploads in progress, its limit and what is left). Session; REST only.',
  domain: 'credits',
  ...SESSION_ONLY,
  annotations: READ,
  input: EmptyInput,
  output: WalletOutput.extend({ storage: StorageUsageSchema }).describe(
    'The wallet, and the storage the account uses.',
  ),
  rest: creditRoute('GET', 'wallet'),
  handler: async (_input, ctx) => ({
    ...(await getWallet(ctx.store, ctx.principal.ownerId, ctx.clock.now())),
    storage: await storageUsage(ctx.store, ctx.principal.ownerId, {
      defaultLimit: ctx.config.storageQuotaBytes,
      now: ctx.clock.now(),
    }),
  }),
});
