import { ChangePasswordInput, SessionOutput } from '../../accounts/session-schemas.js';
import { defineTool, SESSION_ONLY, WRITE } from '../define.js';

export const changePasswordTool = defineTool({
  name: 'change_password',
  example: { currentPassword: 'correct horse battery staple', newPassword: 'an even longer passphrase' },
  title: 'Change the password',
  description:
    "Changes the signed-in user's password after checking the current one. Every session of the user ends at once; this request gets a new session cookie " +
    "and a new CSRF token. The user is mailed a notice of the change saying how many of the account's API keys keep working (a new password does not stop them). A weak new password answers 400 VALIDATION_ERROR saying why; a wrong current password counts as a failed sign-in (429 past the limit). " +
    'Needs the X-CSRF-Token header. REST only.',
  domain: 'auth',
  ...SESSION_ONLY,
  annotations: WRITE,
  input: ChangePasswordInput,
  output: SessionOutput,
  rest: { method: 'POST', path: '/auth/password', shape: 'data', aliases: ['/api/auth/password'] },
  handler: async (input, ctx) => {
    const { output, token, expiresAt } = await ctx.sessions.changePassword(ctx.principal, input, ctx.clientIp);
    ctx.session.set(token, expiresAt);
    return output;
  },
});
