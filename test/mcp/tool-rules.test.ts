import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS, TOOLS } from '../../src/tools/index.js';
import { toJsonSchema } from '../../src/tools/schema.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { connectInMemory } from './in-memory.js';

// Every tool as an MCP client sees it: a title, the four annotation
// hints, an output schema, and schemas every client can read (no type lists,
// no empty schemas). Listed through the SDK client, so a new tool cannot skip
// the rules.

let server: TestServer;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  ({ client } = await connectInMemory(server, 'tool-rules'));
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** Where a schema uses a type list or is empty (annotations only), as JSON paths. */
function portabilityProblems(schema: unknown, at = '$'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => portabilityProblems(s, `${at}[${i}]`));
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  if (Array.isArray(s.type)) out.push(`${at}: type list ${JSON.stringify(s.type)}`);
  const meaningful = Object.keys(s).filter(
    (k) => !['description', 'title', 'default', 'examples', '$schema'].includes(k),
  );
  if (meaningful.length === 0) out.push(`${at}: empty schema`);
  for (const key of ['items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'allOf'])
    if (s[key] !== undefined && typeof s[key] === 'object') out.push(...portabilityProblems(s[key], `${at}.${key}`));
  for (const key of ['properties', 'patternProperties', 'definitions', '$defs']) {
    const map = s[key] as Record<string, unknown> | undefined;
    if (map && typeof map === 'object')
      for (const [name, sub] of Object.entries(map)) out.push(...portabilityProblems(sub, `${at}.${key}.${name}`));
  }
  return out;
}

describe('MCP tool rules', () => {
  it('lists every MCP tool', () => {
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
  });

  it('every tool has a title and all four annotation hints, consistent with what it does', () => {
    for (const t of tools) {
      const def = TOOLS.find((d) => d.name === t.name)!;
      expect(t.title, t.name).toMatch(/\S/);
      const a = t.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof a[hint], `${t.name} ${hint}`).toBe('boolean');
      if (a.readOnlyHint) {
        expect(a.destructiveHint, `${t.name}: read-only yet destructive`).toBe(false);
        expect(a.idempotentHint, `${t.name}: read-only yet not idempotent`).toBe(true);
      }
      if (def.rest.method === 'GET') expect(a.readOnlyHint, `${t.name} is a GET`).toBe(true);
      if (def.rest.method === 'DELETE') expect(a.destructiveHint, `${t.name} is a DELETE`).toBe(true);
      if (def.rest.method === 'PUT' || def.rest.method === 'DELETE')
        expect(a.idempotentHint, `${t.name} is a ${def.rest.method}`).toBe(true);
    }
  });

  it('every tool has an object output schema, and no input or output schema has a type list or an empty schema', () => {
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(portabilityProblems(t.inputSchema), `${t.name} input`).toEqual([]);
      expect(portabilityProblems(t.outputSchema), `${t.name} output`).toEqual([]);
    }
  });

  it('results carry structuredContent that the SDK client checks against the output schema', async () => {
    const result = await client.callTool({ name: 'list_templates', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeTypeOf('object');
    const jur = await client.callTool({ name: 'get_jurisdiction', arguments: { id: 'de' } });
    expect(jur.isError, JSON.stringify(jur.content)).toBeFalsy();
    expect(jur.structuredContent).toHaveProperty('parent');
  });

  it('the conversion rewrites nullable and unknown fields, and the rewritten schema accepts the same values', async () => {
    const { Ajv } = await import('ajv');
    const schema = toJsonSchema(
      z.object({
        a: z.string().min(2).nullable().describe('A nullable string.'),
        b: z.unknown().describe('Anything.'),
        c: z.record(z.string(), z.unknown()).describe('A map of anything.'),
      }),
      'output',
    );
    expect(portabilityProblems(schema)).toEqual([]);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.a).toEqual({
      description: 'A nullable string.',
      anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }],
    });
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate({ a: null, b: { x: [1] }, c: { k: 'v', n: null } })).toBe(true);
    expect(validate({ a: 'ok', b: 3, c: {} })).toBe(true);
    expect(validate({ a: 'x', b: 3, c: {} })).toBe(false);
    expect(validate({ a: 5, b: 3, c: {} })).toBe(false);
  });
});
