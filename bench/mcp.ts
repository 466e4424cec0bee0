/**
 * Round-trip time of one MCP tool call (list_templates) over stdio (`svc mcp`
 * child process) and over Streamable HTTP, against the SDK's in-memory transport.
 * Then the server's CPU per call over HTTP under load: a `tools/call` posted to
 * /mcp as MCP clients post it (one request, a JSON answer) against the same tool's
 * REST route, in alternating rounds of the same process (the load generator's CPU
 * counted on both sides).
 *
 *   npx tsx bench/mcp.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/provision.js';
import { createMcpServer } from '../src/mcp/server.js';
import { TOOLS } from '../src/tools/index.js';
import { mcpToolCallRequest } from '../test/mcp-clients.js';
import { benchLimiter } from './rest.js';
import { loadRun } from './load.js';
import { fmt, isMain, median, percentile } from './util.js';

const CALLS = 2000;

async function rtt(client: Client): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 200; i++) await client.callTool({ name: 'list_templates', arguments: {} });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const r = await client.callTool({ name: 'list_templates', arguments: {} });
    times.push(performance.now() - t0);
    if (r.isError) throw new Error(`call failed: ${JSON.stringify(r.content)}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * The SDK's HTTP client transport passes one AbortSignal to every fetch, and
 * Node 20's fetch (undici 6) removes its abort listener from that signal only
 * when the request is garbage-collected (nodejs/node#52635; later undici
 * releases remove it when the request settles, nodejs/undici#5318), so a
 * tight loop of calls trips a MaxListenersExceededWarning per call. Raising
 * the limit does not help: fetch resets it to 1500 itself. That client-side
 * warning is dropped while the HTTP run lasts; every other warning is still
 * printed. Returns the undo.
 */
function quietFetchSignalWarnings(): () => void {
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  const filter = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning' && w.message.includes('[AbortSignal]')) return;
    for (const print of printers) print(w);
  };
  process.on('warning', filter);
  return () => {
    process.off('warning', filter);
    for (const print of printers) process.on('warning', print);
  };
}

export async function benchMcp(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-mcp-'));
  const stdioDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-mcp-stdio-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  const { key } = await createKey(services.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock);

  const memServer = createMcpServer({
    tools: TOOLS,
    services,
    apiKey: key,
    transport: 'mcp-http',
    clientIp: '127.0.0.1',
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await memServer.connect(a);
  const mem = new Client({ name: 'bench', version: '1' });
  await mem.connect(b);
  const memR = await rtt(mem);
  await mem.close();

  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = new URL(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`);
  const restoreWarnings = quietFetchSignalWarnings();
  const http = new Client({ name: 'bench', version: '1' });
  await http.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  const httpR = await rtt(http);
  await http.close();
  restoreWarnings();
  const load = await cpuPerCall(services, url, key);
  await app.close();
  await closeServices(services);

  const s2 = await openServices(loadConfig({ 'data-dir': stdioDir }, {}), { log: createLogger('warn') });
  const stdioKey = (await createKey(s2.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock)).key;
  await closeServices(s2);
  const stdio = new Client({ name: 'bench', version: '1' });
  const env = { ...(process.env as Record<string, string>), SVC_API_KEY: stdioKey, SVC_LOG_LEVEL: 'warn' };
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(import.meta.dirname, '../bin/svc.js'), 'mcp', '--data-dir', stdioDir],
      env,
    }),
  );
  const stdioR = await rtt(stdio);
  await stdio.close();
  await rm(dir, { recursive: true, force: true });
  await rm(stdioDir, { recursive: true, force: true });

  console.log(`\nMCP: one tools/call round trip (list_templates), ${CALLS} sequential calls`);
  console.log(`  in-memory transport  p50 ${fmt(memR.p50, 3)} ms   p99 ${fmt(memR.p99, 3)} ms`);
  console.log(
    `  stdio (svc mcp)      p50 ${fmt(stdioR.p50, 3)} ms   p99 ${fmt(stdioR.p99, 3)} ms   p50 ratio ${fmt(stdioR.p50 / memR.p50)}  (target p50 < 1 ms)`,
  );
  console.log(
    `  Streamable HTTP      p50 ${fmt(httpR.p50, 3)} ms   p99 ${fmt(httpR.p99, 3)} ms   p50 ratio ${fmt(httpR.p50 / memR.p50)}`,
  );
  console.log(
    `  server CPU per call under load (${LOAD_ROUNDS} alternating rounds of ${LOAD_S} s, ${LOAD_CONNECTIONS} connections, medians, ` +
      `the load generator's included): MCP over HTTP ${fmt(load.mcp, 0)} µs, REST ${fmt(load.rest, 0)} µs, ` +
      `ratio ${fmt(load.mcp / load.rest)} (per round ${load.ratios.map((r) => fmt(r)).join(', ')})`,
  );
}

const LOAD_ROUNDS = 5;
const LOAD_S = 2;
const LOAD_CONNECTIONS = 8;

/**
 * Microseconds of this process's CPU per call, `tools/call` of list_templates over /mcp and GET of its REST route,
 * in alternating rounds. The REST bench's limiter counts every call (in windows of 100 ms), so no round is cut off
 * by the tier's limit.
 */
async function cpuPerCall(
  services: Awaited<ReturnType<typeof openServices>>,
  mcpUrl: URL,
  key: string,
): Promise<{ mcp: number; rest: number; ratios: number[] }> {
  const limiter = services.limiter;
  services.limiter = benchLimiter();
  const run = async (opts: Parameters<typeof loadRun>[0]) =>
    (await loadRun({ connections: LOAD_CONNECTIONS, duration: LOAD_S, ...opts })).cpuPerRequest;
  const call = mcpToolCallRequest(key, 'list_templates', '{}');
  const mcp = () => run({ url: mcpUrl.href, method: call.method, headers: call.headers, body: call.payload });
  const rest = () =>
    run({ url: new URL('/api/v1/contracts/templates', mcpUrl).href, headers: { authorization: `Bearer ${key}` } });
  try {
    await mcp(); // warm-up
    await rest();
    const m: number[] = [];
    const r: number[] = [];
    for (let i = 0; i < LOAD_ROUNDS; i++) {
      m.push(await mcp());
      r.push(await rest());
    }
    return { mcp: median(m), rest: median(r), ratios: m.map((x, i) => x / r[i]!) };
  } finally {
    services.limiter = limiter;
  }
}

if (isMain(import.meta.url)) await benchMcp();
