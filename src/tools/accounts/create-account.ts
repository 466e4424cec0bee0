import { createAccount, CreateAccountInput, CreateAccountOutput } from '../../keys/provision.js';
import { defineTool, OPERATOR_TOOL, WRITE } from '../define.js';
import { accountDeps } from './common.js';

export const createAccountTool = defineTool({
  name: 'create_account',
  example: { name: 'Acme Estates', tier: 'partner', email: 'ops@acme.example' },
  title: 'Create a customer account',
  description:
    'Creates a separate account for a customer or partner (tier partner or public) and its first API key. The key value is returned once, in `key`. ' +
    'Nothing one account does reaches another: its keys, webhooks and events are its own. Operator only (internal key, scope users).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users',
  annotations: WRITE,
  input: CreateAccountInput,
  output: CreateAccountOutput,
  rest: { method: 'POST', path: '/accounts', shape: 'data', status: 201 },
  handler: (input, ctx) => createAccount(accountDeps(ctx), ctx.principal, input),
});
