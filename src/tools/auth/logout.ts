import { EmptyInput, LogoutOutput } from '../../accounts/session-schemas.js';
import { defineTool, SESSION_ONLY, WRITE_IDEMPOTENT } from '../define.js';

export const logoutTool = defineTool({
  name: 'logout',
  example: {},
  title: 'Sign out',
  description:
    'Ends the session at once (its cookie is refused from now on, before its expiry) and clears the cookie. Needs the X-CSRF-Token header. REST only.',
  domain: 'auth',
  ...SESSION_ONLY,
  annotations: WRITE_IDEMPOTENT,
  input: EmptyInput,
  output: LogoutOutput,
  rest: { method: 'POST', path: '/auth/logout', shape: 'data', aliases: ['/api/auth/logout'] },
  handler: async (_input, ctx) => {
    await ctx.sessions.logout(ctx.principal);
    ctx.session.clear();
    return { loggedOut: true as const };
  },
});
