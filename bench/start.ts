/**
 * Start-up time of `svc mcp` (stdio): from spawning `node bin/svc.js mcp` until
 * the answer to `initialize` arrives, against a bare `node -e ''` start measured
 * in the same run. Uses the compiled program (dist/) when it exists: run
 * `npm run build` first to measure what users get. Printed, never asserted.
 *
 *   npx tsx bench/start.ts [runs]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fmt, isMain, percentile } from './util.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'svc.js');

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
});

const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

/**
 * Milliseconds from spawn to the answer to `initialize` (id 1), and to the
 * first `tools/list` (id 2, sent at once: it waits for the tools and the store
 * to load; without a key it is answered with the key error, after loading);
 * the child is then stopped.
 */
function timeStart(dataDir: string, env: NodeJS.ProcessEnv): Promise<{ initialize: number; toolsList: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    let initialize: number | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const id = (JSON.parse(line) as { id?: unknown }).id;
        if (id === 1) initialize = performance.now() - t0;
        if (id === 2 && initialize !== undefined) {
          const toolsList = performance.now() - t0;
          child.stdin.end();
          child.once('exit', () => resolve({ initialize: initialize!, toolsList }));
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (initialize === undefined) reject(new Error(`svc mcp exited with ${code} before answering initialize`));
    });
    child.stdin.write([INITIALIZE, INITIALIZED, TOOLS_LIST].join('\n') + '\n');
  });
}

function timeBareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - t0));
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90) };
};

export async function benchStart(runs = 10): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_API_KEY: '', SVC_LOG_LEVEL: 'warn' };
  delete env.SVC_DEV;
  try {
    await timeStart(dataDir, env); // first start creates the store and the first key: not counted
    const bare: number[] = [];
    const init: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push(await timeBareNode());
      const t = await timeStart(dataDir, env);
      init.push(t.initialize);
      list.push(t.toolsList);
    }
    const b = stats(bare);
    const s = stats(init);
    const l = stats(list);
    const mode = existsSync(path.join(ROOT, 'dist', 'cli.js')) ? 'compiled dist/' : 'tsx (no dist/: run npm run build)';
    console.log(`\nstart: \`svc mcp\` spawn → answers, ${runs} runs, ${mode}`);
    console.log(`  node -e ''            p50 ${fmt(b.p50, 0)} ms  p90 ${fmt(b.p90, 0)} ms`);
    console.log(
      `  initialize answered   p50 ${fmt(s.p50, 0)} ms  p90 ${fmt(s.p90, 0)} ms  (${fmt(s.p50 / b.p50, 2)}× bare node at p50; goal < 300 ms)`,
    );
    console.log(
      `  first tools/list      p50 ${fmt(l.p50, 0)} ms  p90 ${fmt(l.p90, 0)} ms  (tools, store and engines loaded)`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await benchStart(Number(process.argv[2]) || 10);
