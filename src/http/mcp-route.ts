/**
 * MCP over HTTP at /mcp. The browser origin and the Host are checked against DNS rebinding (MCP transport
 * specification), and every JSON-RPC request in the POST is authenticated, rate-limited and counted like a REST call,
 * with the same X-RateLimit-* headers, before the SDK sees any of it.
 *
 * A page on an origin listed in SVC_ALLOWED_ORIGINS calls it from the browser: such a call (JSON, with an
 * Authorization header) is preceded by a CORS preflight (OPTIONS), answered for those origins only, and its answer
 * names the origin in Access-Control-Allow-Origin and exposes the headers a client reads. No credentials (cookies)
 * are allowed: sessions are REST only, and a key is sent in a header. Every other route sends no CORS headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { rpcErrorBody } from '../mcp/rpc-errors.js';
import type { AnyTool, Services } from '../tools/define.js';
import { countAdmitted } from '../access/budget.js';
import type { CallInfo } from '../access/call.js';
import { admit } from '../access/key.js';
import { conflictingKeys, presentedKey } from './credentials.js';
import { authChallenge, retryAfterSeconds } from './errors.js';
import { rateHeaders } from './rate-headers.js';

/**
 * The MCP server and its Streamable HTTP transport (the SDK's server modules, Hono's request adapter, and with it
 * Node's fetch internals), loaded with the first request that reaches them rather than with every `svc serve`: most
 * starts never serve one (the test suite's some hundred), and loading them took about 0.1 s of the start's CPU.
 */
let mcpHttp: Promise<typeof import('../mcp/http.js')> | undefined;
const loadMcpHttp = () => (mcpHttp ??= import('../mcp/http.js'));

/** Host names that resolve to this machine only. */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether a Host header names this machine's loopback (with or without a port). */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host.trim());
  return m !== null && isLoopbackName(m[1]!);
}

/**
 * Whether a browser Origin is this server's own loopback origin: http(s) on 127.0.0.1, ::1 or localhost, at the port
 * the request came in on. A page served by this server itself (the docs, the wizard) may then call /mcp without being
 * listed in SVC_ALLOWED_ORIGINS. DNS rebinding cannot forge it: a rebound page keeps its own origin (the attacker's
 * host name), and another local program listens on another port.
 */
function sameLoopbackOrigin(origin: string, localPort: number | undefined): boolean {
  if (localPort === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') return false;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return port === localPort;
}

/** The request headers a browser MCP client sends (the transport specification's and the service's key header). */
const CORS_ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, X-API-Key, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
/** The answer's headers such a client may read. */
const CORS_EXPOSE_HEADERS =
  'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate, Mcp-Session-Id';
/** How long a browser may keep a preflight's answer, seconds. */
const CORS_MAX_AGE = 600;

export interface McpRouteOptions {
  services: Services;
  tools: readonly AnyTool[];
  /** True once the server is closing: answers then ask the client to close the connection. */
  closing(): boolean;
}

export async function mcpRoutes(app: FastifyInstance, { services, tools, closing }: McpRouteOptions): Promise<void> {
  const loopbackBound = isLoopbackName(services.config.host);
  // Tool calls whose client went away may still be finishing (a write, a refund): they end before the store closes.
  app.addHook('onClose', async () => {
    if (mcpHttp) await (await mcpHttp).mcpHandlersSettled();
  });
  /** Whether a request's Origin is one SVC_ALLOWED_ORIGINS lists (a page that may call from another origin). */
  const listed = (origin: string | undefined): origin is string =>
    origin !== undefined && services.config.allowedOrigins.includes(origin);
  /** The CORS headers of an answer to a listed origin, set on the raw response so a hijacked reply keeps them. */
  const allowOrigin = (reply: FastifyReply, origin: string): void => {
    reply.raw.setHeader('Access-Control-Allow-Origin', origin);
    reply.raw.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    reply.raw.setHeader('Vary', 'Origin');
  };
  // The preflight of a browser's call: answered for the listed origins alone; anyone else learns nothing more.
  app.options('/mcp', { schema: { hide: true } }, async (req, reply) => {
    const origin = req.headers.origin;
    if (!listed(origin)) {
      return reply
        .status(403)
        .header('Vary', 'Origin')
        .send({
          jsonrpc: '2.0',
          id: null,
          error: rpcErrorBody(
            new ApiError(
              'ORIGIN_NOT_ALLOWED',
              'Only origins listed in SVC_ALLOWED_ORIGINS may call this MCP endpoint from a browser.',
            ),
          ),
        });
    }
    allowOrigin(reply, origin);
    return reply
      .status(204)
      .header('Access-Control-Allow-Methods', 'POST')
      .header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
      .header('Access-Control-Max-Age', CORS_MAX_AGE)
      .send();
  });
  app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
    if (listed(req.headers.origin)) allowOrigin(reply, req.headers.origin);
    const refuse = (status: number, err: ApiError, extra: Record<string, string | number> = {}) => {
      const first = Array.isArray(req.body) ? req.body[0] : req.body;
      const id = first && typeof first === 'object' && 'id' in first ? (first as { id: unknown }).id : null;
      reply.status(status).headers({ 'content-type': 'application/json; charset=utf-8', ...extra });
      return reply.send({
        jsonrpc: '2.0',
        id: id ?? null,
        error: rpcErrorBody(err),
      });
    };
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      !services.config.allowedOrigins.includes(origin) &&
      !sameLoopbackOrigin(origin, req.socket.localPort)
    ) {
      return refuse(
        403,
        new ApiError(
          'ORIGIN_NOT_ALLOWED',
          `Origin ${origin.slice(0, 200)} may not call this MCP endpoint (configure SVC_ALLOWED_ORIGINS).`,
        ),
      );
    }
    if (loopbackBound && !isLoopbackHost(req.headers.host)) {
      return refuse(
        403,
        new ApiError(
          'ORIGIN_NOT_ALLOWED',
          'This MCP endpoint is bound to loopback and answers only loopback host names (DNS rebinding guard).',
        ),
      );
    }
    const conflict = conflictingKeys(req.headers, req.query);
    if (conflict) return refuse(400, conflict);
    const apiKey = presentedKey(req.headers, req.query);
    const call: CallInfo = {
      apiKey,
      requestId: String(req.id),
      transport: 'mcp-http',
      clientIp: req.ip,
      // A client keeps its connection and sends the same key on each POST: the key's hash is remembered there.
      connection: req.raw.socket,
      rate: undefined,
    };
    let principal;
    try {
      principal = (await admit(services, call)).principal;
      // A batch counts once per request it carries, like that many REST calls (a notification, without an id, is
      // none; the POST itself was counted above).
      const extra = Array.isArray(req.body)
        ? req.body.filter((m) => m && typeof m === 'object' && 'method' in m && 'id' in m).length - 1
        : 0;
      for (let i = 0; i < extra; i++) {
        const hit = await countAdmitted(services, principal);
        call.rate = hit.rate;
        if (hit.refused) throw hit.refused;
      }
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : ApiError.internal();
      const headers: Record<string, string | number> = {};
      if (call.rate) Object.assign(headers, rateHeaders(call.rate));
      const challenge = authChallenge(apiErr.status, apiErr.code);
      if (challenge !== undefined) headers['WWW-Authenticate'] = challenge;
      const retry = retryAfterSeconds(apiErr, services);
      if (retry !== undefined) headers['Retry-After'] = retry;
      return refuse(apiErr.status, apiErr, headers);
    }
    reply.hijack();
    // Hijacked replies skip onSend hooks: the headers set so far are copied by hand.
    reply.raw.setHeader('X-Request-Id', String(req.id));
    for (const [name, value] of Object.entries(rateHeaders(call.rate!))) reply.raw.setHeader(name, value);
    if (closing()) reply.raw.setHeader('Connection', 'close');
    try {
      const { handleMcpPost } = await loadMcpHttp();
      await handleMcpPost(req.raw, reply.raw, req.body, tools, services, apiKey, req.ip, principal);
    } catch (err) {
      req.log.error({ err, requestId: req.id }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });

  const methodNotAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' },
        id: null,
      });
  app.get('/mcp', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/mcp', { schema: { hide: true } }, methodNotAllowed);
}
