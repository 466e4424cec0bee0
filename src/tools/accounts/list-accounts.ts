import { z } from 'zod';
import { AccountSchema, listAccounts, ListAccountsInput } from '../../accounts/accounts.js';
import { OffsetPageMetaSchema } from '../../core/pagination.js';
import { defineTool, OPERATOR_TOOL, READ } from '../define.js';
import { accountDeps } from './common.js';

export const listAccountsTool = defineTool({
  name: 'list_accounts',
  example: { page: 1, limit: 5 },
  title: 'List accounts',
  description:
    'Lists every account (operator, customers, personal accounts of registered users), oldest first, paged. Operator only (internal key, scope users:read).',
  domain: 'accounts',
  ...OPERATOR_TOOL,
  scope: 'users:read',
  annotations: READ,
  input: ListAccountsInput,
  output: z
    .object({ items: z.array(AccountSchema).describe('Accounts on this page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of accounts.'),
  rest: { method: 'GET', path: '/accounts', shape: 'list' },
  handler: (input, ctx) => listAccounts(accountDeps(ctx), input),
});
