import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AnyTool, Services } from '../tools/define.js';
import type { Principal } from '../accounts/principal.js';
import { createMcpServer } from './server.js';

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
    server.close().catch(failed);
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
