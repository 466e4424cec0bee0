import { z } from 'zod';

/**
 * Size bounds on every string, array and number of a tool's schemas, given once where tools are defined
 * (defineTool), so that validation and the OpenAPI document (generated from the same zod) say the same thing and
 * an oversized value is a 400 VALIDATION_ERROR before any handler runs.
 *
 * A field that states its own bound keeps it (tool files give tight ones: names, ids, addresses; journal entries,
 * chat messages, contract sources and other long text have their own documented limits, see docs-index/limits.md).
 * A field without one gets the default of its direction:
 *   - input (what callers send): strings 1,000 characters, arrays 1,000 items;
 *   - output (what the service answers; checked by the tool wrapper before it is sent): strings 1,000,000
 *     characters, arrays 10,000 items. These are far above anything the service produces from bounded input (the
 *     largest answers, generated contract sources and bytecode, stay under 200 kB), so they never refuse a real
 *     answer; they make the document's promise checkable.
 *   - numbers, both directions: within ±(2^53 - 1) (Number.MAX_SAFE_INTEGER), the range JSON numbers keep exactly.
 *     Integers (`.int()`) already carry it.
 * Descriptions and other metadata stay (the rebuilt schemas keep their originals as parents in zod's registry).
 */
export const DEFAULT_BOUNDS = {
  input: { string: 1_000, array: 1_000 },
  output: { string: 1_000_000, array: 10_000 },
  number: Number.MAX_SAFE_INTEGER,
} as const;

export type Direction = 'input' | 'output';

type Def = Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: Record<string, unknown> } }> };
type Schema = z.ZodType & { _zod: { def: Def } };

const caches: Record<Direction, WeakMap<z.ZodType, z.ZodType>> = { input: new WeakMap(), output: new WeakMap() };

/** The schema with every unbounded string, array and number bounded (see above); the same instance when nothing changes. */
export function bounded<T extends z.ZodType>(schema: T, direction: Direction): T {
  return walk(schema as unknown as Schema, direction) as unknown as T;
}

function checksOf(def: Def): Array<Record<string, unknown>> {
  return (def.checks ?? []).map((c) => c._zod.def);
}

/** A copy of `schema` with `changes` in its definition; it keeps `schema` as parent, so its description and metadata. */
function rebuilt(schema: Schema, changes: Record<string, unknown>): Schema {
  return schema.clone({ ...schema._zod.def, ...changes } as never, { parent: true }) as Schema;
}

function walk(schema: Schema, direction: Direction): z.ZodType {
  const cache = caches[direction];
  const known = cache.get(schema);
  if (known) return known;
  const result = bound(schema, direction);
  cache.set(schema, result);
  return result;
}

function bound(schema: Schema, direction: Direction): z.ZodType {
  const def = schema._zod.def;
  const sub = (s: unknown) => walk(s as Schema, direction);
  const limits = DEFAULT_BOUNDS[direction];
  switch (def.type) {
    case 'string': {
      const checks = checksOf(def);
      if (checks.some((c) => c.check === 'max_length' || c.check === 'length_equals')) return schema;
      return schema.check(z.maxLength(limits.string));
    }
    case 'number': {
      const checks = checksOf(def);
      // `.int()` and z.int() are safe integers: bounded already (and shown so in JSON Schema).
      if (typeof def.format === 'string' || checks.some((c) => c.check === 'number_format')) return schema;
      const hasMax = checks.some((c) => c.check === 'less_than');
      const hasMin = checks.some((c) => c.check === 'greater_than');
      if (hasMax && hasMin) return schema;
      const added: z.core.$ZodCheck<number>[] = [];
      if (!hasMin) added.push(z.gte(-DEFAULT_BOUNDS.number));
      if (!hasMax) added.push(z.lte(DEFAULT_BOUNDS.number));
      return schema.check(...(added as never[]));
    }
    case 'array': {
      const element = sub(def.element);
      const checks = checksOf(def);
      const base = element === def.element ? schema : rebuilt(schema, { element });
      if (checks.some((c) => c.check === 'max_length' || c.check === 'length_equals')) return base;
      return base.check(z.maxLength(limits.array));
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      let changed = false;
      const next: Record<string, z.ZodType> = {};
      for (const [key, value] of Object.entries(shape)) {
        next[key] = sub(value);
        if (next[key] !== value) changed = true;
      }
      const catchall = def.catchall ? sub(def.catchall) : def.catchall;
      if (catchall !== def.catchall) changed = true;
      return changed ? rebuilt(schema, { shape: next, catchall }) : schema;
    }
    case 'union': {
      const options = def.options as z.ZodType[];
      const next = options.map(sub);
      return next.some((o, i) => o !== options[i]) ? rebuilt(schema, { options: next }) : schema;
    }
    case 'intersection': {
      const left = sub(def.left);
      const right = sub(def.right);
      return left !== def.left || right !== def.right ? rebuilt(schema, { left, right }) : schema;
    }
    case 'tuple': {
      const items = (def.items as z.ZodType[]).map(sub);
      const rest = def.rest ? sub(def.rest) : def.rest;
      return items.some((s, i) => s !== (def.items as z.ZodType[])[i]) || rest !== def.rest
        ? rebuilt(schema, { items, rest })
        : schema;
    }
    case 'record': {
      const keyType = sub(def.keyType);
      const valueType = sub(def.valueType);
      return keyType !== def.keyType || valueType !== def.valueType ? rebuilt(schema, { keyType, valueType }) : schema;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'nonoptional':
    case 'readonly': {
      const inner = sub(def.innerType);
      return inner !== def.innerType ? rebuilt(schema, { innerType: inner }) : schema;
    }
    case 'pipe': {
      const input = sub(def.in);
      const output = sub(def.out);
      return input !== def.in || output !== def.out ? rebuilt(schema, { in: input, out: output }) : schema;
    }
    default:
      // Literals, enums, booleans, null, transforms, lazy (recursive) schemas and the like: left as they are.
      return schema;
  }
}
