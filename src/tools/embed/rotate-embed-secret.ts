import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { API_KEYS, type ApiKeyRecord } from '../../keys/keys.js';
import { EMBED_TIERS } from '../../embed/auth.js';
import { EMBED_SECRET_WARNING, MAX_GRACE_SECONDS, rotateEmbedSecret } from '../../embed/secrets.js';
import { defineTool, DESTRUCTIVE } from '../define.js';

export const rotateEmbedSecretTool = defineTool({
  name: 'rotate_embed_secret',
  example: { graceSeconds: 0 },
  title: "Create or rotate the key's embed secret",
  description:
    "Makes the calling key's embed secret, or replaces it, and returns it once. It signs every wizard callback made with this key " +
    "(the X-Webhook-Signature header, verified exactly like a webhook's), and a callback cannot be set before it exists. With " +
    'graceSeconds, the previous secret keeps signing for that long, so the receiver can switch without losing a callback.',
  domain: 'embed',
  scope: 'embed',
  tiers: EMBED_TIERS,
  mcp: false,
  bucket: 'default',
  annotations: DESTRUCTIVE,
  input: z
    .strictObject({
      graceSeconds: z
        .number()
        .int()
        .min(0)
        .max(MAX_GRACE_SECONDS)
        .default(0)
        .describe(
          `How long the previous secret keeps signing, seconds (0 to ${MAX_GRACE_SECONDS}, default 0: it stops at once).`,
        ),
    })
    .describe('The rotation.'),
  output: z
    .object({
      embedSecret: z
        .object({
          keyId: z.string().describe('The key whose embed secret this is.'),
          rotated: z.boolean().describe('True when an earlier secret was replaced, false when this is the first.'),
          previousSecretExpiresAt: z
            .string()
            .nullable()
            .describe('Until when the previous secret still signs (ISO 8601), or null.'),
        })
        .describe("About the secret (over REST, the envelope's data)."),
      secret: z
        .string()
        .describe(
          'The new embed secret (whsec_...). Store it now: it is shown only this once (over REST in meta.secret).',
        ),
      warning: z.string().describe('A reminder that the secret is shown only once.'),
    })
    .describe("The key's new embed secret."),
  rest: {
    method: 'POST',
    path: '/embed/secret',
    shape: 'data',
    dataField: 'embedSecret',
    metaFields: ['secret', 'warning'],
  },
  handler: async (input, ctx) => {
    const key = await ctx.store.get<ApiKeyRecord>(API_KEYS, ctx.principal.keyId);
    if (!key) throw new ApiError('API_KEY_INVALID', 'The API key is invalid, revoked or expired.');
    const { secret, record, rotated } = await rotateEmbedSecret(
      ctx.store,
      key,
      input.graceSeconds,
      ctx.clock,
      ctx.keyring,
    );
    return {
      embedSecret: {
        keyId: key.id,
        rotated,
        previousSecretExpiresAt:
          record.previousSecretExpiresAt === null ? null : new Date(record.previousSecretExpiresAt).toISOString(),
      },
      secret,
      warning: EMBED_SECRET_WARNING,
    };
  },
});
