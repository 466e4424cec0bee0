/**
 * One route per tool, from its REST mapping (src/tools/define.ts): the input is read from the path, the query or
 * the body (JSON, or a multipart upload), the tool runs through invokeTool like over MCP, and the output is shaped
 * into the envelope, or sent as a file. Validation happens once, in invokeTool; the zod schemas given to the routes
 * feed the OpenAPI document only.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../core/errors.js';
import type { AnyTool, FormPart, MultipartBody, Services } from '../tools/define.js';
import type { CallInfo } from '../access/call.js';
import { requireAccess } from '../access/permissions.js';
import { admitPrincipal } from '../access/principal.js';
import { invokeTool } from '../tools/invoke.js';
import { ErrorEnvelopeSchema, successSchema } from './envelope-schemas.js';
import { coerceQuery } from './query.js';
import { setRateHeaders } from './rate-headers.js';
import { JSON_TYPE, successBody } from './success.js';
import { restCall } from './rest-call.js';
import { clearSessionCookie, cookieOptionsOf, setSessionCookie } from './session-cookie.js';

export const API_PREFIX = '/api/v1';

/** Statuses documented for every tool route besides its success. */
const ERROR_STATUSES = [400, 401, 403, 404, 413, 429, 500, 503] as const;

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

/** The route's schema, for the OpenAPI document; hidden when the tool declares its document itself (rest.docs). */
function routeSchema(tool: AnyTool) {
  if (tool.rest.docs) return { hide: true };
  const params = pathParams(tool.rest.path);
  const mask = Object.fromEntries(params.map((p) => [p, true as const])) as Record<string, true> &
    Record<number, never>;
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

/** The input of a JSON route: path parameters, and the query (GET, DELETE) or the JSON body. */
function jsonInput(req: FastifyRequest, tool: AnyTool, params: readonly string[]): Record<string, unknown> {
  const query = queryInput((req.query ?? {}) as Record<string, unknown>);
  let input: Record<string, unknown>;
  if (tool.rest.method === 'GET' || tool.rest.method === 'DELETE') {
    input = coerceQuery(tool.input.shape as Record<string, z.ZodType>, query);
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
  const headerOnly = tool.rest.headerOnly;
  if (headerOnly) {
    const sent = Object.keys(headerOnly).filter((field) => Object.hasOwn(input, field));
    if (sent.length > 0) {
      throw ApiError.validation(
        'This operation takes some of its input from request headers, not the body.',
        sent.map((field) => ({ field, reason: `not a body field: ${headerOnly[field]}` })),
      );
    }
  }
  for (const p of params) input[p] = (req.params as Record<string, string>)[p];
  return input;
}

/**
 * An upload must be multipart/form-data with a usable boundary (1 to 70 characters): anything else is refused
 * here, in the envelope, before the multipart parser sees it (415 for another type, 400 for a broken header).
 */
function checkMultipart(req: FastifyRequest): void {
  const header = req.headers['content-type'] ?? '';
  const [type = '', ...params] = header.split(';');
  if (!req.isMultipart() || type.trim().toLowerCase() !== 'multipart/form-data') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a "file" field.', [
      {
        field: '',
        reason: `Content-Type ${JSON.stringify(type.trim().slice(0, 100) || '(none)')} is not multipart/form-data`,
      },
    ]);
  }
  const boundary = params
    .map((p) => p.trim())
    .find((p) => /^boundary=/i.test(p))
    ?.slice('boundary='.length)
    .replace(/^"(.*)"$/, '$1');
  if (!boundary || !/^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary)) {
    throw ApiError.validation(
      'The multipart/form-data Content-Type needs a boundary parameter of 1 to 70 characters.',
      [{ field: '', reason: boundary ? 'invalid multipart boundary' : 'no multipart boundary' }],
    );
  }
}

/** The request's declared length, when it has one (a chunked request has none). */
function contentLength(req: FastifyRequest): number | undefined {
  const raw = req.headers['content-length'];
  return raw !== undefined && /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
}

/**
 * What the multipart parser's failures mean for the client: a body cut short or malformed, or a form with more parts
 * than an upload has, is a 400; a file past the largest size a 413, in the envelope. Anything else (a disk error
 * while staging) goes on as it is.
 */
function multipartProblem(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new ApiError('PAYLOAD_TOO_LARGE', 'The file is larger than an upload may be.', [
      { field: 'file', reason: 'too large' },
    ]);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return ApiError.validation(
      'The form has more parts than an upload takes: exactly one file, in "file", and at most the fields the route documents.',
      [{ field: '', reason: code === 'FST_FILES_LIMIT' ? 'more than one file' : 'too many fields' }],
    );
  }
  if (code.startsWith('FST_'))
    return ApiError.validation('The multipart body could not be read.', [{ field: '', reason: code }]);
  if (/multipart|boundary|terminated early/i.test(message)) {
    return ApiError.validation('The multipart body is truncated or malformed.', [
      { field: '', reason: 'malformed or truncated multipart/form-data' },
    ]);
  }
  return err;
}

/** The form's parts as the tool's reader takes them. */
async function* formParts(req: FastifyRequest): AsyncGenerator<FormPart> {
  for await (const part of req.parts()) {
    if (part.type === 'file')
      yield { type: 'file', fieldname: part.fieldname, filename: part.filename, file: part.file };
    else yield { type: 'field', fieldname: part.fieldname, value: String(part.value) };
  }
}

/** Reads a multipart upload into the tool's input, the caller being admitted already. */
async function formInput(req: FastifyRequest, body: MultipartBody, services: Services, call: CallInfo) {
  checkMultipart(req);
  try {
    const params = { ...((req.params ?? {}) as Record<string, string>) };
    return await body.read(
      { parts: formParts(req), declaredLength: contentLength(req), params },
      services,
      call.admitted!,
    );
  } catch (err) {
    throw multipartProblem(err);
  }
}

function toolHandler(services: Services, tool: AnyTool) {
  const params = pathParams(tool.rest.path);
  const { multipart: form, file, fromHeaders } = tool.rest;
  const status = tool.rest.status ?? 200;
  const cookieOptions = cookieOptionsOf(services.config);

  /** The call's rate headers and session cookie: on success and on refusal alike (the error handler's reply keeps them). */
  const finish = (reply: FastifyReply, call: CallInfo | undefined): void => {
    if (call?.rate) setRateHeaders(reply, call.rate);
    if (call?.cookie === 'clear') clearSessionCookie(reply, cookieOptions);
    else if (call?.cookie) setSessionCookie(reply, call.cookie.token, call.cookie.expiresAt, cookieOptions);
  };
  const answer = (req: FastifyRequest, reply: FastifyReply, output: Record<string, unknown>) => {
    reply.status(status);
    if (file) {
      const sent = file(output);
      return reply.headers(sent.headers).type(sent.contentType).send(sent.body);
    }
    const body = successBody(tool, output, req.id, services.clock.now());
    if (typeof body === 'string') reply.type(JSON_TYPE);
    return body;
  };

  if (!form && !file && !tool.cancellable) {
    // A JSON call: answered within the request's own turn when invokeTool answers at once (a cached key, the
    // in-process limiter, a synchronous handler); a thrown error reaches the error handler as a rejection would.
    return (req: FastifyRequest, reply: FastifyReply) => {
      const input = jsonInput(req, tool, params);
      if (fromHeaders) Object.assign(input, fromHeaders(req.headers));
      const call = restCall(req, cookieOptions);
      let output: ReturnType<typeof invokeTool>;
      try {
        output = invokeTool(tool, input, services, call);
      } catch (err) {
        finish(reply, call);
        throw err;
      }
      if (!(output instanceof Promise)) {
        finish(reply, call);
        return answer(req, reply, output);
      }
      return output.then(
        (out) => {
          finish(reply, call);
          return answer(req, reply, out);
        },
        (err: unknown) => {
          finish(reply, call);
          throw err;
        },
      );
    };
  }

  return async (req: FastifyRequest, reply: FastifyReply) => {
    let call: CallInfo | undefined;
    let settle: ((done: boolean) => Promise<void>) | undefined;
    let done = false;
    let output: Record<string, unknown>;
    try {
      let input: Record<string, unknown>;
      if (form || file) {
        // Who is calling, before the body is read: nothing of an upload is stored for a refused request.
        call = restCall(req, cookieOptions);
        call.admitted = await admitPrincipal(services, call, 'all', tool.principals);
        // A key without the tool's scope is refused before its upload is read.
        if (form) requireAccess(call.admitted, tool.scope, tool.tiers);
      }
      if (form) ({ input, settle } = await formInput(req, form, services, call!));
      else input = jsonInput(req, tool, params);
      if (fromHeaders) Object.assign(input, fromHeaders(req.headers));
      call ??= restCall(req, cookieOptions);
      if (tool.cancellable) {
        // A client that goes away before the answer frees the work's place (queued compiles are dropped).
        const controller = new AbortController();
        call.signal = controller.signal;
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished)
            controller.abort(
              ApiError.validation('The client closed the connection before the answer.', [
                { field: '', reason: 'cancelled' },
              ]),
            );
        });
      }
      output = await invokeTool(tool, input, services, call);
      done = true;
    } finally {
      if (settle) await settle(done);
      finish(reply, call);
    }
    return answer(req, reply, output);
  };
}

/**
 * Adds a tool's route at /api/v1 and its aliases. No HEAD beside a GET: Fastify would answer it by running the tool
 * and dropping the body, so a HEAD on an heir's download would be recorded (and told to the owner's webhooks) as a
 * download that delivered nothing, and would spend the work of a whole read.
 */
function addRoute(app: FastifyInstance, services: Services, tool: AnyTool): void {
  const handler = toolHandler(services, tool);
  const route = { method: tool.rest.method, handler, exposeHeadRoute: false };
  app.route({ ...route, url: API_PREFIX + tool.rest.path, schema: routeSchema(tool) });
  for (const alias of tool.rest.aliases ?? []) app.route({ ...route, url: alias, schema: { hide: true } });
}

/** The routes of every tool. Multipart parsing is registered for upload routes only: the others keep refusing it. */
export async function toolRoutes(
  app: FastifyInstance,
  { services, tools }: { services: Services; tools: readonly AnyTool[] },
): Promise<void> {
  for (const tool of tools) {
    const form = tool.rest.multipart;
    if (!form) {
      addRoute(app, services, tool);
      continue;
    }
    await app.register(async (scope) => {
      // The client's file name as sent, so that a name holding a path is refused rather than quietly cut to its end.
      await scope.register(multipart, { limits: form.limits(services.config), preservePath: true });
      await scope.register(async (upload) => {
        // Any other Content-Type reaches the handler unread, which admits the caller and then answers 415 (not the
        // generic "send JSON" answer other routes give).
        upload.addContentTypeParser('*', (_req, _payload, next) => next(null, undefined));
        addRoute(upload, services, tool);
      });
    });
  }
}
