import { z } from 'zod';
import { ERROR_CODES } from '../core/errors.js';
import type { AnyTool } from '../tools/define.js';
import { bounded } from '../tools/bounds.js';

// Schemas of the REST envelope, used only to document responses in OpenAPI.

// Bounded like every tool schema (src/tools/bounds.ts), so the document states a size for every field.
export const MetaSchema = bounded(
  z
    .object({
      requestId: z.string().describe('Id of this request; equals the X-Request-Id response header.'),
      timestamp: z.string().describe('Time of the response, ISO 8601.'),
    })
    .describe('Response metadata.'),
  'output',
);

export const ErrorEnvelopeSchema = bounded(
  z
    .object({
      success: z.literal(false).describe('Always false on error.'),
      error: z
        .object({
          code: z.enum(ERROR_CODES).describe('Machine-readable error code (docs-index/errors.md lists them).'),
          message: z.string().describe('What went wrong, for a person.'),
          details: z
            .array(
              z
                .object({
                  field: z.string().describe('Dotted path of the offending input field; empty for the whole input.'),
                  reason: z.string().describe('Why the field was refused.'),
                  line: z.number().int().optional().describe('Source line (compiler errors), 1-based.'),
                  column: z.number().int().optional().describe('Source column (compiler errors), 1-based.'),
                  expected: z
                    .string()
                    .optional()
                    .describe('The value that would be accepted, where one can be computed.'),
                  required: z.number().int().optional().describe('INSUFFICIENT_CREDITS: credits the operation needs.'),
                  available: z.number().int().optional().describe('INSUFFICIENT_CREDITS: credits the wallet holds.'),
                  used: z
                    .number()
                    .int()
                    .optional()
                    .describe('QUOTA_EXCEEDED: bytes the account stores now, uploads in progress included.'),
                  limit: z.number().int().optional().describe('QUOTA_EXCEEDED: bytes the account may store.'),
                  needed: z.number().int().optional().describe('QUOTA_EXCEEDED: bytes the refused upload asked for.'),
                })
                .describe('One problem.'),
            )
            .optional()
            .describe('Each problem with the input.'),
          retryAfter: z
            .string()
            .optional()
            .describe(
              'On 429 RATE_LIMIT_EXCEEDED and 503 SERVICE_BUSY or SERVICE_UNAVAILABLE: ISO 8601 time after which to retry (the Retry-After header gives the same in seconds).',
            ),
        })
        .describe('The error.'),
      meta: MetaSchema,
    })
    .describe('Error envelope.'),
  'output',
);

/** An object schema less some of its fields (those a route carries in meta). */
function withoutFields(schema: z.ZodObject, fields: readonly string[]): z.ZodObject {
  const shape = { ...(schema.shape as Record<string, z.ZodType>) };
  for (const f of fields) delete shape[f];
  const out = z.object(shape);
  return schema.description ? out.describe(schema.description) : out;
}

/** The documented success body of a tool's REST route. */
export function successSchema(tool: AnyTool): z.ZodType {
  const success = z.literal(true).describe('Always true on success.');
  switch (tool.rest.shape) {
    case 'top-level': {
      const { metaFields = [] } = tool.rest;
      const shape = tool.output.shape as Record<string, z.ZodType>;
      const meta = metaFields.length
        ? MetaSchema.extend(Object.fromEntries(metaFields.map((f) => [f, shape[f]!])))
        : MetaSchema;
      const top = metaFields.length ? withoutFields(tool.output, metaFields) : tool.output;
      return top.extend({ success, meta }).describe(tool.output.description ?? tool.title);
    }
    case 'list': {
      const shape = tool.output.shape as Record<string, z.ZodType>;
      if (!shape.items) throw new Error(`${tool.name}: a list tool's output needs an "items" field`);
      const extra = Object.fromEntries((tool.rest.metaFields ?? []).map((f) => [f, shape[f]!]));
      const meta =
        shape.pagination || Object.keys(extra).length
          ? MetaSchema.extend({ ...(shape.pagination ? { pagination: shape.pagination } : {}), ...extra })
          : MetaSchema;
      return z.object({ success, data: shape.items, meta }).describe(`Envelope with a list of results.`);
    }
    case 'data': {
      const shape = tool.output.shape as Record<string, z.ZodType>;
      const { dataField, metaFields = [] } = tool.rest;
      const data = dataField
        ? shape[dataField]
        : metaFields.length
          ? withoutFields(tool.output, metaFields)
          : tool.output;
      if (!data) throw new Error(`${tool.name}: output has no field "${dataField}"`);
      const meta = metaFields.length
        ? MetaSchema.extend(Object.fromEntries(metaFields.map((f) => [f, shape[f]!])))
        : MetaSchema;
      return z.object({ success, data, meta }).describe('Success envelope.');
    }
  }
}
