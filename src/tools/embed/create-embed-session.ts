import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { API_KEYS, type ApiKeyRecord } from '../../keys/keys.js';
import { EMBED_TIERS } from '../../embed/auth.js';
import { checkCallback, requireEmbedSecret } from '../../embed/callback.js';
import { parseOrigin } from '../../keys/origins.js';
import { createEmbedSession } from '../../embed/store.js';
import { defineTool, WRITE } from '../define.js';

export const EMBED_TOKEN_TTL_DEFAULT = 900;
export const EMBED_TOKEN_TTL_MAX = 3600;

export const createEmbedSessionTool = defineTool({
  name: 'create_embed_session',
  example: { origin: 'https://partner.example', ttlSeconds: 900 },
  title: 'Create an embed token for the contract wizard',
  description:
    "Called by the embedding site's server with its partner or internal key (scope embed): returns a short-lived token bound to one of " +
    "the key's allowedOrigins, to hand to the browser (`new SvcWizard({ token })`). The token opens the wizard framed by that origin only " +
    "and is accepted only by the wizard's own calls (templates, jurisdictions, validation, law checks and shares, gas, generation, and registering " +
    'the deployment of the contract its session generated), counted against ' +
    "the key's limits. Prefer it to putting the key in the page: a key in a URL leaks through history, Referer and logs.",
  domain: 'embed',
  scope: 'embed',
  tiers: EMBED_TIERS,
  mcp: false,
  bucket: 'default',
  annotations: WRITE,
  input: z
    .strictObject({
      origin: z
        .string()
        .min(1)
        .max(200)
        .describe("The embedding page's origin (scheme://host[:port]); must be one of the key's allowedOrigins."),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(EMBED_TOKEN_TTL_MAX)
        .default(EMBED_TOKEN_TTL_DEFAULT)
        .describe(
          `How long the token is valid, seconds (60 to ${EMBED_TOKEN_TTL_MAX}, default ${EMBED_TOKEN_TTL_DEFAULT}).`,
        ),
      callback: z
        .string()
        .max(2048)
        .optional()
        .describe(
          "HTTPS URL on one of the allowed origins to which the generated contract is POSTed (event embed.wizard.completed), signed with the key's embed secret (make it first with POST /embed/secret).",
        ),
    })
    .describe('The embed token to make.'),
  output: z
    .object({
      token: z.string().describe('The embed token (svc_et_...). Give it to the browser; it is shown only this once.'),
      origin: z.string().describe('The origin the token is bound to (normalized).'),
      expiresAt: z.string().describe('When the token stops working, ISO 8601.'),
      wizardPath: z.string().describe('Path of the wizard page for this token (the SDK builds it for you).'),
    })
    .describe('A new embed token.'),
  rest: { method: 'POST', path: '/embed/sessions', shape: 'data', status: 201 },
  handler: async (input, ctx) => {
    const key = await ctx.store.get<ApiKeyRecord>(API_KEYS, ctx.principal.keyId);
    if (!key) throw new ApiError('API_KEY_INVALID', 'The API key is invalid, revoked or expired.');
    const allowed = key.allowedOrigins ?? [];
    if (allowed.length === 0) {
      throw ApiError.validation('This key has no allowed origins, so no page may embed the wizard with it.', [
        {
          field: 'origin',
          reason:
            'set the key\'s allowedOrigins first (PATCH /api/v1/api-keys/:id {"allowedOrigins": ["https://your.site"]})',
        },
      ]);
    }
    const parsed = parseOrigin(input.origin);
    if ('reason' in parsed)
      throw ApiError.validation('The origin is not valid.', [{ field: 'origin', reason: parsed.reason }]);
    if (!allowed.includes(parsed.origin)) {
      throw ApiError.validation("The origin is not one of the key's allowed origins.", [
        { field: 'origin', reason: `must be one of: ${allowed.join(', ')}` },
      ]);
    }
    const callback =
      input.callback === undefined
        ? null
        : await checkCallback(input.callback, allowed, { allow: ctx.config.webhookAllow });
    if (callback !== null) await requireEmbedSecret(ctx.store, key.id);
    const { token, record } = await createEmbedSession(
      ctx.store,
      { ownerId: key.ownerId, keyId: key.id, origin: parsed.origin, callback, ttlSeconds: input.ttlSeconds },
      ctx.clock,
    );
    return {
      token,
      origin: parsed.origin,
      expiresAt: record.expiresAt,
      wizardPath: `/api/v1/embed/wizard?token=${encodeURIComponent(token)}`,
    };
  },
});
