import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { SolcPool } from '../../../src/contracts/evm/pool.js';
import { apiRejection as rejection } from '../../support/rejection.js';

const HEADER = `// SPDX-License-Identifier: MIT\npragma solidity ${SOLC_VERSION};\n`;

describe('SolcPool', () => {
  let pool: SolcPool;
  beforeAll(async () => {
    pool = new SolcPool({ size: 2 });
    await pool.ready();
  });
  afterAll(async () => {
    await pool.close();
  });

  it('compiles arbitrary Solidity to ABI and bytecode and returns warnings with positions', async () => {
    const src = `${HEADER}contract Counter {\n    uint256 public count;\n    function bump(uint256 unused) external {\n        count += 1;\n    }\n}\n`;
    const out = await pool.compile(src);
    expect(out.contractName).toBe('Counter');
    expect(out.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(out.abi).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function', name: 'bump' })]));
    const unused = out.warnings.find((w) => /Unused function parameter/.test(w.message));
    expect(unused).toMatchObject({ severity: 'warning', line: 5, column: 19 });
  });

  it('reports compile errors as VALIDATION_ERROR with line, column and message', async () => {
    const src = `${HEADER}contract Broken {\n    function f() external pure returns (uint256) {\n        uint256 x = ;\n        return y;\n    }\n}\n`;
    const err = await rejection(pool.compile(src));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.status).toBe(400);
    expect(err.details?.[0]).toMatchObject({ field: 'sourceCode', line: 5, column: 21 });
    expect(err.details?.[0]?.reason).toMatch(/Expected primary expression/);
    const undeclared = `${HEADER}contract Broken {\n    function f() external pure returns (uint256) {\n        return y;\n    }\n}\n`;
    const err2 = await rejection(pool.compile(undeclared));
    expect(err2.details).toEqual([
      expect.objectContaining({ line: 5, column: 16, reason: expect.stringMatching(/Undeclared identifier/) }),
    ]);
  });

  it('resolves @openzeppelin/contracts imports and nothing else', async () => {
    const oz = `${HEADER}import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";\ncontract Token is ERC20 {\n    constructor() ERC20("T", "T") {}\n}\n`;
    const out = await pool.compile(oz);
    expect(out.contractName).toBe('Token');
    const local = await rejection(pool.compile(`${HEADER}import "./Other.sol";\ncontract A {}\n`));
    expect(local.details?.[0]?.reason).toMatch(/only @openzeppelin\/contracts\/\.\.\. imports resolve/);
    expect(local.details?.[0]?.line).toBe(3);
    const remote = await rejection(pool.compile(`${HEADER}import "https://example.com/x.sol";\ncontract A {}\n`));
    expect(remote.details?.[0]?.reason).toMatch(/not allowed/);
    const escaped = await rejection(
      pool.compile(`${HEADER}import "@openzeppelin/contracts/../../solc/package.json";\ncontract A {}\n`),
    );
    expect(escaped.details?.[0]?.reason).toMatch(/outside|not allowed/);
    const missing = await rejection(
      pool.compile(`${HEADER}import "@openzeppelin/contracts/NoSuchFile.sol";\ncontract A {}\n`),
    );
    expect(missing.details?.[0]?.reason).toMatch(/does not exist/);
  });

  it('a source importing itself (an endless import cycle) compiles once and leaves no worker stuck', async () => {
    const selfImport = `${HEADER}import "Contract.sol";\ncontract Loop { uint256 public x; }\n`;
    const out = await pool.compile(selfImport);
    expect(out.contractName).toBe('Loop');
  });

  it('rejects a 2 MB source with a clear error before any worker sees it', async () => {
    const before = pool.stats.misses;
    const big = `${HEADER}contract Big {}\n${'// padding padding padding padding padding padding padding padding\n'.repeat(32_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(2_000_000);
    const err = await rejection(pool.compile(big));
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    expect(err.message).toMatch(/limit is 524288 bytes/);
    expect(pool.stats.misses).toBe(before);
    const empty = await rejection(pool.compile('   '));
    expect(empty.code).toBe('VALIDATION_ERROR');
  });

  it('stops a compile over its time limit, replaces the worker and keeps serving', async () => {
    const started = pool.stats.workersStarted;
    const oz = `${HEADER}import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";\ncontract Nft is ERC721 {\n    constructor() ERC721("N", "N") {}\n}\n`;
    const err = await rejection(pool.compile(oz, { timeoutMs: 5 }));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toMatch(/longer than 5 ms/);
    expect(pool.stats.workersStarted).toBe(started + 1);
    // Both workers still answer.
    const outs = await Promise.all([1, 2, 3].map((i) => pool.compile(`${HEADER}contract After${i} {}\n`)));
    expect(outs.map((o) => o.contractName)).toEqual(['After1', 'After2', 'After3']);
  });

  it('starts a replaced worker from the compiled compiler its first worker shared, and it compiles the same', async () => {
    const one = new SolcPool({ size: 1 });
    try {
      const before = await one.compile(
        `${HEADER}contract Before { function f() external pure returns (uint256) { return 7; } }\n`,
      );
      const first = await one.loadInfo();
      expect(first.from).toMatch(/^(cache|decoded)$/);
      const oz = `${HEADER}import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";\ncontract Nft2 is ERC721 {\n    constructor() ERC721("N", "N") {}\n}\n`;
      expect((await rejection(one.compile(oz, { timeoutMs: 5 }))).code).toBe('VALIDATION_ERROR');
      expect(one.stats.workersStarted).toBe(2);
      const info = await one.loadInfo();
      // Started from the module, with how the first load went (this process's first, which may be another pool's).
      expect(info).toMatchObject({ reused: true, from: expect.stringMatching(/^(cache|decoded)$/) });
      expect(info).not.toHaveProperty('compiled');
      const after = await one.compile(
        `${HEADER}contract After { function f() external pure returns (uint256) { return 7; } }\n`,
      );
      expect(after.bytecode.length).toBe(before.bytecode.length);
      expect(after.abi).toEqual(before.abi);
    } finally {
      await one.close();
    }
  });

  it('caches by source and settings (same object back) and picks contracts by name', async () => {
    const src = `${HEADER}contract First { function a() external {} }\ncontract Second { function b() external {} }\n`;
    const hits = pool.stats.hits;
    const a = await pool.compile(src);
    const b = await pool.compile(src);
    expect(a).toBe(b);
    expect(pool.stats.hits).toBe(hits + 1);
    expect(a.contractName).toBe('Second');
    const first = await pool.compile(src, { contractName: 'First' });
    expect(first.contractName).toBe('First');
    const err = await rejection(pool.compile(src, { contractName: 'Third' }));
    expect(err.details?.[0]).toMatchObject({ field: 'contractName' });
    const none = await rejection(pool.compile(`${HEADER}interface I { function f() external; }\n`));
    expect(none.message).toMatch(/no deployable contract/);
  });

  it('bounds the cache memory (LRU)', async () => {
    const src = (i: number) =>
      `${HEADER}contract C${i} { uint256 public v${i}; function set(uint256 x) external { v${i} = x; } }\n`;
    const probe = new SolcPool({ size: 1 });
    await probe.compile(src(0));
    const entry = probe.cacheSize;
    await probe.close();
    const bound = Math.floor(entry * 3.5);
    const small = new SolcPool({ size: 1, cacheBytes: bound });
    try {
      for (let i = 0; i < 8; i++) await small.compile(src(i));
      expect(small.cacheSize).toBeGreaterThan(0);
      expect(small.cacheSize).toBeLessThanOrEqual(bound);
      const misses = small.stats.misses;
      await small.compile(src(0));
      expect(small.stats.misses).toBe(misses + 1); // evicted
      await small.compile(src(7));
      expect(small.stats.misses).toBe(misses + 1); // still cached
    } finally {
      await small.close();
    }
  });

  it('shares one compile between concurrent identical requests', async () => {
    const src = `${HEADER}contract Shared { uint256 public z; }\n`;
    const misses = pool.stats.misses;
    const [a, b, c] = await Promise.all([pool.compile(src), pool.compile(src), pool.compile(src)]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(pool.stats.misses).toBe(misses + 1);
  });

  it('rejects work after close', async () => {
    const p = new SolcPool({ size: 1 });
    await p.close();
    await expect(p.compile(`${HEADER}contract X {}\n`)).rejects.toThrow(/closed/);
  });

  it('the worker loads from plain node with the tsx loader, as bin/svc.js runs', async () => {
    const fixture = new URL('./load-from-node.fixture.mjs', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [fixture, `${HEADER}contract FromCli {}\n`], {
      timeout: 60_000,
    });
    expect(stdout).toBe('FromCli');
  });
});

describe('compileContract', () => {
  it('wraps a compile as {success, compiled: {abi, bytecode}, warnings}', async () => {
    const { compileContract } = await import('../../../src/contracts/evm/compile.js');
    const pool = new SolcPool({ size: 1 });
    try {
      const res = await compileContract(
        {
          sourceCode: `${HEADER}contract W {\n    function f() external pure returns (uint256) { uint256 unused; return 1; }\n}\n`,
        },
        { pool },
      );
      expect(res.success).toBe(true);
      expect(res.compiled.bytecode).toMatch(/^0x[0-9a-f]+$/);
      expect(res.compiled.abi).toHaveLength(1);
      expect(res.warnings).toEqual([expect.objectContaining({ severity: 'warning', line: 4 })]);
      await expect(compileContract({ sourceCode: `${HEADER}contract W { function }` }, { pool })).rejects.toMatchObject(
        { code: 'VALIDATION_ERROR' },
      );
    } finally {
      await pool.close();
    }
  });
});

describe('SolcPool queue limits and cancellation', () => {
  const tiny = (name: string) => `${HEADER}contract ${name} { uint256 public v; }\n`;

  it("refuses a compile past its account's queue limit with SERVICE_BUSY (503) and a retry time", async () => {
    const pool = new SolcPool({ size: 1, maxQueue: 1 });
    try {
      const running = pool.compile(tiny('QRunning'));
      const queued = pool.compile(tiny('QQueued'));
      const before = Date.now();
      const err = await rejection(pool.compile(tiny('QRefused')));
      expect(err.code).toBe('SERVICE_BUSY');
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/busy: you have 1 compile waiting/);
      expect(Date.parse(err.retryAfter!)).toBeGreaterThan(before);
      expect(pool.stats.busy).toBe(1);
      // The two accepted compiles still finish.
      expect((await running).contractName).toBe('QRunning');
      expect((await queued).contractName).toBe('QQueued');
      // With the queue drained, the refused source is accepted.
      expect((await pool.compile(tiny('QRefused'))).contractName).toBe('QRefused');
    } finally {
      await pool.close();
    }
  });

  it('refuses a compile that waited past the wait limit with SERVICE_BUSY', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Over the estimated wait (one compile of about 2 s ahead), so the compile is queued and its wait timer runs.
    const pool = new SolcPool({ size: 1, maxWaitMs: 5_000 });
    try {
      const running = pool.compile(tiny('WRunning'));
      const waiting = rejection(pool.compile(tiny('WWaiting')));
      vi.advanceTimersByTime(4_999);
      vi.advanceTimersByTime(1); // the worker is still busy with the first compile (its answer needs the event loop)
      const err = await waiting;
      expect(err.code).toBe('SERVICE_BUSY');
      expect(err.message).toMatch(/waited 5 s for a worker/);
      expect(err.retryAfter).toMatch(/^\d{4}-\d\d-\d\dT/);
      vi.useRealTimers();
      expect((await running).contractName).toBe('WRunning');
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });

  it('a wait limit of Infinity means none (not a timer that fires at once)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pool = new SolcPool({ size: 1, maxWaitMs: Infinity, timeoutMs: 3_600_000 });
    try {
      const running = pool.compile(tiny('IRunning'));
      let settled = false;
      const waiting = pool.compile(tiny('IWaiting')).finally(() => (settled = true));
      vi.advanceTimersByTime(10 * 60_000);
      await Promise.resolve();
      expect(settled).toBe(false);
      vi.useRealTimers();
      expect((await running).contractName).toBe('IRunning');
      expect((await waiting).contractName).toBe('IWaiting');
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });

  it('an aborted signal removes a queued compile; the worker then runs the next one', async () => {
    const pool = new SolcPool({ size: 1 });
    try {
      const running = pool.compile(tiny('ARunning'));
      const ac = new AbortController();
      const aborted = pool.compile(tiny('AAborted'), { signal: ac.signal });
      const next = pool.compile(tiny('ANext'));
      ac.abort(new Error('client went away'));
      await expect(aborted).rejects.toThrow('client went away');
      expect(pool.stats.aborted).toBe(1);
      expect((await running).contractName).toBe('ARunning');
      expect((await next).contractName).toBe('ANext');
      expect(pool.stats.workersStarted).toBe(1); // a queued job is dropped without touching a worker
      // It was never compiled: asking again is a cache miss.
      const misses = pool.stats.misses;
      await pool.compile(tiny('AAborted'));
      expect(pool.stats.misses).toBe(misses + 1);
      // A signal aborted before submission never queues anything.
      const before = pool.stats.misses;
      await expect(pool.compile(tiny('ANever'), { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
        'already',
      );
      expect(pool.stats.misses).toBe(before);
    } finally {
      await pool.close();
    }
  });

  it('aborting a running compile replaces its worker, which then runs the next job', async () => {
    const pool = new SolcPool({ size: 1 });
    try {
      await pool.ready();
      const ac = new AbortController();
      const running = pool.compile(tiny('RAborted'), { signal: ac.signal });
      const next = pool.compile(tiny('RNext'));
      ac.abort(new Error('cancelled'));
      await expect(running).rejects.toThrow('cancelled');
      expect(pool.stats.workersStarted).toBe(2);
      expect((await next).contractName).toBe('RNext');
    } finally {
      await pool.close();
    }
  });

  it('a compile shared by identical requests goes on while one of them still waits', async () => {
    const pool = new SolcPool({ size: 1 });
    try {
      const a = new AbortController();
      const b = new AbortController();
      const first = pool.compile(tiny('Shared2'), { signal: a.signal });
      const second = pool.compile(tiny('Shared2'), { signal: b.signal });
      a.abort(new Error('first left'));
      await expect(first).rejects.toThrow('first left');
      expect((await second).contractName).toBe('Shared2');
      expect(pool.stats.aborted).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
