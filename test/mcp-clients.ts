import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { svcArgs } from './helpers.js';

/**
 * The clients' check of tool results against their output schemas, compiled once per schema for the whole test
 * process. A client compiles every tool's output schema when it lists the tools, and the access matrix and the
 * fuzzer make a client per caller: compiling them again was two fifths of the matrix's time.
 */
const ajv = new AjvJsonSchemaValidator();
const compiled = new Map<string, JsonSchemaValidator<unknown>>();
export const sharedValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let v = compiled.get(key);
    if (!v) compiled.set(key, (v = ajv.getValidator<unknown>(schema)));
    return v as JsonSchemaValidator<T>;
  },
};

/** A real MCP client talking to `svc mcp` over stdio. */
export async function stdioClient(dataDir: string, apiKey?: string): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'SVC_API_KEY') env[k] = v;
  if (apiKey !== undefined) env.SVC_API_KEY = apiKey;
  env.SVC_LOG_LEVEL = 'warn';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: svcArgs('mcp', '--data-dir', dataDir),
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' }, { jsonSchemaValidator: sharedValidator });
  await client.connect(transport);
  return client;
}

/** A real MCP client talking to POST /mcp over Streamable HTTP. */
export async function httpClient(baseUrl: string, apiKey?: string): Promise<Client> {
  const headers: Record<string, string> = apiKey !== undefined ? { Authorization: `Bearer ${apiKey}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } });
  const client = new Client({ name: 'svc-test', version: '1.0.0' }, { jsonSchemaValidator: sharedValidator });
  await client.connect(transport);
  return client;
}

export interface Outcome {
  ok: boolean;
  body: unknown;
}

/** A tool call's outcome in transport-neutral form: the output, or the error envelope without its per-request meta. */
export async function mcpOutcome(client: Client, name: string, args: Record<string, unknown>): Promise<Outcome> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  const text = JSON.parse(content[0]!.text) as Record<string, unknown>;
  if (result.isError) {
    const { meta, ...rest } = text as { meta: { requestId: string; timestamp: string } };
    if (typeof meta?.requestId !== 'string' || typeof meta?.timestamp !== 'string')
      throw new Error('error envelope without meta');
    return { ok: false, body: rest };
  }
  // The text content and the structured content carry the same output.
  if (JSON.stringify(text) !== JSON.stringify(result.structuredContent))
    throw new Error('text and structuredContent differ');
  return { ok: true, body: result.structuredContent };
}

/** The same for a REST response, undoing the route's envelope shape. */
export function restOutcome(
  status: number,
  json: Record<string, unknown>,
  shape: 'top-level' | 'data' | 'list',
  fields: { dataField?: string; metaFields?: string[] } = {},
): Outcome {
  const { meta, success, ...rest } = json as { meta: Record<string, unknown>; success: boolean; data?: unknown };
  if (!success) return { ok: false, body: { success, ...rest } };
  if (status >= 400) throw new Error(`success body with status ${status}`);
  // Output fields the route carries in meta (a secret shown once, a catalogue's pagination).
  const extra = Object.fromEntries(
    (fields.metaFields ?? []).filter((f) => meta[f] !== undefined).map((f) => [f, meta[f]]),
  );
  if (shape === 'top-level') return { ok: true, body: { ...rest, ...extra } };
  if (shape === 'list')
    return {
      ok: true,
      body: meta.pagination ? { items: rest.data, pagination: meta.pagination } : { items: rest.data },
    };
  if (fields.dataField) return { ok: true, body: { [fields.dataField]: rest.data, ...extra } };
  return {
    ok: true,
    body: fields.metaFields?.length ? { ...(rest.data as Record<string, unknown>), ...extra } : rest.data,
  };
}

/**
 * A tools/call as an MCP client posts it to /mcp (JSON-RPC, both media types accepted, stateless: no initialize
 * needed): the method, URL, headers and body, for `fetch` or for inject. `argsJson` is the arguments' JSON text, put
 * in the body as it is (the fuzzer's inputs run to megabytes and are serialised once).
 */
export function mcpToolCallRequest(
  apiKey: string | undefined,
  name: string,
  argsJson: string,
): { method: 'POST'; url: '/mcp'; headers: Record<string, string>; payload: string };
/** The same, with the arguments' JSON text in UTF-8: the payload is then those bytes inside the call's. */
export function mcpToolCallRequest(
  apiKey: string | undefined,
  name: string,
  argsJson: Buffer,
): { method: 'POST'; url: '/mcp'; headers: Record<string, string>; payload: Buffer };
export function mcpToolCallRequest(
  apiKey: string | undefined,
  name: string,
  argsJson: string | Buffer,
): { method: 'POST'; url: '/mcp'; headers: Record<string, string>; payload: string | Buffer } {
  const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":`;
  return {
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(apiKey !== undefined ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    payload:
      typeof argsJson === 'string'
        ? `${head}${argsJson}}}`
        : Buffer.concat([Buffer.from(head), argsJson, Buffer.from('}}')]),
  };
}

/**
 * One tools/call over POST /mcp without the SDK (stateless: no initialize needed),
 * so a refusal at the HTTP level (401, 403, 429) is seen as the error it carries.
 */
export async function mcpHttpCall(
  baseUrl: string,
  apiKey: string | undefined,
  name: string,
  args: Record<string, unknown>,
): Promise<Outcome & { status: number; headers: Headers }> {
  const req = mcpToolCallRequest(apiKey, name, JSON.stringify(args));
  const res = await fetch(new URL(req.url, baseUrl), { method: req.method, headers: req.headers, body: req.payload });
  const json = (await res.json()) as {
    result?: { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown };
    error?: { data?: unknown };
  };
  if (json.error)
    return { ok: false, body: { success: false, error: json.error.data }, status: res.status, headers: res.headers };
  const text = JSON.parse(json.result!.content[0]!.text) as Record<string, unknown>;
  if (json.result!.isError) {
    const { meta: _meta, ...rest } = text;
    return { ok: false, body: rest, status: res.status, headers: res.headers };
  }
  return { ok: true, body: json.result!.structuredContent, status: res.status, headers: res.headers };
}
