import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { createKey } from '../src/keys/provision.js';
import { REPO_ROOT, SVC_BIN, startTestServer, tmpDir, type TestServer } from './helpers.js';
import { cleanEnv } from './support/cli.js';

// Every MCP client configuration in the README is parsed and what it
// names is started: the `svc` command (this checkout's bin/svc.js), a local data
// directory with a key in it, or the remote URL (a real server on 127.0.0.1).

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const KEY = 'svc_sk_REPLACE_ME';
const DATA_DIR = '/home/you/.svc/data';
const REMOTE = 'https://svc.example.com/mcp';

interface Snippet {
  client: string;
  mode: string;
  lang: string;
  text: string;
}

/** Code blocks marked `svc-config client=… mode=…`. */
function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const m of README.matchAll(/^```(\w+) svc-config client=([\w-]+) mode=(\w+)\n([\s\S]*?)^```$/gm)) {
    out.push({ lang: m[1]!, client: m[2]!, mode: m[3]!, text: m[4]! });
  }
  return out;
}

/** What a snippet tells the client to start: a command (stdio) or a URL with headers (HTTP). */
type Launch =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'http'; url: string; headers: Record<string, string> };

function fromJson(text: string): Launch {
  const doc = JSON.parse(text) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
  const entry = (doc.mcpServers ?? doc.servers)?.svc as {
    command?: string;
    args?: string[];
    env?: Record<string, string>;
    url?: string;
    headers?: Record<string, string>;
  };
  expect(entry, 'a server named svc').toBeTruthy();
  if (entry.url) return { kind: 'http', url: entry.url, headers: entry.headers ?? {} };
  return { kind: 'stdio', command: entry.command!, args: entry.args ?? [], env: entry.env ?? {} };
}

/** Shell words, with double-quoted words kept whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** A `claude mcp add …` command line. */
function fromClaudeCode(text: string): Launch {
  const w = words(text.trim());
  expect(w.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const positional: string[] = [];
  let transport = 'stdio';
  let i = 3;
  for (; i < w.length; i++) {
    const a = w[i]!;
    if (a === '--') break;
    if (a === '--transport' || a === '-t') transport = w[++i]!;
    else if (a === '--env' || a === '-e') {
      const [k, ...v] = w[++i]!.split('=');
      env[k!] = v.join('=');
    } else if (a === '--header' || a === '-H') {
      const [k, ...v] = w[++i]!.split(':');
      headers[k!.trim()] = v.join(':').trim();
    } else if (a === '--scope' || a === '-s') i++;
    else positional.push(a);
  }
  expect(positional[0]).toBe('svc');
  if (transport === 'http') return { kind: 'http', url: positional[1]!, headers };
  const [command, ...args] = w.slice(i + 1);
  return { kind: 'stdio', command: command!, args, env };
}

let server: TestServer;
let local: Awaited<ReturnType<typeof tmpDir>>;
let localKey: string;

beforeAll(async () => {
  server = await startTestServer();
  local = await tmpDir();
  const services = await openServices(loadConfig({ 'data-dir': local.dir }, {}), { log: createLogger('silent') });
  try {
    localKey = (await createKey(services.store, { name: 'readme', tier: 'internal', scopes: ['all'] }, systemClock))
      .key;
  } finally {
    await closeServices(services);
  }
});
afterAll(async () => {
  await server?.close();
  await local?.cleanup();
});

async function connect(launch: Launch, mode: string): Promise<Client> {
  const key = mode === 'remote' ? server.adminKey : localKey;
  const fill = (s: string) =>
    s
      .replaceAll(KEY, key)
      // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input variable, written as is in the README's config
      .replaceAll('${input:svc-key}', key)
      .replaceAll(DATA_DIR, local.dir)
      .replaceAll(REMOTE, `${server.url}/mcp`);
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  if (launch.kind === 'http') {
    const headers = Object.fromEntries(Object.entries(launch.headers).map(([k, v]) => [k, fill(v)]));
    await client.connect(new StreamableHTTPClientTransport(new URL(fill(launch.url)), { requestInit: { headers } }));
    return client;
  }
  // The installed `svc` command is this checkout's bin/svc.js.
  expect(launch.command).toBe('svc');
  const env = cleanEnv();
  for (const [k, v] of Object.entries(launch.env)) env[k] = fill(v);
  env.SVC_LOG_LEVEL = 'warn';
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SVC_BIN, ...launch.args.map(fill)],
      env,
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('README MCP configurations', () => {
  const all = snippets();

  it('has a local and a remote configuration for Claude Desktop, Cursor, VS Code and Claude Code', () => {
    const pairs = all.map((s) => `${s.client}/${s.mode}`).sort();
    const expected = ['claude-code', 'claude-desktop', 'cursor', 'vscode']
      .flatMap((c) => [`${c}/local`, `${c}/remote`])
      .sort();
    expect(pairs).toEqual(expected);
  });

  for (const s of all) {
    it(`${s.client} (${s.mode}): starts what the snippet names and lists the tools`, async () => {
      const launch = s.lang === 'json' ? fromJson(s.text) : fromClaudeCode(s.text);
      if (s.mode === 'local') expect(launch.kind).toBe('stdio');
      const client = await connect(launch, s.mode);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('generate_contract');
      } finally {
        await client.close();
      }
    }, 60_000);
  }
});
