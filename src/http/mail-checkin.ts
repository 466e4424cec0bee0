/**
 * The check-in link mailed to a plan's owner: GET shows a page asking to confirm (mail scanners follow links, and a
 * scanner must never look like the owner being alive), POST checks in (src/memoir/checkin.ts). No sign-in: the
 * single-use token in the link is the credential. A used, expired or unknown token answers 410 in the envelope and
 * changes nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { escapeHtml } from '../mail/templates/index.js';
import { checkIn, peekCheckIn } from '../memoir/checkin.js';
import { CHECK_IN_PATH } from '../memoir/owner-mail.js';
import type { Services } from '../tools/define.js';

/** The button's body is one short form field at most. */
const BODY_LIMIT = 4 * 1024;
const TOKEN = /^emt_[A-Za-z0-9_-]{43}$/;

const page = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;max-width:40em"><h1>${title}</h1>${body}</body></html>\n`;

export async function registerMailCheckIn(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    const fail = async (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
      if (!(err instanceof ApiError)) throw err;
      return reply
        .status(err.status)
        .type('application/json; charset=utf-8')
        .send(errorEnvelope(err.toBody(), makeMeta(String(req.id), services.clock.now())));
    };
    const tokenOf = (req: FastifyRequest): string => {
      const token = (req.query as { token?: unknown }).token;
      if (typeof token === 'string' && TOKEN.test(token)) return token;
      throw ApiError.validation('this check-in link is not valid', [{ field: 'token', reason: 'malformed' }]);
    };

    scope.get(CHECK_IN_PATH, { schema: { hide: true } }, async (req, reply) => {
      try {
        const token = tokenOf(req);
        const { planLabel } = await peekCheckIn(services.store, token, services.clock);
        const action = escapeHtml(`${CHECK_IN_PATH}?token=${encodeURIComponent(token)}`);
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Are you well?',
              `<p>Confirm that you are well to check in for your plan “${escapeHtml(planLabel)}”. ` +
                'A report of your death that is waiting to be confirmed is cancelled, and your next deadline starts from now.</p>' +
                `<form method="post" action="${action}"><button type="submit">I am well: check in</button></form>`,
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
        const body =
          done.state === 'triggered'
            ? '<p>The waiting period had already ended and the shares are open. Sign in to withdraw them if this is a mistake.</p>'
            : `<p>Thank you. Your check-in for “${escapeHtml(done.planLabel)}” is recorded.</p>`;
        return reply.type('text/html; charset=utf-8').send(page('Checked in', body));
      } catch (err) {
        return fail(req, reply, err);
      }
    });
  });
}
