import { z } from 'zod';
import type { AnyTool } from './define.js';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema of a zod object, emitted with zod 4's own converter (the
 * zod-to-json-schema package returns an empty schema for zod 4 objects).
 * `io: 'input'` describes what a caller may send (fields with defaults are optional).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return portable(z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as JsonSchema);
}

/** Keywords that annotate a schema rather than constrain it. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'examples',
  '$schema',
  '$id',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Any JSON value, spelled out (an empty schema `{}` means the same, but clients and validators disagree on it). */
const ANY_JSON: JsonSchema[] = ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type }));

/** Keywords whose value is one schema, a list of schemas, or a map of schemas. */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalItems',
];
const LIST = ['anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', 'patternProperties', 'definitions', '$defs'];

/**
 * Rewrites a JSON Schema into the subset every MCP client handles (the
 * MCP Inspector flagged both forms): a type list such as
 * `{"type": ["string", "null"]}` becomes an `anyOf` of single types (the
 * annotations stay on the outer schema), and an empty schema (from
 * `z.unknown()`, a record of unknowns) becomes an explicit `anyOf` of every
 * JSON type. What the schema accepts is unchanged. Tuple `items` lists are
 * walked too; boolean schemas are left as they are.
 */
export function portable(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ONE.includes(k) && v && typeof v === 'object')
      out[k] = Array.isArray(v) ? v.map(sub) : portable(v as JsonSchema);
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map(sub);
    else if (MAP.includes(k) && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, sub(s)]));
    else out[k] = v;
  }
  const keys = Object.keys(out);
  if (Array.isArray(out.type)) {
    const types = out.type as string[];
    const annotations: JsonSchema = {};
    const constraints: JsonSchema = {};
    for (const k of keys) if (k !== 'type') (ANNOTATIONS.has(k) ? annotations : constraints)[k] = out[k];
    if (types.length === 1) return { ...annotations, type: types[0], ...constraints };
    return { ...annotations, anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...constraints })) };
  }
  if (keys.every((k) => ANNOTATIONS.has(k))) return { ...out, anyOf: ANY_JSON };
  return out;
}

function sub(s: unknown): unknown {
  return s && typeof s === 'object' && !Array.isArray(s) ? portable(s as JsonSchema) : s;
}

export interface ToolSchemas {
  input: JsonSchema;
  output: JsonSchema;
}

const cache = new WeakMap<AnyTool, ToolSchemas>();

/** The tool's input and output JSON Schemas, computed once per tool. */
export function toolSchemas(tool: AnyTool): ToolSchemas {
  let s = cache.get(tool);
  if (!s) {
    s = { input: toJsonSchema(tool.input, 'input'), output: toJsonSchema(tool.output, 'output') };
    cache.set(tool, s);
  }
  return s;
}
