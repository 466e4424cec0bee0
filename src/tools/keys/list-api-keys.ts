import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { ApiKeySchema, listApiKeys } from '../../keys/manage.js';
import { defineTool, READ } from '../define.js';
import { KEY_MANAGER_TIERS } from './common.js';

export const listApiKeysTool = defineTool({
  name: 'list_api_keys',
  example: { page: 1, limit: 20 },
  title: 'List API keys',
  description: "Lists the account's API keys, oldest first, including revoked ones (never their values).",
  domain: 'api-keys',
  scope: null,
  tiers: KEY_MANAGER_TIERS,
  principals: ['key', 'session'],
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(ApiKeySchema).describe('Keys on this page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of keys.'),
  rest: { method: 'GET', path: '/api-keys', shape: 'list' },
  handler: async (input, ctx) => paginateOffset(await listApiKeys(ctx, ctx.principal), input.page, input.limit),
});
