import { LoginInput, SessionOutput } from '../../accounts/session-schemas.js';
import { defineTool, WRITE } from '../define.js';

export const loginTool = defineTool({
  name: 'login',
  example: { email: 'ada@example.com', password: 'correct horse battery staple' },
  title: 'Sign in',
  description:
    'Signs a user in with email and password: sets the session cookie (svc_session, or __Host-svc_session when the public URL is HTTPS; HttpOnly, SameSite=Lax) and returns the CSRF token. ' +
    'A wrong email or password answers 401 UNAUTHORIZED with the same message either way. Failed attempts are limited per 15 minutes (10 for one email ' +
    'from one address, 100 for one email from all addresses, 30 for one address): past a limit the password is not checked and the answer is 429. REST only.',
  domain: 'auth',
  scope: null,
  auth: 'none',
  mcp: false,
  bucket: 'default',
  annotations: WRITE,
  input: LoginInput,
  output: SessionOutput,
  rest: { method: 'POST', path: '/auth/login', shape: 'data', aliases: ['/api/auth/login'] },
  handler: async (input, ctx) => {
    const { output, token, expiresAt } = await ctx.sessions.login(input, ctx.clientIp);
    ctx.session.set(token, expiresAt);
    return output;
  },
});
