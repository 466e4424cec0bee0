/**
 * The embed routes that are pages and files rather than API calls (issue 17):
 * the wizard page (GET /api/v1/embed/wizard and /api/embed/wizard, one
 * handler) and its static files, among them the SvcWizard SDK. The API call
 * of the feature, POST /api/v1/embed/sessions, is a tool (create_embed_session).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_STATUS, type ErrorDetail } from '../core/errors.js';
import { accountProblem } from '../accounts/accounts.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import type { Services } from '../tools/define.js';
import { admit, admitAnonymous, countAdmitted, rateLimitedError, type CallInfo } from '../tools/invoke.js';
import { wizardAssets, type Asset, type AssetName } from '../embed/assets.js';
import { authenticateEmbedToken, embedKeyProblem } from '../embed/auth.js';
import { checkCallback, requireEmbedSecret } from '../embed/callback.js';
import { parseWizardQuery, renderWizardPage, WIZARD_VERSION, wizardCsp, wizardOptions, type WizardConfig, type WizardOptions } from '../embed/page.js';
import { createEmbedSession } from '../embed/store.js';
import { EMBED_TOKEN_TTL_DEFAULT } from '../tools/embed/create-embed-session.js';

const STATUS_OF: Record<string, number> = { EMBED_NOT_CONFIGURED: 403, EMBED_TOKEN_EXPIRED: 401 };

interface PageAnswer {
  status: number;
  /** Who may frame the answer; empty: nobody. */
  frameAncestors: string[];
  config: WizardConfig;
}

function errorPage(code: string, message: string, frameAncestors: string[] = [], details?: ErrorDetail[]): PageAnswer {
  const status = STATUS_OF[code] ?? (code in ERROR_STATUS ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : 400);
  return {
    status,
    frameAncestors,
    config: { version: WIZARD_VERSION, apiBase: '/api/v1', token: null, origins: frameAncestors, options: null, error: { code, message, details } },
  };
}

function fromApiError(err: unknown, frameAncestors: string[] = []): PageAnswer {
  const apiErr = err instanceof ApiError ? err : ApiError.internal();
  return errorPage(apiErr.code, apiErr.message, frameAncestors, apiErr.details);
}

const NOT_CONFIGURED =
  'This API key has no allowed origins, so no site may embed the wizard with it. Add the exact origin of each page that embeds it ' +
  '(scheme://host[:port]) to the key: PATCH /api/v1/api-keys/:id with {"allowedOrigins": ["https://your.site"]}.';

/** Decides what the wizard page answers; never throws. */
async function wizardPage(services: Services, req: FastifyRequest, call: CallInfo): Promise<PageAnswer> {
  const parsed = parseWizardQuery((req.query ?? {}) as Record<string, unknown>);
  const query = 'query' in parsed ? parsed.query : undefined;
  const raw = (req.query ?? {}) as Record<string, unknown>;
  const key = typeof raw.key === 'string' ? raw.key : undefined;
  const token = typeof raw.token === 'string' ? raw.token : undefined;
  if (key === undefined && token === undefined) {
    admitAnonymous(services, call);
    return errorPage('API_KEY_MISSING', 'The wizard needs `token` (an embed token from POST /api/v1/embed/sessions, recommended) or `key` (a partner or internal API key).');
  }
  if (key !== undefined && token !== undefined) return errorPage('VALIDATION_ERROR', 'Give either `token` or `key`, not both.', [], [{ field: 'key', reason: 'conflicts with token' }]);

  // Who is asking, and which origins may frame the answer.
  let origins: string[];
  let session: { token: string; expired: boolean } | undefined;
  let keyInfo: { ownerId: string; keyId: string } | undefined;
  try {
    if (token !== undefined) {
      let auth;
      try {
        auth = await authenticateEmbedToken(services.store, token, services.clock, { allowExpired: true });
      } catch (err) {
        admitAnonymous(services, call);
        throw err;
      }
      const problem = accountProblem(await services.store.get<AccountRecord>(ACCOUNTS, auth.key.ownerId));
      if (problem) throw problem;
      origins = auth.session.origin === null ? [...(auth.key.allowedOrigins ?? [])] : [auth.session.origin];
      session = { token, expired: auth.expired };
      // A page load counts against the key behind the token, as a `?key=` load does (issue 17).
      const state = await countAdmitted(services, auth.principal);
      call.rate = state;
      if (!state.allowed) return fromApiError(rateLimitedError(auth.principal.tier, state), origins);
    } else {
      call.apiKey = key;
      const { record } = await admit(services, call);
      const problem = embedKeyProblem(record);
      if (problem) throw problem;
      origins = [...(record.allowedOrigins ?? [])];
      keyInfo = { ownerId: record.ownerId, keyId: record.id };
    }
  } catch (err) {
    return fromApiError(err);
  }
  if (origins.length === 0) return errorPage('EMBED_NOT_CONFIGURED', NOT_CONFIGURED);
  if (!query) return errorPage('VALIDATION_ERROR', 'The wizard was given parameters it cannot use.', origins, 'details' in parsed ? parsed.details : undefined);
  if (query.origin !== undefined) {
    if (!origins.includes(query.origin)) {
      return errorPage('ORIGIN_NOT_ALLOWED', `The origin ${query.origin} is not among the origins allowed to embed the wizard with this ${token ? 'token' : 'key'}.`);
    }
    origins = [query.origin];
  }
  const opts = wizardOptions(query);
  if ('details' in opts) return errorPage('VALIDATION_ERROR', 'The wizard was given parameters it cannot use.', origins, opts.details);
  const options: WizardOptions = opts.options;
  if (session?.expired) {
    return errorPage('API_KEY_INVALID', 'The embed token has expired: the embedding site must ask for a new one (POST /api/v1/embed/sessions).', origins);
  }
  let pageToken: string;
  if (session) {
    if (query.callback !== undefined) {
      return errorPage('VALIDATION_ERROR', 'With a token, the callback is given when the token is made.', origins, [
        { field: 'callback', reason: 'pass callback to POST /api/v1/embed/sessions instead' },
      ]);
    }
    pageToken = session.token;
  } else {
    // A `?key=` page: the key stays out of the page; the page gets a token of its own.
    try {
      const callback = query.callback === undefined ? null : await checkCallback(query.callback, origins, { allow: services.config.webhookAllow });
      if (callback !== null) await requireEmbedSecret(services.store, keyInfo!.keyId);
      const made = await createEmbedSession(
        services.store,
        { ownerId: keyInfo!.ownerId, keyId: keyInfo!.keyId, origin: query.origin ?? null, callback, ttlSeconds: EMBED_TOKEN_TTL_DEFAULT },
        services.clock,
      );
      pageToken = made.token;
    } catch (err) {
      return fromApiError(err, origins);
    }
  }
  return { status: 200, frameAncestors: origins, config: { version: WIZARD_VERSION, apiBase: '/api/v1', token: pageToken, origins, options, error: null } };
}

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string): FastifyReply {
  reply.header('ETag', asset.etag).header('Cache-Control', cacheControl).header('X-Content-Type-Options', 'nosniff');
  reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.headers['if-none-match'] === asset.etag) return reply.status(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** Registers the wizard page and its files. */
export function registerEmbedRoutes(app: FastifyInstance, services: Services): void {
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const call: CallInfo = { apiKey: undefined, requestId: String(req.id), transport: 'rest', clientIp: req.ip, rate: undefined };
    let answer: PageAnswer;
    try {
      answer = await wizardPage(services, req, call);
    } catch (err) {
      // Only the address guard's 429 gets here.
      answer = fromApiError(err);
    }
    if (call.rate) {
      reply.header('X-RateLimit-Limit', call.rate.limit).header('X-RateLimit-Remaining', call.rate.remaining).header('X-RateLimit-Reset', call.rate.resetAt.toISOString());
    }
    let assets;
    try {
      assets = await wizardAssets();
    } catch (err) {
      answer = fromApiError(err, answer.frameAncestors);
    }
    const css = `/api/v1/embed/wizard.css?v=${assets?.['wizard.css'].version ?? '0'}`;
    const js = `/api/v1/embed/wizard.js?v=${assets?.['wizard.js'].version ?? '0'}`;
    reply
      .status(answer.status)
      .header('Content-Security-Policy', wizardCsp(answer.frameAncestors))
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff');
    if (answer.frameAncestors.length === 0) reply.header('X-Frame-Options', 'DENY');
    return reply.type('text/html; charset=utf-8').send(renderWizardPage(answer.config, { js, css }));
  };
  const hidden = { schema: { hide: true } };
  app.get('/api/v1/embed/wizard', hidden, page);
  app.get('/api/embed/wizard', hidden, page);

  const file = (name: AssetName, cacheControl: (req: FastifyRequest) => string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const assets = await wizardAssets();
    return sendAsset(req, reply, assets[name], cacheControl(req));
  };
  // Versioned URLs (?v=<hash>, as the page links them) never change; the SDK's URL is stable, so it is revalidated often.
  const versioned = (req: FastifyRequest) => ((req.query as Record<string, unknown>).v ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
  app.get('/api/v1/embed/sdk.js', hidden, file('sdk.js', () => 'public, max-age=300, stale-while-revalidate=86400'));
  app.get('/api/embed/sdk.js', hidden, file('sdk.js', () => 'public, max-age=300, stale-while-revalidate=86400'));
  app.get('/api/v1/embed/wizard.js', hidden, file('wizard.js', versioned));
  app.get('/api/v1/embed/wizard.css', hidden, file('wizard.css', versioned));
}
