import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS, TOOLS } from '../src/tools/index.js';
import { toolSchemas, type JsonSchema } from '../src/tools/schema.js';
import { startTestServer, type TestServer } from './helpers.js';
import { connectInMemory } from './mcp/in-memory.js';

// The public contract of the service: tools/list and the OpenAPI document are
// snapshotted (CI runs with CI=true, so a missing or stale snapshot fails), and
// every schema a client sees documents every field.

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  ({ client } = await connectInMemory(server, 'snapshot', { transport: 'mcp-http' }));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** Paths of object properties in a JSON Schema that carry no description. */
function undescribed(schema: unknown, at = '$'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const props = s.properties as Record<string, Record<string, unknown>> | undefined;
  if (props) {
    for (const [name, prop] of Object.entries(props)) {
      if (typeof prop.description !== 'string' || prop.description.trim() === '') out.push(`${at}.${name}`);
      out.push(...undescribed(prop, `${at}.${name}`));
    }
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    if (s[key] && typeof s[key] === 'object') out.push(...undescribed(s[key], `${at}[${key}]`));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key] as unknown[] | undefined;
    list?.forEach((sub, i) => out.push(...undescribed(sub, `${at}<${key}${i}>`)));
  }
  return out;
}

function isEmptySchema(s: JsonSchema): boolean {
  return Object.keys(s).filter((k) => k !== '$schema').length === 0;
}

describe('tool registry', () => {
  it('every tool states readOnlyHint, a scope, a unique snake_case name and a unique route', () => {
    const names = new Set<string>();
    const routes = new Set<string>();
    for (const tool of TOOLS) {
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe('boolean');
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      // A scope, or an explicit null (any valid key) restricted by tiers, or no key at all (sign-up, sign-in, session routes).
      const keyless = tool.auth === 'none' || !(tool.principals ?? ['key']).includes('key');
      expect(tool.scope !== null ? tool.scope.length > 0 : keyless || (tool.tiers?.length ?? 0) > 0, tool.name).toBe(
        true,
      );
      expect(tool.description.length).toBeGreaterThan(20);
      expect(names.has(tool.name)).toBe(false);
      names.add(tool.name);
      const route = `${tool.rest.method} ${tool.rest.path}`;
      expect(routes.has(route), route).toBe(false);
      routes.add(route);
    }
  });

  it('every input and output field has a description, and no schema is empty', () => {
    for (const tool of TOOLS) {
      const { input, output } = toolSchemas(tool);
      expect(isEmptySchema(input), `${tool.name} input`).toBe(false);
      expect(isEmptySchema(output), `${tool.name} output`).toBe(false);
      expect(undescribed(input), `${tool.name} input`).toEqual([]);
      expect(undescribed(output), `${tool.name} output`).toEqual([]);
    }
  });

  it('the description check catches a field without .describe()', async () => {
    const { z } = await import('zod');
    const { toJsonSchema } = await import('../src/tools/schema.js');
    const bad = z.object({ ok: z.string().describe('fine'), nested: z.object({ missing: z.number() }).describe('n') });
    expect(undescribed(toJsonSchema(bad, 'input'))).toEqual(['$.nested.missing']);
  });
});

describe('tools/list', () => {
  it('matches the snapshot', async () => {
    const { tools } = await client.listTools();
    // Session routes and the planned legal routes are REST only.
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBeTypeOf('boolean');
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('__snapshots__/tools-list.json');
  });

  it('announces instructions for assistants', () => {
    expect(client.getInstructions()).toMatch(/inheritance/);
  });
});

/** A response of the OpenAPI document, or a reference to a shared one. */
interface DocResponse {
  $ref?: string;
  content?: Record<string, { schema?: object }>;
}

/** The OpenAPI document, as far as these tests read it (a type alias, so the validator takes it as a plain record). */
type OpenApiDoc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { operationId: string; tags: string[]; responses: Record<string, DocResponse> }>
  >;
  components: { securitySchemes: Record<string, object>; responses: Record<string, DocResponse> };
};

describe('OpenAPI document', () => {
  let doc: OpenApiDoc;
  beforeAll(async () => {
    const res = await server.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.0.3');
  });

  it('has one operation per tool, named after it, tagged by domain, with the three key locations', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    for (const tool of TOOLS) {
      const path = `/api/v1${tool.rest.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
      const found = ops.find((o) => o.path === path && o.method === tool.rest.method.toLowerCase());
      expect(found, tool.name).toBeDefined();
      expect(found!.op.operationId).toBe(tool.name);
      expect(found!.op.tags).toEqual([tool.domain]);
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyHeader',
      'apiKeyQuery',
      'bearerAuth',
      'sessionCookie',
    ]);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ in: 'cookie', name: 'svc_session' });
    expect(doc.components.securitySchemes.apiKeyQuery).toMatchObject({ in: 'query', name: 'api_key' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ in: 'header', name: 'X-API-Key' });
  });

  it('documents every response body (no empty schema)', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, ref] of Object.entries(op.responses)) {
          // Error answers are shared components.responses, referenced with $ref.
          const resp = typeof ref.$ref === 'string' ? doc.components.responses[ref.$ref.split('/').pop()!] : ref;
          // JSON answers are declared as sent; the memoir's audio, video and export files by their media types.
          const content = (resp?.content ?? {}) as Record<string, { schema?: object }>;
          const types = Object.keys(content);
          expect(types.length > 0, `${method} ${path} ${status}`).toBe(true);
          for (const type of types) {
            if (type.includes('json'))
              expect(type, `${method} ${path} ${status}`).toBe('application/json; charset=utf-8');
            const schema = content[type]!.schema;
            expect(schema && Object.keys(schema).length > 0, `${method} ${path} ${status} ${type}`).toBe(true);
          }
        }
      }
    }
  });

  it('matches the snapshot', async () => {
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot('__snapshots__/openapi.json');
  });
});
