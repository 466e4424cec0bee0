import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-clients.js';

// generate_contract reports its stages as notifications/progress when the client sends a progress token.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function expectStages(seen: Progress[]): void {
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[0]!.message).toBe('validate');
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  // Each stage once.
  const stages = seen.map((p) => p.message);
  expect(new Set(stages).size).toBe(stages.length);
}

describe('MCP progress', () => {
  it('stdio-style connection: generate_contract sends its stages for a progress token, and nothing without one', async () => {
    const mcp = createMcpServer({
      tools: TOOLS,
      services: server.services,
      apiKey: server.adminKey,
      transport: 'mcp-stdio',
      clientIp: '127.0.0.1',
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'progress-test', version: '1.0.0' });
    const stray: unknown[] = [];
    client.fallbackNotificationHandler = async (n) => void stray.push(n);
    await client.connect(b);
    try {
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: 'generate_contract', arguments: generateContractTool.example! },
        undefined,
        { onprogress: (p) => seen.push(p) },
      );
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expectStages(seen);
      const plain = await client.callTool({ name: 'generate_contract', arguments: generateContractTool.example! });
      expect(plain.isError).toBeFalsy();
      expect(stray).toEqual([]);
    } finally {
      await client.close();
      await mcp.close();
    }
  });

  it('Streamable HTTP: the progress arrives before the result (SSE answer when a token is sent)', async () => {
    const client = await httpClient(server.url, server.adminKey);
    try {
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: 'generate_contract', arguments: generateContractTool.example! },
        undefined,
        { onprogress: (p) => seen.push(p) },
      );
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expectStages(seen);
    } finally {
      await client.close();
    }
  });
});
