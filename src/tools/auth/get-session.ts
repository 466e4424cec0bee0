import { EmptyInput, SessionOutput } from '../../accounts/session-schemas.js';
import { defineTool, READ, SESSION_ONLY } from '../define.js';

export const getSessionTool = defineTool({
  name: 'get_session',
  example: {},
  title: 'Show the session',
  description:
    "The signed-in user, their account, the session's expiry and its CSRF token; 401 UNAUTHORIZED without a valid session. REST only.",
  domain: 'auth',
  ...SESSION_ONLY,
  annotations: READ,
  input: EmptyInput,
  output: SessionOutput,
  rest: { method: 'GET', path: '/auth/session', shape: 'data', aliases: ['/api/auth/session'] },
  handler: (_input, ctx) => ctx.sessions.describe(ctx.principal),
});
