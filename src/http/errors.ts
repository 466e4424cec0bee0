/**
 * Every error the HTTP server answers, in the API's envelope: errors raised by routes, by Fastify itself (body
 * parsing, limits, bad URLs), by Node's HTTP parser before Fastify sees a request, and unknown routes. Also the one
 * request log line per answered request.
 */
import type { Socket } from 'node:net';
import {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { redactUrl, type Logger } from '../core/log.js';
import type { Services } from '../tools/define.js';
import { unavailableError } from '../access/unavailable.js';
import { RouteMethods } from './route-methods.js';

/** Seconds until a 429 (rate limit) or 503 (SERVICE_BUSY, SERVICE_UNAVAILABLE) may be retried, for Retry-After; undefined for other errors. */
export function retryAfterSeconds(err: ApiError, services: Services): number | undefined {
  if (
    (err.code !== 'RATE_LIMIT_EXCEEDED' && err.code !== 'SERVICE_BUSY' && err.code !== 'SERVICE_UNAVAILABLE') ||
    !err.retryAfter
  )
    return undefined;
  return Math.max(1, Math.ceil((Date.parse(err.retryAfter) - services.clock.now().getTime()) / 1000));
}

/**
 * The challenge a 401 answers with in WWW-Authenticate (RFC 9110 §11.6.1: every 401 carries one), or undefined for
 * other statuses. The scheme is Bearer, the one a key is sent in (RFC 6750 §3); `error="invalid_token"` only when a
 * credential was presented and refused (API_KEY_INVALID: unknown, revoked or expired), not when none was sent
 * (RFC 6750 §3.1). REST and /mcp answer with the same one.
 */
export function authChallenge(status: number, code: string | undefined): string | undefined {
  if (status !== 401) return undefined;
  return code === 'API_KEY_INVALID' ? 'Bearer realm="svc", error="invalid_token"' : 'Bearer realm="svc"';
}

export function sendError(reply: FastifyReply, err: ApiError, services: Services): FastifyReply {
  // Says when to come back, as the OpenAPI document declares.
  const retry = retryAfterSeconds(err, services);
  if (retry !== undefined) reply.header('Retry-After', retry);
  // Says how to authenticate, on every 401.
  const challenge = authChallenge(err.status, err.code);
  if (challenge !== undefined) reply.header('WWW-Authenticate', challenge);
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
export class RequestLog extends LogController {
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
export function frameworkError(err: FastifyError): ApiError {
  const status = err.statusCode ?? 500;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than this service accepts.');
  if (status === 415) {
    return ApiError.validation(
      'Unsupported Content-Type: send the body as JSON with "Content-Type: application/json".',
      [{ field: '', reason: 'unsupported content type' }],
    );
  }
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return ApiError.validation('The body is empty but Content-Type says JSON; send a JSON object or omit the header.', [
      { field: '', reason: 'empty JSON body' },
    ]);
  }
  if (
    status === 400 &&
    (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || /JSON/i.test(err.message))
  ) {
    return ApiError.validation('The body is not valid JSON.', [{ field: '', reason: 'malformed JSON' }]);
  }
  if (status >= 400 && status < 500)
    return ApiError.validation('The request could not be read.', [{ field: '', reason: err.code ?? 'bad request' }]);
  return ApiError.internal();
}

/**
 * The server options that answer in the envelope before routing: requests Node's HTTP parser refuses (malformed
 * request line, headers too large, bad chunking) get the envelope and a request id too, and so do errors Fastify
 * raises before routing (bad percent-encoding, over-long path segments).
 */
export function earlyErrorHandlers(services: Services) {
  return {
    clientErrorHandler: (err: Error, socket: Socket) => {
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
      // Node's own module rather than an ES import of it: importing node:http as an ES module reads every export,
      // whose getters load Node's fetch internals (some 30 ms of each `svc serve` start).
      const { STATUS_CODES } = process.getBuiltinModule('node:http');
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    frameworkErrors: (err: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const apiErr =
        err.code === 'FST_ERR_BAD_URL'
          ? ApiError.validation('The URL is not valid (bad percent-encoding).', [
              { field: '', reason: 'malformed URL' },
            ])
          : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? ApiError.validation('A path segment is too long.', [{ field: '', reason: 'path parameter too long' }])
            : frameworkError(err);
      void sendError(reply, apiErr, services);
    },
  };
}

/** The error and not-found handlers, for every route of the server. */
export const errorsPlugin = fp(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      // A route outside the tool wrapper (session, upload, embed) whose store or limiter failed transiently: 503, not 500.
      const apiErr =
        err instanceof ApiError ? err : (unavailableError(err, services.clock.now()) ?? frameworkError(err));
      if (apiErr.code === 'INTERNAL_ERROR')
        req.log.error({ err, requestId: req.id, url: redactUrl(req.url) }, 'request failed');
      return sendError(reply, apiErr, services);
    });

    // Every route added after this plugin (all of them: it is registered first) is in the table.
    const routes = new RouteMethods();
    app.addHook('onRoute', (route) => routes.add(route.url, route.method));

    app.setNotFoundHandler((req, reply) => {
      const path = redactUrl(req.url).split('?')[0];
      const allowed = routes.allowed(req.url.split('?')[0] ?? '');
      if (allowed.length > 0) {
        // The path exists, not with this method (RFC 9110 §15.5.6: a 405 names the methods it takes).
        reply.header('Allow', allowed.join(', '));
        return sendError(
          reply,
          new ApiError('METHOD_NOT_ALLOWED', `${path} does not take ${req.method}; it takes ${allowed.join(', ')}.`),
          services,
        );
      }
      return sendError(reply, new ApiError('NOT_FOUND', `No route ${req.method} ${path}`), services);
    });
  },
  { name: 'svc-errors' },
);
