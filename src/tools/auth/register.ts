import { RegisterInput, SessionOutput } from '../../accounts/session-schemas.js';
import { defineTool, WRITE } from '../define.js';

export const registerTool = defineTool({
  name: 'register',
  example: { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' },
  title: 'Register a user',
  description:
    'Creates a user (email and password) with a personal account of tier public, and signs them in: the session is an HttpOnly cookie (svc_session), ' +
    'and `csrfToken` must be sent as X-CSRF-Token with every non-GET request made with it. A password that is easy to guess (common, a pattern, the email) ' +
    'answers 400 VALIDATION_ERROR saying why. A registered email answers 409 CONFLICT. REST only.',
  domain: 'auth',
  scope: null,
  auth: 'none',
  mcp: false,
  bucket: 'default',
  annotations: WRITE,
  input: RegisterInput,
  output: SessionOutput,
  rest: {
    method: 'POST',
    path: '/auth/register',
    shape: 'data',
    status: 201,
    extraStatuses: [409],
    aliases: ['/api/auth/register'],
  },
  handler: async (input, ctx) => {
    const { output, token, expiresAt } = await ctx.sessions.register(input);
    ctx.session.set(token, expiresAt);
    return output;
  },
});
