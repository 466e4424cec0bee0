import { describe, expect, it } from 'vitest';
import { gatedTool, ticks } from '../fixtures/tools.js';
import { startTestServer } from '../helpers.js';

// A client of /mcp that goes away mid-call aborts it, but the handler may still be finishing (a write begun, a refund
// owed). The service closing then must wait for it before the store closes, as it waits for REST requests under way.

describe('closing svc serve with an MCP call whose client went away', () => {
  it('waits for the handler before the app has closed', async () => {
    const order: string[] = [];
    const { tool: slow, running, release } = gatedTool(order);
    const server = await startTestServer({ tools: [slow] });
    try {
      const client = new AbortController();
      const call = fetch(new URL('/mcp', server.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.adminKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'test_slow', arguments: {} },
        }),
        signal: client.signal,
      });
      await running;
      client.abort();
      await expect(call).rejects.toThrow();
      await ticks(20);
      const closed = server.app.close().then(() => order.push('closed'));
      await ticks(50);
      expect(order).toEqual([]);
      release();
      await closed;
      expect(order).toEqual(['handler finished', 'closed']);
    } finally {
      release();
      await server.close();
    }
  });
});
