import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { slowSolidity, untilCompileStarts } from '../support/slow-compile.js';

// notifications/cancelled from an MCP client stops the work it asked for.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

describe('MCP cancellation', () => {
  it('a cancelled compile_contract call stops its compile and frees the worker', async () => {
    const mcp = createMcpServer({
      tools: TOOLS,
      services: server.services,
      apiKey: server.adminKey,
      transport: 'mcp-stdio',
      clientIp: '127.0.0.1',
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    await client.connect(b);
    try {
      const pool = server.services.contracts.pool;
      const before = pool.stats.aborted;
      const source = slowSolidity('Cancelled');
      const misses = pool.stats.misses;
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'compile_contract', arguments: { blockchain: 'evm', sourceCode: source } },
        undefined,
        { signal: controller.signal },
      );
      // Cancel once the compile has started.
      await untilCompileStarts(pool, misses);
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      for (let i = 0; i < 200 && pool.stats.aborted === before; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats.aborted).toBe(before + 1);
      // The same call, not cancelled, still works.
      const again = await client.callTool({
        name: 'compile_contract',
        arguments: { blockchain: 'evm', sourceCode: source },
      });
      expect(again.isError).toBeFalsy();
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
