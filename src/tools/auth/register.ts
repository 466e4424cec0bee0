import { REGISTER_MESSAGE, RegisterInput, RegisterOutput } from '../../accounts/session-schemas.js';
import { defineTool, WRITE } from '../define.js';

export const registerTool = defineTool({
  name: 'register',
  example: { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' },
  title: 'Register a user',
  description:
    'Creates a user (email and password) with a personal account of tier public, and mails a link confirming the address (single use, 24 hours), ' +
    'in the language of `locale` or of the Accept-Language header (en, ar, es, fr). It answers 202 with no session: the user signs in with login next. ' +
    'An address that already has an account gets the same answer and nothing is created; its owner is mailed a password-reset link instead, so the ' +
    'answer never tells whether an address is registered. A password that is easy to guess (common, a pattern, the email) answers 400 VALIDATION_ERROR ' +
    'saying why. Until the address is confirmed the user can sign in but cannot claim shares. REST only.',
  domain: 'auth',
  scope: null,
  auth: 'none',
  mcp: false,
  bucket: 'default',
  annotations: WRITE,
  input: RegisterInput,
  output: RegisterOutput,
  rest: {
    method: 'POST',
    path: '/auth/register',
    shape: 'data',
    status: 202,
    aliases: ['/api/auth/register'],
    fromHeaders: (headers) => {
      const value = headers['accept-language'];
      return typeof value === 'string' ? { acceptLanguage: value.slice(0, 500) } : {};
    },
  },
  handler: async (input, ctx) => {
    await ctx.sessions.register(input, ctx.clientIp);
    return { accepted: true as const, message: REGISTER_MESSAGE };
  },
});
