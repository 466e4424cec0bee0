/** The inputs and outputs of registration, sign-in, password change and logout (the logic: ./sessions.ts). */
import { z } from 'zod';
import { MAIL_LOCALES, mailLocaleList } from '../events/mail.js';
import { AccountSchema, nameField } from './accounts.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'not a valid email address' }))
  .describe('Email address; compared case-insensitively.');
const localeField = z.enum(MAIL_LOCALES).describe(`A mail language: ${mailLocaleList()}.`);
/**
 * A person's display name: one line, without control characters or bidirectional controls (it goes into the To
 * header and the subject of mail, to the user and to their heirs; src/core/names.ts).
 */
export const displayName = nameField().describe(
  'Display name: one line, without control characters or bidirectional controls.',
);
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
    name: displayName.optional().describe('Display name (it goes into the greeting of the mail sent to the user).'),
    locale: localeField.optional().describe('Language of the mail sent to the user; default: from Accept-Language.'),
    acceptLanguage: z
      .string()
      .max(500)
      .optional()
      .describe(
        "Over REST, set from the request's Accept-Language header; chooses the mail language when `locale` is not given.",
      ),
  })
  .describe('A new user and their personal account.');
export const RegisterOutput = z
  .object({
    accepted: z.literal(true).describe('The request was taken; what happens next arrives by mail.'),
    message: z.string().describe('What to do next: open the link mailed to the address, then sign in.'),
  })
  .describe('The same answer whether or not the address already had an account: only its owner is told, by mail.');
export const REGISTER_MESSAGE =
  'Check your email: a link to confirm the address has been sent to it. Then sign in with your email and password.';
export const TokenInput = z
  .strictObject({
    token: z.string().min(1).max(200).describe('The token of the mailed link (its `token` query parameter).'),
  })
  .describe('A single-use token from a mailed link.');
export const ForgotPasswordInput = z
  .strictObject({ email: emailField })
  .describe('The address of the account whose password was forgotten.');
export const ResetPasswordInput = z
  .strictObject({
    token: z.string().min(1).max(200).describe('The token of the mailed reset link (its `token` query parameter).'),
    newPassword: passwordField,
  })
  .describe('A new password set with a mailed reset link.');
export const ChangeEmailInput = z
  .strictObject({
    newEmail: emailField,
    currentPassword: z.string().min(1).max(PASSWORD_MAX).describe('The password in use now.'),
  })
  .describe('A new address for the signed-in user; it takes effect once confirmed from that address.');
export const AcceptedOutput = z
  .object({
    accepted: z.literal(true).describe('The request was taken.'),
    message: z.string().describe('What happens next.'),
  })
  .describe('A request whose outcome arrives by mail; the answer is the same whatever the address.');
export const DoneOutput = z
  .object({
    done: z.literal(true).describe('The link did what it was for.'),
    message: z.string().describe('What changed.'),
  })
  .describe('A mailed link, used.');
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
    emailVerified: z
      .boolean()
      .describe('Whether the address is confirmed; until it is, the user cannot claim shares or get reminders.'),
    locale: localeField,
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
