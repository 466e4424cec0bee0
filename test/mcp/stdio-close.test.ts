import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EarlyStdioTransport } from '../../src/mcp/early.js';
import { serveStdio } from '../../src/mcp/stdio.js';
import { gatedTool, ticks } from '../fixtures/tools.js';
import { startTestServer, type TestServer } from '../helpers.js';

// When `svc mcp` closes (the client ended stdin, or a signal), the Server aborts the tool calls under way; the CLI then
// closes the store. A handler past its last check of the signal (a write begun, a refund owed) must have finished
// before close() resolves, or it runs against a closed store: a generate_contract whose client closed stdin while it
// compiled logged "store is closed".

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

describe('closing svc mcp', () => {
  it('waits for the handlers under way before close() resolves', async () => {
    const order: string[] = [];
    const { tool: slow, running, release } = gatedTool(order);
    const input = new PassThrough();
    const output = new PassThrough();
    const serving = await serveStdio(
      async () => ({ tools: [slow], services: server.services }),
      server.adminKey,
      new EarlyStdioTransport(input, output),
    );
    input.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_slow', arguments: {} } })}\n`,
    );
    await running;
    const closed = serving.close().then(() => order.push('closed'));
    await ticks(20);
    expect(order).toEqual([]);
    release();
    await closed;
    expect(order).toEqual(['handler finished', 'closed']);
  });
});
