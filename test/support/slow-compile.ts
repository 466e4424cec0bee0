import type { SolcPool } from '../../src/contracts/evm/pool.js';

/**
 * Solidity nobody compiled yet (no cache hit) with enough functions that its compile is still running when a test
 * cancels it, even on solc workers already warm from an earlier file of the same process.
 */
export function slowSolidity(name: string): string {
  const fns = Array.from(
    { length: 400 },
    (_, i) => `function f${i}(uint256 a) external pure returns (uint256) { return a * ${i + 1} + ${i}; }`,
  ).join('\n');
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract ${name}${Date.now()} {\n${fns}\n}\n`;
}

/**
 * Waits until the pool has started a compile since `misses` was read (a miss is counted when a compile starts). It
 * used to give up silently after 4 s, and a test then cancelled a compile that had not started yet; on a busy machine
 * (two files at once, or a pool still starting its workers) a start can take longer. It now waits up to `withinMs`
 * and throws if the compile never started.
 */
export async function untilCompileStarts(pool: SolcPool, misses: number, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (pool.stats.misses === misses) {
    if (Date.now() > deadline) throw new Error(`no compile started within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
