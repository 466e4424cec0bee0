import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors.js';
import { RATE_WINDOW_MS } from '../../src/keys/limits.js';
import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';
import { toolSchemas } from '../../src/tools/schema.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { EXAMPLES } from '../support/examples.js';
import { mcpToolCallRequest } from '../mcp-clients.js';
import { PROTOTYPE_KEY_REASON } from '../../src/http/json-body.js';
import { restRequest } from '../support/rest.js';
import type { Schema } from '../support/samples.js';
import { freshAddress, registerUser, sessionHeaders, signIn, type TestSession } from '../support/session.js';

// Property-based fuzz: every tool's REST route and MCP call
// gets at least 300 inputs generated from its input JSON Schema, valid-shaped
// or mutated (a field dropped, an unknown field, a value of another type, huge
// strings, deep nesting, NaN-like strings, odd numbers, unicode oddities,
// `__proto__`/`constructor` keys). No 5xx besides the documented ones, every
// error in the envelope with a known code, never an internal error over MCP.
// Then the same for every tool past the rate limit (at the end of this file).

/** Fixed, so a CI failure replays locally: fast-check prints the seed and the counterexample. */
const SEED = 0x5eed14;
const NUM_RUNS = 300;
/**
 * Tools whose schema-valid inputs compile Solidity (50–500 ms each) or synthesize speech with festival (seconds each):
 * only this many valid calls each; the rest of their 300 inputs are broken cheaply.
 */
const EXPENSIVE: Record<string, number> = {
  generate_contract: 10,
  compile_contract: 10,
  estimate_gas: 10,
  // Festival takes a couple of seconds a call: the spoken answer itself is tested in test/memoir/voice.test.ts.
  synthesize_memoir_voice: 2,
};

const clock = new FakeClock();
let server: TestServer;
const stats: Record<string, { runs: number; rest: number; mcp: number; valid: number; mutated: number }> = {};

// ---------------------------------------------------------------------------
// JSON Schema (the subset zod's converter emits) → fast-check arbitraries.

const KEY_CHARS = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.$'.split(''));
const FAR_FUTURE = { min: new Date(Date.UTC(2027, 0, 1)), max: new Date(Date.UTC(2999, 11, 31)), noInvalidDate: true };

function clampLength(s: Schema, cap: number): { minLength: number; maxLength: number } {
  const minLength = s.minLength ?? 0;
  return { minLength, maxLength: Math.max(minLength, Math.min(s.maxLength ?? cap, cap)) };
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const { minLength, maxLength } = clampLength(s, 40);
  const fits = (v: string) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
  if (s.format === 'date-time') return fc.date(FAR_FUTURE).map((d) => d.toISOString());
  if (s.format === 'email') return fc.emailAddress().filter(fits);
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 4 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? s.exclusiveMinimum ?? -1e9;
  const hi = s.maximum ?? s.exclusiveMaximum ?? 1e9;
  if (integer) {
    const min = Math.max(Math.ceil(lo + (s.exclusiveMinimum !== undefined ? 1 : 0)), Number.MIN_SAFE_INTEGER);
    const max = Math.min(Math.floor(hi - (s.exclusiveMaximum !== undefined ? 1 : 0)), Number.MAX_SAFE_INTEGER);
    return fc.integer({ min, max });
  }
  return fc.double({
    min: lo,
    max: hi,
    minExcluded: s.exclusiveMinimum !== undefined,
    maxExcluded: s.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** An arbitrary producing values the schema accepts (as far as JSON Schema can say). */
function arbitraryFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = schema;
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((x: Schema) => arbitraryFor(x, depth + 1)));
  if (Array.isArray(s.oneOf)) return fc.oneof(...s.oneOf.map((x: Schema) => arbitraryFor(x, depth + 1)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => arbitraryFor({ ...s, type: t }, depth)));
  const nullable =
    s.nullable === true ? (a: fc.Arbitrary<unknown>) => fc.option(a, { nil: null }) : (a: fc.Arbitrary<unknown>) => a;
  switch (types[0] ?? (s.properties ? 'object' : undefined)) {
    case 'string':
      return nullable(stringArb(s));
    case 'integer':
      return nullable(numberArb(s, true));
    case 'number':
      return nullable(numberArb(s, false));
    case 'boolean':
      return nullable(fc.boolean());
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 5, 5));
      return nullable(fc.array(arbitraryFor(s.items ?? {}, depth + 1), { minLength, maxLength }));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryFor(v, depth + 1)])),
        { requiredKeys: ((s.required ?? []) as string[]).filter((k) => k in props) },
      ) as fc.Arbitrary<Record<string, unknown>>;
      const extra = s.additionalProperties;
      if (extra && typeof extra === 'object') {
        const keys = s.propertyNames ? (arbitraryFor(s.propertyNames, depth + 1) as fc.Arbitrary<string>) : KEY_STRING;
        const dict = fc.dictionary(keys, arbitraryFor(extra, depth + 1), { maxKeys: 4 });
        return nullable(fc.tuple(record, dict).map(([r, d]) => ({ ...d, ...r })));
      }
      return nullable(record);
    }
    default:
      // `{}` (any): small JSON values.
      return depth > 4 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------
// Mutations of a (valid-shaped) input.

const NAN_LIKE = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e999',
  '0x10',
  ' 1 ',
  '',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '1,5',
  '٣',
];
const ODD_NUMBERS = [
  -1,
  -0,
  0,
  0.5,
  -1e308,
  1e308,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 31,
  -(2 ** 31),
  1e21,
  Number.MIN_VALUE,
  Number.EPSILON,
];
const UNICODE_ODD = [
  '\ud800',
  '\udfff',
  'a\u0000b',
  '\u202eevil',
  '\u200b\u200c\u200d\ufeff',
  'e\u0301\u0301\u0301',
  '😀'.repeat(30),
  '\uffff',
  '𝔘𝔫𝔦',
  'İı',
  '\r\n\t',
  '%00%ZZ',
  '../../etc/passwd',
  '<script>x</script>',
];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', '$where', 'a.b', '0'];

/**
 * Arbitraries used by every mutation, made once: fast-check's string arbitrary over a custom character set builds a
 * reverse mapping when it is made, which cost more than the requests when it was made per generated input.
 */
const KEY_STRING = fc.string({ unit: KEY_CHARS, minLength: 1, maxLength: 12 });
const WHOLE_DEEP = deep(2000, false);
const OTHER_TYPE_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 10 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ unit: KEY_CHARS, maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/**
 * The values of the mutations, made once like the two above. The unicode oddities' strings draw any code point (lone
 * surrogates included) from a mapped integer rather than fast-check's `binary` unit: that unit builds a map of every
 * code point (86 MB) the first time fast-check reads a string back into it, which its bias does; made for each
 * generated input, it cost some 1.6 s of a part's main thread and its garbage.
 */
const HUGE_STRING = fc
  .tuple(fc.integer({ min: 10_000, max: 200_000 }), fc.constantFrom('x', 'é', '😀', '\u0000'))
  .map(([n, c]) => c.repeat(Math.ceil(n / c.length)));
const DEEP_VALUE = fc.tuple(fc.integer({ min: 20, max: 1500 }), fc.boolean()).map(([n, a]) => deep(n, a));
const NAN_LIKE_VALUE = fc.constantFrom(...NAN_LIKE);
const ODD_NUMBER = fc.constantFrom(...ODD_NUMBERS);
const ANY_CODE_POINT = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
const UNICODE_ODD_VALUE = fc.oneof(fc.constantFrom(...UNICODE_ODD), fc.string({ unit: ANY_CODE_POINT, maxLength: 30 }));
const ODD_KEY = fc.oneof(fc.constantFrom(...ODD_KEYS), KEY_STRING);

function deep(levels: number, array: boolean): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = array ? [v] : { a: v };
  return v;
}

/** Sets an own property, even `__proto__` (which plain assignment would turn into a prototype change). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** An object or an array on a path, indexed by its keys or slots. */
type Container = Record<string | number, unknown>;

/** Every path (to an object key or array slot) in a value, down to a small depth. */
function paths(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  if (prefix.length > 4 || value === null || typeof value !== 'object') return out;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  for (const [k, v] of entries) {
    out.push([...prefix, k]);
    paths(v, [...prefix, k], out);
  }
  return out;
}

function setAt(root: Record<string, unknown>, path: Array<string | number>, value: unknown): Record<string, unknown> {
  const copy = clone(root);
  let cur: Container = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Container;
  const last = path[path.length - 1]!;
  if (Array.isArray(cur)) cur[last as number] = value;
  else setOwn(cur, String(last), value);
  return copy;
}

function deleteAt(root: Record<string, unknown>, path: Array<string | number>): Record<string, unknown> {
  const copy = clone(root);
  let cur: Container = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Container;
  const last = path[path.length - 1]!;
  if (Array.isArray(cur)) cur.splice(last as number, 1);
  else delete cur[last];
  return copy;
}

interface Generated {
  /** What was done to the input, for the counterexample. */
  how: string;
  /** Normally an object; a whole-input mutation may make it anything (REST only then). */
  input: unknown;
}

/** One mutation of `base`, chosen by fast-check (so it shrinks and replays with the seed). */
function mutate(base: Record<string, unknown>, schema: Schema): fc.Arbitrary<Generated> {
  const all = paths(base);
  const required = ((schema.required ?? []) as string[]).filter((k) => k in base);
  const field = all.length ? fc.constantFrom(...all) : fc.constant<Array<string | number>>(['extra']);
  const replace = (how: string, value: fc.Arbitrary<unknown>) =>
    fc.tuple(field, value).map(([p, v]): Generated => ({ how: `${how} at ${p.join('.')}`, input: setAt(base, p, v) }));
  const options: Array<fc.Arbitrary<Generated>> = [
    replace('value of another type', OTHER_TYPE_VALUE),
    replace('huge string', HUGE_STRING),
    replace('deep nesting', DEEP_VALUE),
    replace('NaN-like string', NAN_LIKE_VALUE),
    replace('odd number', ODD_NUMBER),
    replace('unicode oddity', UNICODE_ODD_VALUE),
    fc.tuple(ODD_KEY, OTHER_TYPE_VALUE).map(([k, v]): Generated => {
      const copy = clone(base);
      setOwn(copy, k, k === '__proto__' || k === 'constructor' ? { polluted: true, prototype: { polluted: true } } : v);
      return { how: `unknown field ${JSON.stringify(k)}`, input: copy };
    }),
    fc
      .constantFrom<unknown>(null, [], [base], 'text', 42, true, WHOLE_DEEP)
      .map((whole): Generated => ({ how: 'whole input not an object', input: whole })),
  ];
  if (required.length)
    options.push(
      fc
        .constantFrom(...required)
        .map((k): Generated => ({ how: `required ${k} dropped`, input: deleteAt(base, [k]) })),
    );
  if (all.length)
    options.push(field.map((p): Generated => ({ how: `${p.join('.')} dropped`, input: deleteAt(base, p) })));
  return fc.oneof(...options);
}

/** Valid-shaped inputs (from the schema, or the tool's known-good example) and mutations of them, 1 : 3. */
function inputs(tool: AnyTool, example: Record<string, unknown> | undefined): fc.Arbitrary<Generated> {
  const schema = toolSchemas(tool).input as Schema;
  const fromSchema = arbitraryFor(schema) as fc.Arbitrary<Record<string, unknown>>;
  const base = example ? fc.oneof(fromSchema, fc.constant(example)) : fromSchema;
  return fc.oneof(
    { arbitrary: base.map((input): Generated => ({ how: 'valid-shaped', input })), weight: 1 },
    { arbitrary: base.chain((b) => mutate(b, schema)), weight: 3 },
  );
}

// ---------------------------------------------------------------------------
// Sending an input and judging the answer.

/** Checked against codes read from answers, which may be anything. */
const KNOWN_CODES = new Set<unknown>(ERROR_CODES);

/** An error as an answer carries it: every part is checked, so each may be missing. */
interface AnswerError {
  code?: unknown;
  message?: unknown;
  details?: Array<{ reason?: unknown }>;
  /** A JSON-RPC error of /mcp carries the envelope's error here. */
  data?: AnswerError;
}

/** An answer's body as parsed: the envelope when all is well, but every part is checked, so each may be missing. */
interface Answer {
  success?: unknown;
  error?: AnswerError;
  meta?: { requestId?: unknown };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A tool input as sent: its value after a JSON round trip, as the server receives it, and its JSON text in UTF-8, which
 * the requests carry as it is (inputs of megabytes, huge strings or deep nesting, are serialised once).
 */
interface Sent {
  value: unknown;
  body: Buffer;
}

/** Strings at least this long are looked at as possible repeats of one character (the huge-string mutation's). */
const REPEAT_MIN = 10_000;

/** The character a string repeats throughout (by code point), or undefined. */
function repeatedChar(text: string): string | undefined {
  const c = String.fromCodePoint(text.codePointAt(0)!);
  // Equal to itself shifted by one character, and a whole number of them: a repeat of that character.
  const periodic = text.slice(c.length) === text.slice(0, text.length - c.length);
  return periodic && text.length % c.length === 0 ? c : undefined;
}

/**
 * A place-holder in the JSON text for each huge repeat of one character (the huge-string mutation's). V8 writes,
 * reads and encodes to UTF-8 a string of emoji or NULs at some 15 to 40 ns a character (3 ms each for 100k of them),
 * and each input was written, read back and encoded twice (the REST and the MCP request): in a CPU profile of a
 * part, 5.7 s of its 52 s of main thread in this function alone, 2.4 s since. The place-holder's UTF-8 is replaced
 * by the character's JSON text repeated (JSON escapes each code point on its own), filled in like memset, and the
 * parsed value gets the string itself back: the bytes and the value are those of JSON.stringify and JSON.parse.
 */
const HOLE_START = '\u0001huge';
const HOLE = (i: number) => `${HOLE_START}${i}\u0001`;
/** A place-holder as JSON writes it (control characters escaped), its number captured. */
const HOLE_IN_JSON = /\\u0001huge(\d+)\\u0001/;

/** Inputs sent with place-holders filled in (checked by the harness's own test). */
let holesFilled = 0;

function plainForm(input: unknown): Sent {
  const json = JSON.stringify(input) ?? 'null';
  return { value: JSON.parse(json), body: Buffer.from(json) };
}

function sentForm(input: unknown): Sent {
  const holes: Array<{ text: string; body: Buffer }> = [];
  const withHoles =
    JSON.stringify(input, (_key, v: unknown) => {
      if (typeof v !== 'string' || v.length < REPEAT_MIN) return v;
      const c = repeatedChar(v);
      if (c === undefined) return v;
      const unit = Buffer.from(JSON.stringify(c).slice(1, -1));
      holes.push({ text: v, body: Buffer.alloc(unit.length * (v.length / c.length)).fill(unit) });
      return HOLE(holes.length - 1);
    }) ?? 'null';
  if (holes.length === 0) return { value: JSON.parse(withHoles), body: Buffer.from(withHoles) };
  // Text and place-holder numbers alternate; an input holding a place-holder's own text is sent the usual way.
  const pieces = withHoles.split(HOLE_IN_JSON);
  if (pieces.length !== 2 * holes.length + 1) return plainForm(input);
  const body = Buffer.concat(pieces.map((p, k) => (k % 2 ? holes[Number(p)]!.body : Buffer.from(p))));
  holesFilled++;
  const value = JSON.parse(withHoles, (_key, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(HOLE_START)) return v;
    const i = Number(v.slice(HOLE_START.length, -1));
    return i < holes.length && v === HOLE(i) ? holes[i]!.text : v;
  });
  return { value, body };
}

let session: TestSession | undefined;
/**
 * The user a successful logout signed out, and the server they belong to: the next call signs them in again (one
 * password check) instead of registering a new user (a hash, a mail, a confirmation and a check). A logout is valid
 * whatever its input, so most of its 600 calls sign out.
 */
let signedOut: { app: TestServer['app']; user: TestSession } | undefined;
let authCalls = 0;

/** Sign-up and sign-in count per client address (100 a window): a fresh window every 50 of them. */
function countAuthCall(): void {
  if (++authCalls % 50 === 0) clock.advance(RATE_WINDOW_MS);
}

async function credentials(tool: AnyTool, srv: TestServer): Promise<Record<string, string>> {
  if (tool.auth === 'none') {
    countAuthCall();
    return {};
  }
  if ((tool.principals ?? ['key']).includes('key')) return { authorization: `Bearer ${srv.adminKey}` };
  if (!session) {
    countAuthCall();
    const again = signedOut?.app === srv.app ? signedOut.user : undefined;
    signedOut = undefined;
    session = again ? await signIn(srv.app, again.email, again.password, freshAddress()) : await registerUser(srv.app);
  }
  return sessionHeaders(session);
}

/**
 * URLs longer than this go over a socket rather than through inject. Node's HTTP parser refuses a request line and
 * headers over `http.maxHeaderSize` (16 KiB) with a 431 before the application sees them; inject has no parser, so the
 * router would decode URLs of megabytes (huge strings in a GET's query) no client could send: some 9 s of the first
 * part's main thread, in a CPU profile. Over the socket they meet the parser, as a client's would.
 */
const LONG_URL = 8_192;

/** An answer as inject gives it, from the server's socket. */
async function overSocket(
  srv: TestServer,
  req: { method: string; url: string },
  headers: Record<string, string>,
): Promise<{ statusCode: number; headers: Record<string, string>; body: string; json(): never }> {
  const res = await fetch(srv.url + req.url, { method: req.method, headers });
  const body = await res.text();
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    json: () => JSON.parse(body) as never,
  };
}

/**
 * Characters of a path or query value kept in the URL. A longer value already makes a request line over Node's
 * 16 KiB limit (each character is at least one byte of the URL), which the server's parser refuses with 431 at that
 * limit whatever follows (a URL over LONG_URL goes over a socket); a request with a body goes through inject, where
 * such a path parameter is still ten times longer than any a tool accepts (2,000 characters at most). The rest of a
 * huge string (up to 800 kB once percent-encoded) only cost this side the encoding and the client its URL parsing:
 * 4.9 s of a part's 52 s of main thread in a CPU profile, 1.3 s since.
 */
const URL_VALUE_CUT = 20_000;

/**
 * The REST request of an input; an object whose whole is the JSON body (no path parameter, a method with a body) goes
 * as its JSON text. Values the URL carries are cut to a length the server refuses all the same (URL_VALUE_CUT).
 */
function restSent(tool: AnyTool, sent: Sent): ReturnType<typeof restRequest> & { headers?: Record<string, string> } {
  if (!isObject(sent.value)) return { ...restRequest(tool, {}), payload: sent.value as never };
  const req = restRequest(tool, sent.value, { urlValueCut: URL_VALUE_CUT });
  if (req.payload === undefined || tool.rest.path.includes(':')) return req;
  return { ...req, payload: sent.body as never, headers: { 'content-type': 'application/json' } };
}

async function viaRest(tool: AnyTool, sent: Sent, srv: TestServer = server): Promise<string | undefined> {
  const credentialHeaders = await credentials(tool, srv);
  const req = restSent(tool, sent);
  const headers = { ...req.headers, ...credentialHeaders };
  const res =
    req.url.length > LONG_URL && req.payload === undefined
      ? await overSocket(srv, req, headers)
      : await srv.app.inject({ ...req, headers, remoteAddress: '127.0.0.1' });
  const allowed5xx =
    (res.statusCode === 501 && (tool.rest.extraStatuses ?? []).includes(501)) || res.statusCode === 503;
  // A file answer (the memoir's book): its own media type at the success status, not the envelope.
  if (
    tool.rest.file &&
    res.statusCode === (tool.rest.status ?? 200) &&
    !/json/i.test(String(res.headers['content-type']))
  )
    return undefined;
  let body: Answer | undefined;
  try {
    body = res.json();
  } catch {
    return `REST ${res.statusCode}: body is not JSON: ${res.body.slice(0, 200)}`;
  }
  const code = body?.error?.code;
  if (res.statusCode >= 500 && !allowed5xx) return `REST ${res.statusCode} ${code}: ${res.body.slice(0, 300)}`;
  // PAYMENTS_NOT_CONFIGURED is a documented 503 of the payment routes (this server has no Stripe key).
  const documented503 = code === 'PAYMENTS_NOT_CONFIGURED' && (tool.rest.extraStatuses ?? []).includes(503);
  if (res.statusCode === 503 && code !== 'SERVICE_BUSY' && !documented503) return `REST 503 with ${code}`;
  if (typeof body?.success !== 'boolean') return `REST ${res.statusCode}: no success flag: ${res.body.slice(0, 200)}`;
  if (body.success) {
    if (res.statusCode >= 400) return `REST ${res.statusCode} with success: true`;
    // A session ended or rotated by the call: sign in again for the next one.
    if (tool.name === 'logout' && session) signedOut = { app: srv.app, user: session };
    if (tool.name === 'logout' || tool.name === 'change_password') session = undefined;
    return undefined;
  }
  if (!KNOWN_CODES.has(code) || code === 'INTERNAL_ERROR')
    return `REST ${res.statusCode}: error code ${code} not a known one`;
  if (typeof body.error!.message !== 'string') return `REST ${res.statusCode}: error without message`;
  if (body.meta?.requestId !== res.headers['x-request-id'])
    return `REST ${res.statusCode}: meta.requestId ${body.meta?.requestId} ≠ x-request-id ${res.headers['x-request-id']}`;
  if (code === 'UNAUTHORIZED' && !tool.principals?.includes('key')) session = undefined;
  return undefined;
}

/**
 * A tools/call posted to /mcp as an MCP client posts it (JSON-RPC, both media types accepted), through inject: the
 * route, its admission and the server's transport run as they do for a socket, without a client library on this
 * side (an SDK client and its fetch were two fifths of the fuzz's CPU). What the SDK client would throw is judged
 * here from the answer itself: an HTTP refusal before JSON-RPC must carry the envelope.
 */
async function viaMcp(tool: AnyTool, sent: Sent, srv: TestServer = server): Promise<string | undefined> {
  const input = sent.value;
  const res = await srv.app.inject({
    ...mcpToolCallRequest(srv.adminKey, tool.name, sent.body),
    remoteAddress: '127.0.0.1',
  });
  let answer: (Answer & { result?: { isError?: boolean; content?: unknown; structuredContent?: unknown } }) | undefined;
  let rpcError: { code?: unknown; message?: unknown } | undefined;
  try {
    answer = JSON.parse(res.body);
    rpcError = (answer as { error?: { code?: unknown; message?: unknown } }).error;
  } catch {
    return `MCP ${res.statusCode}: body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (res.statusCode !== 200) {
    // Refused at the HTTP level, before JSON-RPC (body too large, a `__proto__` key): the envelope.
    const code = answer?.error?.code;
    if (
      res.statusCode >= 400 &&
      res.statusCode < 500 &&
      answer?.success === false &&
      KNOWN_CODES.has(code) &&
      typeof answer.meta?.requestId === 'string'
    )
      return undefined;
    return `MCP ${res.statusCode}: ${res.body.slice(0, 300)}`;
  }
  if (rpcError !== undefined) {
    // Arguments that are not an object are malformed JSON-RPC params: -32602 naming them, not a tool error.
    if (!isObject(input) && rpcError.code === -32602) return undefined;
    return `MCP JSON-RPC error ${String(rpcError.code)} ${String(rpcError.message).slice(0, 300)}`;
  }
  const result = answer?.result;
  if (!result) return `MCP 200 without a result: ${res.body.slice(0, 200)}`;
  const content = result.content as Array<{ type: string; text?: string }>;
  if (!result.isError)
    return result.structuredContent && typeof result.structuredContent === 'object'
      ? undefined
      : 'MCP success without structuredContent';
  let envelope: Answer | undefined;
  try {
    envelope = JSON.parse(content?.[0]?.text ?? '');
  } catch {
    return `MCP isError whose text is not JSON: ${String(content?.[0]?.text).slice(0, 200)}`;
  }
  const code = envelope?.error?.code;
  if (envelope?.success !== false || !KNOWN_CODES.has(code) || code === 'INTERNAL_ERROR')
    return `MCP error envelope with ${code}: ${JSON.stringify(envelope).slice(0, 300)}`;
  if (typeof envelope.meta?.requestId !== 'string') return 'MCP error envelope without meta.requestId';
  return undefined;
}

/** Long strings and deep values cut short, so a counterexample with a 400 kB string stays readable. */
function summarise(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 20)}…(${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '…(deeper)';
  if (Array.isArray(value))
    return value.length > 10
      ? [...value.slice(0, 10).map((v) => summarise(v, depth + 1)), `…(${value.length} items)`]
      : value.map((v) => summarise(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, summarise(v, depth + 1)]));
}

/** The seed, the replay path, the (shrunk) counterexample and what went wrong. */
function failureReport(out: fc.RunDetails<[Generated]>): string {
  const [gen] = out.counterexample ?? [];
  const error = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  return [
    `fuzz failed after ${out.numRuns} runs (seed ${out.seed}, path "${out.counterexamplePath}", shrunk ${out.numShrinks} times)`,
    `counterexample: ${JSON.stringify(summarise(gen))}`,
    `problem: ${error.length > 1500 ? error.slice(0, 1500) + '…' : error}`,
  ].join('\n');
}

/** Each tool's example input, made once (the past-limit section reuses them). */
const madeExamples = new Map<string, Record<string, unknown> | undefined>();
async function examplesFor(tool: AnyTool): Promise<Record<string, unknown> | undefined> {
  if (madeExamples.has(tool.name)) return madeExamples.get(tool.name);
  const ex = EXAMPLES[tool.name];
  const made = ex ? (sentForm(await ex.input(server, server.adminKey)).value as Record<string, unknown>) : undefined;
  madeExamples.set(tool.name, made);
  return made;
}

// ---------------------------------------------------------------------------
// Past the rate limit: every tool, over REST and MCP, once its caller's budget is spent. The state is reached
// the way a client reaches it, by requests: a public key in an account of its own, a user session, and a client
// address without credentials each spend their all-requests budget; then generated inputs (valid-shaped or
// mutated) must all be refused with 429 RATE_LIMIT_EXCEEDED in the envelope, with Retry-After, never a 5xx;
// only a request too malformed to be read at all keeps its own 400/413 (see UNREADABLE).

const PAST_LIMIT_RUNS = 25;
const SPENT_ADDRESS = '10.66.0.1';

/**
 * Registers the fuzz for one part of the tools (`part` of `parts`, by their place in the registry), with a server of
 * its own: the fuzz-<n>.test.ts files each run one part, so that the two workers of the deep group share the work.
 */
export function fuzzSuite(part: number, parts: number): void {
  const tools = TOOLS.filter((_, i) => i % parts === part);

  beforeAll(async () => {
    // A worker may run two parts one after the other (they share this module): each starts from nothing.
    madeExamples.clear();
    session = undefined;
    signedOut = undefined;
    authCalls = 0;
    for (const k of Object.keys(stats)) delete stats[k];
    server = await startTestServer({ clock, config: { webhookAllow: '127.0.0.1' } });
  });
  afterAll(async () => {
    await server?.close();
    const lines = Object.entries(stats).map(
      ([t, s]) => `${t}: ${s.runs} runs (${s.valid} schema-valid, ${s.mutated} invalid), ${s.rest} REST, ${s.mcp} MCP`,
    );
    if (lines.length) process.stderr.write(`fuzz per-tool counts (seed ${SEED}):\n  ${lines.join('\n  ')}\n`);
  });

  if (part === 0)
    describe('the fuzz property itself', () => {
      it('sends the bytes and the value of a JSON round trip, huge repeats of one character included', () => {
        const inputs: unknown[] = [null, 'text', { a: 1 }, WHOLE_DEEP];
        // Place-holders for the first input of each repeat of REPEAT_MIN code units or more; the second input holds
        // no repeat, and the last two hold the place-holder's own text and are sent the usual way.
        let repeats = 0;
        for (const c of ['x', 'é', '😀', '\u0000', '\ud800', '"', '\u0001'])
          for (const n of [REPEAT_MIN - 1, REPEAT_MIN, 54_321]) {
            inputs.push(
              { a: c.repeat(n), b: [c.repeat(n)] },
              { a: `${c.repeat(n)}z` },
              { a: HOLE(0), b: c.repeat(n) },
              { [HOLE(1)]: c.repeat(n) },
            );
            if (c.repeat(n).length >= REPEAT_MIN) repeats++;
          }
        const filledBefore = holesFilled;
        for (const input of inputs) {
          const json = JSON.stringify(input);
          const sent = sentForm(input);
          expect(sent.body.equals(Buffer.from(json))).toBe(true);
          expect(sent.value).toStrictEqual(JSON.parse(json));
        }
        // 7 characters at the two lengths from REPEAT_MIN, and the emoji's 9,999 (19,998 code units)
        expect(repeats).toBe(15);
        expect(holesFilled - filledBefore).toBe(repeats);
      });

      it('catches a tool that answers 500, over REST and over MCP', async () => {
        const template = TOOLS.find((t) => t.name === 'list_templates')!;
        const broken: AnyTool = {
          ...template,
          name: 'fuzz_broken',
          rest: { ...template.rest, path: '/fuzz-broken' },
          handler() {
            throw new Error('boom');
          },
        };
        const other = await startTestServer({ tools: [broken] });
        try {
          expect(await viaRest(broken, sentForm({}), other)).toMatch(/^REST 500 INTERNAL_ERROR/);
          expect(await viaMcp(broken, sentForm({}), other)).toMatch(/INTERNAL_ERROR|-32603/);
          // And a well-formed refusal passes.
          expect(await viaRest(broken, sentForm({ unexpected: 1 }), other)).toBeUndefined();
        } finally {
          await other.close();
        }
      });
    });

  describe('fuzz: every tool over REST and MCP, 300 generated inputs each', () => {
    // Every tool's example is made before any tool is fuzzed: a tool's valid inputs may fill one of the account's
    // limits (50 vaults, say), after which another tool's example could no longer be made.
    beforeAll(async () => {
      for (const tool of tools) await examplesFor(tool);
    }, 600_000);

    it('covers every tool, each in one part', () => {
      expect(TOOLS.length).toBeGreaterThanOrEqual(30);
      expect(tools.length).toBe(Math.floor(TOOLS.length / parts) + (part < TOOLS.length % parts ? 1 : 0));
    });

    for (const tool of tools) {
      it(tool.name, async () => {
        // A fresh rate window per tool: 300 REST and 300 MCP calls stay far below the internal tier's limit.
        clock.advance(RATE_WINDOW_MS);
        const s = (stats[tool.name] = { runs: 0, rest: 0, mcp: 0, valid: 0, mutated: 0 });
        const example = await examplesFor(tool);
        const budget = { left: EXPENSIVE[tool.name] ?? Infinity };
        const property = fc.asyncProperty(inputs(tool, example), async (gen) => {
          s.runs++;
          let sent = sentForm(gen.input);
          const input = sent.value;
          // Valid as the REST route sees it: fields it takes from headers only are refused in the body, the others
          // it takes from headers replace the body's.
          const headerOnly = Object.keys(tool.rest.headerOnly ?? {});
          const valid =
            isObject(input) &&
            !headerOnly.some((field) => Object.hasOwn(input as object, field)) &&
            tool.input.safeParse(tool.rest.fromHeaders ? { ...input, ...tool.rest.fromHeaders({}) } : input).success;
          if (valid && budget.left-- <= 0) {
            // An expensive tool's valid-call budget is spent: break the input cheaply instead.
            sent = sentForm({ ...(input as Record<string, unknown>), fuzzExtraField: 1 });
            gen = { how: `${gen.how} + unknown field (budget spent)`, input: sent.value };
          }
          if (valid && budget.left >= 0) s.valid++;
          else s.mutated++;
          const restProblem = await viaRest(tool, sent);
          s.rest++;
          if (restProblem) throw new Error(`${gen.how}: ${String(restProblem).slice(0, 600)}`);
          if (tool.mcp !== false) {
            const mcpProblem = await viaMcp(tool, sent);
            s.mcp++;
            if (mcpProblem) throw new Error(`${gen.how}: ${String(mcpProblem).slice(0, 600)}`);
          }
        });
        const out = await fc.check(property, { numRuns: NUM_RUNS, seed: SEED });
        if (out.failed) throw new Error(failureReport(out));
        expect(out.numRuns).toBe(NUM_RUNS);
        expect(s.rest).toBeGreaterThanOrEqual(NUM_RUNS);
        if (tool.mcp !== false) expect(s.mcp).toBeGreaterThanOrEqual(NUM_RUNS);
      }, 600_000);
    }
  });

  describe('fuzz: every tool past the rate limit, over REST and MCP', () => {
    let limitedKey: string;
    let limitedSession: TestSession;
    /** Requests it took to reach each state (the budget, plus the one that answered 429). */
    const spent: Record<string, number> = {};

    /** Sends `send()` until it answers 429; at most `cap` times. */
    async function spend(name: string, send: () => Promise<{ statusCode: number }>, cap = 2_000): Promise<void> {
      for (let i = 1; i <= cap; i++) {
        const res = await send();
        expect(res.statusCode, `${name}: request ${i}`).toBeLessThan(500);
        if (res.statusCode === 429) {
          spent[name] = i;
          return;
        }
      }
      throw new Error(`${name}: no 429 after ${cap} requests`);
    }

    beforeAll(async () => {
      clock.advance(RATE_WINDOW_MS);
      const account = await server.account({ tier: 'public', name: 'fuzz past the limit' });
      limitedKey = await server.key({ tier: 'public', scopes: ['contracts'], ownerId: account });
      limitedSession = await registerUser(server.app);
      await spend('public key', () =>
        server.app.inject({
          method: 'GET',
          url: '/api/v1/contracts/templates',
          headers: { authorization: `Bearer ${limitedKey}` },
        }),
      );
      await spend('user session', () =>
        server.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: sessionHeaders(limitedSession) }),
      );
      await spend('client address', () =>
        server.app.inject({ method: 'GET', url: '/api/v1/embed/wizard', remoteAddress: SPENT_ADDRESS }),
      );
    }, 120_000);

    afterAll(() => {
      process.stderr.write(
        `past the limit: reached after ${Object.entries(spent)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')} requests; ${PAST_LIMIT_RUNS} inputs per tool and transport\n`,
      );
    });

    /** Credentials and address of the spent caller a tool is called as. */
    function spentCaller(tool: AnyTool): { headers: Record<string, string>; remoteAddress: string; mcp: boolean } {
      if (tool.auth === 'none') return { headers: {}, remoteAddress: SPENT_ADDRESS, mcp: false };
      if ((tool.principals ?? ['key']).includes('key'))
        return {
          headers: { authorization: `Bearer ${limitedKey}` },
          remoteAddress: '127.0.0.1',
          mcp: tool.mcp !== false,
        };
      return { headers: sessionHeaders(limitedSession), remoteAddress: '127.0.0.1', mcp: false };
    }

    /**
     * Requests refused as unreadable before anything is admitted (by the HTTP framework or the REST adapter), with
     * their own error in the envelope: a malformed URL, a too-long path segment, a body that is not JSON (or not
     * sent as JSON) or not an object, input fields in a POST's query string, a body over the limit. Cheap
     * refusals, never a 5xx.
     */
    const UNREADABLE = new Set<unknown>([
      'malformed URL',
      'unsupported content type',
      'empty JSON body',
      'path parameter too long',
      'malformed JSON',
      PROTOTYPE_KEY_REASON,
      'expected a JSON object',
      'unknown query parameter (send input fields in the JSON body)',
    ]);

    /** undefined when the answer is the limit's 429 (or an unreadable request's refusal), else what is wrong. */
    function judgePastLimit(
      transport: string,
      res: { statusCode: number; headers: Record<string, unknown>; body: string },
      counts: { limited: number; unreadable: number },
    ): string | undefined {
      let body: Answer | undefined;
      try {
        body = JSON.parse(res.body);
      } catch {
        return `${transport} ${res.statusCode}: body is not JSON: ${res.body.slice(0, 200)}`;
      }
      // REST and refusals before JSON-RPC: the envelope; /mcp's refusals: a JSON-RPC error whose data is the envelope's error.
      const error = typeof body?.error?.code === 'string' ? body.error : body?.error?.data;
      const code = error?.code;
      if (res.statusCode === 429 && code === 'RATE_LIMIT_EXCEEDED') {
        if (!(Number(res.headers['retry-after']) > 0)) return `${transport} 429 without Retry-After`;
        if (res.headers['x-ratelimit-remaining'] !== '0')
          return `${transport} 429 with X-RateLimit-Remaining ${String(res.headers['x-ratelimit-remaining'])}`;
        counts.limited++;
        return undefined;
      }
      const reason = error?.details?.[0]?.reason;
      if (
        (res.statusCode === 400 && code === 'VALIDATION_ERROR' && UNREADABLE.has(reason)) ||
        (res.statusCode === 413 && code === 'PAYLOAD_TOO_LARGE')
      ) {
        counts.unreadable++;
        return undefined;
      }
      return `${transport} ${res.statusCode} ${code}: ${res.body.slice(0, 300)}`;
    }

    for (const tool of tools) {
      it(tool.name, async () => {
        const caller = spentCaller(tool);
        const example = await examplesFor(tool);
        let rest = 0;
        let mcp = 0;
        const counts = { limited: 0, unreadable: 0 };
        const property = fc.asyncProperty(inputs(tool, example), async (gen) => {
          const sent = sentForm(gen.input);
          const req = restSent(tool, sent);
          const res = await server.app.inject({
            ...req,
            headers: { ...req.headers, ...caller.headers },
            remoteAddress: caller.remoteAddress,
          });
          rest++;
          const restProblem = judgePastLimit('REST', res, counts);
          if (restProblem) throw new Error(`${gen.how}: ${restProblem}`);
          if (!caller.mcp) return;
          const rpc = await server.app.inject(mcpToolCallRequest(limitedKey, tool.name, sent.body));
          mcp++;
          const mcpProblem = judgePastLimit('MCP', rpc, counts);
          if (mcpProblem) throw new Error(`${gen.how}: ${mcpProblem}`);
        });
        const out = await fc.check(property, { numRuns: PAST_LIMIT_RUNS, seed: SEED });
        if (out.failed) throw new Error(failureReport(out));
        expect(rest).toBeGreaterThanOrEqual(PAST_LIMIT_RUNS);
        if (caller.mcp) expect(mcp).toBeGreaterThanOrEqual(PAST_LIMIT_RUNS);
        // The state is really reached: most answers are the limit's 429.
        expect(counts.limited).toBeGreaterThan(counts.unreadable);
      }, 120_000);
    }
  });
}
