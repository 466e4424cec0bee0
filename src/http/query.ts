import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

function baseType(schema: z.ZodType): string {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; i < 10 && s; i++) {
    const def: Def = (s as unknown as { _zod: { def: Def } })._zod.def;
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
      s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return def.type;
  }
  return 'unknown';
}

/**
 * Query strings carry only strings; turn them into the numbers, booleans and
 * arrays the tool's input schema declares, so REST and MCP inputs validate alike.
 * Values that don't convert are passed on unchanged and fail validation with a clear reason.
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
    switch (baseType(field)) {
      case 'number':
      case 'int':
        out[key] = value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
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
