import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { connectInMemory, type InMemoryMcp } from './in-memory.js';

// An MCP client checks every structuredContent against the tool's declared outputSchema, formats included (the SDK's
// Client with Ajv): an answer that passes the server's zod check but not its own JSON Schema is an error for the user.
// Egypt's mushtaraka source had a link with Arabic letters: zod's url() took it, JSON Schema's "uri" format does not.

let server: TestServer;
let client: Client;
let mcp: InMemoryMcp;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
  mcp = await connectInMemory(server, 'outputs-test');
  client = mcp.client;
  await client.listTools();
});
afterAll(async () => {
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
