/**
 * Start-up time of `svc mcp` (stdio): from spawning `node bin/svc.js mcp` until
 * the last bytes of the answers to `initialize`, the first `tools/list` and the first EVM
 * `generate_contract` arrive (the latter with the engines warmed after
 * initialize, and without; with the shape's compile in the disk cache, as every
 * start after the first finds it, and with that cache empty), against a bare `node -e ''` start measured in the
 * same run; and the time to answer a `tools/list` sent a while after
 * `initialize`'s answer (as editors do), while the service is still loading. Uses the compiled program (dist/) when it exists: run
 * `npm run build` first to measure what users get. Printed, never asserted.
 *
 *   npx tsx bench/start.ts [runs]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { solcCacheDir } from '../src/contracts/evm/solc-load.mjs';
import { generateContractTool } from '../src/tools/contracts/generate-contract.js';
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
const GENERATE = JSON.stringify({
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'generate_contract', arguments: generateContractTool.example },
});

/**
 * Calls `onLine` with every whole line `stream` writes and the time its last chunk arrived: an answer counts as
 * arrived when its last byte did, before the client parses it (the tool list is some 400 kB of JSON, and parsing it
 * is the client's time, not the service's). Each chunk is searched once for line ends, so a long line costs its
 * length, not its length times its chunks.
 */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string, at: number) => void): void {
  let pending: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    const at = performance.now();
    let from = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, from)) {
      pending.push(chunk.subarray(from, end));
      onLine(Buffer.concat(pending).toString('utf8'), at);
      pending = [];
      from = end + 1;
    }
    if (from < chunk.length) pending.push(chunk.subarray(from));
  });
}

interface StartTimes {
  initialize: number;
  toolsList: number;
  /** The first EVM generate_contract (when asked for): from spawn, or from its sending when sent once the engines were ready. */
  generate?: number;
  stderr: string;
}

/**
 * Milliseconds from spawn to the answer to `initialize` (id 1), to the first `tools/list` (id 2, sent at once, with
 * a valid key: the real list), and optionally to the first EVM `generate_contract` (id 3, sent when the list
 * arrives); the child is then stopped.
 */
function timeStart(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  generate: 'no' | 'at-once' | 'when-ready',
): Promise<StartTimes> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let listed = false;
    let sentAt: number | undefined;
    const times: Partial<StartTimes> = {};
    const send = () => {
      sentAt = performance.now();
      child.stdin.write(`${GENERATE}\n`);
    };
    const engineReady = () => /contract engines ready/.test(stderr);
    const finish = () => {
      child.stdin.end();
      child.once('exit', () => resolve({ ...(times as StartTimes), stderr }));
    };
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (generate === 'when-ready' && listed && sentAt === undefined && engineReady()) send();
    });
    onLines(child.stdout, (line, at) => {
      const msg = JSON.parse(line) as { id?: unknown; error?: unknown; result?: { isError?: boolean } };
      if (msg.id === 1) times.initialize = at - t0;
      if (msg.id === 2) {
        times.toolsList = at - t0;
        listed = true;
        if (generate === 'no' || msg.error) finish();
        else if (generate === 'at-once' || engineReady()) send();
      }
      if (msg.id === 3) {
        if (msg.error || msg.result?.isError) reject(new Error(`generate_contract failed: ${line.slice(0, 300)}`));
        times.generate = at - (generate === 'when-ready' ? sentAt! : t0);
        finish();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (times.initialize === undefined) reject(new Error(`svc mcp exited with ${code} before answering initialize`));
    });
    child.stdin.write([INITIALIZE, INITIALIZED, TOOLS_LIST].join('\n') + '\n');
  });
}

/**
 * Milliseconds from sending a `tools/list` (with a valid key), `delayMs` after the answer to `initialize` arrived, to its
 * answer; the child is then stopped.
 */
function timeLateList(dataDir: string, env: NodeJS.ProcessEnv, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let sentAt: number | undefined;
    let took: number | undefined;
    onLines(child.stdout, (line, at) => {
      const msg = JSON.parse(line) as { id?: unknown; error?: unknown };
      if (msg.id === 1)
        setTimeout(() => {
          sentAt = performance.now();
          child.stdin.write(`${TOOLS_LIST}\n`);
        }, delayMs);
      if (msg.id === 2) {
        if (msg.error) reject(new Error(`tools/list failed: ${line.slice(0, 300)}`));
        took = at - sentAt!;
        child.stdin.end();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (took === undefined) reject(new Error(`svc mcp exited with ${code} before answering tools/list`));
      else resolve(took);
    });
    child.stdin.write([INITIALIZE, INITIALIZED].join('\n') + '\n');
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

/** Starts timed for `initialize` and the first `tools/list` in each run (with as many bare node starts). */
const STARTS_PER_RUN = 4;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90) };
};

/**
 * A cache directory holding solc's decoded WebAssembly from the user's own (when it is there) and no compile results:
 * a start with it pays for the compile of the shape, not for decoding the compiler. `empty()` removes the compile
 * results the last start kept.
 */
async function cacheWithoutCompiles(): Promise<{
  dir: string;
  empty: () => Promise<void>;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-cache-'));
  const own = solcCacheDir();
  if (own && existsSync(own)) {
    for (const f of await readdir(own)) if (f.startsWith('solc-')) await copyFile(path.join(own, f), path.join(dir, f));
  }
  const compiled = path.join(dir, 'compiled');
  return {
    dir,
    empty: () => rm(compiled, { recursive: true, force: true }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function benchStart(runs = 10): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-start-'));
  const fresh = await cacheWithoutCompiles();
  const base: NodeJS.ProcessEnv = { ...process.env, SVC_LOG_LEVEL: 'info' };
  delete base.SVC_DEV;
  delete base.SVC_BUILD_DIR;
  try {
    // The first start creates the store and announces the first key: not counted.
    const first = await timeStart(dataDir, { ...base, SVC_API_KEY: '' }, 'no');
    const key = /store it safely:\s+(\S+)/.exec(first.stderr)?.[1];
    if (!key) throw new Error('the first start announced no key');
    const withKey = (warm: '0' | '1') => ({ ...base, SVC_API_KEY: key, SVC_WARM_ENGINES: warm });
    const uncompiled = (warm: '0' | '1') => ({ ...withKey(warm), SVC_CACHE_DIR: fresh.dir });
    const bare: number[] = [];
    const init: number[] = [];
    const list: number[] = [];
    const gen = { cold: [] as number[], atOnce: [] as number[], ready: [] as number[] };
    const empty = { cold: [] as number[], atOnce: [] as number[] };
    // Not counted either: a generate that leaves the shape compiled in the user's cache directory, so that the rows
    // saying it is kept find it there on a machine that never ran one.
    await timeStart(dataDir, withKey('0'), 'at-once');
    const late = { 50: [] as number[], 200: [] as number[] };
    for (let i = 0; i < runs; i++) {
      // A few starts per run for the first answers, each beside a bare node's: a start takes tens of milliseconds and
      // one sample a run left the ratio to the noise of single processes.
      for (let k = 0; k < STARTS_PER_RUN; k++) {
        bare.push(await timeBareNode());
        const t = await timeStart(dataDir, withKey('1'), 'no');
        init.push(t.initialize);
        list.push(t.toolsList);
      }
      const t = await timeStart(dataDir, withKey('1'), 'at-once');
      gen.atOnce.push(t.generate!);
      gen.cold.push((await timeStart(dataDir, withKey('0'), 'at-once')).generate!);
      gen.ready.push((await timeStart(dataDir, withKey('1'), 'when-ready')).generate!);
      await fresh.empty();
      empty.atOnce.push((await timeStart(dataDir, uncompiled('1'), 'at-once')).generate!);
      await fresh.empty();
      empty.cold.push((await timeStart(dataDir, uncompiled('0'), 'at-once')).generate!);
      for (const delay of [50, 200] as const) late[delay].push(await timeLateList(dataDir, withKey('1'), delay));
    }
    const b = stats(bare);
    const s = stats(init);
    const l = stats(list);
    const [c, a, r] = [stats(gen.cold), stats(gen.atOnce), stats(gen.ready)];
    const mode = existsSync(path.join(ROOT, 'dist', 'cli.js')) ? 'compiled dist/' : 'tsx (no dist/: run npm run build)';
    const row = (label: string, x: { p50: number; p90: number }, note: string) =>
      console.log(`  ${label.padEnd(40)} p50 ${fmt(x.p50, 0)} ms  p90 ${fmt(x.p90, 0)} ms  (${note})`);
    console.log(
      `\nstart: \`svc mcp\` spawn → answers, ${runs} runs (${runs * STARTS_PER_RUN} starts for the first answers), ${mode}`,
    );
    row("node -e ''", b, 'the baseline');
    row('initialize answered', s, `${fmt(s.p50 / b.p50, 2)}× bare node at p50; goal ≤ 1.3×`);
    row('first tools/list, with a key', l, `${fmt(l.p50 / b.p50, 2)}× bare node; goal ≤ 1.5×`);
    for (const delay of [50, 200] as const)
      row(`tools/list ${delay} ms after initialize`, stats(late[delay]), 'from its sending, while the service loads');
    console.log('  the shape compiled by an earlier start (kept in the cache directory):');
    row('first EVM generate, engines cold', c, 'SVC_WARM_ENGINES=0, sent with the list, from spawn; goal < 3000 ms');
    row('first EVM generate, warming', a, `sent with the list, from spawn; ${fmt(a.p50 / c.p50, 2)}× cold`);
    row('first EVM generate, engines ready', r, 'sent once they are, from its sending');
    console.log("  no compile kept (a cache directory with solc's WebAssembly alone), so solc compiles the shape:");
    const [ec, ea] = [stats(empty.cold), stats(empty.atOnce)];
    row('first EVM generate, engines cold', ec, 'SVC_WARM_ENGINES=0, sent with the list, from spawn');
    row('first EVM generate, warming', ea, `sent with the list, from spawn; ${fmt(ea.p50 / ec.p50, 2)}× cold`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await fresh.remove();
  }
}

if (isMain(import.meta.url)) await benchStart(Number(process.argv[2]) || 10);
