import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { chainsAt, startEmptyEvmNode } from '../support/evm-rpc-standin.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpOutcome, restOutcome } from '../mcp-clients.js';
import { EXAMPLES } from '../support/examples.js';
import { restRequest } from '../support/rest.js';
import { registerUser, sessionHeaders } from '../support/session.js';

// Every tool's known-good example succeeds over REST and over MCP, with the same output.

let server: TestServer;
let node: { url: string; close(): Promise<void> };
beforeAll(async () => {
  node = await startEmptyEvmNode();
  server = await startTestServer({ config: { webhookAllow: '127.0.0.1', chains: chainsAt(node.url) } });
});
afterAll(async () => {
  await server?.close();
  await node?.close();
});

function strip(value: unknown, volatile: string[] = []): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !volatile.includes(k)));
}

describe('every tool has a working example', () => {
  it('covers every tool', () => {
    expect(TOOLS.map((t) => t.name).filter((n) => !EXAMPLES[n])).toEqual([]);
  });

  for (const tool of TOOLS) {
    it(tool.name, async () => {
      const example = EXAMPLES[tool.name]!;
      const key = await server.key({ tier: 'internal', scopes: ['all'] });
      const restInput = await example.input(server, key);
      const headers = example.session
        ? sessionHeaders(await registerUser(server.app, { password: 'correct horse battery staple' }))
        : { authorization: `Bearer ${key}` };
      const res = await server.app.inject({ ...restRequest(tool, restInput), headers });
      if (example.errorCode) {
        expect(res.json().error.code, res.body.slice(0, 500)).toBe(example.errorCode);
        if (tool.mcp !== false) throw new Error('error examples are for REST-only tools');
        return;
      }
      expect(res.statusCode, res.body.slice(0, 500)).toBe(tool.rest.status ?? 200);
      if (tool.rest.file) {
        // A file answer: its own media type, not the JSON envelope.
        expect(res.headers['content-type']).not.toMatch(/json/);
        expect(res.rawPayload.length).toBeGreaterThan(0);
        return;
      }
      if (tool.mcp === false) {
        // REST only: no MCP counterpart to compare with; the body must be a success envelope.
        expect(res.json().success).toBe(true);
        return;
      }
      const rest = restOutcome(res.statusCode, res.json(), tool.rest.shape, tool.rest);
      const client = await httpClient(server.url, key);
      const mcp = await mcpOutcome(client, tool.name, await example.input(server, key));
      await client.close();
      expect(mcp.ok).toBe(true);
      expect(strip(mcp.body, example.volatile)).toEqual(strip(rest.body, example.volatile));
    });
  }
});
