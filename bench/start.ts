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

/** Milliseconds from spawn to the first line on stdout that answers id 1; the child is then stopped. */
function timeInitialize(dataDir: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      for (const line of out.split('\n')) {
        if (!line.includes('"id":1')) continue;
        const ms = performance.now() - t0;
        child.stdin.end();
        child.once('exit', () => resolve(ms));
        return;
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!out.includes('"id":1')) reject(new Error(`svc mcp exited with ${code} before answering initialize`));
    });
    child.stdin.write(INITIALIZE + '\n');
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
    await timeInitialize(dataDir, env); // first start creates the store and the first key: not counted
    const bare: number[] = [];
    const svc: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push(await timeBareNode());
      svc.push(await timeInitialize(dataDir, env));
    }
    const b = stats(bare);
    const s = stats(svc);
    const mode = existsSync(path.join(ROOT, 'dist', 'cli.js')) ? 'compiled dist/' : 'tsx (no dist/: run npm run build)';
    console.log(`\nstart: \`svc mcp\` spawn → initialize answered, ${runs} runs, ${mode}`);
    console.log(`  node -e ''      p50 ${fmt(b.p50, 0)} ms  p90 ${fmt(b.p90, 0)} ms`);
    console.log(`  svc mcp         p50 ${fmt(s.p50, 0)} ms  p90 ${fmt(s.p90, 0)} ms  (${fmt(s.p50 / b.p50, 1)}× bare node at p50; goal < 300 ms)`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await benchStart(Number(process.argv[2]) || 10);
