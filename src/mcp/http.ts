import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnyTool, Services } from '../tools/define.js';
import type { Principal } from '../accounts/principal.js';
import { JsonAnswer, soleRequest } from './json-answer.js';
import { createMcpServer, handlersSettled } from './server.js';

/** The closing of each request's server whose connection has closed, until its handlers have returned. */
const closing = new Set<Promise<void>>();

/**
 * Resolves once the handlers of every closed request have returned. A client that goes away mid-call aborts it, but
 * a handler past its last look at the signal (a write begun, a refund owed) goes on: the service waits for this
 * before it closes the store.
 */
export async function mcpHandlersSettled(): Promise<void> {
  while (closing.size) await Promise.allSettled([...closing]);
}

/**
 * Stateless Streamable HTTP: a fresh server and transport for each POST,
 * closed when the response ends. The caller has already parsed the JSON body.
 * The usual POST, one request answered with one JSON object, is answered by the
 * service's own transport (./json-answer.ts); any other by the SDK's.
 */
export async function handleMcpPost(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  tools: readonly AnyTool[],
  services: Services,
  apiKey: string | undefined,
  clientIp: string | undefined,
  admitted: Principal,
): Promise<void> {
  const language = req.headers['accept-language'];
  const acceptLanguage = typeof language === 'string' ? language : undefined;
  const server = createMcpServer({
    tools,
    services,
    apiKey,
    transport: 'mcp-http',
    clientIp,
    admitted,
    acceptLanguage,
  });
  const sole = soleRequest(req, body);
  // One JSON answer, unless a request asked for progress: then an SSE stream,
  // which carries its notifications/progress before the result.
  const transport = sole
    ? new JsonAnswer(res, sole)
    : new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !wantsProgress(body),
      });
  res.on('close', () => {
    // Closing must not reject unhandled (that would reach the process-level handler): a failure is only logged.
    const failed = (err: unknown) => services.log.warn({ err }, 'closing a stateless MCP request failed');
    closeWithoutTrace(transport).catch(failed);
    const settled = server
      .close()
      .catch(failed)
      .then(() => handlersSettled(server));
    closing.add(settled);
    void settled.then(() => closing.delete(settled));
  });
  await server.connect(transport);
  if (transport instanceof JsonAnswer) transport.deliver();
  else await transport.handleRequest(req, res, body);
}

/**
 * Closes a request's transport, and with it its server. On every close the SDK's Protocol makes a "Connection closed"
 * error for the requests still waiting for an answer, which a stateless server never has (it makes no requests of
 * its own): capturing that error's stack trace was 6% of the CPU of MCP calls over HTTP (273 of 4,414 ms in a profile
 * of 3,000 list_templates calls; 8 ms without it). The close runs synchronously up to that point, so errors made
 * during it (that one, and the abort of a call still running when its client went away) carry no stack.
 */
function closeWithoutTrace(transport: Transport): Promise<void> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return transport.close();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Whether any request in the POST carries `_meta.progressToken`. */
function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}
