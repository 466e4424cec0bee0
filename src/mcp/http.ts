import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AnyTool, Services } from '../tools/define.js';
import type { Principal } from '../accounts/principal.js';
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
  // One JSON answer, unless a request asked for progress: then an SSE stream,
  // which carries its notifications/progress before the result.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !wantsProgress(body),
  });
  res.on('close', () => {
    // Closing must not reject unhandled (that would reach the process-level handler): a failure is only logged.
    const failed = (err: unknown) => services.log.warn({ err }, 'closing a stateless MCP request failed');
    transport.close().catch(failed);
    const settled = server
      .close()
      .catch(failed)
      .then(() => handlersSettled(server));
    closing.add(settled);
    void settled.then(() => closing.delete(settled));
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** Whether any request in the POST carries `_meta.progressToken`. */
function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}
