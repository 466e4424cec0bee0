import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bounded, DEFAULT_BOUNDS } from '../../src/tools/bounds.js';
import { TOOLS } from '../../src/tools/index.js';
import { toolSchemas, toJsonSchema } from '../../src/tools/schema.js';
import { startTestServer, type TestServer } from '../helpers.js';

// Every string, array and number a tool takes or gives has a size bound (src/tools/bounds.ts gives the ones a tool
// file did not), validation enforces it, and the OpenAPI document states it.

type Json = Record<string, unknown>;

/** A media type, header or parameter of the document: what `unbounded` walks is its schema. */
interface WithSchema {
  schema?: unknown;
}

/** The served OpenAPI document, as far as this test walks it. */
interface Doc {
  components: { schemas: unknown; headers: Record<string, WithSchema> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<WithSchema & { name: string }>;
        requestBody?: { content?: Record<string, WithSchema> };
        responses?: Record<string, { content?: Record<string, WithSchema>; headers?: Record<string, WithSchema> }>;
      }
    >
  >;
}

/** The JSON Schema of the object schema made below, as far as the test reads it. */
type ThingSchema = {
  description: string;
  properties: { name: object; note: { maxLength: number }; tags: object; amount: object; count: object };
  additionalProperties: boolean;
};

/** Dotted paths of the unbounded strings, arrays and numbers under a JSON Schema. */
function unbounded(schema: unknown, at = '', out: string[] = []): string[] {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => unbounded(s, `${at}[${i}]`, out));
    return out;
  }
  if (schema === null || typeof schema !== 'object') return out;
  const s = schema as Json;
  // z.unknown() as MCP clients get it (src/tools/schema.ts portable): any JSON value, spelled out type by type. It
  // validates nothing, so it states no size either (webhook event data, measured figures).
  const anyJson =
    Array.isArray(s.anyOf) &&
    s.anyOf.length === 6 &&
    s.anyOf.every((x: Json) => Object.keys(x).length === 1 && typeof x.type === 'string');
  if (anyJson) return out;
  const bounded = (max: string) => s[max] !== undefined || s.enum !== undefined || s.const !== undefined;
  if (s.type === 'string' && !bounded('maxLength') && s.format !== 'binary') out.push(`${at} (string)`);
  if (s.type === 'array' && !bounded('maxItems')) out.push(`${at} (array)`);
  if (s.type === 'number' || s.type === 'integer') {
    const hasMin = s.minimum !== undefined || s.exclusiveMinimum !== undefined;
    const hasMax = s.maximum !== undefined || s.exclusiveMaximum !== undefined;
    if (!(hasMin && hasMax) && s.enum === undefined && s.const === undefined) out.push(`${at} (${s.type})`);
  }
  for (const [key, value] of Object.entries(s)) {
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default' || key === 'const') continue;
    if (value && typeof value === 'object') unbounded(value, at ? `${at}.${key}` : key, out);
  }
  return out;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

describe('size bounds', () => {
  it('are on every string, array and number of every tool input and output schema', () => {
    const gaps = TOOLS.flatMap((tool) => {
      const { input, output } = toolSchemas(tool);
      return [
        ...unbounded(input).map((p) => `${tool.name} input ${p}`),
        ...unbounded(output).map((p) => `${tool.name} output ${p}`),
      ];
    });
    expect(gaps).toEqual([]);
  });

  it('are stated for every JSON schema of the OpenAPI document', async () => {
    const doc = (await server.app.inject({ url: '/api/v1/openapi.json' })).json() as Doc;
    const gaps: string[] = unbounded(doc.components.schemas, 'components.schemas');
    for (const [name, header] of Object.entries(doc.components.headers))
      unbounded(header.schema, `components.headers.${name}`, gaps);
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${p}`;
        for (const param of op.parameters ?? []) unbounded(param.schema, `${where} parameter ${param.name}`, gaps);
        const bodies = [op.requestBody?.content, ...Object.values(op.responses ?? {}).map((r) => r.content)];
        for (const content of bodies) {
          // JSON bodies; file bodies (audio, video, PDF, Markdown books) are sized by Content-Length (see .spectral.yaml).
          for (const [type, media] of Object.entries(content ?? {}))
            if (/json|form-data/.test(type)) unbounded(media.schema, `${where} ${type}`, gaps);
        }
        for (const r of Object.values(op.responses ?? {})) {
          for (const [name, h] of Object.entries(r.headers ?? {}))
            if (h.schema) unbounded(h.schema, `${where} header ${name}`, gaps);
        }
      }
    }
    expect(gaps).toEqual([]);
    // Integers say which JSON integer they are (OWASP integer-format).
    const text = JSON.stringify(doc);
    expect(text.includes('"type":"integer"')).toBe(true);
    const integers = [...text.matchAll(/\{[^{}]*"type":"integer"[^{}]*\}/g)].map((m) => m[0]);
    expect(integers.filter((s) => !/"format":"int(32|64)"/.test(s))).toEqual([]);
  });

  it('keep the bounds a field states itself, add the defaults elsewhere, and keep descriptions and refinements', () => {
    const schema = z
      .object({
        name: z.string().max(40).describe('A name.'),
        note: z.string().describe('A note.'),
        tags: z.array(z.string().describe('A tag.')).optional().describe('Tags.'),
        amount: z.number().min(0).describe('An amount.'),
        count: z.number().int().describe('A count.'),
      })
      .strict()
      .refine((v) => v.note !== 'forbidden', { message: 'forbidden note' })
      .describe('Thing.');
    const json = toJsonSchema(bounded(schema, 'input'), 'input') as ThingSchema;
    expect(json.description).toBe('Thing.');
    expect(json.properties.name).toMatchObject({ maxLength: 40, description: 'A name.' });
    expect(json.properties.note).toMatchObject({ maxLength: DEFAULT_BOUNDS.input.string, description: 'A note.' });
    expect(json.properties.tags).toMatchObject({
      maxItems: DEFAULT_BOUNDS.input.array,
      description: 'Tags.',
      items: { maxLength: DEFAULT_BOUNDS.input.string },
    });
    expect(json.properties.amount).toMatchObject({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(json.properties.count).toMatchObject({
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(json.additionalProperties).toBe(false);
    const b = bounded(schema, 'input');
    expect(b.safeParse({ name: 'a', note: 'forbidden', amount: 1, count: 1 }).error?.issues[0]?.message).toBe(
      'forbidden note',
    );
    expect(b.safeParse({ name: 'a', note: 'n', amount: 1, count: 1, extra: 1 }).success).toBe(false);
    expect(b.safeParse({ name: 'a', note: 'x'.repeat(DEFAULT_BOUNDS.input.string), amount: 1, count: 1 }).success).toBe(
      true,
    );
    expect(
      b.safeParse({ name: 'a', note: 'x'.repeat(DEFAULT_BOUNDS.input.string + 1), amount: 1, count: 1 }).success,
    ).toBe(false);
    // Output schemas get the larger output defaults.
    expect((toJsonSchema(bounded(schema, 'output'), 'output') as ThingSchema).properties.note.maxLength).toBe(
      DEFAULT_BOUNDS.output.string,
    );
  });

  it('refuse an over-long string or an out-of-range number where no field limit applies with 400 VALIDATION_ERROR', async () => {
    const post = (estate: Record<string, unknown>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/inheritance/calculate',
        headers: { authorization: `Bearer ${server.adminKey}` },
        payload: { heirs: { wife: 1, son: 2 }, estate },
      });
    const ok = await post({ total: '120000' });
    expect(ok.statusCode).toBe(200);
    // A decimal amount written with 1,001 digits: it matches the field's pattern, but passes the default 1,000.
    const long = await post({ total: '1'.repeat(DEFAULT_BOUNDS.input.string + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect((long.json().error.details as Array<{ field: string }>).some((d) => d.field === 'estate.total')).toBe(true);
    const huge = await post({ total: 1e300 });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect((huge.json().error.details as Array<{ field: string }>).some((d) => d.field === 'estate.total')).toBe(true);
  });
});
