import { ApiKeySchema, getApiKey } from '../../keys/manage.js';
import { defineTool, READ } from '../define.js';
import { KEY_MANAGER_TIERS, KeyIdInput } from './common.js';

export const getApiKeyTool = defineTool({
  name: 'get_api_key',
  example: { id: 'key_01M89NZVSK4RA0343PNJQFCVBF' },
  title: 'Get an API key',
  description: "Shows one of the account's API keys (never its value). Another account's key id answers NOT_FOUND.",
  domain: 'api-keys',
  scope: null,
  tiers: KEY_MANAGER_TIERS,
  principals: ['key', 'session'],
  bucket: 'default',
  annotations: READ,
  input: KeyIdInput,
  output: ApiKeySchema,
  rest: { method: 'GET', path: '/api-keys/:id', shape: 'data' },
  handler: (input, ctx) => getApiKey(ctx, ctx.principal, input.id),
});
