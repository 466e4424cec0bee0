import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { keyPrincipal, type NewKey } from '../../src/keys/keys.js';
import { createKey } from '../../src/keys/provision.js';
import {
  decodeManifest,
  encodeManifest,
  listFor,
  RESOURCE_LIST_METHODS,
  type ListMethod,
  type Manifest,
} from '../../src/mcp/manifest.js';
import { buildManifest } from '../../src/mcp/manifest-source.js';
import { RPC_INTERNAL_ERROR, RPC_INVALID_PARAMS, RPC_INVALID_REQUEST } from '../../src/mcp/rpc-errors.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

// The manifest `svc mcp` answers its first lists from (src/mcp/manifest.ts) must be what the live server lists, for
// every tool and every kind of key, or the early answers would go stale.

let server: TestServer;
let built: Manifest;
/** The manifest as `svc mcp` reads it: written to its file's format and read back. */
let manifest: Manifest<Buffer>;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
  built = buildManifest();
  manifest = decodeManifest(encodeManifest(built))!;
});
afterAll(async () => {
  await server?.close();
});

const METHODS: ListMethod[] = ['tools/list', ...RESOURCE_LIST_METHODS];

/** The live server's raw JSON-RPC answers to every list, for `apiKey`, in METHODS order. */
async function liveAnswers(apiKey: string): Promise<JSONRPCMessage[]> {
  const mcp = createMcpServer({
    tools: TOOLS,
    services: server.services,
    apiKey,
    transport: 'mcp-stdio',
    clientIp: '127.0.0.1',
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const answers = new Map<unknown, JSONRPCMessage>();
  b.onmessage = (m) => answers.set((m as { id?: unknown }).id, m);
  await b.start();
  await b.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'manifest-test', version: '1' } },
  });
  for (const [i, method] of METHODS.entries()) await b.send({ jsonrpc: '2.0', id: i + 1, method });
  for (let i = 0; i < 200 && answers.size < METHODS.length + 1; i++) await new Promise((r) => setTimeout(r, 10));
  await mcp.close();
  // As they go over the wire.
  return METHODS.map((_, i) => JSON.parse(JSON.stringify(answers.get(i + 1))) as JSONRPCMessage);
}

/** What the early path answers from the manifest for the key made from `input`, as JSON-RPC messages. */
async function check(input: Partial<NewKey>): Promise<JSONRPCMessage[]> {
  const { key, record } = await createKey(
    server.services.store,
    { name: 'manifest', tier: 'internal', scopes: ['all'], ...input },
    systemClock,
  );
  const live = await liveAnswers(key);
  METHODS.forEach((method, i) => {
    const early = listFor(manifest, method, keyPrincipal(record));
    const message = 'result' in early ? { result: JSON.parse(early.result.toString('utf8')) as unknown } : early;
    expect({ jsonrpc: '2.0', id: i + 1, ...message }, method).toEqual(live[i]);
  });
  return live;
}

describe('the MCP manifest', () => {
  it('uses the JSON-RPC codes of the SDK', () => {
    expect([RPC_INVALID_REQUEST, RPC_INVALID_PARAMS, RPC_INTERNAL_ERROR]).toEqual([
      ErrorCode.InvalidRequest,
      ErrorCode.InvalidParams,
      ErrorCode.InternalError,
    ]);
  });

  it('lists every tool, resource, template and prompt as the live server does for an operator key', async () => {
    const live = await check({});
    const tools = (live[0] as unknown as { result: { tools: Array<{ name: string }> } }).result.tools;
    // Every tool served over MCP is in the manifest, with its access rule.
    expect(manifest.tools.map((t) => t.name).sort()).toEqual(
      TOOLS.filter((t) => t.mcp !== false)
        .map((t) => t.name)
        .sort(),
    );
    expect(tools.length).toBeGreaterThan(10);
  });

  it.each([
    ['a partner key with the webhooks scope', { tier: 'partner', scopes: ['webhooks'] }],
    ['a public key with contracts:read', { tier: 'public', scopes: ['contracts:read'] }],
    ['a partner key with contracts and vaults', { tier: 'partner', scopes: ['contracts', 'vaults'] }],
  ] as Array<[string, Partial<NewKey>]>)('filters the lists as the live server does for %s', async (_, input) => {
    const owner = await server.account({ tier: input.tier ?? 'partner' });
    await check({ ...input, ownerId: owner });
  });

  it('is what the build wrote for the program the suite runs', async () => {
    // Set by the suite's global setup (test/global-build.ts), which writes the manifest as `npm run build` does.
    const dir = process.env.SVC_BUILD_DIR;
    expect(dir).toBeTruthy();
    const written = await readFile(path.join(dir!, 'mcp', 'manifest.txt'));
    expect(written.equals(encodeManifest(built))).toBe(true);
    // Read back, every text is the one built.
    const read = decodeManifest(written)!;
    expect({
      ...read,
      tools: read.tools.map((t) => ({ ...t, listing: t.listing.toString('utf8') })),
      results: Object.fromEntries(Object.entries(read.results).map(([k, v]) => [k, v.toString('utf8')])),
    }).toEqual(JSON.parse(JSON.stringify(built)));
  });
});
