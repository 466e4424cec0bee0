import { revokeSessionsOutside } from '../../embed/store.js';
import { ApiKeySchema, updateApiKey, UpdateApiKeyInput } from '../../keys/manage.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';
import { KEY_MANAGER_TIERS } from './common.js';

export const updateApiKeyTool = defineTool({
  name: 'update_api_key',
  example: { id: 'key_01M89NZVSK4RA0343PNJQFCVBF', name: 'renamed', ipWhitelist: ['203.0.113.7', '2001:db8::/32'] },
  title: 'Update an API key',
  description:
    "Changes a key's name, scopes, IP whitelist, allowed origins, expiry or own rate limits (rateLimit, below the account's " +
    'shared budget; null removes them). Scopes can only be set to ones the calling key holds, ' +
    'and a key cannot change a key with more rights than itself. A revoked or expired key cannot be changed (400): create a new one.',
  domain: 'api-keys',
  scope: null,
  tiers: KEY_MANAGER_TIERS,
  principals: ['key', 'session'],
  bucket: 'default',
  annotations: WRITE_IDEMPOTENT,
  input: UpdateApiKeyInput,
  output: ApiKeySchema,
  rest: { method: 'PATCH', path: '/api-keys/:id', shape: 'data' },
  // Embed tokens a removed origin could use die with the change.
  handler: (input, ctx) => updateApiKey(ctx, ctx.principal, input, revokeSessionsOutside),
});
