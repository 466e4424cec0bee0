import { MemoryRateLimiter, type RateLimiter } from '../../src/keys/limiter.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices } from '../../src/app.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { openLowdbStore } from '../../src/store/index.js';
import { STORE_INDEXES } from '../../src/app.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { EXAMPLES } from '../support/examples.js';
import { objectVariants, PATH_VALUES, QUERY_VALUES, RAW_BODIES, validSample, type Schema } from '../support/samples.js';

// The bad-input harness: reads the live OpenAPI document, so it covers every
// operation, including ones added later. For each, at least 100 invalid or odd
// requests plus valid ones generated from the schema. No 5xx, every error the
// envelope with a spec code (and the offending field named), every 2xx body
// matching its declared schema, and the store still loads afterwards.

interface Operation {
  id: string;
  method: string;
  path: string;
  pathParams: string[];
  query: Schema | undefined;
  body: Schema | undefined;
  responses: Record<string, Schema>;
  /** The media types each status declares (file answers declare their own, e.g. application/zip). */
  mediaTypes: Record<string, string[]>;
}

interface Case {
  label: string;
  url: string;
  payload?: string;
  contentType?: string;
  /** The input field the case breaks; named in VALIDATION_ERROR details when set. */
  field?: string;
  valid?: boolean;
}

let server: TestServer;
let operations: Operation[];
const ajv = new Ajv({ strict: false, allErrors: false });
// The formats the document uses, checked rather than ignored (ajv knows none of them by itself): OpenAPI's integer
// formats, and absolute URIs.
ajv.addFormat('int32', {
  type: 'number',
  validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1,
});
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('uri', (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s) && URL.canParse(s));

beforeAll(async () => {
  server = await startTestServer({ listen: false, config: { webhookAllow: '127.0.0.1' } });
  const doc = dereference((await server.app.inject({ url: '/api/v1/openapi.json' })).json());
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; schema: Schema; required?: boolean }>;
      const queryParams = params.filter((p) => p.in === 'query');
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: queryParams.length
          ? {
              type: 'object',
              properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
              required: queryParams.filter((p) => p.required).map((p) => p.name),
            }
          : undefined,
        body: op.requestBody?.content?.['application/json']?.schema,
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, jsonMedia(r.content)?.schema ?? {}]),
        ),
        mediaTypes: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [
            status,
            Object.keys(r.content ?? {}).map((t) => t.split(';')[0]!.trim()),
          ]),
        ),
      });
    }
  }
});

/** A media type entry of the document. */
interface DocMedia {
  schema?: Schema;
}

/** An operation of the dereferenced document, as far as the harness reads it. */
interface DocOperation {
  operationId: string;
  parameters?: unknown[];
  requestBody?: { content?: Record<string, DocMedia> };
  responses: Record<string, { content?: Record<string, DocMedia> }>;
}

/** The document with every local `$ref` (components) replaced by what it names; the document has no cycles. */
function dereference(doc: Record<string, unknown>): { paths: Record<string, Record<string, DocOperation>> } {
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>(
          (at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
          doc,
        );
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
      return resolve(target);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
  };
  return { ...doc, paths: resolve(doc.paths) as Record<string, Record<string, DocOperation>> };
}

/** The JSON media type entry of a response (declared as `application/json; charset=utf-8`). */
function jsonMedia(content: Record<string, DocMedia> | undefined): DocMedia | undefined {
  const type = Object.keys(content ?? {}).find((t) => t.split(';')[0]!.trim() === 'application/json');
  return type ? content![type] : undefined;
}

afterAll(async () => {
  await server?.close();
});

function fill(path: string, params: string[], values: Record<string, string>): string {
  let p = path;
  for (const name of params) p = p.replace(`{${name}}`, values[name] ?? 'x');
  return p;
}

/** encodeURIComponent, but a lone surrogate is sent as its raw (invalid UTF-8) bytes instead of throwing. */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function queryString(obj: Record<string, unknown>): string {
  const parts = Object.entries(obj).map(([k, v]) => {
    const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
    return `${enc(k)}=${enc(text.slice(0, 4000))}`;
  });
  return parts.length ? `?${parts.join('&')}` : '';
}

function casesFor(op: Operation, example: Record<string, unknown> | undefined): Case[] {
  const cases: Case[] = [];
  const hasBody = op.method === 'POST' || op.method === 'PATCH' || op.method === 'PUT';
  // Variants start from the tool's known-good example where there is one, so each breaks one field only.
  const known = example ? { ...example } : undefined;
  const pathValues: Record<string, string> = {};
  for (const p of op.pathParams) {
    if (known && p in known) {
      pathValues[p] = String(known[p]);
      delete known[p];
    }
  }
  const validPath = fill(op.path, op.pathParams, pathValues);
  const validQuery = hasBody ? {} : (known ?? (op.query ? (validSample(op.query) as Record<string, unknown>) : {}));
  const validBody = hasBody ? (known ?? (op.body ? validSample(op.body) : undefined)) : undefined;

  // Valid requests, generated from the schema.
  const validCase = (label: string): Case => ({
    label,
    url: validPath + queryString(validQuery),
    valid: true,
    ...(hasBody ? { payload: JSON.stringify(validBody ?? {}), contentType: 'application/json' } : {}),
  });
  cases.push(validCase('valid'), validCase('valid again'));

  // Field-by-field variants of the body or the query.
  if (hasBody) {
    for (const v of objectVariants(
      op.body ?? { type: 'object', properties: {} },
      validBody as Record<string, unknown> | undefined,
    )) {
      cases.push({
        label: v.label,
        url: validPath,
        payload: JSON.stringify(v.value),
        contentType: 'application/json',
        field: v.field,
      });
    }
    for (const raw of RAW_BODIES)
      cases.push({
        label: raw.label,
        url: validPath,
        payload: raw.body,
        ...(raw.contentType ? { contentType: raw.contentType } : {}),
      });
  }
  const querySchema = op.query ?? { type: 'object', properties: {} };
  for (const v of objectVariants(querySchema, hasBody ? undefined : validQuery)) {
    if (v.value === null || typeof v.value !== 'object' || Array.isArray(v.value)) continue;
    cases.push({
      label: `query ${v.label}`,
      url: validPath + queryString(v.value as Record<string, unknown>),
      field: v.field,
      ...(hasBody ? { payload: JSON.stringify(validBody ?? {}), contentType: 'application/json' } : {}),
    });
  }
  for (const q of QUERY_VALUES)
    cases.push({
      label: `query ${q}`,
      url: `${validPath}?${q}`,
      ...(hasBody ? { payload: JSON.stringify(validBody ?? {}), contentType: 'application/json' } : {}),
    });
  // Path parameters.
  for (const name of op.pathParams) {
    for (const value of PATH_VALUES)
      cases.push({
        label: `path ${name}=${value.slice(0, 20)}`,
        url: fill(op.path, op.pathParams, { [name]: value }),
        ...(hasBody ? { payload: JSON.stringify(validBody ?? {}), contentType: 'application/json' } : {}),
      });
  }
  // Unknown query parameters carrying odd values, until there are at least 100 invalid cases.
  const odd = ['', '\u0000', '\u202e', '%', '😀', '<x>', 'x'.repeat(2000), '-1', 'null', '[]', '{}', 'true'];
  let n = 0;
  while (cases.filter((c) => !c.valid).length < 110) {
    const name = ['foo', 'page2', 'api_keyx', 'Limit', 'CURSOR', '__proto__', 'constructor'][n % 7]!;
    cases.push({
      label: `unknown query ${name}`,
      url: `${validPath}?${encodeURIComponent(name)}=${encodeURIComponent(odd[n % odd.length]!)}`,
      field: name,
    });
    n++;
  }
  return cases;
}

describe('bad-input harness over every operation of the OpenAPI document', () => {
  it('finds the operations', () => {
    expect(operations.length).toBeGreaterThanOrEqual(6);
    expect(operations.map((o) => o.id)).toContain('create_api_key');
  });

  it('no input makes any operation fail badly', async () => {
    const auth = { authorization: `Bearer ${server.adminKey}` };
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    for (const op of operations) {
      // Each operation starts with fresh rate counters: the harness sends over a hundred cases to each of some
      // hundred operations with one account, past its tier's budget; limits themselves are the fuzzer's subject.
      (server.services as { limiter: RateLimiter }).limiter = new MemoryRateLimiter();
      const example = EXAMPLES[op.id] ? await EXAMPLES[op.id]!.input(server, server.adminKey) : undefined;
      const cases = casesFor(op, example);
      counts[op.id] = cases.length;
      expect(cases.filter((c) => !c.valid).length, op.id).toBeGreaterThanOrEqual(100);
      for (const c of cases) {
        const headers: Record<string, string> = { ...auth };
        if (c.contentType) headers['content-type'] = c.contentType;
        const res = await server.app.inject({
          method: op.method as 'GET',
          url: c.url,
          headers,
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        const where = `${op.id} [${c.label}] → ${res.statusCode}`;
        // 501 is the documented answer of the planned (v1.1) legal routes.
        if (res.statusCode >= 500 && !(res.statusCode === 501 && op.responses['501'])) {
          failures.push(`${where}: server error ${res.body.slice(0, 200)}`);
          continue;
        }
        // A file answer (an archive, a PDF) is fine when the operation declares that media type for the status.
        const declared = op.mediaTypes[String(res.statusCode)] ?? [];
        const type = String(res.headers['content-type']).split(';')[0]!.trim();
        if (res.statusCode < 300 && type !== 'application/json' && declared.includes(type)) continue;
        if (!String(res.headers['content-type']).startsWith('application/json')) {
          failures.push(`${where}: content-type ${res.headers['content-type']}`);
          continue;
        }
        const body = res.json();
        if (typeof body.meta?.requestId !== 'string' || body.meta.requestId !== res.headers['x-request-id'])
          failures.push(`${where}: no meta.requestId`);
        if (res.statusCode >= 400) {
          if (body.success !== false || !ERROR_CODES.includes(body.error?.code)) {
            failures.push(`${where}: not an error envelope: ${res.body.slice(0, 200)}`);
            continue;
          }
          if (body.error.code === 'VALIDATION_ERROR') {
            const details = body.error.details as Array<{ field: string; reason: string }> | undefined;
            if (!details?.length) failures.push(`${where}: VALIDATION_ERROR without details`);
            else if (
              c.field &&
              !details.some((d) => d.field === c.field || d.field.startsWith(`${c.field}.`) || d.field === '')
            ) {
              failures.push(`${where}: details ${JSON.stringify(details).slice(0, 200)} do not name ${c.field}`);
            }
          }
        } else {
          const schema = op.responses[String(res.statusCode)];
          if (!schema) failures.push(`${where}: undocumented status`);
          else if (!ajv.validate(schema, body))
            failures.push(`${where}: body does not match its schema: ${ajv.errorsText()}`);
        }
      }
    }
    console.log('bad-input harness, cases per operation:', counts);
    // One line per distinct problem (labels vary, the problem repeats).
    const distinct = [
      ...new Set(failures.map((f) => f.replace(/req_[0-9A-Z]+/g, 'req_…').replace(/"timestamp":"[^"]+"/g, ''))),
    ];
    expect(distinct.slice(0, 30)).toEqual([]);
  }, 300_000);

  it('leaves a store that still loads', async () => {
    const { dataDir } = server;
    await server.app.close();
    await closeServices(server.services);
    const store = await openLowdbStore({ dataDir, indexes: STORE_INDEXES });
    expect(await store.count('api_keys')).toBeGreaterThan(1);
    await store.close();
    // Reopen for afterAll's close.
    server = await startTestServer({ listen: false });
  });
});
