import { AccountIdInput, AccountSchema, updateAccount } from '../../accounts/accounts.js';
import { defineTool, DELETE, OPERATOR_TOOL } from '../define.js';
import { accountDeps } from './common.js';

export const suspendAccountTool = defineTool({
  name: 'suspend_account',
  example: { id: 'acct_01M89NZVSK4RA0343PNJQFCVBH' },
  title: 'Suspend an account',
  description:
    'Suspends an account (nothing is deleted): its keys and sessions are refused with ACCOUNT_SUSPENDED until update_account sets status active. ' +
    'Operator only (internal key, scope users).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users',
  annotations: DELETE,
  input: AccountIdInput,
  output: AccountSchema,
  rest: { method: 'DELETE', path: '/accounts/:id', shape: 'data' },
  handler: (input, ctx) => updateAccount(accountDeps(ctx), ctx.principal, { id: input.id, status: 'suspended' }),
});
