import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { REPO_ROOT, tmpDir } from '../helpers.js';
import { removeLeftovers } from '../support/leftovers.js';

// The installable package: `npm pack` (which builds dist/ through
// `prepare`), installed from the tarball in an empty directory, runs as `npx svc`
// from compiled JavaScript. Slow: it builds and installs (from the npm cache).
// It packs a copy of the project's files (tracked, and new ones not ignored) with the project's node_modules
// linked in, so the build it triggers writes the copy's dist/, never the one other test files read (the wizard
// assets): it can run beside them.

const run = promisify(execFile);
let tmp: Awaited<ReturnType<typeof tmpDir>>;
let files: string[];
let installDir: string;

/** The environment of the installed program: no SVC_* from the test run (SVC_DEV would ask for tsx, which is not installed). */
function installedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SVC_')) env[k] = v;
  return { ...env, SVC_LOG_LEVEL: 'warn', ...extra };
}

/** A copy of the project's files (what git tracks, and new files it does not ignore) in `dir`, sharing node_modules. */
async function copyProject(dir: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const rel of new Set(stdout.split('\0').filter(Boolean))) {
    const from = path.join(REPO_ROOT, rel);
    // A tracked file deleted in the working tree is not part of what would be packed.
    if (!existsSync(from)) continue;
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await copyFile(from, path.join(dir, rel));
  }
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

/**
 * Where the copy, the tarball and the installed package go, and whether the install starts from the project's
 * node_modules linked in (`seed`). The install writes some 500 MB in about 270 packages: on this project's machines
 * about 30 s of CPU in memory, 34 s on disk (14 of them in the kernel). When the temporary folder is on the file
 * system of the project's node_modules, the install directory's node_modules starts as hard links to it (`cp -al`,
 * about a second): npm then keeps what already satisfies the package's dependencies, removes the rest (the development
 * tools: the test checks tsx is gone) and extracts only svc itself, some 5 s of CPU. npm replaces files and never
 * writes into one it keeps, so the project's own files are not touched; the layout may differ from a fresh install's
 * in where npm hoists a package, which is npm's choice, not the package's (the lint gate refuses an import of a
 * package the package.json does not list for it: .dependency-cruiser.cjs). Otherwise, memory (/dev/shm) where the
 * machine has it, with a full install. A directory left by a run that was killed is removed first.
 */
function scratch(): { dir: string; seed: boolean } {
  const prefix = 'svc-pack-';
  const tmp = os.tmpdir();
  if (statSync(tmp).dev === statSync(path.join(REPO_ROOT, 'node_modules')).dev) {
    removeLeftovers(tmp, prefix);
    return { dir: tmp, seed: true };
  }
  const shm = '/dev/shm';
  try {
    accessSync(shm, constants.W_OK);
  } catch {
    return { dir: tmp, seed: false };
  }
  removeLeftovers(shm, prefix);
  return { dir: shm, seed: false };
}

/** The project's node_modules as hard links in `dir` (same file system), without npm's record of the tree it was. */
async function seedNodeModules(dir: string): Promise<void> {
  await run('cp', ['-al', path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  await rm(path.join(dir, 'node_modules', '.package-lock.json'), { force: true });
}

beforeAll(async () => {
  const where = scratch();
  tmp = await tmpDir(`svc-pack-${process.pid}-`, where.dir);
  const project = path.join(tmp.dir, 'project');
  await copyProject(project);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp.dir], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  const packed = (
    JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>
  )[0]!;
  files = packed.files.map((f) => f.path);
  installDir = path.join(tmp.dir, 'app');
  await mkdir(installDir);
  await writeFile(
    path.join(installDir, 'package.json'),
    JSON.stringify({ name: 'svc-pack-test', version: '1.0.0', private: true }),
  );
  if (where.seed) await seedNodeModules(installDir);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(tmp.dir, packed.filename)], {
    cwd: installDir,
    env: installedEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
}, 600_000);

afterAll(async () => {
  await tmp?.cleanup();
});

describe('npm pack', () => {
  it('holds the compiled program, its run-time assets and data, and no tests or TypeScript sources', () => {
    for (const f of [
      'bin/svc.js',
      'dist/cli.js',
      'dist/mcp/server.js',
      'dist/store/lowdb/writer-worker.mjs',
      'dist/contracts/evm/solc-worker.mjs',
      'README.md',
      'LICENSE',
      'package.json',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => f.startsWith('jurisdictions/') && f.endsWith('.json'))).toBe(true);
    expect(files.some((f) => f.startsWith('docs-index/'))).toBe(true);
    expect(
      files.filter((f) => f.startsWith('test/') || f.startsWith('src/') || f.startsWith('bench/') || f.endsWith('.ts')),
    ).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(installDir, 'node_modules', 'svc', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(existsSync(path.join(installDir, 'node_modules', 'tsx'))).toBe(false);
  });

  it('installed: `npx svc mcp` answers tools/list and generates a contract (solc worker from dist/)', async () => {
    const dataDir = path.join(tmp.dir, 'mcp-data');
    const { stdout } = await run(
      'npx',
      [
        '--no',
        'svc',
        'keys',
        'create',
        '--tier',
        'internal',
        '--scopes',
        'all',
        '--name',
        'pack',
        '--json',
        '--data-dir',
        dataDir,
      ],
      {
        cwd: installDir,
        env: installedEnv(),
      },
    );
    const { key } = JSON.parse(stdout) as { key: string };
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no', 'svc', 'mcp', '--data-dir', dataDir],
      cwd: installDir,
      env: installedEnv({ SVC_API_KEY: key }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('generate_contract');
      const result = await client.callTool({ name: 'generate_contract', arguments: generateContractTool.example! });
      expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('bytecode');
    } finally {
      await client.close();
    }
  }, 120_000);

  // The light entry finds the installed packages' folders (npm's layout, not the project's) and loads a library of ES
  // modules a module at a time there too (test/cli/lazy-load.test.ts has the rest).
  it('installed: `svc mcp` loads its libraries in small steps', async () => {
    const probe = path.join(REPO_ROOT, 'test', 'support', 'load-steps-probe.cjs');
    const tree = path.join(installDir, 'node_modules', 'svc', 'dist');
    const { stdout } = await run(process.execPath, [probe, tree, 'each'], { env: installedEnv() });
    const most = JSON.parse(stdout) as { modules: number; step: unknown };
    expect(most.modules, JSON.stringify(most.step)).toBeGreaterThan(0);
    expect(most.modules, JSON.stringify(most.step)).toBeLessThanOrEqual(25);
  }, 60_000);

  it('installed: `npx svc serve` answers /health', async () => {
    const dataDir = path.join(tmp.dir, 'serve-data');
    const child = spawn('npx', ['--no', 'svc', 'serve', '--port', '0', '--data-dir', dataDir], {
      cwd: installDir,
      env: installedEnv(),
      stdio: 'ignore',
      detached: true,
    });
    try {
      let url: string | undefined;
      for (let i = 0; i < 600 && !url; i++) {
        url = await readFile(path.join(dataDir, 'svc.server.json'), 'utf8').then(
          (t) => (JSON.parse(t) as { url: string }).url,
          () => undefined,
        );
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
    } finally {
      // npx runs svc as its child: stop the whole group this test started.
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});
