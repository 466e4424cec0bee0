/**
 * The answer to the usual MCP POST, written by the service itself: one JSON-RPC request, answered with one JSON
 * object. The SDK's Streamable HTTP transport serves it too, but at a cost out of proportion to a cheap tool call: it
 * turns every Node request and answer into a web-standard Request and Response (through Hono's adapter and web
 * streams), and checks each message against zod schemas five times over. `npm run bench -- mcp` prints the server's
 * CPU per `tools/call` of `list_templates` under load against the same tool's REST route: on one machine, 300 µs
 * against 66 through the SDK's transport, 178 and 215 µs against 65 and 71 through this one.
 *
 * Only a POST that is certainly valid, and whose answer is certainly one JSON object, is answered here: a single
 * request (not a notification, a response or a batch; not `initialize`), of the exact shape the SDK accepts, with no
 * `_meta` (so no progress token: progress needs the event stream), sent with the Accept, Content-Type and
 * MCP-Protocol-Version headers the transport specification asks for. Anything else, refusals included, goes to the
 * SDK's transport as before (./http.ts), which answers it as it always did. The request itself is handled by the same
 * SDK server either way: this is only its transport (the SDK's `Transport` interface, the documented place for one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC request as the SDK's JSONRPCRequestSchema accepts it (a strict object). */
export interface RequestMessage {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

const REQUEST_FIELDS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The POST's one request when this module answers it (see above), else undefined (the SDK's transport answers). A
 * stricter test than the SDK's own: whatever passes it, the SDK would have accepted as well.
 */
export function soleRequest(req: IncomingMessage, body: unknown): RequestMessage | undefined {
  if (!isPlainObject(body)) return undefined;
  for (const field in body) if (!REQUEST_FIELDS.has(field)) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || method === 'initialize') return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (params !== undefined && (!isPlainObject(params) || Object.hasOwn(params, '_meta'))) return undefined;
  // The client must accept both (a substring test, as the SDK makes: Accept is a list).
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return undefined;
  return body as unknown as RequestMessage;
}

/**
 * A transport for one request: hands it to the server once connected (`deliver`) and writes the server's answer to
 * it as the HTTP response, 200 with a JSON body, as the SDK's transport does in its JSON mode. Other messages the
 * server sends meanwhile (notifications) are dropped, as they are in that mode. Closed when the HTTP response closes
 * (./http.ts), which aborts the call if it is still running.
 */
export class JsonAnswer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #res: ServerResponse;
  readonly #request: RequestMessage;
  #closed = false;

  constructor(res: ServerResponse, request: RequestMessage) {
    this.#res = res;
    this.#request = request;
  }

  async start(): Promise<void> {}

  /**
   * Hands the request to the server (connected to this transport first), unless the response closed meanwhile (the
   * client went away): the call is then never started, as the SDK's transport starts none once closed.
   */
  deliver(): void {
    if (!this.#closed) this.onmessage?.(this.#request as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const answers = 'id' in message && message.id === this.#request.id && ('result' in message || 'error' in message);
    if (!answers || this.#closed || this.#res.headersSent) return;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch {
      // An answer that is not JSON (a handler's bug): the client still gets an answer rather than a hanging request.
      text = JSON.stringify({
        jsonrpc: '2.0',
        id: this.#request.id,
        error: { code: -32603, message: 'Internal error' },
      });
    }
    this.#res.writeHead(200, { 'content-type': 'application/json' });
    this.#res.end(text);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
