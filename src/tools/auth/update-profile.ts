/**
 * The signed-in user's own settings: display name, the language of the mail they get, and which optional mail they
 * do not want. Essential mail (confirming an address, a password reset, security notices, a verification of a
 * reported death) cannot be turned off.
 */
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { USERS, userView, type UserRecord } from '../../accounts/sessions.js';
import { displayName, UserSchema } from '../../accounts/session-schemas.js';
import { recordEvent } from '../../events/events.js';
import { MAIL_LOCALES, mailLocaleList } from '../../events/mail.js';
import { OPTIONAL_TEMPLATES, optOutsOf, setOptOuts } from '../../mail/index.js';
import { defineTool, SESSION_ONLY, WRITE_IDEMPOTENT } from '../define.js';

const OptOut = z
  .enum([...OPTIONAL_TEMPLATES, 'all'])
  .describe('checkin-reminder: reminders before a check-in deadline; all: every optional message.');

const ProfileOutput = z
  .object({
    user: UserSchema,
    mailOptOut: z.array(OptOut).describe('The optional messages the user does not receive.'),
  })
  .describe("The user's settings after the change.");

export const updateProfileTool = defineTool({
  ...SESSION_ONLY,
  domain: 'auth',
  name: 'update_profile',
  example: { locale: 'es', mailOptOut: ['checkin-reminder'] },
  title: 'Change your settings',
  description:
    "Changes the signed-in user's display name, the language of the mail they receive (en, ar, es, fr) and the optional mail they do not want " +
    '(`mailOptOut` replaces the list; [] turns everything back on). Mail needed to use or protect the account is always sent. ' +
    'A changed name or language is a user.updated event. Fields left out stay as they are. Needs the X-CSRF-Token header. REST only.',
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      name: displayName.nullable().optional().describe('Display name; null removes it.'),
      locale: z.enum(MAIL_LOCALES).optional().describe(`Language of the mail sent to you: ${mailLocaleList()}.`),
      mailOptOut: z.array(OptOut).max(4).optional().describe('Optional messages you do not want (replaces the list).'),
    })
    .describe('What to change.'),
  output: ProfileOutput,
  rest: { method: 'PATCH', path: '/auth/me', shape: 'data', aliases: ['/api/auth/me'] },
  handler: async (input, ctx) => {
    const userId = ctx.principal.userId ?? '';
    return ctx.store.transact(async (tx) => {
      const user = await tx.get<UserRecord>(USERS, userId);
      if (!user) throw new ApiError('UNAUTHORIZED', 'The session has ended; sign in again.');
      const changed: string[] = [];
      let next: UserRecord = user;
      if (input.name !== undefined && input.name !== user.name) {
        next = { ...next, name: input.name };
        changed.push('name');
      }
      if (input.locale !== undefined && input.locale !== (user.locale ?? 'en')) {
        next = { ...next, locale: input.locale };
        changed.push('locale');
      }
      if (changed.length) {
        next = { ...next, updatedAt: ctx.clock.now().toISOString() };
        await tx.put(USERS, next);
        await recordEvent(
          tx,
          { type: 'user.updated', ownerId: user.ownerId, data: { id: user.id, changed } },
          ctx.clock,
        );
      }
      const mailOptOut =
        input.mailOptOut === undefined
          ? await optOutsOf(tx, user.id)
          : await setOptOuts(tx, user.ownerId, user.id, input.mailOptOut, ctx.clock);
      return {
        user: userView(next),
        mailOptOut: mailOptOut.filter((t): t is z.infer<typeof OptOut> => OptOut.safeParse(t).success),
      };
    });
  },
});
