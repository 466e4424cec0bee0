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
  const server = createMcpServer({ tools, services, apiKey, transport: 'mcp-http', clientIp, admitted });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
