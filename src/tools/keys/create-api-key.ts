import { z } from 'zod';
import { ApiKeySchema, createApiKey, CreateApiKeyInput } from '../../keys/manage.js';
import { defineTool, WRITE } from '../define.js';
import { KEY_MANAGER_TIERS } from './common.js';

export const createApiKeyTool = defineTool({
  name: 'create_api_key',
  example: { name: 'reporting', scopes: ['contracts:read'], tier: 'public' },
  title: 'Create an API key',
  description:
    'Creates an API key for the same account. The key value is returned once, in `key`; only its hash is stored. ' +
    'The new key can have at most the scopes and tier of the calling key (partner keys create partner or public keys). ' +
    'A user session must have confirmed its address first (403 EMAIL_NOT_VERIFIED). ' +
    'To rotate a key: create the new one, switch clients to it, then revoke the old one.',
  domain: 'api-keys',
  scope: null,
  tiers: KEY_MANAGER_TIERS,
  principals: ['key', 'session'],
  bucket: 'default',
  annotations: WRITE,
  input: CreateApiKeyInput,
  output: ApiKeySchema.extend({
    key: z.string().describe('The key value. Shown only this once: store it now.'),
  }).describe('The new key.'),
  rest: { method: 'POST', path: '/api-keys', shape: 'data', status: 201 },
  // A squatter's session (an address registered without reading its mail) must not make a key that outlives the owner
  // of the address taking the account back with a reset link, which ends its sessions.
  confirmedAddress:
    'Confirm your email address first (open the link mailed to it at registration), then create API keys.',
  handler: (input, ctx) => createApiKey(ctx, ctx.principal, input),
});
