/**
 * The page heirs' mail links to (GET /heir): what the message they received means, and how to sign up or sign in
 * with the address it was sent to, confirm it, and claim their share with their code. It is the same for everyone:
 * it reads no session, names no plan and no person, and takes no code (a code typed into a link would end up in
 * logs and browser history), only `about` (which message) and `lang`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { heirPage, pageLocale, type HeirTopic } from '../mail/pages.js';
import { HEIR_GUIDE_PATH } from '../memoir/owner-mail.js';
import type { Services } from '../tools/define.js';

const TOPICS: readonly HeirTopic[] = ['invitation', 'new-code', 'share-opened'];

export async function registerHeirPage(app: FastifyInstance, _services: Services): Promise<void> {
  app.get(HEIR_GUIDE_PATH, { schema: { hide: true } }, async (req: FastifyRequest, reply) => {
    const query = (req.query ?? {}) as { about?: unknown; lang?: unknown };
    const about = TOPICS.find((t) => t === query.about);
    const accept = req.headers['accept-language'];
    const locale = pageLocale(query.lang, typeof accept === 'string' ? accept : undefined);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-language', locale)
      .header('cache-control', 'public, max-age=3600')
      .header('referrer-policy', 'no-referrer')
      .send(heirPage(locale, about));
  });
}
