import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { copyFile, cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcArgs, tmpDir } from '../helpers.js';
import { MCP_ENTRIES } from '../../scripts/bundle-light.mjs';
import { cleanEnv, runSvc, startServe, type Served } from '../support/cli.js';

// `svc serve` and `svc mcp` start without the heavy libraries: each is loaded by the tool (or domain step) that
// needs it. A loader probe (test/support/load-probe.mjs) lists every module the process loads.

const PROBE = pathToFileURL(path.join(import.meta.dirname, '..', 'support', 'load-probe.mjs')).href;
const PROBE_STEPS = path.join(import.meta.dirname, '..', 'support', 'load-steps-probe.cjs');
/** node:module's findPackageJSON (Node 22.14 and later; typed here, the project's @types/node predates it). */
const { findPackageJSON } = nodeModule as unknown as { findPackageJSON: (name: string, base: string) => string };

/** Libraries no start may load, as they appear in a module's path. */
const HEAVY = [
  'solc',
  '@ton/sandbox',
  '@ton-community/func-js',
  // @ton/core's index (its cells and BoC, and @ton/crypto with it): a start loads its address class alone
  '@ton/core/dist/boc',
  '@ton/crypto',
  'langchain',
  '@langchain/core',
  '@langchain/openai',
  'openai',
  'viem',
  '@ethereumjs/vm',
  '@ethereumjs/evm',
  'pg',
  'redis',
  'sharp',
  'pdfkit',
  'fontkit',
  'stripe',
  '@node-rs/argon2',
  '@zxcvbn-ts/core',
  'minisearch',
  'web-tree-sitter',
  // loaded with the first mail and the first webhook attempt
  'nodemailer',
  'undici',
  // the contract package's archiver and the stop words of the memoir's reading and the docs search, on first use
  'fflate',
  'stopword',
];

/**
 * The MCP server's modules over HTTP (the SDK's Streamable HTTP transport and Hono's adapter under it): loaded with the
 * first request to /mcp, not with the service.
 */
const MCP_HTTP = ['@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js', '@hono/node-server/'];

/** Which of MCP_HTTP the probe recorded. */
function mcpHttpLoaded(probe: string): string[] {
  return MCP_HTTP.filter((name) =>
    probe.split('\n').some((line) => decodeURIComponent(line).includes(`/node_modules/${name}`)),
  );
}

/** The heavy libraries among the modules the probe recorded. */
function heavyLoaded(probe: string): string[] {
  const found = new Set<string>();
  for (const line of probe.split('\n')) {
    const file = line.startsWith('file:') ? decodeURIComponent(new URL(line).pathname) : line;
    for (const name of HEAVY) if (file.includes(`/node_modules/${name}/`)) found.add(name);
  }
  return [...found].sort();
}

/** A module of the program as the probe sees it: from the suite's build of src/ (SVC_BUILD_DIR), else the sources. */
const programModule = (relative: string): string =>
  process.env.SVC_BUILD_DIR
    ? path.join(process.env.SVC_BUILD_DIR, `${relative}.js`)
    : path.join(import.meta.dirname, '..', '..', 'src', `${relative}.ts`);

const probeEnv = (file: string) => ({
  SVC_LOAD_PROBE: file,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim(),
  SVC_LOG_LEVEL: 'info',
});

describe('svc serve', () => {
  let dir: Awaited<ReturnType<typeof tmpDir>>;
  let served: Served;
  let probeFile: string;
  beforeAll(async () => {
    dir = await tmpDir();
    probeFile = path.join(dir.dir, 'serve-modules.txt');
    served = await startServe(path.join(dir.dir, 'data'), probeEnv(probeFile));
  });
  afterAll(async () => {
    if (served) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
    await dir?.cleanup();
  });

  it('listens and answers without loading any heavy library', async () => {
    expect((await fetch(`${served.url}/health`)).status).toBe(200);
    const probe = await readFile(probeFile, 'utf8');
    // The probe saw the service's own modules (it works), and none of the heavy ones.
    expect(probe).toContain(programModule('http/app'));
    expect(heavyLoaded(probe)).toEqual([]);
    expect(mcpHttpLoaded(probe)).toEqual([]);
  });

  it('loads a library when a tool needs it: search_docs loads MiniSearch and the stop words', async () => {
    const key = /store it safely:\s+(\S+)/.exec(served.stderr())?.[1];
    expect(key).toBeTruthy();
    const res = await fetch(`${served.url}/api/v1/docs/search?q=webhook`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(heavyLoaded(await readFile(probeFile, 'utf8'))).toEqual(['minisearch', 'stopword']);
  });

  it('loads the MCP server with the first request to /mcp, and answers it', async () => {
    const key = /store it safely:\s+(\S+)/.exec(served.stderr())?.[1];
    expect(mcpHttpLoaded(await readFile(probeFile, 'utf8'))).toEqual([]);
    const res = await fetch(`${served.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('generate_contract');
    expect(mcpHttpLoaded(await readFile(probeFile, 'utf8'))).toEqual(MCP_HTTP);
  });
});

describe('svc mcp (stdio)', () => {
  it('answers initialize and tools/list without loading any heavy library', async () => {
    const dir = await tmpDir();
    const probeFile = path.join(dir.dir, 'mcp-modules.txt');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: svcArgs('mcp', '--data-dir', path.join(dir.dir, 'data')),
      env: cleanEnv({ ...probeEnv(probeFile), SVC_LOG_LEVEL: 'warn' }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'lazy-load-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      // Without a key, the key error: answered from the manifest before anything loads (test/cli/first-lists.test.ts).
      await expect(client.listTools()).rejects.toThrow(/No API key supplied/);
      // A tool call waits for the tools and the store.
      expect((await client.callTool({ name: 'list_templates', arguments: {} })).isError).toBe(true);
      const probe = await readFile(probeFile, 'utf8');
      expect(probe).toContain(programModule('tools/index'));
      expect(heavyLoaded(probe)).toEqual([]);
    } finally {
      await client.close();
      await dir.cleanup();
    }
  });
});

describe('the admin commands', () => {
  // `svc keys`, `accounts` and `credits` open the store and run one operation: they never read the docs, and loading
  // every tool (for the docs index's reference pages) was half of their start.
  it('svc keys list opens the store without loading the tools', async () => {
    const dir = await tmpDir();
    try {
      const probeFile = path.join(dir.dir, 'keys-modules.txt');
      const run = await runSvc(['keys', 'list', '--data-dir', path.join(dir.dir, 'data')], probeEnv(probeFile));
      expect(run.code, run.stderr).toBe(0);
      const probe = await readFile(probeFile, 'utf8');
      expect(probe).toContain(programModule('app'));
      expect(probe).not.toContain(programModule('tools/index'));
      expect(heavyLoaded(probe)).toEqual([]);
    } finally {
      await dir.cleanup();
    }
  });
});

describe('the light entry of svc mcp', () => {
  // What the two bundles of the light start (scripts/bundle-light.mjs) may import: Node modules that reading stdin and
  // files loads anyway. node:crypto, node:zlib and node:worker_threads each take milliseconds, as long as the whole
  // early answer; a package would be resolved and compiled apart (the key hash is bundled).
  const ALLOWED = [
    'node:fs',
    'node:fs/promises',
    'node:net',
    'node:path',
    'node:timers',
    'node:timers/promises',
    // loaded by Node's own start: what turns the bundle's file name into its URL
    'node:url',
    'node:util',
  ];

  it.each(['light', 'light-lists'])('cli/%s.cjs requires only cheap Node modules', async (bundle) => {
    const dir = process.env.SVC_BUILD_DIR;
    expect(dir).toBeTruthy();
    const text = await readFile(path.join(dir!, 'cli', `${bundle}.cjs`), 'utf8');
    // CommonJS, so that no ES module loader starts before the first answers: no static import at all.
    expect(text).not.toMatch(/^import\s/m);
    const required = [...text.matchAll(/\brequire\((["'])([^"']+)\1\)/g)].map((m) => m[2]!);
    expect(required).toContain('node:fs/promises');
    // The light entry requires its lists' bundle (once `initialize` is answered), and nothing else of its own.
    expect(required.filter((s) => s.startsWith('.'))).toEqual(bundle === 'light' ? ['./light-lists.cjs'] : []);
    expect(required.filter((s) => !s.startsWith('.') && !ALLOWED.includes(s))).toEqual([]);
  });

  // The light entry loads the program in these steps, a few at a time, answering lists in between; a step that cannot
  // be loaded ends the stepping silently (the command's own imports then load the rest in one block, and lists sent
  // meanwhile wait for all of it), so each must name a module of the build or an installed package.
  it('cli/load-steps.json names only modules of the build and installed packages', async () => {
    const dir = process.env.SVC_BUILD_DIR!;
    const steps = JSON.parse(await readFile(path.join(dir, 'cli', 'load-steps.json'), 'utf8')) as Array<
      string | { package: string; file: string }
    >;
    expect(steps).toContain('./cli/mcp.js');
    expect(steps).toContain('./tools/index.js');
    const fromBuild = pathToFileURL(path.join(dir, 'cli', 'light.cjs')).href;
    const missing = steps.filter((step) => {
      try {
        if (typeof step !== 'string')
          return !existsSync(path.join(path.dirname(findPackageJSON(step.package, fromBuild)), step.file));
        if (step.startsWith('./')) return !existsSync(path.join(dir, step));
        import.meta.resolve(step, fromBuild);
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  // A package of ES modules is loaded a module at a time (the MCP SDK's types with zod under them were one import of
  // some 100 ms, during which stdin was not read), and the steps load exactly what the command's own imports would.
  const probeIn = async (tree: string, ...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [PROBE_STEPS, tree, ...args], {
      maxBuffer: 16 << 20,
    });
    return JSON.parse(stdout) as { loaded: string[]; modules: number; step: unknown };
  };
  const probe = (...args: string[]) => probeIn(process.env.SVC_BUILD_DIR!, ...args);
  const COMMAND = ['command', ...MCP_ENTRIES.map((e) => e.replace(/\.ts$/, '.js'))];

  it('no step loads more than a few ES modules at once', async () => {
    const most = await probe('each');
    expect(most.modules, JSON.stringify(most.step)).toBeGreaterThan(0);
    // The largest is a package's modules that import each other in a cycle (loaded together, as Node orders them).
    expect(most.modules, JSON.stringify(most.step)).toBeLessThanOrEqual(25);
  });

  it('the steps load the modules the command would load, and no other', async () => {
    const [steps, command] = await Promise.all([probe('steps'), probe(...COMMAND)]);
    expect(steps.loaded.length).toBeGreaterThan(300);
    expect(new Set(steps.loaded)).toEqual(new Set(command.loaded));
  });

  // pnpm installs each package as a link: its modules are still found, and loaded once, under their real path.
  it('splits and loads linked packages as installed ones', async () => {
    const tmp = await tmpDir('svc-linked-');
    try {
      const root = path.resolve(import.meta.dirname, '..', '..');
      const tree = path.join(tmp.dir, 'dist');
      await cp(process.env.SVC_BUILD_DIR!, tree, { recursive: true });
      await copyFile(path.join(root, 'package.json'), path.join(tmp.dir, 'package.json'));
      await mkdir(path.join(tmp.dir, 'node_modules'));
      for (const name of await readdir(path.join(root, 'node_modules')))
        if (!name.startsWith('.'))
          await symlink(path.join(root, 'node_modules', name), path.join(tmp.dir, 'node_modules', name));
      const [steps, command, most] = await Promise.all([
        probeIn(tree, 'steps'),
        probeIn(tree, ...COMMAND),
        probeIn(tree, 'each'),
      ]);
      expect(steps.loaded.some((url) => url.includes('/node_modules/zod/'))).toBe(true);
      expect(new Set(steps.loaded)).toEqual(new Set(command.loaded));
      expect(most.modules, JSON.stringify(most.step)).toBeLessThanOrEqual(25);
    } finally {
      await tmp.cleanup();
    }
  });
});
