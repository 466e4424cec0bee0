/**
 * The routes of the mailed links: confirming an address, asking for and using a password reset, changing the
 * address. The logic is in src/accounts/email-flows.ts; the tokens in src/accounts/email-tokens.ts.
 */
import {
  AcceptedOutput,
  ChangeEmailInput,
  DoneOutput,
  ForgotPasswordInput,
  ResetPasswordInput,
  TokenInput,
} from '../../accounts/session-schemas.js';
import { defineTool, SESSION_ONLY, WRITE, WRITE_IDEMPOTENT } from '../define.js';

const PUBLIC_ROUTE = { domain: 'auth', scope: null, auth: 'none', mcp: false, bucket: 'default' } as const;
const LINK_REFUSALS = ' A used, expired or unknown link answers 410 GONE. REST only.';

export const verifyEmailTool = defineTool({
  ...PUBLIC_ROUTE,
  name: 'verify_email',
  example: { token: 'emt_' + 'A'.repeat(43) },
  title: 'Confirm an address',
  description:
    'Called with the token of the link mailed at registration (the link opens the page /account/verify, whose button calls this): marks the address ' +
    'confirmed (a user.updated event, changed: emailVerified).' +
    LINK_REFUSALS,
  annotations: WRITE_IDEMPOTENT,
  input: TokenInput,
  output: DoneOutput,
  rest: {
    method: 'GET',
    path: '/auth/email/verify',
    shape: 'data',
    extraStatuses: [410],
    aliases: ['/api/auth/email/verify'],
  },
  handler: async (input, ctx) => {
    await ctx.sessions.email.verify(input.token);
    return { done: true as const, message: 'The address is confirmed.' };
  },
});

export const forgotPasswordTool = defineTool({
  ...PUBLIC_ROUTE,
  name: 'forgot_password',
  example: { email: 'ada@example.com' },
  title: 'Ask for a password reset',
  description:
    'Mails a password-reset link (single use, 30 minutes) when the address has an account. Always answers 202 with the same body, so it never tells ' +
    'whether an address is registered. Requests are limited per 15 minutes (5 for one email from one address, 30 per address, 10 for one email from all addresses): 429 past a limit. REST only.',
  annotations: WRITE,
  input: ForgotPasswordInput,
  output: AcceptedOutput,
  rest: {
    method: 'POST',
    path: '/auth/password/forgot',
    shape: 'data',
    status: 202,
    aliases: ['/api/auth/password/forgot'],
  },
  handler: async (input, ctx) => {
    await ctx.sessions.email.forgot(input.email, ctx.clientIp);
    return { accepted: true as const, message: 'If the address has an account, a reset link has been mailed to it.' };
  },
});

export const resetPasswordTool = defineTool({
  ...PUBLIC_ROUTE,
  name: 'reset_password',
  example: { token: 'emt_' + 'A'.repeat(43), newPassword: 'an even longer passphrase' },
  title: 'Reset the password',
  description:
    'Sets a new password with the token of a mailed reset link (the link opens the page /account/reset, whose form posts here). The new password passes the same strength check as at registration (400 saying why; ' +
    'the link still works then). Every session of the user ends, and the API keys its sessions made are revoked (api_key.revoked, reason password-reset): whoever held the old password keeps nothing; sign in again (a user.updated event, changed: password). ' +
    "The user is mailed a notice of the change saying how many of the account's other API keys keep working (a new password does not stop them)." +
    LINK_REFUSALS,
  annotations: WRITE,
  input: ResetPasswordInput,
  output: DoneOutput,
  rest: {
    method: 'POST',
    path: '/auth/password/reset',
    shape: 'data',
    extraStatuses: [410],
    aliases: ['/api/auth/password/reset'],
  },
  handler: async (input, ctx) => {
    await ctx.sessions.email.reset(input.token, input.newPassword);
    return { done: true as const, message: 'The password is changed and every session has ended: sign in again.' };
  },
});

export const changeEmailTool = defineTool({
  ...SESSION_ONLY,
  domain: 'auth',
  name: 'change_email',
  example: { newEmail: 'ada.new@example.com', currentPassword: 'correct horse battery staple' },
  title: 'Change the address',
  description:
    'Asks to move the signed-in user to a new address: after the current password is checked (a wrong one counts as a failed sign-in), a link is mailed to the ' +
    'new address (single use, 24 hours); the change happens when it is opened, and the old address is told. An address that belongs to another user gets ' +
    'the same 202 answer and nothing is sent. Requests are limited per 15 minutes (5 per user, 5 per new address, taken or not): 429 past a limit. ' +
    'Needs the X-CSRF-Token header. REST only.',
  annotations: WRITE,
  input: ChangeEmailInput,
  output: AcceptedOutput,
  rest: { method: 'POST', path: '/auth/email/change', shape: 'data', status: 202, aliases: ['/api/auth/email/change'] },
  handler: async (input, ctx) => {
    await ctx.sessions.email.requestChange(
      ctx.principal.userId ?? '',
      input.newEmail,
      input.currentPassword,
      ctx.clientIp,
    );
    return { accepted: true as const, message: 'A link to confirm the change has been mailed to the new address.' };
  },
});

export const confirmEmailTool = defineTool({
  ...PUBLIC_ROUTE,
  name: 'confirm_email_change',
  example: { token: 'emt_' + 'A'.repeat(43) },
  title: 'Confirm an address change',
  description:
    'Called with the token of the link mailed to the new address (the link opens the page /account/confirm, whose button calls this): the user now signs in with it, and a notice goes to the old address (a user.updated event, ' +
    'changed: email). 409 CONFLICT when the address was taken since.' +
    LINK_REFUSALS,
  annotations: WRITE_IDEMPOTENT,
  input: TokenInput,
  output: DoneOutput,
  rest: {
    method: 'GET',
    path: '/auth/email/confirm',
    shape: 'data',
    extraStatuses: [409, 410],
    aliases: ['/api/auth/email/confirm'],
  },
  handler: async (input, ctx) => {
    await ctx.sessions.email.confirmChange(input.token);
    return { done: true as const, message: 'The address is changed.' };
  },
});
