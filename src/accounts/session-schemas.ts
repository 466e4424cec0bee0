/** The inputs and outputs of registration, sign-in, password change and logout (the logic: ./sessions.ts). */
import { z } from 'zod';
import { AccountSchema } from './accounts.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'not a valid email address' }))
  .describe('Email address; compared case-insensitively.');
const passwordField = z
  .string()
  .min(PASSWORD_MIN, { error: `at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `at most ${PASSWORD_MAX} characters` })
  .describe(
    `Password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Never stored or logged: only its argon2id hash is kept.`,
  );

export const RegisterInput = z
  .strictObject({
    email: emailField,
    password: passwordField,
    name: z.string().trim().min(1).max(100).optional().describe('Display name.'),
  })
  .describe('A new user and their personal account.');
export const LoginInput = z
  .strictObject({ email: emailField, password: z.string().min(1).max(PASSWORD_MAX).describe('The password.') })
  .describe('Credentials.');
export const ChangePasswordInput = z
  .strictObject({
    currentPassword: z.string().min(1).max(PASSWORD_MAX).describe('The password in use now.'),
    newPassword: passwordField,
  })
  .describe('A new password. Every session of the user ends; this one is replaced by a new session.');
export const EmptyInput = z.strictObject({}).describe('No input.');

export const UserSchema = z
  .object({
    id: z.string().describe('User id, `usr_<id>`.'),
    email: z.string().describe('Normalised email.'),
    name: z.string().nullable().describe('Display name, or null.'),
    accountId: z.string().describe("The user's personal account."),
    createdAt: z.string().describe('Registration time, ISO 8601.'),
  })
  .describe('A user (never the password or its hash).');

export const SessionOutput = z
  .object({
    user: UserSchema,
    account: AccountSchema,
    csrfToken: z
      .string()
      .describe('Send as the X-CSRF-Token header with every non-GET request made with the session cookie.'),
    expiresAt: z.string().describe('When the session ends unless used (it is renewed by use), ISO 8601.'),
  })
  .describe('The signed-in user, their account and the CSRF token of the session.');
export const LogoutOutput = z
  .object({ loggedOut: z.literal(true).describe('The session is revoked; its cookie is refused from now on.') })
  .describe('Logout.');

export type UserView = z.infer<typeof UserSchema>;
