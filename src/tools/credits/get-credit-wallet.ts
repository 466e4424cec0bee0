import { EmptyInput, getWallet, WalletOutput } from '../../credits/views.js';
import { defineTool } from '../define.js';
import { creditRoute, SESSION_CREDIT_TOOL } from './common.js';

export const getCreditWalletTool = defineTool({
  name: 'get_credit_wallet',
  example: {},
  title: 'Show the credit wallet',
  description: "The account's credit balance (the sum of its ledger, never negative), lifetime totals, and auto-reload settings and state. Session; REST only.",
  ...SESSION_CREDIT_TOOL,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: EmptyInput,
  output: WalletOutput,
  rest: creditRoute('GET', 'wallet'),
  handler: (_input, ctx) => getWallet(ctx.store, ctx.principal.ownerId, ctx.clock.now()),
});
