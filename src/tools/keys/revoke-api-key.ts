import { ApiKeySchema, revokeApiKey } from '../../keys/manage.js';
import { defineTool, DELETE } from '../define.js';
import { KEY_MANAGER_TIERS, KeyIdInput } from './common.js';

export const revokeApiKeyTool = defineTool({
  name: 'revoke_api_key',
  example: { id: 'key_01M89NZVSK4RA0343PNJQFCVBF' },
  title: 'Revoke an API key',
  description:
    'Revokes a key at once: it then answers 401 API_KEY_INVALID. The record is kept, marked revoked. ' +
    'A key may revoke itself (the last step of a rotation).',
  domain: 'api-keys',
  scope: null,
  tiers: KEY_MANAGER_TIERS,
  principals: ['key', 'session'],
  bucket: 'default',
  annotations: DELETE,
  input: KeyIdInput,
  output: ApiKeySchema,
  rest: { method: 'DELETE', path: '/api-keys/:id', shape: 'data' },
  handler: (input, ctx) => revokeApiKey(ctx, ctx.principal, input.id),
});
