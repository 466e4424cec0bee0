import { z } from 'zod';
import type { AnyTool } from './define.js';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema of a zod object, emitted with zod 4's own converter (the
 * zod-to-json-schema package returns an empty schema for zod 4 objects).
 * `io: 'input'` describes what a caller may send (fields with defaults are optional).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as JsonSchema;
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
