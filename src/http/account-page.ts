/**
 * The pages the account mails link to (src/accounts/email-flows.ts, LINK_PATHS): confirm an address (GET
 * /account/verify), choose a new password (GET /account/reset) and confirm an address change (GET /account/confirm).
 * Each says what the link is for and shows a button (for a new password, a form) run by the pages' own script (GET
 * /account/account.js), which reads the link's token from the page's address and calls the JSON API of the same
 * origin. Opening a page changes nothing (mail scanners fetch links on their own), its HTML is the same for everyone
 * and holds no token, and it is served under the heirs' page's strict policy.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LINK_PATHS } from '../accounts/email-flows.js';
import { HEIR_GUIDE_PATH } from '../memoir/owner-mail.js';
import { ACCOUNT_PAGE_KINDS, accountPage, pageLocale } from '../mail/pages.js';
import type { Services } from '../tools/define.js';
import { HEIR_PAGE_CSP, pageFile, securityHeaders, servePageFiles } from './heir-page.js';

/** Where the account pages' script and stylesheet are served. */
export const ACCOUNT_PAGES_BASE = '/account';

/** The account pages' policy: the heirs' page's, their own script and stylesheet and calls to their origin only. */
export const ACCOUNT_PAGE_CSP = HEIR_PAGE_CSP;

export async function registerAccountPages(app: FastifyInstance, _services: Services): Promise<void> {
  const script = pageFile('account-client', ACCOUNT_PAGES_BASE, 'account.js', 'text/javascript; charset=utf-8');
  // The heirs' page's stylesheet (served with that page): the same plain look, one file.
  const style = pageFile('heir-client', HEIR_GUIDE_PATH, 'heir.css', 'text/css; charset=utf-8');

  for (const kind of ACCOUNT_PAGE_KINDS) {
    app.get(LINK_PATHS[kind], { schema: { hide: true } }, async (req: FastifyRequest, reply) => {
      const query = (req.query ?? {}) as { lang?: unknown };
      const accept = req.headers['accept-language'];
      const locale = pageLocale(query.lang, typeof accept === 'string' ? accept : undefined);
      // The address holds a token: no cache keeps the page under it.
      return securityHeaders(reply)
        .type('text/html; charset=utf-8')
        .header('content-language', locale)
        .header('cache-control', 'no-store')
        .send(accountPage(locale, kind, { script: script.url, style: style.url }));
    });
  }
  servePageFiles(app, [script]);
}
