import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CompileCache } from '../../../src/contracts/compile-cache.js';
import { compilerIdentity, solcCompileCache } from '../../../src/contracts/evm/compile-cache.js';
import { contractName, contractSource, SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { SolcPool } from '../../../src/contracts/evm/pool.js';
import { commonShapes, generateEvm, warmUpEvm } from '../../../src/contracts/evm/generate.js';
import { allShapes, shapeKey, shapeOf } from '../../../src/contracts/evm/shape.js';
import type { Plan } from '../../../src/contracts/plan.js';
import { generateContractTool } from '../../../src/tools/contracts/generate-contract.js';

const key = (s: string) => createHash('sha256').update(s).digest('hex');
const dirs: string[] = [];
const tempRoot = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'svc-compile-cache-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('CompileCache', () => {
  it('gives back what was written, under its key only', async () => {
    const cache = new CompileCache(tempRoot(), 'id-1');
    expect(await cache.read(key('a'))).toBeUndefined();
    expect(cache.write(key('a'), '{"ok":true,"x":1}')).toBe(true);
    expect(await cache.read(key('a'))).toBe('{"ok":true,"x":1}');
    expect(await cache.read(key('b'))).toBeUndefined();
    // Another identity (another solc, OpenZeppelin or worker) is another directory.
    expect(await new CompileCache(path.dirname(path.dirname(cache.dir)), 'id-2').read(key('a'))).toBeUndefined();
    // A key is a SHA-256, never a path.
    expect(cache.write('../../escape', '{}')).toBe(false);
    expect(await cache.read('../../escape')).toBeUndefined();
  });

  it('ignores an entry changed, cut short or copied under another key', async () => {
    const cache = new CompileCache(tempRoot(), 'id');
    cache.write(key('a'), '{"ok":true,"bytecode":"0x6000"}');
    const file = path.join(cache.dir, `${key('a')}.json`);
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('0x6000', '0x6001'), { mode: 0o600 });
    expect(await cache.read(key('a'))).toBeUndefined();
    writeFileSync(file, good.slice(0, -3), { mode: 0o600 });
    expect(await cache.read(key('a'))).toBeUndefined();
    writeFileSync(path.join(cache.dir, `${key('b')}.json`), good, { mode: 0o600 });
    expect(await cache.read(key('b'))).toBeUndefined();
    writeFileSync(file, good, { mode: 0o600 });
    expect(await cache.read(key('a'))).toBe('{"ok":true,"bytecode":"0x6000"}');
  });

  it('neither reads nor writes where others may write', async () => {
    const root = tempRoot();
    const cache = new CompileCache(root, 'id');
    cache.write(key('a'), '{"ok":true}');
    chmodSync(root, 0o777);
    const shared = new CompileCache(root, 'id');
    expect(await shared.read(key('a'))).toBeUndefined();
    expect(shared.write(key('c'), '{"ok":true}')).toBe(false);
    chmodSync(root, 0o700);
    chmodSync(path.join(cache.dir, `${key('a')}.json`), 0o666);
    expect(await new CompileCache(root, 'id').read(key('a'))).toBeUndefined();
  });

  it("holds at most its number of entries, and keeps the last few identities of its compiler's", async () => {
    const root = tempRoot();
    const small = new CompileCache(root, 'id-0', 2);
    expect([small.write(key('1'), '{}'), small.write(key('2'), '{}'), small.write(key('3'), '{}')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(readdirSync(small.dir)).toHaveLength(2);
    const compiled = path.join(root, 'compiled');
    // Another compiler's directory, older than all: never removed by this one's.
    new CompileCache(root, 'other-1').write(key('x'), '{}');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path.join(compiled, 'other-1'), old, old);
    // Older identities, oldest first: the first write of a process keeps the two newest besides its own.
    for (const [i, id] of ['id-0', 'id-1', 'id-2'].entries()) {
      new CompileCache(root, id).write(key('x'), '{}');
      const at = new Date(Date.now() - (10 - i) * 60_000);
      utimesSync(path.join(compiled, id), at, at);
    }
    new CompileCache(root, 'id-3').write(key('x'), '{}');
    expect(readdirSync(compiled).sort()).toEqual(['id-1', 'id-2', 'id-3', 'other-1']);
  });

  it('lives in SVC_CACHE_DIR, named by solc, OpenZeppelin and the worker; off with it', () => {
    expect(solcCompileCache({ SVC_CACHE_DIR: 'off' })).toBeUndefined();
    const root = tempRoot();
    const cache = solcCompileCache({ SVC_CACHE_DIR: root });
    expect(cache?.dir).toBe(path.join(root, 'compiled', compilerIdentity()));
    expect(compilerIdentity()).toMatch(
      new RegExp(`^solc-${SOLC_VERSION.replaceAll('.', '\\.')}-\\d+-oz-\\d+\\.\\d+\\.\\d+-w-[0-9a-f]{16}$`),
    );
  });
});

describe('SolcPool with a disk cache', () => {
  const shape = allShapes().find((s) => s.deadMansSwitch && !s.guardians && !s.erc20 && !s.erc721)!;
  const source = contractSource(shape);
  const opts = { contractName: contractName(shape), ast: true };
  let root: string;
  const pools: SolcPool[] = [];
  const pool = () => {
    const p = new SolcPool({ size: 1, disk: new CompileCache(root, compilerIdentity()) });
    pools.push(p);
    return p;
  };
  beforeAll(() => {
    root = tempRoot();
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it("answers the service's own sources in a new process from disk, without starting solc", async () => {
    const first = pool();
    const compiled = await first.compile(source, { ...opts, persist: true });
    expect(first.stats).toMatchObject({ diskHits: 0, diskWrites: 1 });
    const second = pool();
    const again = await second.compile(source, { ...opts, persist: true });
    expect(second.stats).toMatchObject({ diskHits: 1, diskWrites: 0, workersStarted: 0 });
    expect(again).toEqual(compiled);
    // The other options are another compile.
    const withoutAst = await second.compile(source, { contractName: opts.contractName, persist: true });
    expect(withoutAst.ast).toBeUndefined();
    expect(second.stats.workersStarted).toBe(1);
  });

  it("never keeps a caller's source, nor a compile that failed", async () => {
    const p = pool();
    const before = readdirSync(new CompileCache(root, compilerIdentity()).dir).length;
    const mine = `// SPDX-License-Identifier: MIT\npragma solidity ${SOLC_VERSION};\ncontract Mine { uint256 public x; }\n`;
    await p.compile(mine);
    await expect(p.compile(`${mine}contract Broken { uint256 x = ; }\n`, { persist: true })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(readdirSync(new CompileCache(root, compilerIdentity()).dir)).toHaveLength(before);
    expect(p.stats.diskWrites).toBe(0);
  });

  it('compiles again over an entry that was tampered with', async () => {
    const dir = new CompileCache(root, compilerIdentity()).dir;
    const p = pool();
    const good = await p.compile(source, { ...opts, persist: true });
    for (const f of readdirSync(dir)) {
      const file = path.join(dir, f);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace(/"bytecode":"0x60/, '"bytecode":"0xff'), { mode: 0o600 });
    }
    const next = pool();
    const out = await next.compile(source, { ...opts, persist: true });
    expect(next.stats).toMatchObject({ diskHits: 0, diskWrites: 1, workersStarted: 1 });
    expect(out.bytecode).toBe(good.bytecode);
  });

  it("warms up with the common shapes, so that a new process generates the tool's example without solc", async () => {
    const own = tempRoot();
    const warm = new SolcPool({ size: 2, disk: new CompileCache(own, compilerIdentity()) });
    pools.push(warm);
    await warmUpEvm(warm);
    const example = generateContractTool.example as unknown as Plan;
    expect(shapeKey(commonShapes()[0]!)).toBe(shapeKey(shapeOf(example)));
    expect(
      commonShapes()
        .map((s) => s.template)
        .sort(),
    ).toEqual(['civil-law', 'common-law', 'custom', 'islamic-mirth', 'islamic-wasiyyah'].sort());
    // Every common shape and both token doubles were written (the tiny warm-up contracts were not).
    expect(warm.stats.diskWrites).toBe(commonShapes().length + 2);
    const fresh = new SolcPool({ size: 1, disk: new CompileCache(own, compilerIdentity()) });
    pools.push(fresh);
    const g = await generateEvm(example, { pool: fresh });
    expect(g.bytecode).toMatch(/^0x[0-9a-f]+$/);
    expect(g.verified.length).toBeGreaterThan(0);
    expect(fresh.stats).toMatchObject({ diskHits: 1, workersStarted: 0 });
  });

  it('compiles no common shape ahead where no cache can keep it', async () => {
    const none = new SolcPool({ size: 1 });
    pools.push(none);
    await warmUpEvm(none);
    expect(none.stats.misses).toBe(1 + 2); // the tiny contract and the token doubles
    const shared = tempRoot();
    chmodSync(shared, 0o777);
    const unusable = new SolcPool({ size: 1, disk: new CompileCache(shared, compilerIdentity()) });
    pools.push(unusable);
    await warmUpEvm(unusable);
    // The first shape showed the cache keeps nothing: the others were left for when they are asked for.
    expect(unusable.stats).toMatchObject({ misses: 1 + 1 + 2, diskWrites: 0, diskHits: 0 });
  });
});
