import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

/** The schema under a field's optional, default, nullable and pipe wrappers: the one whose type the query must match. */
function baseSchema(schema: z.ZodType): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; i < 10 && s; i++) {
    const def: Def = (s as unknown as { _zod: { def: Def } })._zod.def;
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
      s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return undefined;
}

const typeOf = (schema: z.ZodType | undefined): string =>
  schema ? (schema as unknown as { _zod: { def: Def } })._zod.def.type : 'unknown';

/** A number as a query writes one: decimal digits with an optional leading minus, and a decimal part after a point. */
const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;

/**
 * The number a query value spells in plain decimal, or undefined. Number() alone would read "0x10" as 16, "1e1" as
 * 10, " 10" as 10 and "0b11" as 3: a value a client did not mean as that number, or that a proxy or a log shows as
 * another. A fraction stays a fraction (1.5, which an integer field refuses as not whole), and "10.0" is 10, as the
 * same field reads `10.0` in a JSON body or an MCP call: the three validate alike.
 */
function decimalNumber(value: string): number | undefined {
  if (!DECIMAL.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Query strings carry only strings; turn them into the numbers, booleans and
 * arrays the tool's input schema declares, so REST and MCP inputs validate alike.
 * Numbers must be written in plain decimal (see decimalNumber). Values that don't convert are passed on unchanged
 * and fail validation with a clear reason, after admission: nothing is refused here.
 */
export function coerceQuery(shape: Record<string, z.ZodType>, query: Record<string, unknown>): Record<string, unknown> {
  // A null-prototype object: keys such as __proto__ or constructor stay plain data
  // (and then fail validation as unknown fields) instead of touching prototypes.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(query)) {
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field || typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const base = baseSchema(field);
    switch (typeOf(base)) {
      case 'number':
        out[key] = decimalNumber(value) ?? value;
        break;
      case 'boolean':
        out[key] = value === 'true' ? true : value === 'false' ? false : value;
        break;
      case 'array':
        out[key] = value === '' ? [] : value.split(',');
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}
