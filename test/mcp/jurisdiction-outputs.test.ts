import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

// An MCP client checks every structuredContent against the tool's declared outputSchema, formats included (the SDK's
// Client with Ajv): an answer that passes the server's zod check but not its own JSON Schema is an error for the user.
// Egypt's mushtaraka source had a link with Arabic letters: zod's url() took it, JSON Schema's "uri" format does not.

let server: TestServer;
let client: Client;
let mcp: ReturnType<typeof createMcpServer>;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
  mcp = createMcpServer({
    tools: TOOLS,
    services: server.services,
    apiKey: server.adminKey,
    transport: 'mcp-stdio',
    clientIp: '127.0.0.1',
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  client = new Client({ name: 'outputs-test', version: '1.0.0' });
  await client.connect(b);
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await mcp?.close();
  await server?.close();
});

describe('get_jurisdiction through an MCP client', () => {
  it('answers every jurisdiction with content its output schema accepts', async () => {
    const ids = server.services.jurisdictions.all().map((j) => j.id);
    expect(ids.length).toBeGreaterThan(100);
    const refused: string[] = [];
    for (const id of ids) {
      try {
        const res = await client.callTool({ name: 'get_jurisdiction', arguments: { id } });
        if (res.isError) refused.push(`${id}: ${JSON.stringify(res.content)}`);
      } catch (err) {
        refused.push(`${id}: ${(err as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
