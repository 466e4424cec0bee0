import { AccountIdInput, AccountSchema, getAccount } from '../../accounts/accounts.js';
import { defineTool, OPERATOR_TOOL, READ } from '../define.js';
import { accountDeps } from './common.js';

export const getAccountTool = defineTool({
  name: 'get_account',
  example: { id: 'acct_01M89NZVSK4RA0343PNJQFCVBH' },
  title: 'Show an account',
  description: 'Shows one account: name, tier, kind, status. Operator only (internal key, scope users:read).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users:read',
  annotations: READ,
  input: AccountIdInput,
  output: AccountSchema,
  rest: { method: 'GET', path: '/accounts/:id', shape: 'data' },
  handler: (input, ctx) => getAccount(accountDeps(ctx), input.id),
});
