import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AnyTool, Services } from '../tools/define.js';
import { createMcpServer } from './server.js';

/**
 * Serves MCP over this process's stdin/stdout until the client closes stdin.
 * Resolves when the connection has closed.
 */
export async function serveStdio(tools: readonly AnyTool[], services: Services, apiKey: string | undefined): Promise<void> {
  const server = createMcpServer({ tools, services, apiKey, transport: 'mcp-stdio', clientIp: '127.0.0.1' });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
