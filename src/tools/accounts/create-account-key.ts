import { createAccountKey, CreateAccountKeyInput, CreatedKeyOutput } from '../../keys/provision.js';
import { defineTool, OPERATOR_TOOL, WRITE } from '../define.js';
import { accountDeps } from './common.js';

export const createAccountKeyTool = defineTool({
  name: 'create_account_key',
  example: { id: 'acct_01M89NZVSK4RA0343PNJQFCVBH', name: 'replacement', scopes: ['contracts'] },
  title: 'Create a key inside an account',
  description:
    "Creates an API key inside another account (for example a replacement key for a customer), at most of the account's tier and with scopes the calling key holds. " +
    'The value is returned once, in `key`. Operator only (internal key, scope users).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users',
  annotations: WRITE,
  input: CreateAccountKeyInput,
  output: CreatedKeyOutput,
  rest: { method: 'POST', path: '/accounts/:id/keys', shape: 'data', status: 201 },
  handler: (input, ctx) => createAccountKey(accountDeps(ctx), ctx.principal, input),
});
