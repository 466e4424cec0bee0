// Brings out V8's abort on Node 24 (`jit_page_->allocations_.erase(addr) == 1` in
// `ThreadIsolation::UnregisterWasmAllocation`) the way the service met it, and checks that the guard of
// src/core/wasm-code-gc.ts keeps it away: FunC compiles in the main thread without pause (a WebAssembly instance
// each), and every 50th of them a Solidity compile cancelled in a solc pool of two (its worker replaced) and another
// compiled. Each trial is a process of its own; half of them turn V8's collection of dead WebAssembly code back on
// after the guard turned it off. It prints, per arm, the trials that ended in the abort and the resident memory.
//
//   npm run build && node scripts/wasm-abort-repro.mjs [trials per arm, default 4] [compiles per trial, default 1000]
//
// A trial takes one to three minutes on two cores. Measured on 2026-12-02: docs/architecture.md, "Contracts".
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const root = path.resolve(import.meta.dirname, '..');
/** @param {string} file */
const dist = (file) => pathToFileURL(path.join(root, 'dist', file)).href;
/** @param {string} name @param {string} op */
const SOLIDITY = (name, op) =>
  `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n` +
  `contract ${name} { function f(uint256 a) external pure returns (uint256) { return a ${op}; } }\n`;

/** @param {number} compiles @param {boolean} withCodeGc */
async function trial(compiles, withCodeGc) {
  const { avoidWasmWrapperDoubleFree } = await import(dist('core/wasm-code-gc.js'));
  avoidWasmWrapperDoubleFree();
  if (withCodeGc) setFlagsFromString('--wasm-code-gc');
  const { compileFuncUncached } = await import(dist('contracts/ton/compile.js'));
  const { SolcPool } = await import(dist('contracts/evm/pool.js'));
  const pool = new SolcPool({ size: 2 });
  let peak = 0;
  for (let i = 0; i < compiles; i++) {
    await compileFuncUncached(`() recv_internal() impure { ;; ${i}\n }`);
    if (i % 50 === 0) {
      const cancel = new AbortController();
      const cancelled = pool.compile(SOLIDITY(`Gone${i}`, `* ${i}`), { signal: cancel.signal }).catch(() => null);
      setTimeout(() => cancel.abort(new Error('cancelled')), 30);
      await cancelled;
      await pool.compile(SOLIDITY(`Kept${i}`, `+ ${i}`));
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  }
  await pool.close();
  process.stdout.write(`${JSON.stringify({ peakMb: Math.round(peak / 2 ** 20) })}\n`);
}

/**
 * @param {number} compiles @param {boolean} withCodeGc
 * @returns {Promise<{ aborted: boolean, failed: boolean, peakMb: number | undefined, err: string }>}
 */
function child(compiles, withCodeGc) {
  return new Promise((resolve) => {
    const args = ['--max-semi-space-size=4', import.meta.filename, '--trial', String(compiles)];
    if (withCodeGc) args.push('--with-code-gc');
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (err += c));
    proc.on('close', (code, signal) => {
      const aborted = err.includes('jit_page_->allocations_.erase(addr) == 1');
      const last = out.trim().split('\n').pop();
      const peakMb = last ? JSON.parse(last).peakMb : undefined;
      resolve({ aborted, failed: !aborted && (code !== 0 || signal !== null), peakMb, err });
    });
  });
}

if (process.argv[2] === '--trial') {
  await trial(Number(process.argv[3]), process.argv.includes('--with-code-gc'));
} else {
  if (!existsSync(path.join(root, 'dist', 'core', 'wasm-code-gc.js'))) {
    process.stderr.write('dist/ is missing or old: run `npm run build` first\n');
    process.exit(2);
  }
  const trials = Number(process.argv[2] ?? 4);
  const compiles = Number(process.argv[3] ?? 1000);
  /** @type {Record<string, Array<{ aborted: boolean, failed: boolean, peakMb: number | undefined, err: string }>>} */
  const arms = { 'code collection on (no guard)': [], 'the guard (collection off)': [] };
  for (let t = 0; t < trials; t++) {
    // Alternating, so that a machine getting busier or quieter favours neither arm.
    /** @type {Array<[string, boolean]>} */
    const order = [
      ['code collection on (no guard)', true],
      ['the guard (collection off)', false],
    ];
    for (const [name, withCodeGc] of order) {
      const result = await child(compiles, withCodeGc);
      if (result.failed) process.stderr.write(`a trial failed otherwise:\n${result.err.slice(-2000)}\n`);
      arms[name]?.push(result);
      process.stderr.write(`${name}: trial ${t + 1}, ${result.aborted ? 'ABORTED' : `peak ${result.peakMb} MB`}\n`);
    }
  }
  for (const [name, results] of Object.entries(arms)) {
    const peaks = results.flatMap((r) => (r.peakMb === undefined ? [] : [r.peakMb]));
    const aborted = results.filter((r) => r.aborted).length;
    const memory = peaks.length ? `, peak RSS ${Math.min(...peaks)} to ${Math.max(...peaks)} MB` : '';
    console.log(`${name}: ${aborted} of ${results.length} trials aborted${memory}`);
  }
}
