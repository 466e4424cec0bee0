import { STATUS_CODES } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { newId } from '../core/ids.js';
import { redactUrl, type Logger } from '../core/log.js';
import { handleMcpPost } from '../mcp/http.js';
import type { AnyTool, Services } from '../tools/define.js';
import { countAdmitted } from '../access/budget.js';
import type { CallInfo } from '../access/call.js';
import { admit, countRequest } from '../access/key.js';
import { unavailableError } from '../access/unavailable.js';
import { invokeTool } from '../tools/invoke.js';
import { RPC_UNAUTHORIZED } from '../mcp/server.js';
import type { RateState } from '../keys/limiter.js';
import { SERVICE_VERSION } from '../version.js';
import { SESSION_COOKIE } from '../accounts/sessions.js';
import { conflictingKeys, presentedKey } from './credentials.js';
import { restCall } from './rest-call.js';
import { ErrorEnvelopeSchema, MetaSchema, successSchema } from './envelope-schemas.js';
import { finishOpenApiDocument } from './openapi.js';
import { coerceQuery } from './query.js';
import { registerStripeWebhook } from './stripe-webhook.js';
import { registerEmbedRoutes } from './embed.js';
import { checkHealth } from '../core/health.js';
import { registerMemoirUpload } from './memoir-upload.js';

export const API_PREFIX = '/api/v1';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Statuses documented for every tool route besides its success. */
const ERROR_STATUSES = [400, 401, 403, 404, 413, 429, 500, 503] as const;

// Windows end at the same instant for every key, so the last reset time's text is kept.
let lastReset = { at: NaN, text: '' };
function resetText(resetAt: Date): string {
  const at = resetAt.getTime();
  if (at !== lastReset.at) lastReset = { at, text: resetAt.toISOString() };
  return lastReset.text;
}

function setRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', state.remaining);
  reply.header('X-RateLimit-Reset', resetText(state.resetAt));
}

function rateHeaders(state: RateState): Record<string, string | number> {
  return { 'X-RateLimit-Limit': state.limit, 'X-RateLimit-Remaining': state.remaining, 'X-RateLimit-Reset': resetText(state.resetAt) };
}

/** Host names that resolve to this machine only. */
function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether a Host header names this machine's loopback (with or without a port). */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host.trim());
  return m !== null && isLoopbackName(m[1]!);
}

/**
 * Whether a browser Origin is this server's own loopback origin: http(s) on 127.0.0.1, ::1 or localhost, at the port
 * the request came in on. A page served by this server itself (the docs, the wizard) may then call /mcp without being
 * listed in SVC_ALLOWED_ORIGINS. DNS rebinding cannot forge it: a rebound page keeps its own origin (the attacker's
 * host name), and another local program listens on another port.
 */
function sameLoopbackOrigin(origin: string, localPort: number | undefined): boolean {
  if (localPort === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') return false;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return port === localPort;
}

/** Seconds until a 429 (rate limit) or 503 (SERVICE_BUSY, SERVICE_UNAVAILABLE) may be retried, for Retry-After; undefined for other errors. */
function retryAfterSeconds(err: ApiError, services: Services): number | undefined {
  if ((err.code !== 'RATE_LIMIT_EXCEEDED' && err.code !== 'SERVICE_BUSY' && err.code !== 'SERVICE_UNAVAILABLE') || !err.retryAfter) return undefined;
  return Math.max(1, Math.ceil((Date.parse(err.retryAfter) - services.clock.now().getTime()) / 1000));
}

function sendError(reply: FastifyReply, err: ApiError, services: Services): FastifyReply {
  // Says when to come back, as the OpenAPI document declares.
  const retry = retryAfterSeconds(err, services);
  if (retry !== undefined) reply.header('Retry-After', retry);
  return reply
    .header('X-Request-Id', reply.request.id)
    .status(err.status)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(err.toBody(), makeMeta(String(reply.request.id), services.clock.now())));
}

/**
 * Fastify's request logging, reduced to one line per answered request (method,
 * path with api_key masked, status, time, peer) instead of two lines and a child
 * logger per request; and no "route not found" line, which would carry the
 * unmasked URL (the request line records the 404).
 */
class RequestLog extends LogController {
  readonly #log: Logger;
  readonly #info: boolean;

  constructor(log: Logger) {
    super();
    this.#log = log;
    this.#info = log.isLevelEnabled('info');
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.#info) return;
    const line = {
      requestId: req.id,
      method: req.method,
      url: redactUrl(req.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: req.ip,
    };
    if (error) this.#log.error({ ...line, err: error }, 'request errored');
    else this.#log.info(line, 'request');
  }
}

/** Maps errors raised by Fastify itself (body parsing, limits) to the API's codes. */
function frameworkError(err: FastifyError): ApiError {
  const status = err.statusCode ?? 500;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than this service accepts.');
  if (status === 415) {
    return ApiError.validation('Unsupported Content-Type: send the body as JSON with "Content-Type: application/json".', [
      { field: '', reason: 'unsupported content type' },
    ]);
  }
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return ApiError.validation('The body is empty but Content-Type says JSON; send a JSON object or omit the header.', [
      { field: '', reason: 'empty JSON body' },
    ]);
  }
  if (status === 400 && (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || /JSON/i.test(err.message))) {
    return ApiError.validation('The body is not valid JSON.', [{ field: '', reason: 'malformed JSON' }]);
  }
  if (status >= 400 && status < 500) return ApiError.validation('The request could not be read.', [{ field: '', reason: err.code ?? 'bad request' }]);
  return ApiError.internal();
}

/** The query parameters that are tool input: all but `api_key` (a credential). Most calls have none: no copy then. */
function queryInput(query: Record<string, unknown>): Record<string, unknown> {
  for (const _ in query) {
    const { api_key: _key, ...input } = query;
    return input;
  }
  return query;
}

/** Path params named in a REST path, e.g. `/api-keys/:id` → ['id']. */
function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

function routeSchema(tool: AnyTool) {
  const params = pathParams(tool.rest.path);
  const mask = Object.fromEntries(params.map((p) => [p, true as const])) as Record<string, true> & Record<number, never>;
  const rest = params.length ? tool.input.omit(mask) : tool.input;
  const response: Record<number, z.ZodType> = { [tool.rest.status ?? 200]: successSchema(tool) };
  for (const s of [...ERROR_STATUSES, ...(tool.rest.extraStatuses ?? [])]) response[s] = ErrorEnvelopeSchema;
  const accepts = tool.principals ?? ['key'];
  const security: Array<Record<string, string[]>> =
    tool.auth === 'none'
      ? []
      : [
          ...(accepts.includes('key') ? [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }] : []),
          ...(accepts.includes('session') ? [{ sessionCookie: [] }] : []),
        ];
  return {
    operationId: tool.name,
    summary: tool.title,
    description: tool.description,
    tags: [tool.domain],
    security,
    ...(params.length ? { params: tool.input.pick(mask) } : {}),
    ...(tool.rest.method === 'GET' || tool.rest.method === 'DELETE'
      ? Object.keys(rest.shape).length
        ? { querystring: rest }
        : {}
      : { body: rest }),
    response,
  };
}

/** Builds the REST + MCP-over-HTTP application. The caller listens and closes it. */
export async function buildApp(services: Services, tools: readonly AnyTool[]): Promise<FastifyInstance> {
  const configured = services.config.trustProxy;
  const trustProxy: FastifyServerOptions['trustProxy'] =
    typeof configured === 'number' ? (_address: string, hop: number) => hop < configured : (configured ?? false);
  const app: FastifyInstance = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    // No per-request child logger (creating one costs more than the rest of a cheap
    // request): error logs name the request id themselves.
    childLoggerFactory: (logger) => logger,
    logController: new RequestLog(services.log),
    bodyLimit: services.config.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId('request');
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false } },
    // The client address is the socket's unless proxies are configured; then only
    // X-Forwarded-For entries added by those proxies are believed.
    trustProxy,
    // Errors Fastify raises before routing (bad percent-encoding, over-long path
    // segments) get the envelope too.
    // Requests Node's HTTP parser refuses before Fastify sees them (malformed request
    // line, headers too large, bad chunking) get the envelope and a request id too.
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const code = (err as NodeJS.ErrnoException).code;
      const tooLarge = code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const apiErr = tooLarge
        ? new ApiError('PAYLOAD_TOO_LARGE', 'The request headers are larger than this service accepts.')
        : ApiError.validation('The request is not valid HTTP.', [{ field: '', reason: code ?? 'malformed request' }]);
      const requestId = newId('request');
      const body = JSON.stringify(errorEnvelope(apiErr.toBody(), makeMeta(requestId, services.clock.now())));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    frameworkErrors: (err, _req, reply) => {
      const apiErr =
        err.code === 'FST_ERR_BAD_URL'
          ? ApiError.validation('The URL is not valid (bad percent-encoding).', [{ field: '', reason: 'malformed URL' }])
          : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? ApiError.validation('A path segment is too long.', [{ field: '', reason: 'path parameter too long' }])
            : frameworkError(err);
      void sendError(reply, apiErr, services);
    },
  });

  // The session cookie (issue 13): HttpOnly, SameSite=Lax, Secure when the public URL is HTTPS.
  await app.register(cookie);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: (services.config.publicUrl ?? '').startsWith('https://'),
  };

  // Validation happens once, in invokeTool, for every transport; the zod schemas
  // given to routes feed the OpenAPI document (through jsonSchemaTransform) only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // JSON only: a text/plain body is a wrong content type, not a string input.
  app.removeContentTypeParser('text/plain');

  // Graceful shutdown: in-flight requests finish, and their connections close
  // after answering rather than idling on keep-alive and holding close() open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style hooks: cheaper than async ones on every request. One onSend hook
  // does the per-response work (an onRequest hook would cost a hook stage more).
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Request-Id', req.id);
    if (closing) reply.header('Connection', 'close');
    // Tool calls set the rate headers themselves; every other API response is counted here.
    if (reply.hasHeader('X-RateLimit-Limit') || !req.url.startsWith('/api/')) return done(null, payload);
    countRequest(services, { apiKey: presentedKey(req.headers, req.query), clientIp: req.ip }).then(
      (state) => {
        setRateHeaders(reply, state);
        done(null, payload);
      },
      () => done(null, payload),
    );
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    // A route outside the tool wrapper (session, upload, embed) whose store or limiter failed transiently: 503, not 500.
    const apiErr = err instanceof ApiError ? err : (unavailableError(err, services.clock.now()) ?? frameworkError(err));
    if (apiErr.code === 'INTERNAL_ERROR') req.log.error({ err, requestId: req.id, url: redactUrl(req.url) }, 'request failed');
    return sendError(reply, apiErr, services);
  });

  app.setNotFoundHandler((req, reply) => {
    return sendError(reply, new ApiError('NOT_FOUND', `No route ${req.method} ${redactUrl(req.url).split('?')[0]}`), services);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'svc inheritance planning API',
        version: SERVICE_VERSION,
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        description:
          'Generates inheritance smart contracts and checks plans against inheritance law. Every operation is also an MCP tool ' +
          'of the same name at POST /mcp. Responses use the envelope {success, data | error, meta}.',
      },
      servers: [{ url: services.config.publicUrl ?? '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Recommended: `Authorization: Bearer <API_KEY>`.' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'A user session (POST /api/auth/login). Every non-GET request made with it also needs the X-CSRF-Token header.',
          },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The key in the X-API-Key header.' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'Not recommended: query strings end up in logs.' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
      tags: [...new Set(tools.map((t) => t.domain))].map((name) => ({ name, description: `${name} operations` })),
    },
    transform: jsonSchemaTransform,
    // Components, examples, headers and media types (src/http/openapi.ts); built once and cached.
    transformObject: (document) =>
      'openapiObject' in document ? finishOpenApiDocument(document.openapiObject, tools) : document.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await registerStripeWebhook(app, services);

  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Liveness check',
        tags: ['system'],
        security: [],
        response: {
          200: z
            .object({
              success: z.literal(true).describe('Always true.'),
              data: z
                .object({
                  status: z
                    .enum(['ok', 'degraded'])
                    .describe(
                      'ok: every part reaches its engine. degraded: a part cannot (see store and limiter); the process still answers, ' +
                        'requests needing that part get 503 SERVICE_UNAVAILABLE, and it recovers by itself. Always HTTP 200: alert on degraded, ' +
                        'do not take the instance out of rotation for it (the engines are shared by every instance).',
                    ),
                  version: z.string().max(64).describe('Service version.'),
                  uptimeSeconds: z.number().int().min(0).describe('Seconds since start.'),
                  store: z
                    .object({
                      engine: z.string().max(32).describe('lowdb (embedded, one process) or postgres (shared by several instances).'),
                      status: z.enum(['ok', 'unavailable']).describe('Whether the store reaches its engine now.'),
                    })
                    .describe('The store.'),
                  limiter: z
                    .object({
                      engine: z.string().max(32).describe('memory (in process) or redis (shared by several instances).'),
                      status: z.enum(['ok', 'unavailable']).describe('Whether the rate limiter reaches its engine now.'),
                    })
                    .describe('The rate limiter.'),
                })
                .describe('Health.'),
              meta: MetaSchema,
            })
            .describe('Health envelope.'),
        },
      },
    },
    async (req) => {
      const health = await checkHealth(services.store, services.limiter);
      return {
        success: true as const,
        data: { status: health.status, version: SERVICE_VERSION, uptimeSeconds: Math.round(process.uptime()), store: health.store, limiter: health.limiter },
        meta: makeMeta(String(req.id), services.clock.now()),
      };
    },
  );

  for (const tool of tools) {
    const params = pathParams(tool.rest.path);
    const inputShape = tool.input.shape as Record<string, z.ZodType>;
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const query = queryInput((req.query ?? {}) as Record<string, unknown>);
      let input: Record<string, unknown>;
      if (tool.rest.method === 'GET' || tool.rest.method === 'DELETE') {
        input = coerceQuery(inputShape, query);
      } else {
        const stray = Object.keys(query);
        if (stray.length) {
          throw ApiError.validation(
            'This operation takes its input in the JSON body, not the query string.',
            stray.map((field) => ({ field, reason: 'unknown query parameter (send input fields in the JSON body)' })),
          );
        }
        const body = req.body;
        if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
          throw ApiError.validation('The body must be a JSON object.', [{ field: '', reason: 'expected a JSON object' }]);
        }
        input = { ...((body as Record<string, unknown> | undefined) ?? {}) };
      }
      for (const p of params) input[p] = (req.params as Record<string, string>)[p];
      const call = restCall(req);
      if (tool.cancellable) {
        // A client that goes away before the answer frees the work's place (queued compiles are dropped).
        const controller = new AbortController();
        call.signal = controller.signal;
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) controller.abort(ApiError.validation('The client closed the connection before the answer.', [{ field: '', reason: 'cancelled' }]));
        });
      }
      let output: Record<string, unknown>;
      try {
        output = await invokeTool(tool, input, services, call);
      } finally {
        // On success and on refusal alike: the error handler's reply carries them too.
        if (call.rate) setRateHeaders(reply, call.rate);
        if (call.cookie === 'clear') reply.clearCookie(SESSION_COOKIE, cookieOptions);
        else if (call.cookie) reply.setCookie(SESSION_COOKIE, call.cookie.token, { ...cookieOptions, expires: call.cookie.expiresAt });
      }
      const meta = makeMeta(String(req.id), services.clock.now());
      reply.status(tool.rest.status ?? 200);
      switch (tool.rest.shape) {
        case 'top-level': {
          // metaFields (a catalogue's pagination) go to meta rather than beside `success`.
          const { metaFields = [] } = tool.rest;
          if (metaFields.length === 0) return { success: true, ...output, meta };
          const top = { ...output };
          const extra: Record<string, unknown> = {};
          for (const f of metaFields) {
            if (top[f] !== undefined) extra[f] = top[f];
            delete top[f];
          }
          return { success: true, ...top, meta: { ...meta, ...extra } };
        }
        case 'list': {
          const { items, pagination } = output as { items: unknown[]; pagination: Record<string, unknown> };
          const extra = Object.fromEntries((tool.rest.metaFields ?? []).filter((f) => output[f] !== undefined).map((f) => [f, output[f]]));
          return { success: true, data: items, meta: { ...meta, pagination, ...extra } };
        }
        case 'data': {
          const { dataField, metaFields = [] } = tool.rest;
          const extra = Object.fromEntries(metaFields.filter((f) => output[f] !== undefined).map((f) => [f, output[f]]));
          let data: unknown = dataField ? output[dataField] : output;
          if (!dataField && metaFields.length) {
            // The whole output is the data, less what goes to meta.
            const rest = { ...output };
            for (const f of metaFields) delete rest[f];
            data = rest;
          }
          return { success: true, data, meta: { ...meta, ...extra } };
        }
      }
    };
    app.route({ method: tool.rest.method, url: API_PREFIX + tool.rest.path, schema: routeSchema(tool), handler });
    for (const alias of tool.rest.aliases ?? []) app.route({ method: tool.rest.method, url: alias, schema: { hide: true }, handler });
  }

  // MCP over HTTP (issue 14): the browser origin and the Host are checked against
  // DNS rebinding (MCP transport spec), and every JSON-RPC request in the POST is
  // authenticated, rate-limited and counted like a REST call, with the same
  // X-RateLimit-* headers, before the SDK sees any of it.
  const loopbackBound = isLoopbackName(services.config.host);
  app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
    const refuse = (status: number, err: ApiError, extra: Record<string, string | number> = {}) => {
      const first = Array.isArray(req.body) ? req.body[0] : req.body;
      const id = first && typeof first === 'object' && 'id' in first ? (first as { id: unknown }).id : null;
      reply.status(status).headers({ 'content-type': 'application/json; charset=utf-8', ...extra });
      return reply.send({ jsonrpc: '2.0', id: id ?? null, error: { code: RPC_UNAUTHORIZED, message: err.message, data: err.toBody() } });
    };
    const origin = req.headers.origin;
    if (origin !== undefined && !services.config.allowedOrigins.includes(origin) && !sameLoopbackOrigin(origin, req.socket.localPort)) {
      return refuse(403, new ApiError('ORIGIN_NOT_ALLOWED', `Origin ${origin.slice(0, 200)} may not call this MCP endpoint (configure SVC_ALLOWED_ORIGINS).`));
    }
    if (loopbackBound && !isLoopbackHost(req.headers.host)) {
      return refuse(403, new ApiError('ORIGIN_NOT_ALLOWED', 'This MCP endpoint is bound to loopback and answers only loopback host names (DNS rebinding guard).'));
    }
    const conflict = conflictingKeys(req.headers, req.query);
    if (conflict) return refuse(400, conflict);
    const apiKey = presentedKey(req.headers, req.query);
    const call: CallInfo = { apiKey, requestId: String(req.id), transport: 'mcp-http', clientIp: req.ip, rate: undefined };
    let principal;
    try {
      principal = (await admit(services, call)).principal;
      // A batch counts once per request it carries, like that many REST calls.
      const extra = Array.isArray(req.body) ? req.body.filter((m) => m && typeof m === 'object' && 'method' in m).length - 1 : 0;
      for (let i = 0; i < extra; i++) {
        const hit = await countAdmitted(services, principal);
        call.rate = hit.rate;
        if (hit.refused) throw hit.refused;
      }
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : ApiError.internal();
      const headers: Record<string, string | number> = {};
      if (call.rate) Object.assign(headers, rateHeaders(call.rate));
      if (apiErr.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="svc", error="invalid_token"';
      const retry = retryAfterSeconds(apiErr, services);
      if (retry !== undefined) headers['Retry-After'] = retry;
      return refuse(apiErr.status, apiErr, headers);
    }
    reply.hijack();
    // Hijacked replies skip onSend hooks: the headers set so far are copied by hand.
    reply.raw.setHeader('X-Request-Id', String(req.id));
    for (const [name, value] of Object.entries(rateHeaders(call.rate!))) reply.raw.setHeader(name, value);
    if (closing) reply.raw.setHeader('Connection', 'close');
    try {
      await handleMcpPost(req.raw, reply.raw, req.body, tools, services, apiKey, req.ip, principal);
    } catch (err) {
      req.log.error({ err, requestId: req.id }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });
  registerEmbedRoutes(app, services);
  await registerMemoirUpload(app, services);

  const methodNotAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' }, id: null });
  app.get('/mcp', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/mcp', { schema: { hide: true } }, methodNotAllowed);

  return app;
}
