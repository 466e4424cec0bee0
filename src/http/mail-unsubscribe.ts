/**
 * The unsubscribe link of non-essential mail: GET shows a page asking to confirm (mail scanners follow links, so a
 * GET never changes anything), POST unsubscribes. Mail clients post the link on their own with
 * `List-Unsubscribe=One-Click` (RFC 8058); the page's button posts the same way.
 *
 * No sign-in: the signed token in the link names the account, the user and the template. A malformed or forged
 * token is a 400 in the envelope and changes nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { accountStore } from '../accounts/tenancy.js';
import { mailSecret, optOut, UNSUBSCRIBE_PATH, verifyUnsubscribe } from '../mail/index.js';
import { LINK_ERROR_TEXTS, page, UNSUBSCRIBE_TEXTS } from '../mail/pages.js';
import { escapeHtml } from '../mail/templates/index.js';
import { USERS } from '../accounts/records.js';
import type { Services } from '../tools/define.js';
import { formPageHeaders } from './heir-page.js';
import { linkError, requestLocale } from './link-errors.js';

/** The one-click body is one short form field; anything larger is not one. */
const BODY_LIMIT = 4 * 1024;

/**
 * The page's language: the profile's of the user the message was sent to (the token names them), else the browser's.
 * A user gone from the account leaves the browser's.
 */
async function localeOf(services: Services, req: FastifyRequest, claim: { ownerId: string; userId: string }) {
  const user = await accountStore(services.store, claim.ownerId).get<{ id: string; locale?: string }>(
    USERS,
    claim.userId,
  );
  return requestLocale(req, user?.locale);
}

export async function registerMailUnsubscribe(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addHook('onRequest', async (_req, reply) => {
      formPageHeaders(reply);
    });
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    const claimOf = async (req: FastifyRequest, reply: FastifyReply) => {
      const token = (req.query as { token?: unknown }).token;
      const claim = typeof token === 'string' ? verifyUnsubscribe(await mailSecret(services.store), token) : null;
      if (claim) return { claim, token: token as string };
      const err = ApiError.validation('this unsubscribe link is not valid', [
        { field: 'token', reason: 'malformed or not signed by this service' },
      ]);
      await linkError(services, req, reply, err, (locale) => ({
        title: LINK_ERROR_TEXTS[locale].title,
        message: LINK_ERROR_TEXTS[locale].unsubscribe.invalid,
      }));
      return undefined;
    };

    scope.get(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (req, reply) => {
      const found = await claimOf(req, reply);
      if (!found) return reply;
      const action = escapeHtml(`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(found.token)}`);
      const locale = await localeOf(services, req, found.claim);
      const t = UNSUBSCRIBE_TEXTS[locale];
      return reply
        .type('text/html; charset=utf-8')
        .header('content-language', locale)
        .send(
          page(
            locale,
            t.askTitle,
            `<p>${escapeHtml(t.ask)}</p><form method="post" action="${action}">` +
              `<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(t.button)}</button></form>`,
          ),
        );
    });

    scope.post(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (req, reply) => {
      const found = await claimOf(req, reply);
      if (!found) return reply;
      const { ownerId, userId, template } = found.claim;
      await accountStore(services.store, ownerId).transact((tx) =>
        optOut(tx, ownerId, userId, template, services.clock),
      );
      services.log.info({ requestId: req.id, template }, 'mail unsubscribe recorded');
      const locale = await localeOf(services, req, found.claim);
      const t = UNSUBSCRIBE_TEXTS[locale];
      return reply
        .type('text/html; charset=utf-8')
        .header('content-language', locale)
        .send(page(locale, t.doneTitle, `<p>${escapeHtml(t.done)}</p>`));
    });
  });
}
