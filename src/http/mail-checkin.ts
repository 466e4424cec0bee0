/**
 * The check-in link mailed to a plan's owner: GET shows a page asking to confirm (mail scanners follow links, and a
 * scanner must never look like the owner being alive), POST checks in (src/memoir/checkin.ts). No sign-in: the
 * single-use token in the link is the credential. A used, expired or unknown token answers 410 in the envelope and
 * changes nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { CHECK_IN_TEXTS, LINK_ERROR_TEXTS, page } from '../mail/pages.js';
import { escapeHtml } from '../mail/templates/index.js';
import { checkIn, peekCheckIn } from '../memoir/checkin.js';
import { CHECK_IN_PATH } from '../memoir/owner-mail.js';
import type { Services } from '../tools/define.js';
import { formPageHeaders } from './heir-page.js';
import { linkError, requestLocale } from './link-errors.js';

/** The button's body is one short form field at most. */
const BODY_LIMIT = 4 * 1024;
const TOKEN = /^emt_[A-Za-z0-9_-]{43}$/;

export async function registerMailCheckIn(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addHook('onRequest', async (_req, reply) => {
      formPageHeaders(reply);
    });
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    const fail = async (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
      if (!(err instanceof ApiError)) throw err;
      return linkError(services, req, reply, err, (locale) => {
        const t = LINK_ERROR_TEXTS[locale];
        return { title: t.title, message: err.status === 410 ? t.checkIn.gone : t.checkIn.invalid };
      });
    };
    const tokenOf = (req: FastifyRequest): string => {
      const token = (req.query as { token?: unknown }).token;
      if (typeof token === 'string' && TOKEN.test(token)) return token;
      throw ApiError.validation('this check-in link is not valid', [{ field: 'token', reason: 'malformed' }]);
    };

    scope.get(CHECK_IN_PATH, { schema: { hide: true } }, async (req, reply) => {
      try {
        const token = tokenOf(req);
        const { planLabel, locale: profile } = await peekCheckIn(services.store, token, services.clock);
        const locale = requestLocale(req, profile);
        const t = CHECK_IN_TEXTS[locale];
        const action = escapeHtml(`${CHECK_IN_PATH}?token=${encodeURIComponent(token)}`);
        return reply
          .type('text/html; charset=utf-8')
          .header('content-language', locale)
          .send(
            page(
              locale,
              t.askTitle,
              `<p>${t.ask(escapeHtml(planLabel))}</p>` +
                `<form method="post" action="${action}"><button type="submit">${escapeHtml(t.button)}</button></form>`,
            ),
          );
      } catch (err) {
        return fail(req, reply, err);
      }
    });

    scope.post(CHECK_IN_PATH, { schema: { hide: true } }, async (req, reply) => {
      try {
        const done = await checkIn(services.store, tokenOf(req), services.clock, services.log);
        services.log.info({ requestId: req.id }, 'check-in by mailed link recorded');
        const locale = requestLocale(req, done.locale);
        const t = CHECK_IN_TEXTS[locale];
        // A plan watched on chain keeps the contract's deadline: saying "checked in" would make the owner miss it.
        const body =
          done.state === 'triggered'
            ? escapeHtml(t.late)
            : done.watched
              ? t.watched(escapeHtml(done.planLabel))
              : t.done(escapeHtml(done.planLabel));
        return reply
          .type('text/html; charset=utf-8')
          .header('content-language', locale)
          .send(page(locale, t.doneTitle, `<p>${body}</p>`));
      } catch (err) {
        return fail(req, reply, err);
      }
    });
  });
}
