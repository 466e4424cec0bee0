import { PassThrough } from 'node:stream';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EarlyStdioTransport } from '../../src/mcp/early.js';
import { PROTOCOL_VERSIONS } from '../../src/mcp/info.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

// `svc mcp` answers initialize before the SDK loads (src/mcp/early.ts): the
// answer must be the SDK's own, given once, and nothing read early is lost.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

/** The JSON lines written to `output`, parsed, in a list that grows as they arrive. */
function linesOf<T>(output: PassThrough): T[] {
  const lines: T[] = [];
  let text = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    text += chunk;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n')) {
      lines.push(JSON.parse(text.slice(0, i)) as T);
      text = text.slice(i + 1);
    }
  });
  return lines;
}

const initialize = (version: string) => ({
  jsonrpc: '2.0' as const,
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'early-test', version: '1' } },
});

const options = () => ({
  tools: TOOLS,
  services: server.services,
  apiKey: server.adminKey,
  transport: 'mcp-stdio' as const,
  clientIp: '127.0.0.1',
});

/** What the SDK's Server itself answers to an initialize. */
async function sdkAnswer(version: string): Promise<JSONRPCMessage> {
  const mcp = createMcpServer(options());
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const answer = new Promise<JSONRPCMessage>((resolve) => (b.onmessage = resolve));
  await b.start();
  await b.send(initialize(version));
  const msg = await answer;
  await mcp.close();
  return msg;
}

describe('early initialize', () => {
  it('knows the protocol versions of the installed SDK', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  for (const version of ['2025-06-18', '1999-01-01']) {
    it(`answers initialize (${version}) as the SDK would, once, and hands every message to the Server`, async () => {
      const input = new PassThrough();
      const output = new PassThrough();
      const lines = linesOf<{ id?: unknown; result?: unknown }>(output);
      const early = new EarlyStdioTransport(input, output);
      input.write(JSON.stringify(initialize(version)) + '\n');
      input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
      await new Promise((r) => setImmediate(r));
      // Answered before any Server exists.
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEqual(await sdkAnswer(version));

      early.validate = (v) => JSONRPCMessageSchema.parse(v);
      const mcp = createMcpServer(options());
      await mcp.connect(early);
      for (let i = 0; i < 100 && !lines.some((l) => l.id === 2); i++) await new Promise((r) => setTimeout(r, 10));
      expect(lines.filter((l) => l.id === 1)).toHaveLength(1);
      expect(JSON.stringify(lines.find((l) => l.id === 2)?.result)).toContain('generate_contract');
      // The Server saw the client's initialize.
      expect(mcp.getClientVersion()?.name).toBe('early-test');
      await mcp.close();
    });
  }

  it('leaves anything but a well-formed first initialize to the Server', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (c: Buffer) => (written += c.toString()));
    new EarlyStdioTransport(input, output);
    input.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    await new Promise((r) => setImmediate(r));
    expect(written).toBe('');
  });
});

describe('early lists while the service loads', () => {
  it('answers lists and pings arriving after the Server connected until loaded(), then leaves them to the Server', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = linesOf<{ id?: unknown; result?: { tools?: unknown[] } }>(output);
    const asked: string[] = [];
    const early = new EarlyStdioTransport(input, output, {
      answer: async (method) => {
        asked.push(method);
        return { result: Buffer.from('{"tools":[{"name":"early"}]}') };
      },
    });
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    };
    input.write(`${JSON.stringify(initialize('2025-06-18'))}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await settle();
    // The Server connects; what it serves is still loading.
    let load!: (o: ReturnType<typeof options>) => void;
    const mcp = createMcpServer(new Promise<ReturnType<typeof options>>((resolve) => (load = resolve)));
    early.validate = (v) => JSONRPCMessageSchema.parse(v);
    await mcp.connect(early);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    await settle();
    expect(asked).toEqual(['tools/list']);
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(lines[1]?.result).toEqual({ tools: [{ name: 'early' }] });
    expect(lines[2]).toEqual({ jsonrpc: '2.0', id: 3, result: {} });

    // Loaded: the Server's answers to the requests answered early are dropped, and it answers the next ones.
    load(options());
    early.loaded();
    await settle();
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' })}\n`);
    for (let i = 0; i < 100 && !lines.some((l) => l.id === 4); i++) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual(['tools/list']);
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(lines[3]?.result)).toContain('generate_contract');
    await mcp.close();
  });
});

describe('lines that are not JSON-RPC messages', () => {
  it('are answered with a JSON-RPC error (the request id when there is one), as POST /mcp answers them', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = linesOf<{ id?: unknown; error?: { code: number; message: string }; result?: unknown }>(output);
    const early = new EarlyStdioTransport(input, output);
    early.validate = (v) => JSONRPCMessageSchema.parse(v);
    const mcp = createMcpServer(options());
    await mcp.connect(early);
    for (const line of [
      'garbage{',
      '{"jsonrpc":"2.0","id":7}',
      '{"jsonrpc":"1.0","id":"x","method":"ping"}',
      '[{"jsonrpc":"2.0","id":8,"method":"ping"}]',
      // A malformed answer of the client's is not answered back.
      '{"jsonrpc":"2.0","id":9,"result":1}',
      '{"jsonrpc":"2.0","id":10,"method":"ping"}',
    ])
      input.write(`${line}\n`);
    for (let i = 0; i < 100 && !lines.some((l) => l.id === 10); i++) await new Promise((r) => setTimeout(r, 10));
    expect(lines.map((l) => [l.id, l.error?.code])).toEqual([
      [null, -32700],
      [7, -32600],
      ['x', -32600],
      [null, -32600],
      [10, undefined],
    ]);
    expect(lines[3]?.error?.message).toMatch(/one message per line/);
    await mcp.close();
  });
});
