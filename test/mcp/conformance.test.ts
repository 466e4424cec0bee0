import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the Streamable HTTP endpoint, for
 * the scenarios that fit a server without the suite's own sample tools (test_simple_text and the like).
 *
 * The suite needs Node 22 or later: it runs under the Node 24 binary of the `node` devDependency. It cannot send an
 * API key, and every /mcp call needs one, so it talks to a small local forwarder that adds the key.
 */
const NODE24 = path.join(REPO_ROOT, 'node_modules', 'node', 'bin', 'node');
const SUITE = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

// The others need what this server does not have: the suite's own sample tools, prompts and resources (test_*),
// resource subscriptions, or SSE polling sessions; dns-rebinding-protection cannot be judged through the forwarder,
// which rewrites Host (test/mcp/http-auth.test.ts checks Host and Origin directly).
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'logging-set-level',
  'completion-complete',
  'resources-list',
  'prompts-list',
];

let server: TestServer;
let forwarder: http.Server;
let forwarderUrl = '';
let outDir = '';

beforeAll(async () => {
  server = await startTestServer();
  const target = new URL(server.url);
  forwarder = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${server.adminKey}` };
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  const addr = forwarder.address();
  if (addr && typeof addr === 'object') forwarderUrl = `http://127.0.0.1:${addr.port}/mcp`;
  outDir = await mkdtemp(path.join(tmpdir(), 'svc-conformance-'));
});

afterAll(async () => {
  forwarder?.closeAllConnections();
  await new Promise((resolve) => forwarder?.close(resolve));
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
}

/** Runs one scenario and returns the checks it wrote. */
async function scenario(name: string): Promise<Check[]> {
  const dir = path.join(outDir, name);
  const args = [SUITE, 'server', '--url', forwarderUrl, '--scenario', name, '--output-dir', dir];
  await promisify(execFile)(NODE24, args, { cwd: outDir }).catch((err: { stdout?: string; stderr?: string }) => {
    // A failed check makes it exit non-zero; the checks file still says which.
    if (!err.stdout && !err.stderr) throw err;
  });
  const files = (await readdir(dir, { recursive: true })).filter((f) => String(f).endsWith('checks.json'));
  expect(files).toHaveLength(1);
  return JSON.parse(await readFile(path.join(dir, String(files[0])), 'utf8')) as Check[];
}

describe('MCP conformance suite, Streamable HTTP', () => {
  for (const name of SCENARIOS) {
    it(`passes ${name}`, async () => {
      const checks = await scenario(name);
      expect(checks.length).toBeGreaterThan(0);
      // Every check a success: a warning (SHOULD) counts as a failure here too.
      const other = checks
        .filter((c) => c.status !== 'SUCCESS')
        .map((c) => `${c.id} ${c.status}: ${c.errorMessage ?? c.name}`);
      expect(other).toEqual([]);
    });
  }
});
