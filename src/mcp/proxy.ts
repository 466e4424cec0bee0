// `svc mcp --url URL`: a stdio MCP server for the local client that forwards
// every JSON-RPC message, both ways, to a remote svc's Streamable HTTP endpoint.
// A message-level bridge rather than a client plus a server: tools, resources,
// prompts, completions, progress notifications and results pass through
// unchanged, and nothing needs updating when the remote gains a capability.
import { readFile } from 'node:fs/promises';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { EarlyStdioTransport } from './early.js';

/** A problem the user must fix (bad URL, missing or refused key, unreachable server): one line on stderr, non-zero exit. */
export class ProxyError extends Error {}

export interface ProxyOptions {
  url: string;
  /** --api-key */
  apiKey?: string | undefined;
  /** --api-key-file: a file holding the key (surrounding whitespace ignored). */
  apiKeyFile?: string | undefined;
  /** Where SVC_API_KEY is read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The endpoint, refusing plain http except to loopback (the key would cross the network in clear). */
export function remoteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProxyError(
      `--url ${JSON.stringify(raw)} is not a URL; give the remote MCP endpoint, e.g. https://svc.example.com/mcp`,
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return url;
  if (url.protocol === 'http:')
    throw new ProxyError(
      `--url must use https (plain http is allowed only to this machine, e.g. http://127.0.0.1:3000/mcp): ${url.host}`,
    );
  throw new ProxyError(`--url must be an https:// (or loopback http://) MCP endpoint, not ${url.protocol}`);
}

async function resolveKey(opts: ProxyOptions): Promise<string> {
  if (opts.apiKey) return opts.apiKey;
  if (opts.apiKeyFile !== undefined) {
    let text: string;
    try {
      text = await readFile(opts.apiKeyFile, 'utf8');
    } catch (err) {
      throw new ProxyError(
        `cannot read --api-key-file ${opts.apiKeyFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    const key = text.trim();
    if (!key) throw new ProxyError(`--api-key-file ${opts.apiKeyFile} is empty`);
    return key;
  }
  const fromEnv = (opts.env ?? process.env).SVC_API_KEY;
  if (fromEnv) return fromEnv;
  throw new ProxyError('the remote server needs an API key: set SVC_API_KEY or pass --api-key-file PATH');
}

/** The message of a JSON-RPC error body, if the text is one. */
function rpcErrorOf(text: string): { code: number; message: string; data?: unknown } | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const e = body.error;
    if (e && typeof e.code === 'number' && typeof e.message === 'string')
      return { code: e.code, message: e.message, data: e.data };
  } catch {
    // not JSON
  }
  return undefined;
}

/**
 * Checks the key before serving anything: one `initialize` to the remote. A
 * refused key, an unreachable host or something that is not an MCP endpoint
 * stops the proxy at start with a clear message.
 */
async function preflight(url: URL, key: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'svc-mcp-proxy', version: '1' },
        },
      }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProxyError(`cannot reach ${url.href}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  const session = res.headers.get('mcp-session-id');
  if (session) {
    // A stateful server opened a session for the check: end it.
    await fetch(url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}`, 'mcp-session-id': session },
    }).catch(() => undefined);
  }
  if (res.ok) return;
  const message = rpcErrorOf(text)?.message ?? (text.slice(0, 200) || res.statusText);
  if (res.status === 401 || res.status === 403)
    throw new ProxyError(`${url.href} refused the API key (HTTP ${res.status}): ${message}`);
  throw new ProxyError(`${url.href} did not accept an MCP initialize (HTTP ${res.status}): ${message}`);
}

/** Bridges this process's stdin/stdout to the remote endpoint until the local client closes stdin. */
export async function proxyStdio(opts: ProxyOptions): Promise<void> {
  const url = remoteUrl(opts.url);
  const key = await resolveKey(opts);
  await preflight(url, key);

  // Each forwarded request gets its own abort signal, so a notifications/cancelled
  // from the client closes that request's HTTP exchange (which stops the work on
  // a svc server) while the other requests go on.
  const inflight = new Map<RequestId, AbortController>();
  const trackingFetch: typeof fetch = (input, init) => {
    let id: RequestId | undefined;
    if (typeof init?.body === 'string' && init.method === 'POST') {
      try {
        const msg = JSON.parse(init.body) as JSONRPCMessage;
        if (isJSONRPCRequest(msg)) id = msg.id;
      } catch {
        // not ours to judge: forwarded as is
      }
    }
    if (id === undefined) return fetch(input, init);
    const controller = new AbortController();
    inflight.set(id, controller);
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    return fetch(input, { ...init, signal });
  };

  const remote = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: trackingFetch,
  });
  // Lines that are not JSON-RPC messages are answered with a JSON-RPC error here, as `svc mcp` and POST /mcp answer
  // them, rather than dropped: a client would wait for ever for the answer to a request it thinks it sent.
  const local = new EarlyStdioTransport().passThrough();
  local.validate = (value) => JSONRPCMessageSchema.parse(value);
  const initializeIds = new Set<RequestId>();
  const cancelled = new Set<RequestId>();

  const answer = (msg: JSONRPCMessage) => local.send(msg).catch(() => undefined);

  remote.onmessage = (msg) => {
    if ('id' in msg && !('method' in msg) && msg.id !== undefined) {
      inflight.delete(msg.id);
      if (cancelled.delete(msg.id)) return; // the client gave up on it
      if (initializeIds.delete(msg.id) && isJSONRPCResultResponse(msg)) {
        const version = (msg.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') remote.setProtocolVersion(version);
      }
    }
    void answer(msg);
  };
  // Failures of a forwarded request are answered below; stream hiccups are not the client's business.
  remote.onerror = () => undefined;

  local.onmessage = (msg) => {
    let requestId: RequestId | undefined;
    if (isJSONRPCRequest(msg)) {
      requestId = msg.id;
      if (msg.method === 'initialize') initializeIds.add(msg.id);
    } else if ('method' in msg && msg.method === 'notifications/cancelled') {
      const target = (msg.params as { requestId?: RequestId } | undefined)?.requestId;
      if (target !== undefined) {
        cancelled.add(target);
        inflight.get(target)?.abort();
        inflight.delete(target);
      }
    }
    remote.send(msg).catch((err: unknown) => {
      if (requestId === undefined) return;
      inflight.delete(requestId);
      if (cancelled.delete(requestId)) return;
      const rpc = err instanceof StreamableHTTPError ? rpcErrorOf(err.message) : undefined;
      void answer({
        jsonrpc: '2.0',
        id: requestId,
        error: rpc ?? {
          code: -32603,
          message: `svc proxy: the request to ${url.host} failed: ${(err as Error).message}`,
        },
      });
    });
  };

  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await remote.start();
  await local.start();
  await closed;
  for (const c of inflight.values()) c.abort();
  await remote.close().catch(() => undefined);
  await local.close().catch(() => undefined);
}
