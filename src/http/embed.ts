/**
 * The embed routes that are pages and files rather than API calls:
 * the wizard page (GET /api/v1/embed/wizard and /api/embed/wizard, one
 * handler) and its static files, among them the SvcWizard SDK. The API call
 * of the feature, POST /api/v1/embed/sessions, is a tool (create_embed_session).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_STATUS, type ErrorDetail } from '../core/errors.js';
import { accountProblem } from '../accounts/accounts.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import type { Services } from '../tools/define.js';
import { countAdmitted } from '../access/budget.js';
import type { CallInfo } from '../access/call.js';
import { admitAnonymous } from '../access/counters.js';
import { admit } from '../access/key.js';
import { unavailableError } from '../access/unavailable.js';
import { parseOrigin } from '../keys/origins.js';
import { wizardAssets, type Asset, type AssetName } from '../embed/assets.js';
import { authenticateEmbedToken, embedKeyProblem } from '../embed/auth.js';
import { checkCallback, requireEmbedSecret } from '../embed/callback.js';
import {
  parseWizardQuery,
  renderWizardPage,
  WIZARD_VERSION,
  wizardCsp,
  wizardOptions,
  type WizardConfig,
  type WizardOptions,
} from '../embed/page.js';
import { createEmbedSession } from '../embed/store.js';
import { authChallenge } from './errors.js';
import { EMBED_TOKEN_TTL_DEFAULT } from '../tools/embed/create-embed-session.js';

const STATUS_OF: Record<string, number> = { EMBED_NOT_CONFIGURED: 403, EMBED_TOKEN_EXPIRED: 401 };

interface PageAnswer {
  status: number;
  /** Who may frame the answer; empty: nobody. */
  frameAncestors: string[];
  config: WizardConfig;
  /** When a 429 or 503 may be retried (ISO 8601), for Retry-After. */
  retryAfter?: string | undefined;
}

function errorPage(
  code: string,
  message: string,
  frameAncestors: string[] = [],
  details?: ErrorDetail[],
  retryAfter?: string,
): PageAnswer {
  const status = STATUS_OF[code] ?? (code in ERROR_STATUS ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : 400);
  return {
    status,
    frameAncestors,
    config: {
      version: WIZARD_VERSION,
      apiBase: '/api/v1',
      token: null,
      origins: frameAncestors,
      options: null,
      error: { code, message, details },
    },
    retryAfter,
  };
}

function fromApiError(err: ApiError, frameAncestors: string[] = []): PageAnswer {
  return errorPage(err.code, err.message, frameAncestors, err.details, err.retryAfter);
}

/**
 * The error page of anything the page's work threw: an ApiError as it is; an engine that cannot be reached (store,
 * rate limiter) as 503 SERVICE_UNAVAILABLE; anything else as 500 INTERNAL_ERROR, logged with the request id.
 */
function failedPage(services: Services, call: CallInfo, err: unknown, frameAncestors: string[] = []): PageAnswer {
  if (err instanceof ApiError) return fromApiError(err, frameAncestors);
  const unavailable = unavailableError(err, services.clock.now());
  if (unavailable) {
    services.log.warn(
      { requestId: call.requestId, err: (err as Error | undefined)?.name },
      'wizard page refused: an engine cannot be reached',
    );
    return fromApiError(unavailable, frameAncestors);
  }
  services.log.error({ err, requestId: call.requestId }, 'wizard page failed');
  return fromApiError(ApiError.internal(), frameAncestors);
}

/**
 * Who may frame a page answering a request whose credential was refused before its allowed origins were known (none
 * given; a garbage, tampered or revoked token, or one whose key is revoked or expired; an unknown key, or a key
 * refused at admission): the origin the page says it is embedded by (`origin`, which the SDK sends),
 * if it is a well-formed origin. Such a page holds nothing but the error's code and message, which the same
 * request shows anyone anyway; framing it lets the wizard tell its parent (svc:wizard:error) instead of the
 * browser showing a blocked frame.
 */
function claimedOrigin(raw: Record<string, unknown>): string[] {
  if (typeof raw.origin !== 'string') return [];
  const parsed = parseOrigin(raw.origin);
  return 'origin' in parsed ? [parsed.origin] : [];
}

const NOT_CONFIGURED =
  'This API key has no allowed origins, so no site may embed the wizard with it. Add the exact origin of each page that embeds it ' +
  '(scheme://host[:port]) to the key: PATCH /api/v1/api-keys/:id with {"allowedOrigins": ["https://your.site"]}.';

/** Decides what the wizard page answers; never throws (every failure becomes an error page). */
async function wizardPage(services: Services, req: FastifyRequest, call: CallInfo): Promise<PageAnswer> {
  const raw = (req.query ?? {}) as Record<string, unknown>;
  const claimed = claimedOrigin(raw);
  const parsed = parseWizardQuery(raw);
  const query = 'query' in parsed ? parsed.query : undefined;
  const key = typeof raw.key === 'string' ? raw.key : undefined;
  const token = typeof raw.token === 'string' ? raw.token : undefined;
  if (key === undefined && token === undefined) {
    try {
      // Counted against the address; past the guard's limit this throws its 429.
      await admitAnonymous(services, call);
    } catch (err) {
      return failedPage(services, call, err, claimed);
    }
    return errorPage(
      'API_KEY_MISSING',
      'The wizard needs `token` (an embed token from POST /api/v1/embed/sessions, recommended) or `key` (a partner or internal API key).',
      claimed,
    );
  }
  if (key !== undefined && token !== undefined)
    return errorPage(
      'VALIDATION_ERROR',
      'Give either `token` or `key`, not both.',
      [],
      [{ field: 'key', reason: 'conflicts with token' }],
    );

  // Who is asking, and which origins may frame the answer.
  let origins: string[];
  let session: { token: string; expired: boolean } | undefined;
  let keyInfo: { ownerId: string; keyId: string } | undefined;
  /** Until a key is identified, an error page may be framed by the claimed origin (see claimedOrigin). */
  let identified = false;
  try {
    if (token !== undefined) {
      let auth;
      try {
        auth = await authenticateEmbedToken(services.store, token, services.clock, { allowExpired: true });
      } catch (err) {
        // A bad token counts against the address (a guessing guard); past its limit the 429 replaces the token's error.
        if (err instanceof ApiError) await admitAnonymous(services, call);
        throw err;
      }
      identified = true;
      const problem = accountProblem(await services.store.get<AccountRecord>(ACCOUNTS, auth.key.ownerId));
      if (problem) throw problem;
      origins = auth.session.origin === null ? [...(auth.key.allowedOrigins ?? [])] : [auth.session.origin];
      session = { token, expired: auth.expired };
      // A page load counts against the key behind the token, as a `?key=` load does.
      const hit = await countAdmitted(services, auth.principal);
      call.rate = hit.rate;
      if (hit.refused) return fromApiError(hit.refused, origins);
    } else {
      call.apiKey = key;
      const { record } = await admit(services, call);
      identified = true;
      const problem = embedKeyProblem(record);
      if (problem) throw problem;
      origins = [...(record.allowedOrigins ?? [])];
      keyInfo = { ownerId: record.ownerId, keyId: record.id };
    }
  } catch (err) {
    return failedPage(services, call, err, identified ? [] : claimed);
  }
  if (origins.length === 0) return errorPage('EMBED_NOT_CONFIGURED', NOT_CONFIGURED);
  if (!query)
    return errorPage(
      'VALIDATION_ERROR',
      'The wizard was given parameters it cannot use.',
      origins,
      'details' in parsed ? parsed.details : undefined,
    );
  if (query.origin !== undefined) {
    if (!origins.includes(query.origin)) {
      return errorPage(
        'ORIGIN_NOT_ALLOWED',
        `The origin ${query.origin} is not among the origins allowed to embed the wizard with this ${token ? 'token' : 'key'}.`,
      );
    }
    origins = [query.origin];
  }
  const opts = wizardOptions(query);
  if ('details' in opts)
    return errorPage('VALIDATION_ERROR', 'The wizard was given parameters it cannot use.', origins, opts.details);
  const options: WizardOptions = opts.options;
  // With a wallet, the wizard checks the wallet's chain before sending: registration reads only these networks.
  if (options.wallet) {
    const networks = evmNetworks(services);
    if (options.chainId !== undefined && !networks.includes(options.chainId))
      return errorPage('VALIDATION_ERROR', 'The wizard was given parameters it cannot use.', origins, [
        {
          field: 'chainId',
          reason: networks.length
            ? `this service registers deployments on chain ${networks.join(', ')} only`
            : 'this service reads no EVM chain, so it cannot register a deployment',
        },
      ]);
    options.networks = options.chainId !== undefined ? [options.chainId] : networks;
  }
  if (session?.expired) {
    return errorPage(
      'API_KEY_INVALID',
      'The embed token has expired: the embedding site must ask for a new one (POST /api/v1/embed/sessions).',
      origins,
    );
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
      const callback =
        query.callback === undefined
          ? null
          : await checkCallback(query.callback, origins, { allow: services.config.webhookAllow });
      if (callback !== null) await requireEmbedSecret(services.store, keyInfo!.keyId);
      const made = await createEmbedSession(
        services.store,
        {
          ownerId: keyInfo!.ownerId,
          keyId: keyInfo!.keyId,
          origin: query.origin ?? null,
          callback,
          ttlSeconds: EMBED_TOKEN_TTL_DEFAULT,
        },
        services.clock,
      );
      pageToken = made.token;
    } catch (err) {
      return failedPage(services, call, err, origins);
    }
  }
  return {
    status: 200,
    frameAncestors: origins,
    config: { version: WIZARD_VERSION, apiBase: '/api/v1', token: pageToken, origins, options, error: null },
  };
}

/** The EVM chain ids with an operator endpoint, in order. */
function evmNetworks(services: Services): number[] {
  return Object.keys(services.config.chains?.evmRpcUrls ?? {})
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0)
    .sort((a, b) => a - b);
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
    const call: CallInfo = {
      apiKey: undefined,
      requestId: String(req.id),
      transport: 'rest',
      clientIp: req.ip,
      rate: undefined,
    };
    let answer: PageAnswer;
    try {
      answer = await wizardPage(services, req, call);
    } catch (err) {
      // wizardPage turns its failures into pages; this is the last guard, so nothing here can reject unanswered.
      answer = failedPage(services, call, err);
    }
    if (call.rate) {
      reply
        .header('X-RateLimit-Limit', call.rate.limit)
        .header('X-RateLimit-Remaining', call.rate.remaining)
        .header('X-RateLimit-Reset', call.rate.resetAt.toISOString());
    }
    if (answer.retryAfter && (answer.status === 429 || answer.status === 503)) {
      reply.header(
        'Retry-After',
        Math.max(1, Math.ceil((Date.parse(answer.retryAfter) - services.clock.now().getTime()) / 1000)),
      );
    }
    let assets;
    try {
      assets = await wizardAssets();
    } catch (err) {
      answer = failedPage(services, call, err, answer.frameAncestors);
    }
    const css = `/api/v1/embed/wizard.css?v=${assets?.['wizard.css'].version ?? '0'}`;
    const js = `/api/v1/embed/wizard.js?v=${assets?.['wizard.js'].version ?? '0'}`;
    const challenge = authChallenge(answer.status, answer.config.error?.code);
    if (challenge !== undefined) reply.header('WWW-Authenticate', challenge);
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

  const file =
    (name: AssetName, cacheControl: (req: FastifyRequest) => string) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const assets = await wizardAssets();
      return sendAsset(req, reply, assets[name], cacheControl(req));
    };
  // Versioned URLs (?v=<hash>, as the page links them) never change; the SDK's URL is stable, so it is revalidated often.
  const versioned = (req: FastifyRequest) =>
    (req.query as Record<string, unknown>).v ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
  app.get(
    '/api/v1/embed/sdk.js',
    hidden,
    file('sdk.js', () => 'public, max-age=300, stale-while-revalidate=86400'),
  );
  app.get(
    '/api/embed/sdk.js',
    hidden,
    file('sdk.js', () => 'public, max-age=300, stale-while-revalidate=86400'),
  );
  app.get('/api/v1/embed/wizard.js', hidden, file('wizard.js', versioned));
  app.get('/api/v1/embed/wizard.css', hidden, file('wizard.css', versioned));
}
