/**
 * An MCP client connected to the service's MCP server in the same process (the SDK's in-memory transport pair): the
 * server is built as the stdio and HTTP transports build it, for the test server's services and admin key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';
import type { TestServer } from '../helpers.js';

export interface InMemoryMcp {
  client: Client;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

export async function connectInMemory(
  server: TestServer,
  name: string,
  opts: { tools?: readonly AnyTool[]; transport?: 'mcp-stdio' | 'mcp-http' } = {},
): Promise<InMemoryMcp> {
  const mcp = createMcpServer({
    tools: opts.tools ?? TOOLS,
    services: server.services,
    apiKey: server.adminKey,
    transport: opts.transport ?? 'mcp-stdio',
    clientIp: '127.0.0.1',
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(b);
  return {
    client,
    close: async () => {
      await client.close();
      await mcp.close();
    },
  };
}
