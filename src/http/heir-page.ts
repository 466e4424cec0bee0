/**
 * The page heirs' mail links to (GET /heir): what the message they received means, and forms to create an account or
 * sign in with the address it was sent to, claim their share with their code, and see the shares they hold. Its HTML
 * is the same for everyone: it reads no session, names no plan and no person, and takes no code (a code typed into a
 * link would end up in logs and browser history), only `about` (which message) and `lang`. The forms are run by the
 * page's own script (GET /heir/heir.js), which calls the JSON API of the same origin from the browser; a strict
 * Content-Security-Policy lets the page load nothing else, run no inline code and post no form anywhere.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { heirPage, pageLocale, type HeirTopic } from '../mail/pages.js';
import { HEIR_GUIDE_PATH } from '../memoir/owner-mail.js';
import type { Services } from '../tools/define.js';

const TOPICS: readonly HeirTopic[] = ['invitation', 'new-code', 'share-opened'];

/** Content-Security-Policy of the heirs' page: its own script and stylesheet, calls to its own origin, nothing else. */
export const HEIR_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageFile {
  body: Buffer;
  etag: string;
  url: string;
  contentType: string;
}

/**
 * A page's script or stylesheet (`folder` beside this module: src/http/heir-client, copied beside it in dist/), read
 * once and served at `base`/`name` with a versioned URL.
 */
export function pageFile(folder: string, base: string, name: string, contentType: string): PageFile {
  const body = readFileSync(path.join(import.meta.dirname, folder, name));
  const hash = createHash('sha256').update(body).digest('base64url');
  return { body, etag: `"${hash}"`, url: `${base}/${name}?v=${hash.slice(0, 16)}`, contentType };
}

/**
 * The headers of the pages mail links open and of their files: the strict policy (`csp`, the heirs' and account
 * pages' by default), no referrer, no sniffing, no framing.
 */
export function securityHeaders(reply: FastifyReply, csp: string = HEIR_PAGE_CSP): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

/**
 * Content-Security-Policy of the one-button pages mail links open (check in, unsubscribe): no script, no loads, the
 * page's own inline style attributes, its form posting only to its own origin, no framing.
 */
export const FORM_PAGE_CSP = [
  "default-src 'none'",
  "style-src-attr 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The headers of those pages and of their answers, errors included: their address holds a token, so nothing keeps
 * them (no cache, no referrer), and no other site frames their button.
 */
export function formPageHeaders(reply: FastifyReply): FastifyReply {
  return securityHeaders(reply, FORM_PAGE_CSP).header('cache-control', 'no-store');
}

export async function registerHeirPage(app: FastifyInstance, _services: Services): Promise<void> {
  const script = pageFile('heir-client', HEIR_GUIDE_PATH, 'heir.js', 'text/javascript; charset=utf-8');
  const style = pageFile('heir-client', HEIR_GUIDE_PATH, 'heir.css', 'text/css; charset=utf-8');
  const hidden = { schema: { hide: true } };

  app.get(HEIR_GUIDE_PATH, hidden, async (req: FastifyRequest, reply) => {
    const query = (req.query ?? {}) as { about?: unknown; lang?: unknown };
    const about = TOPICS.find((t) => t === query.about);
    const accept = req.headers['accept-language'];
    const locale = pageLocale(query.lang, typeof accept === 'string' ? accept : undefined);
    return securityHeaders(reply)
      .type('text/html; charset=utf-8')
      .header('content-language', locale)
      .header('cache-control', 'public, max-age=3600')
      .send(heirPage(locale, about, { script: script.url, style: style.url }));
  });

  servePageFiles(app, [script, style]);
}

/** Serves a page's files: long-cached at their versioned URL, revalidated by ETag. */
export function servePageFiles(app: FastifyInstance, files: readonly PageFile[]): void {
  for (const file of files) {
    app.get(file.url.split('?')[0]!, { schema: { hide: true } }, async (req: FastifyRequest, reply) => {
      securityHeaders(reply)
        .header('etag', file.etag)
        .header(
          'cache-control',
          (req.query as { v?: unknown }).v ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        )
        .header('cross-origin-resource-policy', 'same-origin');
      if (req.headers['if-none-match'] === file.etag) return reply.status(304).send();
      return reply.type(file.contentType).send(file.body);
    });
  }
}
