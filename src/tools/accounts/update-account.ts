import { AccountSchema, updateAccount, UpdateAccountInput } from '../../accounts/accounts.js';
import { defineTool, OPERATOR_TOOL, WRITE_IDEMPOTENT } from '../define.js';
import { accountDeps } from './common.js';

export const updateAccountTool = defineTool({
  name: 'update_account',
  example: { id: 'acct_01M89NZVSK4RA0343PNJQFCVBH', name: 'Renamed Ltd' },
  title: 'Change or suspend an account',
  description:
    "Changes an account's name or email, or its status: `suspended` refuses every key and session of the account at once (ACCOUNT_SUSPENDED), " +
    '`active` restores them. Nothing is deleted. The operator account cannot be suspended. Operator only (internal key, scope users).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users',
  annotations: WRITE_IDEMPOTENT,
  input: UpdateAccountInput,
  output: AccountSchema,
  rest: { method: 'PATCH', path: '/accounts/:id', shape: 'data' },
  handler: (input, ctx) => updateAccount(accountDeps(ctx), ctx.principal, input),
});
