import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { solcCacheDir } from '../../../src/contracts/evm/solc-load.mjs';

// The solc loader runs where the compiler's workers run it: in a worker thread (a fresh JavaScript realm). Each load
// there holds a compiler instance, so one worker runs a sequence of steps and is then stopped.

const LOADER = new URL('../../../src/contracts/evm/solc-load.mjs', import.meta.url).href;
const SOURCE =
  '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Kept {\n    uint256 public x;\n    function set(uint256 v) external { x = v + 1; }\n}\n';

interface Step {
  /** loadSolc's cache directory (null: none). */
  dir: string | null;
  /** Files to change before the step: path and new content (latin1), or null to delete it. */
  change?: Array<[string, string | null]>;
  /** Compile SOURCE with the loaded solc. */
  compile?: boolean;
  /**
   * Start solc with startSolc from what the previous step's load would share (`previous`), or from something that is
   * not a compiled module (`broken`), instead of loadSolc.
   */
  shared?: 'previous' | 'broken';
}
interface Done {
  from: string;
  cached?: boolean;
  why?: string;
  reused?: boolean;
  bytecode?: string;
}

/** Runs the steps, one after the other, in one worker thread; `reference` adds a compile by `require('solc')`. */
async function inWorker(steps: Step[], reference = false): Promise<{ steps: Done[]; reference?: string }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const compile = (solc, source) => {
      const input = { language: 'Solidity', sources: { 'C.sol': { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } } };
      const out = JSON.parse(solc.compile(JSON.stringify(input)));
      return out.contracts['C.sol'].Kept.evm.bytecode.object;
    };
    (async () => {
      const { loadSolc, startSolc } = await import(workerData.loader);
      const steps = [];
      let last;
      for (const step of workerData.steps) {
        for (const [file, content] of step.change ?? []) {
          if (content === null) fs.rmSync(file, { force: true });
          else fs.writeFileSync(file, Buffer.from(content, 'latin1'));
        }
        const options = { dir: step.dir ?? undefined };
        const loaded = step.shared === 'previous'
          ? startSolc({ compiled: last.compiled, loaded: { from: last.from, dir: last.dir, cached: last.cached } }, options)
          : step.shared === 'broken'
            ? startSolc({ compiled: { module: {}, runtime: 'var Module = typeof Module != "undefined" ? Module : {};' } }, options)
            : loadSolc(options);
        last = loaded;
        steps.push({ from: loaded.from, cached: loaded.cached, why: loaded.why, reused: loaded.reused, bytecode: step.compile ? compile(loaded.solc, workerData.source) : undefined });
      }
      const reference = workerData.reference ? compile(require('solc'), workerData.source) : undefined;
      parentPort.postMessage({ steps, reference });
    })().catch((err) => parentPort.postMessage({ error: String(err && err.stack || err) }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { loader: LOADER, steps, source: SOURCE, reference } });
  try {
    const msg = await new Promise<{ steps: Done[]; reference?: string; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (msg.error) throw new Error(msg.error);
    return msg;
  } finally {
    await worker.terminate();
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-solc-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loading solc from a cache of its WebAssembly', () => {
  it('decodes once, then loads from the cache and compiles what the package compiles', async () => {
    const dir = path.join(tmp, 'a');
    // Entries of other installations, oldest first: the write keeps the three newest of them.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const others = [1, 2, 3, 4].map((n) => `solc-0.8.${n}-1000-${n}`);
    others.forEach((base, i) => {
      for (const ext of ['json', 'wasm']) {
        const file = path.join(dir, `${base}.${ext}`);
        writeFileSync(file, '{}');
        utimesSync(file, 1_000_000 + i, 1_000_000 + i);
      }
    });
    const { steps, reference } = await inWorker(
      [
        { dir, compile: true },
        { dir, compile: true },
      ],
      true,
    );
    expect(steps.map((s) => [s.from, s.cached])).toEqual([
      ['decoded', true],
      ['cache', undefined],
    ]);
    expect(reference).toMatch(/^[0-9a-f]{200,}$/);
    expect(steps[0]!.bytecode).toBe(reference);
    expect(steps[1]!.bytecode).toBe(reference);
    // The user's own: the directory and its files are not readable by others.
    expect(statSync(dir).mode & 0o077).toBe(0);
    const all = readdirSync(dir);
    for (const base of others.slice(1)) expect(all).toEqual(expect.arrayContaining([`${base}.json`, `${base}.wasm`]));
    expect(all.filter((f) => f.startsWith(others[0]!))).toEqual([]);
    const files = all.filter((f) => !others.some((base) => f.startsWith(base))).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^solc-\d+\.\d+\.\d+-\d+-\d+\.json$/);
    expect(files[1]).toMatch(/^solc-\d+\.\d+\.\d+-\d+-\d+\.wasm$/);
    for (const f of files) expect(statSync(path.join(dir, f)).mode & 0o077).toBe(0);
    const wasm = readFileSync(path.join(dir, files[1]!));
    expect(wasm.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
  });

  it('starts from a module another load compiled and compiles the same; loads when what it is handed is not one', async () => {
    const dir = path.join(tmp, 'shared');
    const { steps } = await inWorker([
      { dir, compile: true },
      { dir, shared: 'previous', compile: true },
      { dir, shared: 'broken', compile: true },
    ]);
    expect(steps.map((s) => [s.from, s.reused])).toEqual([
      ['decoded', undefined],
      ['decoded', true],
      ['cache', undefined],
    ]);
    expect(new Set(steps.map((s) => s.bytecode)).size).toBe(1);
    expect(steps[0]!.bytecode).toMatch(/^[0-9a-f]{100,}$/);
  });

  it('does not use a cache file that was changed, cut short or left without its description, and makes it again', async () => {
    const dir = path.join(tmp, 'b');
    await inWorker([{ dir }]);
    const [meta, wasmFile] = readdirSync(dir)
      .sort()
      .map((f) => path.join(dir, f));
    const good = readFileSync(wasmFile!);
    const flipped = Buffer.from(good);
    flipped[good.length >> 1] = flipped[good.length >> 1]! ^ 0xff;
    const { steps } = await inWorker([
      // one byte changed: the same length, another hash
      { dir, change: [[wasmFile!, flipped.toString('latin1')]], compile: true },
      { dir },
      // cut short
      { dir, change: [[wasmFile!, good.subarray(0, 1000).toString('latin1')]] },
      // the description gone (a writer stopped between its two files)
      { dir, change: [[meta!, null]] },
      { dir },
    ]);
    expect(steps.map((s) => s.from)).toEqual(['decoded', 'cache', 'decoded', 'decoded', 'cache']);
    expect(steps[0]!.bytecode).toMatch(/^[0-9a-f]{200,}$/);
    expect(readFileSync(wasmFile!).equals(good)).toBe(true);
  });

  it('neither reads nor writes a cache directory others may write to', async () => {
    const dir = path.join(tmp, 'shared');
    await inWorker([{ dir }]);
    chmodSync(dir, 0o777);
    const { steps } = await inWorker([{ dir }]);
    expect(steps.map((s) => [s.from, s.cached])).toEqual([['decoded', false]]);
    // A private directory again, but an entry others may write to.
    chmodSync(dir, 0o700);
    const wasmFile = readdirSync(dir).find((f) => f.endsWith('.wasm'))!;
    chmodSync(path.join(dir, wasmFile), 0o666);
    expect((await inWorker([{ dir }])).steps[0]!.from).toBe('decoded');
  });

  it('loads without a cache, and when the cache cannot be written', async () => {
    const blocked = path.join(tmp, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const { steps } = await inWorker([{ dir: null }, { dir: path.join(blocked, 'svc') }]);
    expect(steps.map((s) => [s.from, s.cached])).toEqual([
      ['decoded', false],
      ['decoded', false],
    ]);
    expect(readFileSync(blocked, 'utf8')).toBe('not a directory');
  });
});

describe('the cache directory', () => {
  it('is SVC_CACHE_DIR, off when it says off, else under XDG_CACHE_HOME or ~/.cache', () => {
    expect(solcCacheDir({ SVC_CACHE_DIR: '/srv/cache' })).toBe('/srv/cache');
    expect(solcCacheDir({ SVC_CACHE_DIR: 'off', XDG_CACHE_HOME: '/x' })).toBeUndefined();
    expect(solcCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'svc'));
    expect(solcCacheDir({ SVC_CACHE_DIR: '' })).toBe(path.join(os.homedir(), '.cache', 'svc'));
  });
});
