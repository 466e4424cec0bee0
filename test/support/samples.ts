// Inputs generated from JSON Schemas (as published in the OpenAPI document):
// one valid sample, and many invalid variants, for the bad-input harness and
// the access matrix. Written for the subset of JSON Schema our zod schemas emit.

/** A JSON Schema: the keywords read here are typed; any other one is carried along unread. */
export interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  /** OpenAPI 3.0's way of also allowing null. */
  nullable?: boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  [keyword: string]: unknown;
}

function firstOf(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!;
  if (Array.isArray(schema.oneOf)) return schema.oneOf[0]!;
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf);
  return schema;
}

function typeOf(schema: Schema): string | undefined {
  const s = firstOf(schema);
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.enum) return typeof s.enum[0];
  if (s.const !== undefined) return typeof s.const;
  if (s.properties) return 'object';
  return undefined;
}

/** A value that satisfies the schema (formats and patterns we emit included). */
export function validSample(schema: Schema, depth = 0): unknown {
  const s = firstOf(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string': {
      if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uri') return 'https://example.com/';
      if (s.pattern === '^\\d{1,78}$') return '1';
      const n = Math.max(1, s.minLength ?? 1);
      return 'x'.repeat(Math.min(n, s.maxLength ?? n));
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(Math.max(min, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    case 'array':
      return depth > 6 ? [] : Array.from({ length: s.minItems ?? 0 }, () => validSample(s.items ?? {}, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = validSample(s.properties?.[key] ?? {}, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ud800',
  '😀'.repeat(50),
  '\u200b\u200c\u200d',
  'line\nbreak\r\n',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00%ZZ',
  '__proto__',
  'x'.repeat(5000),
];

const WRONG_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  -1e308,
  2 ** 53 + 2,
  true,
  false,
  'text',
  [],
  {},
  [1, 'a'],
  { nested: { deeper: true } },
];

function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

export interface Variant {
  /** What the variant does, for reports. */
  label: string;
  /** The field the variant breaks ('' for the whole input). */
  field: string;
  value: unknown;
}

/** Invalid (or suspicious) variants of an object input, field by field. */
export function objectVariants(schema: Schema, known?: Record<string, unknown>): Variant[] {
  const s = firstOf(schema);
  const base = known ?? ((validSample(s) ?? {}) as Record<string, unknown>);
  const props: Record<string, Schema> = s.properties ?? {};
  const out: Variant[] = [];
  const withField = (field: string, value: unknown): Record<string, unknown> => ({ ...base, [field]: value });

  for (const [name, prop] of Object.entries(props)) {
    const t = typeOf(prop);
    for (const wrong of WRONG_VALUES) {
      const wrongType = Array.isArray(wrong) ? 'array' : wrong === null ? 'null' : typeof wrong;
      const same =
        wrongType === t ||
        (t === 'integer' && wrongType === 'number' && Number.isInteger(wrong)) ||
        (wrongType === 'number' && t === 'number');
      if (!same) out.push({ label: `${name}: ${JSON.stringify(wrong)}`, field: name, value: withField(name, wrong) });
    }
    if (t === 'string')
      for (const odd of ODD_STRINGS)
        out.push({
          label: `${name}: odd string ${JSON.stringify(odd.slice(0, 12))}`,
          field: name,
          value: withField(name, odd),
        });
    if (t === 'number' || t === 'integer') {
      for (const n of [-1, 0, -0, 1e21, -1e21, 0.000001, 2 ** 31, -(2 ** 31), 1.5])
        out.push({ label: `${name}: ${n}`, field: name, value: withField(name, n) });
    }
    if (t === 'array') {
      out.push({
        label: `${name}: huge array`,
        field: name,
        value: withField(
          name,
          Array.from({ length: 100_000 }, (_, i) => i),
        ),
      });
      out.push({ label: `${name}: array of odd strings`, field: name, value: withField(name, ODD_STRINGS) });
      out.push({ label: `${name}: array of nulls`, field: name, value: withField(name, [null, null]) });
    }
    out.push({ label: `${name}: deep nesting`, field: name, value: withField(name, deep(2000)) });
    if ((s.required ?? []).includes(name)) {
      const { [name]: _gone, ...rest } = base;
      out.push({ label: `missing ${name}`, field: name, value: rest });
    }
  }
  out.push({ label: 'extra field', field: 'unexpectedField', value: { ...base, unexpectedField: 1 } });
  out.push({
    label: 'constructor field',
    field: 'constructor',
    value: { ...base, constructor: { prototype: { polluted: true } } },
  });
  out.push({
    label: 'many extra fields',
    field: '',
    value: { ...base, ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, i])) },
  });
  for (const whole of [null, [], 'string', 42, true, deep(3000)])
    out.push({ label: `whole body ${JSON.stringify(whole)?.slice(0, 20)}`, field: '', value: whole });
  return out;
}

/** Raw bodies that are not what a JSON API accepts, with the content type to send. */
export const RAW_BODIES: Array<{ label: string; contentType: string | undefined; body: string }> = [
  { label: 'truncated JSON', contentType: 'application/json', body: '{"a": 1' },
  { label: 'trailing comma', contentType: 'application/json', body: '{"a": 1,}' },
  { label: 'single quotes', contentType: 'application/json', body: "{'a': 1}" },
  { label: 'bare word', contentType: 'application/json', body: 'hello' },
  { label: 'NaN literal', contentType: 'application/json', body: '{"a": NaN}' },
  { label: 'huge exponent', contentType: 'application/json', body: '{"page": 1e999, "limit": -1e999, "count": 1e999}' },
  { label: '__proto__ key', contentType: 'application/json', body: '{"__proto__": {"polluted": true}}' },
  { label: 'duplicate keys', contentType: 'application/json', body: '{"name": "a", "name": 5}' },
  { label: 'BOM', contentType: 'application/json', body: '\ufeff{}' },
  { label: 'empty JSON body', contentType: 'application/json', body: '' },
  { label: 'text/plain', contentType: 'text/plain', body: '{}' },
  { label: 'form encoded', contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  {
    label: 'multipart',
    contentType: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  },
  { label: 'xml', contentType: 'application/xml', body: '<a>1</a>' },
  { label: 'json with charset latin1', contentType: 'application/json; charset=latin1', body: '{}' },
  { label: 'no content type', contentType: undefined, body: '{"a": 1}' },
  {
    label: 'over the body limit',
    contentType: 'application/json',
    body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
  },
];

/** Odd values for path parameters (already URL-encoded where needed). */
export const PATH_VALUES = [
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%ZZ',
  'x'.repeat(3000),
  '%F0%9F%98%80',
  'key_00000000000000000000000000',
  '-1',
  'null',
  '%20',
  '%2F',
];

/** Odd query strings. */
export const QUERY_VALUES = [
  'page=-1',
  'page=0',
  'limit=0',
  'limit=101',
  'limit=1e3',
  'page=NaN',
  'page=1&page=2',
  'limit=abc',
  'page=99999999999999999999',
  'cursor=%00',
  'x=1',
  'page[]=1',
];
