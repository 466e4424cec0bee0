import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractEngine } from '../../src/contracts/engine.js';
import { compileContract as compileContractTool } from '../../src/tools/contracts/compile-contract.js';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { restRequest } from '../support/rest.js';

// One account's queued compiles never hold back another account's generation by more than a job or so: the worker
// pools serve accounts in turn. Checked by the order of the answers, not by the clock.

/** A contract that takes solc a while (many functions), distinct per index so no compile is shared from the cache. */
function slowSource(i: number): string {
  const fns = Array.from(
    { length: 120 },
    (_, k) =>
      `  function f${k}(uint256 x) external pure returns (uint256) { return (x * ${k + 3} + ${i}) % ${k + 7}; }`,
  ).join('\n');
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Slow${i} {\n${fns}\n}\n`;
}

let server: TestServer;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  // One compiler worker and no wait limit: every compile of A queues behind the one running, and none is refused.
  await server.services.contracts.close();
  server.services.contracts = new ContractEngine({ solc: { size: 1, maxWaitMs: Infinity } });
  await server.services.contracts.pool.ready();
  keyA = await server.key({ tier: 'partner', scopes: ['all'], ownerId: await server.account({ name: 'A' }) });
  keyB = await server.key({ tier: 'partner', scopes: ['all'], ownerId: await server.account({ name: 'B' }) });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Sends a request with `key`; once answered (200), its label is added to `answered`. */
function caller(answered: string[]) {
  return (key: string, req: ReturnType<typeof restRequest>, label: string) =>
    server.app
      .inject({ ...req, headers: { authorization: `Bearer ${key}` }, remoteAddress: '127.0.0.1' })
      .then((res) => {
        expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(200);
        answered.push(label);
      });
}

describe('fair worker queues across accounts', () => {
  it("B's generation is answered while most of A's ten earlier compiles still wait", async () => {
    const answered: string[] = [];
    const call = caller(answered);
    const a = Array.from({ length: 10 }, (_, i) =>
      call(keyA, restRequest(compileContractTool, { blockchain: 'evm', sourceCode: slowSource(i) }), `a${i + 1}`),
    );
    // B asks once A's compiles are all queued.
    while (server.services.contracts.pool.stats.misses < 10) await new Promise((r) => setTimeout(r, 5));
    const b = call(keyB, restRequest(generateContractTool, { ...(generateContractTool.example as object) }), 'b');
    await Promise.all([...a, b]);
    // Served first come, first served, B would come last. In turn, it needs a few compiles of its own, each waiting
    // for at most the one of A's that is running.
    expect(answered.indexOf('b')).toBeLessThan(6);
    expect(answered.filter((x) => x !== 'b')).toHaveLength(10);
  }, 300_000);

  it("B's compile of a source A queued too is compiled in B's turn, not behind A's queue", async () => {
    const answered: string[] = [];
    const call = caller(answered);
    const compile = (source: string) => restRequest(compileContractTool, { blockchain: 'evm', sourceCode: source });
    const same = slowSource(100);
    const misses = server.services.contracts.pool.stats.misses;
    const a = [
      ...Array.from({ length: 5 }, (_, i) => call(keyA, compile(slowSource(200 + i)), `a${i + 1}`)),
      call(keyA, compile(same), 'a-same'),
    ];
    while (server.services.contracts.pool.stats.misses < misses + 6) await new Promise((r) => setTimeout(r, 5));
    const b = call(keyB, compile(same), 'b');
    await Promise.all([...a, b]);
    // Following A's compile of the same source, still queued behind A's five, B would be answered with it, last.
    expect(answered.indexOf('b')).toBeLessThan(3);
    expect(answered).toHaveLength(7);
  }, 300_000);
});
