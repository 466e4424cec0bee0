import { AccountIdInput, AccountSchema, getAccount } from '../../accounts/accounts.js';
import { defineTool } from '../define.js';
import { accountDeps, OPERATOR_TOOL } from './common.js';

export const getAccountTool = defineTool({
  name: 'get_account',
  example: { id: 'acct_01M89NZVSK4RA0343PNJQFCVBH' },
  title: 'Show an account',
  description: 'Shows one account: name, tier, kind, status. Operator only (internal key, scope users:read).',
  ...OPERATOR_TOOL,
  scope: 'users:read',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: AccountIdInput,
  output: AccountSchema,
  rest: { method: 'GET', path: '/accounts/:id', shape: 'data' },
  handler: (input, ctx) => getAccount(accountDeps(ctx), input.id),
});
