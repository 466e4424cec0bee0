import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { svcArgs, startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';
import { slowSolidity, untilCompileStarts } from '../support/slow-compile.js';

// `svc mcp --url`: a stdio MCP server bridging to a remote svc over Streamable HTTP.

let server: TestServer;
let tmp: Awaited<ReturnType<typeof tmpDir>>;

beforeAll(async () => {
  server = await startTestServer();
  tmp = await tmpDir();
});
afterAll(async () => {
  await server?.close();
  await tmp?.cleanup();
});

function envWith(extra: Record<string, string>): Record<string, string> {
  return cleanEnv(extra);
}

async function proxyClient(args: string[], env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: svcArgs('mcp', ...args),
    env: envWith(env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, svcArgs(...args), { env: envWith(env) });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

describe('svc mcp --url (remote proxy)', () => {
  it('passes tools, resources, prompts, progress and cancellation through', async () => {
    const client = await proxyClient(['--url', `${server.url}/mcp`], { SVC_API_KEY: server.adminKey });
    try {
      expect(client.getServerVersion()?.name).toBe('svc');
      expect(client.getInstructions()).toMatch(/inheritance/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('generate_contract');
      expect(tools.find((t) => t.name === 'list_templates')?.annotations?.readOnlyHint).toBe(true);

      const templates = await client.callTool({ name: 'list_templates', arguments: {} });
      expect(templates.isError).toBeFalsy();
      expect(JSON.stringify(templates.structuredContent)).toContain('common-law');

      // An error result passes through as the error envelope.
      const bad = await client.callTool({ name: 'generate_contract', arguments: { blockchain: 'evm' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]!.text).toContain('VALIDATION_ERROR');

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.length).toBeGreaterThan(0);
      const { prompts } = await client.listPrompts();
      expect(prompts.length).toBeGreaterThan(0);

      const seen: Progress[] = [];
      const generated = await client.callTool(
        { name: 'generate_contract', arguments: generateContractTool.example! },
        undefined,
        { onprogress: (p) => seen.push(p) },
      );
      expect(generated.isError).toBeFalsy();
      expect(seen[0]?.message).toBe('validate');

      // Cancelling a compile through the proxy stops it on the remote server and frees its worker.
      const pool = server.services.contracts.pool;
      const before = pool.stats.aborted;
      const source = slowSolidity('ProxyCancelled');
      const misses = pool.stats.misses;
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'compile_contract', arguments: { blockchain: 'evm', sourceCode: source } },
        undefined,
        { signal: controller.signal },
      );
      // Cancel once the compile has started on the server.
      await untilCompileStarts(pool, misses);
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      // The cancellation crosses the proxy and the remote server before the pool counts it: wait for it (up to 30 s,
      // ample on a machine busy with another file), then check it was counted once.
      for (const deadline = Date.now() + 30_000; pool.stats.aborted === before && Date.now() < deadline; )
        await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats.aborted).toBe(before + 1);
      // The proxy goes on serving.
      const again = await client.callTool({
        name: 'compile_contract',
        arguments: { blockchain: 'evm', sourceCode: source },
      });
      expect(again.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('answers lines that are not JSON-RPC messages with a JSON-RPC error, as `svc mcp` does', async () => {
    // Before, the SDK's stdio transport dropped them: a client waited for ever for the answer to a broken request.
    const child = spawn(process.execPath, svcArgs('mcp', '--url', `${server.url}/mcp`), {
      env: envWith({ SVC_API_KEY: server.adminKey }),
    });
    const lines: Array<{ id?: unknown; error?: { code: number }; result?: { protocolVersion?: string } }> = [];
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n')) {
        lines.push(JSON.parse(text.slice(0, i)));
        text = text.slice(i + 1);
      }
    });
    try {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      child.stdin.write(`garbage{\n{"jsonrpc":"2.0","id":7}\n${JSON.stringify(initialize)}\n`);
      for (let i = 0; i < 500 && !lines.some((l) => l.id === 1); i++) await new Promise((r) => setTimeout(r, 20));
      expect(lines.map((l) => [l.id, l.error?.code])).toEqual([
        [null, -32700],
        [7, -32600],
        [1, undefined],
      ]);
      // The initialize was the remote's to answer, not the proxy's.
      expect(lines[2]?.result?.protocolVersion).toBe('2025-06-18');
    } finally {
      child.kill();
    }
  });

  it('reads the key from --api-key-file', async () => {
    const file = path.join(tmp.dir, 'key');
    await writeFile(file, `${server.adminKey}\n`);
    const client = await proxyClient(['--url', `${server.url}/mcp`, '--api-key-file', file], {});
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('a wrong key stops it at start with a clear message and a non-zero exit', async () => {
    const r = await run(['mcp', '--url', `${server.url}/mcp`], { SVC_API_KEY: 'svc_live_wrongwrongwrongwrongwrong' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refused the API key \(HTTP 401\)/);
    expect(r.stdout).toBe('');
  });

  it('refuses a missing key, plain http to another host and an unreachable server', async () => {
    const noKey = await run(['mcp', '--url', `${server.url}/mcp`], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs an API key: set SVC_API_KEY or pass --api-key-file/);
    const plain = await run(['mcp', '--url', 'http://svc.example.com/mcp'], { SVC_API_KEY: server.adminKey });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/must use https/);
    const down = await run(['mcp', '--url', 'http://127.0.0.1:9/mcp'], { SVC_API_KEY: server.adminKey });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/mcp/);
  });
});
