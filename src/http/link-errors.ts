/**
 * The answer of a mailed link that cannot be used (check in, unsubscribe): a browser, which asks for HTML, is shown a
 * page saying so in its language; any other client gets the error envelope, with the same status either way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import type { ApiError } from '../core/errors.js';
import { page, pageLocale } from '../mail/pages.js';
import { escapeHtml } from '../mail/templates/index.js';
import type { Services } from '../tools/define.js';

/** A page's language: `preferred` (a user's profile) when it is one of the pages', else the browser's. */
export function requestLocale(req: FastifyRequest, preferred?: unknown): ReturnType<typeof pageLocale> {
  const accept = req.headers['accept-language'];
  return pageLocale(preferred, typeof accept === 'string' ? accept : undefined);
}

/** Whether the client asks for a page: a browser following a link sends `text/html` first in Accept. */
function wantsPage(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html\b/i.test(accept);
}

export function linkError(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  err: ApiError,
  words: (locale: ReturnType<typeof pageLocale>) => { title: string; message: string },
): FastifyReply {
  reply.status(err.status);
  if (!wantsPage(req)) {
    return reply
      .type('application/json; charset=utf-8')
      .send(errorEnvelope(err.toBody(), makeMeta(String(req.id), services.clock.now())));
  }
  const locale = requestLocale(req);
  const { title, message } = words(locale);
  return reply
    .type('text/html; charset=utf-8')
    .header('content-language', locale)
    .send(page(locale, title, `<p>${escapeHtml(message)}</p>`));
}
