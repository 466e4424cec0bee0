import { creditHistory, ListCreditHistoryInput, ListCreditHistoryOutput } from '../../credits/ledger.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';
import { creditRoute } from './common.js';

export const listCreditHistoryTool = defineTool({
  name: 'list_credit_history',
  example: { limit: 20 },
  title: 'Read the credit ledger',
  description:
    "The account's ledger, newest first, cursor-paged (continue with nextCursor until hasMore is false): purchases, grants, debits, " +
    'refunds of failed actions and reversals of refunded payments, each with its reference and the balance after it. Session; REST only.',
  domain: 'credits',
  ...SESSION_ONLY,
  annotations: READ,
  input: ListCreditHistoryInput,
  output: ListCreditHistoryOutput,
  rest: creditRoute('GET', 'history', { shape: 'list' }),
  handler: (input, ctx) => creditHistory(ctx.store, ctx.cursors, ctx.principal.ownerId, input),
});
