import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AccountSchema } from '../accounts/accounts.js';
import { SessionOutput, UserSchema } from '../accounts/session-schemas.js';
import { JurisdictionSummarySchema } from '../law/jurisdictions.js';
import { SourceSchema } from '../law/findings.js';
import { CursorPageMetaSchema, OffsetPageMetaSchema } from '../core/pagination.js';
import { ApiKeySchema } from '../keys/manage.js';
import { WebhookSchema } from '../webhooks/schemas.js';
import type { AnyTool } from '../tools/define.js';
import { bounded } from '../tools/bounds.js';
import {
  CharacterSchema,
  ChargeSchema,
  ChatMessageSchema,
  JournalEntrySchema,
  Mention,
} from '../tools/memoir/schemas.js';
import { MediaSchema } from '../tools/memoir/media.js';
import { ItemSummarySchema } from '../tools/vaults/common.js';
import { ErrorEnvelopeSchema, MetaSchema } from './envelope-schemas.js';

// Finishes the OpenAPI document that @fastify/swagger builds from the routes'
// zod schemas, so that code generators and API testers take it as it is:
// - shared schemas become components.schemas, referenced with $ref (matched by
//   their generated JSON, so the zod schemas and the MCP tool schemas stay as they are);
// - error answers become components.responses, one per status;
// - every operation gets the example input of its tool (body, query and path);
// - the rate-limit, request-id, Retry-After and Set-Cookie headers are declared;
// - responses are declared with the media type the server sends;
// - every integer states its format (int32 or int64, from its bounds); the bounds themselves stay, since validation
//   enforces them (zod gives every `.int()` the safe-integer range, src/tools/bounds.ts every other number);
// - the server is marked as public (x-internal: false), for API inventories.

/** The media type of every JSON answer, exactly as the server sends it. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/**
 * Schemas that get a name in components.schemas wherever they occur. Bounded as tool outputs are (defineTool), so
 * they match the schemas in the operations.
 */
const NAMED_SCHEMAS: Array<[string, z.ZodType]> = (
  [
    ['ErrorEnvelope', ErrorEnvelopeSchema],
    ['Meta', MetaSchema],
    ['OffsetPagination', OffsetPageMetaSchema],
    ['CursorPagination', CursorPageMetaSchema],
    ['ApiKey', ApiKeySchema],
    ['Webhook', WebhookSchema],
    ['Account', AccountSchema],
    ['User', UserSchema],
    ['Session', SessionOutput],
    ['JurisdictionSummary', JurisdictionSummarySchema],
    ['Source', SourceSchema],
    ['MemoirCharacter', CharacterSchema],
    ['MemoirMention', Mention],
    ['JournalEntry', JournalEntrySchema],
    ['MemoirChatMessage', ChatMessageSchema],
    ['MemoirCharge', ChargeSchema],
    ['MemoirMedia', MediaSchema],
    ['VaultItem', ItemSummarySchema],
  ] as Array<[string, z.ZodType]>
).map(([name, schema]) => [name, bounded(schema, 'output')]);

/** Names for shared schemas found by structure (not exported as zod schemas), by their description. */
const DESCRIBED_NAMES: Record<string, string> = {
  'Not available before v1.1.': 'Planned',
  'How the person writes.': 'MemoirStyle',
  'What the model was built from.': 'MemoirCharacterSources',
  'Setup status.': 'MemoirSetup',
  'A question.': 'MemoirQuestion',
  'A questionnaire.': 'MemoirQuestionnaire',
};

/** One entry of components.responses per error status the API documents. */
const ERROR_RESPONSES: Record<
  string,
  { name: string; description: string; retryAfter?: boolean; challenge?: boolean }
> = {
  '400': {
    name: 'BadRequest',
    description: 'The input was refused (VALIDATION_ERROR, with the offending fields in error.details).',
  },
  '401': {
    name: 'Unauthorized',
    description:
      'No valid credential (API_KEY_MISSING, API_KEY_INVALID, UNAUTHORIZED); WWW-Authenticate names the Bearer scheme.',
    challenge: true,
  },
  '403': {
    name: 'Forbidden',
    description:
      'The credential may not do this (INSUFFICIENT_SCOPE, TIER_NOT_ALLOWED, IP_NOT_ALLOWED, CSRF_FAILED, ...).',
  },
  '404': { name: 'NotFound', description: 'No such record for this caller (NOT_FOUND).' },
  '409': { name: 'Conflict', description: 'The record already exists (CONFLICT).' },
  '410': { name: 'Gone', description: 'A mailed single-use link was used already, has expired or is unknown (GONE).' },
  '413': {
    name: 'PayloadTooLarge',
    description:
      'The body is larger than the service accepts, or a photo declares too many pixels (PAYLOAD_TOO_LARGE); or an upload does not fit in the ' +
      "account's storage quota (QUOTA_EXCEEDED, with used, limit and needed bytes in error.details).",
  },
  '415': {
    name: 'UnsupportedMediaType',
    description:
      'An upload that is not multipart/form-data, or whose file is not a photo, audio or video, judged by its content (UNSUPPORTED_MEDIA_TYPE).',
  },
  '429': {
    name: 'TooManyRequests',
    description: 'A rate limit is reached (RATE_LIMIT_EXCEEDED); retry after Retry-After seconds.',
    retryAfter: true,
  },
  '500': { name: 'InternalError', description: 'An unexpected failure (INTERNAL_ERROR).' },
  '501': { name: 'NotImplemented', description: 'Planned for a later API version (NOT_IMPLEMENTED).' },
  '503': {
    name: 'ServiceBusy',
    description:
      'The service cannot answer now: the workers, media programs or language model this call needs are busy, with more of your jobs or a longer wait queued than allowed (SERVICE_BUSY), or the database or the rate limiter cannot be reached (SERVICE_UNAVAILABLE); retry after Retry-After seconds.',
    retryAfter: true,
  },
};

const HEADERS: Record<string, { name: string; description: string; schema: Record<string, unknown> }> = {
  RateLimitLimit: {
    name: 'X-RateLimit-Limit',
    description: 'Requests allowed in the current window of the all-requests bucket.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  RateLimitRemaining: {
    name: 'X-RateLimit-Remaining',
    description: 'Requests left in the current window of the all-requests bucket.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  RateLimitReset: {
    name: 'X-RateLimit-Reset',
    description: 'When the current window ends (ISO 8601).',
    schema: { type: 'string', format: 'date-time', maxLength: 30 },
  },
  RequestId: {
    name: 'X-Request-Id',
    description: 'Id of this request; equals meta.requestId.',
    schema: { type: 'string', maxLength: 200 },
  },
  RetryAfter: {
    name: 'Retry-After',
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400 },
  },
  WwwAuthenticate: {
    name: 'WWW-Authenticate',
    description:
      'The Bearer challenge of every 401: `Bearer realm="svc"`, with `error="invalid_token"` when the key presented is unknown, revoked or expired.',
    schema: { type: 'string', maxLength: 100 },
  },
  SetCookie: {
    name: 'Set-Cookie',
    description: 'Sets (or, on logout, clears) the HttpOnly session cookie.',
    schema: { type: 'string', maxLength: 4096 },
  },
};

/** Operations whose success answer sets or clears the session cookie. */
const COOKIE_OPERATIONS = new Set(['register', 'login', 'change_password', 'logout']);

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** A JSON object of the document; what its values are is checked where they are read. */
type Json = Record<string, unknown>;

const headerRef = (key: string) => ({ $ref: `#/components/headers/${key}` });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Gives every integer schema without a format the one its bounds fit (int32, else int64), in place. Examples and
 * enums are data, not schemas, and are left alone.
 */
function integerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) integerFormats(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Json;
  if (obj.type === 'integer' && obj.format === undefined) {
    const fits =
      typeof obj.minimum === 'number' &&
      typeof obj.maximum === 'number' &&
      obj.minimum >= INT32_MIN &&
      obj.maximum <= INT32_MAX;
    obj.format = fits ? 'int32' : 'int64';
  }
  for (const [key, value] of Object.entries(obj))
    if (key !== 'example' && key !== 'examples' && key !== 'enum' && key !== 'default') integerFormats(value);
}

/** JSON text with sorted keys, so equal schemas give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const obj = value as Json;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(',')}}`;
}

/** A schema's identity for matching: its canonical text without the top-level description (set per use). */
function identity(schema: Json): string {
  const { description: _d, ...rest } = schema;
  return canonical(rest);
}

/** The JSON Schema the swagger transform makes of a zod schema, as output (responses) and as input (bodies). */
function generated(schema: z.ZodType, openapiObject: Json): { output: Json; input: Json } {
  const { schema: out } = jsonSchemaTransform({
    schema: { response: { 200: schema }, body: schema },
    url: '/',
    route: {} as never,
    openapiObject: openapiObject as never,
  }) as { schema: { response: Record<string, Json>; body: Json } };
  const output = out.response['200']!;
  const input = out.body;
  integerFormats(output);
  integerFormats(input);
  return { output, input };
}

/**
 * Replaces every subschema equal to a named one with its $ref, top-down (the
 * largest match wins), in place. `own` is the name of the component being
 * walked, which must not become a reference to itself.
 */
function liftSchemas(node: unknown, byIdentity: Map<string, string>, own?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => liftSchemas(item, byIdentity));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  if (obj.type === 'object' || obj.anyOf || obj.oneOf || obj.allOf) {
    const name = byIdentity.get(identity(obj));
    if (name && name !== own) return schemaRef(name);
  }
  for (const [key, value] of Object.entries(obj)) {
    // Examples are data, not schemas.
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default') continue;
    obj[key] = liftSchemas(value, byIdentity);
  }
  return obj;
}

/** Every `#/components/schemas/` name referenced under `node`. */
function refsIn(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsIn(item, into);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/'))
        into.add(value.slice(21));
      else refsIn(value, into);
    }
  }
  return into;
}

/** A name for a shared schema that has none: envelopes and list metadata by what they hold, others by their description. */
function nameOf(schema: Json): string {
  const props = (schema.properties ?? {}) as Json;
  const ref = (p: unknown) =>
    ((p as Json | undefined)?.$ref as string | undefined)?.replace('#/components/schemas/', '');
  const data = ref(props.data);
  if (data && props.success) return `${data}Envelope`;
  const pagination = ref(props.pagination);
  if (pagination && props.requestId) return `${pagination}Meta`;
  const known = DESCRIBED_NAMES[String(schema.description)];
  if (known) return known;
  const words = String(schema.description ?? 'Shared schema').match(/[A-Za-z0-9]+/g) ?? ['Shared'];
  return words
    .slice(0, 4)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** Object schemas with properties that still appear inline in two operations or more, by identity. */
function sharedInline(ops: Json[]): Map<string, Json> {
  const seen = new Map<string, { schema: Json; ops: Set<Json> }>();
  const walk = (node: unknown, op: Json): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, op));
    if (node === null || typeof node !== 'object') return;
    const obj = node as Json;
    if (obj.type === 'object' && obj.properties && Object.keys(obj.properties).length) {
      const id = identity(obj);
      const entry = seen.get(id) ?? { schema: obj, ops: new Set<Json>() };
      entry.ops.add(op);
      seen.set(id, entry);
    }
    for (const [key, value] of Object.entries(obj)) if (key !== 'example' && key !== 'examples') walk(value, op);
  };
  for (const op of ops) walk(op, op);
  const shared = new Map<string, Json>();
  for (const [id, { schema, ops: users }] of seen) if (users.size >= 2) shared.set(id, schema);
  return shared;
}

/** Whether a strict subschema of `schema` is one of `shared`. */
function holdsShared(schema: Json, shared: Map<string, Json>): boolean {
  const inside = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(inside);
    if (node === null || typeof node !== 'object') return false;
    const obj = node as Json;
    if (obj.type === 'object' && shared.has(identity(obj))) return true;
    return Object.entries(obj).some(([key, value]) => key !== 'example' && inside(value));
  };
  return Object.entries(schema).some(([key, value]) => key !== 'example' && inside(value));
}

/** The part of a tool's example that goes where: path parameters, query parameters, body. */
function exampleFor(op: Json, tool: AnyTool | undefined): { path: Json; query: Json; body: Json | undefined } {
  const example = tool?.example ?? {};
  const params = (op.parameters ?? []) as Json[];
  const inPath = new Set(params.filter((p) => p.in === 'path').map((p) => p.name as string));
  const path: Json = {};
  const rest: Json = {};
  for (const [k, v] of Object.entries(example)) (inPath.has(k) ? path : rest)[k] = v;
  return op.requestBody ? { path, query: {}, body: rest } : { path, query: rest, body: undefined };
}

/** Error statuses documented for a route with a declared document, besides its tool's `extraStatuses`. */
const DECLARED_ERROR_STATUSES = [400, 401, 403, 413, 429, 500, 503];

/** Errors answered in the envelope whose description says more than the shared response can (402 names the charge). */
const OWN_ERROR_DESCRIPTIONS: Record<number, string> = {
  402: 'Not enough credits (INSUFFICIENT_CREDITS, with required and available in error.details); nothing is charged.',
};

/**
 * The operations of tools whose REST mapping declares its document (`rest.docs`: a multipart body, a file answer),
 * by path, in tool order. Only the /api/v1 path is listed, not the aliases, as for every route.
 */
function declaredPaths(tools: readonly AnyTool[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const tool of tools) {
    const docs = tool.rest.docs;
    if (!docs) continue;
    const errors: Json = {};
    for (const status of [...DECLARED_ERROR_STATUSES, ...(tool.rest.extraStatuses ?? [])]) {
      const description = OWN_ERROR_DESCRIPTIONS[status] ?? ERROR_RESPONSES[String(status)]?.description ?? 'Error.';
      errors[String(status)] = { description, content: { 'application/json': { schema: schemaRef('ErrorEnvelope') } } };
    }
    const accepts = tool.principals ?? ['key'];
    const security = [
      ...(accepts.includes('key') ? [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }] : []),
      ...(accepts.includes('session') ? [{ sessionCookie: [] }] : []),
    ];
    const path = `/api/v1${tool.rest.path}`.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    paths[path] = {
      ...paths[path],
      [tool.rest.method.toLowerCase()]: {
        operationId: tool.name,
        summary: tool.title,
        description: tool.description,
        tags: [tool.domain],
        security,
        ...(docs.parameters ? { parameters: structuredClone(docs.parameters) } : {}),
        ...(docs.requestBody ? { requestBody: structuredClone(docs.requestBody) } : {}),
        responses: { [String(tool.rest.status ?? 200)]: structuredClone(docs.success), ...errors },
      },
    };
  }
  return paths;
}

/** Finishes the generated document (see the top of this file). Returns it, changed in place. */
export function finishOpenApiDocument(doc: Json, tools: readonly AnyTool[]): Json {
  const toolsByName = new Map(tools.map((t) => [t.name, t]));
  // Routes whose body or answer is not JSON, which swagger cannot see: from their tools' declared documents.
  doc.paths = { ...(doc.paths ?? {}), ...declaredPaths(tools) };
  integerFormats(doc.paths);
  for (const server of (doc.servers ?? []) as Json[]) server['x-internal'] ??= false;

  // 1. Named schemas, as output and (where it differs) as input.
  const components = (doc.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const byIdentity = new Map<string, string>();
  for (const [name, zodSchema] of NAMED_SCHEMAS) {
    const { output, input } = generated(zodSchema, doc);
    schemas[name] = output;
    byIdentity.set(identity(output), name);
    if (identity(input) !== identity(output)) {
      schemas[`${name}Input`] = input;
      byIdentity.set(identity(input), `${name}Input`);
    }
  }
  for (const name of Object.keys(schemas)) schemas[name] = liftSchemas(schemas[name], byIdentity, name);
  const operations = Object.values(doc.paths as Record<string, Record<string, Json>>).flatMap((methods) =>
    Object.values(methods),
  );
  for (const op of operations) liftSchemas(op, byIdentity);
  // Then whatever else several operations share (innermost first, so envelopes are named after their data).
  for (let round = 0; round < 5; round++) {
    const shared = sharedInline(operations);
    if (!shared.size) break;
    const added = new Map<string, string>();
    for (const [id, schema] of shared) {
      if (holdsShared(schema, shared)) continue; // named in a later round, once its parts are references
      let name = nameOf(schema);
      for (let n = 2; schemas[name] || [...added.values()].includes(name); n++) name = `${nameOf(schema)}${n}`;
      added.set(id, name);
    }
    for (const [id, name] of added) {
      byIdentity.set(id, name);
      schemas[name] = liftSchemas(structuredClone(shared.get(id)!), byIdentity, name);
    }
    for (const op of operations) liftSchemas(op, byIdentity);
  }

  // 2. Headers and error responses.
  components.headers = Object.fromEntries(
    Object.entries(HEADERS).map(([key, h]) => [key, { description: h.description, schema: h.schema }]),
  );
  const rateHeaders = {
    [HEADERS.RateLimitLimit!.name]: headerRef('RateLimitLimit'),
    [HEADERS.RateLimitRemaining!.name]: headerRef('RateLimitRemaining'),
    [HEADERS.RateLimitReset!.name]: headerRef('RateLimitReset'),
    [HEADERS.RequestId!.name]: headerRef('RequestId'),
  };
  const usedResponses = new Set<string>();
  const responses: Json = {};

  // 3. Operations.
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    const api = path.startsWith('/api/');
    for (const op of Object.values(methods)) {
      const operationId = op.operationId as string;
      const tool = toolsByName.get(operationId);
      const example = exampleFor(op, tool);
      for (const p of (op.parameters ?? []) as Json[]) {
        p.schema = liftSchemas(p.schema, byIdentity);
        const name = p.name as string;
        const value = p.in === 'path' ? example.path[name] : p.in === 'query' ? example.query[name] : undefined;
        // Else the default, else the first allowed value (optional filters); a cursor has neither: it comes from a previous page.
        const schema = p.schema as Json | undefined;
        const fallback = schema?.default ?? (Array.isArray(schema?.enum) ? schema.enum[0] : undefined);
        if (value !== undefined) p.example = p.in === 'path' ? String(value) : value;
        else if (fallback !== undefined) p.example = fallback;
      }
      const media = (op.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['application/json'];
      if (media) {
        media.schema = liftSchemas(media.schema, byIdentity);
        if (example.body && media.example === undefined) media.example = example.body;
      }
      const answers = op.responses as Record<string, Json>;
      for (const [status, response] of Object.entries(answers)) {
        const error = ERROR_RESPONSES[status];
        if (api && error) {
          usedResponses.add(status);
          answers[status] = { $ref: `#/components/responses/${error.name}` };
          continue;
        }
        const content = response.content as Record<string, Json> | undefined;
        if (content?.['application/json']) {
          const { schema } = content['application/json'];
          response.content = { [JSON_MEDIA_TYPE]: { schema: liftSchemas(schema, byIdentity) } };
        }
        // Headers an operation declares itself (the memoir's binary answers) come after the common ones.
        const headers: Json = {
          ...(api ? rateHeaders : { [HEADERS.RequestId!.name]: headerRef('RequestId') }),
          ...(response.headers ?? {}),
        };
        response.headers = headers;
        if (COOKIE_OPERATIONS.has(operationId)) headers[HEADERS.SetCookie!.name] = headerRef('SetCookie');
      }
    }
  }
  for (const status of [...usedResponses].sort()) {
    const error = ERROR_RESPONSES[status]!;
    responses[error.name] = {
      description: error.description,
      headers: {
        ...rateHeaders,
        ...(error.retryAfter ? { [HEADERS.RetryAfter!.name]: headerRef('RetryAfter') } : {}),
        ...(error.challenge ? { [HEADERS.WwwAuthenticate!.name]: headerRef('WwwAuthenticate') } : {}),
      },
      content: { [JSON_MEDIA_TYPE]: { schema: schemaRef('ErrorEnvelope') } },
    };
  }
  components.responses = responses;

  // Only the schemas something refers to (an input twin nobody sends is dropped).
  const used = refsIn(doc.paths, new Set<string>());
  refsIn(components.responses, used);
  for (let size = -1; size !== used.size; ) {
    size = used.size;
    for (const name of [...used]) refsIn(schemas[name], used);
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return doc;
}
